package engine_test

// Tests of RULES.md, section by section. Every expected position, move list
// and outcome is worked out by hand from the text.
//
// Reminders for reading the cases. Yellow's route: exit 5 … entry 68,
// Y1…Y7, YG (from square s, Yi is 68-s+i steps away and the goal 76-s).
// Blue: 22 … 68, 1 … 17, B1…; Red: 39 … 34, R1…; Green: 56 … 51, G1….
// Safe squares: 5 12 17 22 29 34 39 46 51 56 63 68.

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/engine"
)

// mustPPN parses a hand-written position or stops the test.
func mustPPN(t testing.TB, s string) engine.Position {
	t.Helper()
	p, err := engine.ParsePPN(s)
	if err != nil {
		t.Fatalf("ParsePPN(%q): %v", s, err)
	}
	return p
}

func mustMove(t testing.TB, s string) engine.Move {
	t.Helper()
	m, err := engine.ParseMove(s)
	if err != nil {
		t.Fatalf("ParseMove(%q): %v", s, err)
	}
	return m
}

// describe writes an outcome as a short list of what happened, so that
// expected outcomes read in the tables: "kill 24 B, bonus-lost 20,
// turn-passed".
func describe(o engine.Outcome) string {
	var s []string
	if o.Lost {
		s = append(s, "lost")
	}
	if o.Killed != engine.NoSite {
		s = append(s, "kill "+o.Killed.String()+" "+o.Victim.String())
	}
	if o.Goal {
		s = append(s, "goal")
	}
	if o.BonusLost != 0 {
		s = append(s, fmt.Sprintf("bonus-lost %d", o.BonusLost))
	}
	if o.ThirdSix {
		s = append(s, "third-six")
	}
	if o.SentHome != engine.NoSite {
		s = append(s, "sent-home "+o.SentHome.String())
	}
	if o.Finished {
		s = append(s, "finished")
	}
	if o.TurnPassed {
		s = append(s, "turn-passed")
	}
	if o.GameOver {
		s = append(s, "game-over")
	}
	if o.TiePlay {
		s = append(s, "tie-play")
	}
	return strings.Join(s, ", ")
}

// legal returns the legal moves of a position as the canonical listing.
func legal(t testing.TB, ppn string) string {
	t.Helper()
	p := mustPPN(t, ppn)
	var ml engine.MoveList
	p.LegalMoves(&ml)
	return ml.String()
}

// movesCase: in position ppn the legal moves are exactly want.
type movesCase struct {
	name, ppn, want string
}

func testMoves(t *testing.T, cases []movesCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := legal(t, tc.ppn); got != tc.want {
				t.Errorf("moves of %q = %q, want %q", tc.ppn, got, tc.want)
			}
		})
	}
}

// stepCase: from position ppn, the action (a die value 1…6 to throw or a
// move to play) gives position want with outcome out.
type stepCase struct {
	name, ppn, action, want, out string
}

// step applies one action: a die value is thrown, anything else is played.
func step(t testing.TB, p *engine.Position, action string) (engine.Outcome, error) {
	t.Helper()
	if len(action) == 1 && action[0] >= '1' && action[0] <= '6' {
		return p.Throw(int(action[0] - '0'))
	}
	return p.Play(mustMove(t, action))
}

func testSteps(t *testing.T, cases []stepCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPPN(t, tc.ppn)
			out, err := step(t, &p, tc.action)
			if err != nil {
				t.Fatalf("%q then %s: %v", tc.ppn, tc.action, err)
			}
			if got := p.String(); got != tc.want {
				t.Errorf("%q then %s:\n got %q\nwant %q", tc.ppn, tc.action, got, tc.want)
			}
			if got := describe(out); got != tc.out {
				t.Errorf("%q then %s: outcome %q, want %q", tc.ppn, tc.action, got, tc.out)
			}
			if err := p.Validate(); err != nil && p.Phase() != engine.PhaseEnd {
				t.Errorf("resulting position invalid: %v", err)
			}
		})
	}
}

// script is a sequence of actions from a start, with the position after
// each.
type script struct {
	name  string
	start string
	steps [][2]string // action, position after it
}

func testScripts(t *testing.T, scripts []script) {
	t.Helper()
	for _, sc := range scripts {
		t.Run(sc.name, func(t *testing.T) {
			p := mustPPN(t, sc.start)
			for i, st := range sc.steps {
				if _, err := step(t, &p, st[0]); err != nil {
					t.Fatalf("step %d (%s) on %q: %v", i+1, st[0], p, err)
				}
				if got := p.String(); got != st[1] {
					t.Fatalf("after step %d (%s):\n got %q\nwant %q", i+1, st[0], got, st[1])
				}
			}
		})
	}
}

// refusedCase: in position ppn, move is illegal for rule.
type refusedCase struct {
	name, ppn, move, rule string
}

func testRefused(t *testing.T, cases []refusedCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPPN(t, tc.ppn)
			m := mustMove(t, tc.move)
			err := p.Check(m)
			var re *engine.RuleError
			if !errors.As(err, &re) {
				t.Fatalf("Check(%s) on %q = %v, want a *RuleError %s", tc.move, tc.ppn, err, tc.rule)
			}
			if re.Rule != tc.rule {
				t.Errorf("Check(%s) on %q: rule %s (%v), want %s", tc.move, tc.ppn, re.Rule, err, tc.rule)
			}
			if re.Move != m || re.Ref == "" || re.Reason == "" {
				t.Errorf("RuleError incomplete: %+v", re)
			}
			before := p
			if _, err := p.Play(m); err == nil {
				t.Errorf("Play(%s) on %q succeeded", tc.move, tc.ppn)
			}
			if p != before {
				t.Errorf("a refused Play changed the position to %q", p)
			}
		})
	}
}

// §3. A turn.

func TestCount_SixCountsSevenWithNoPieceAtHome(t *testing.T) {
	for _, tc := range []struct {
		ppn   string
		count int
		moves string
	}{
		{"20:Y,YG:YYY Y 6 1 - Y", 7, "20-27"},                         // pieces in the goal count as out
		{"5:Y,20:Y,30:Y,40:Y Y 6 1 - Y", 7, "5-12 20-27 30-37 40-47"}, // all on the track
		{"20:Y,YG:YY Y 6 1 - Y", 6, "20-26"},                          // one piece at home
		{"22:B,BG:BBB B 6 1 - Y", 7, "22-29"},
		{"22:B,BG:BBB B 6 2 - Y", 7, "22-29"},
		{"20:Y,YG:YYY Y 5 0 - Y", 5, "20-25"}, // only a 6 counts more
		{"20:Y,YG:YYY Y 1 0 - Y", 1, "20-21"},
		{"20:Y,YG:YYY Y +20 0 - Y", 20, "20-40"},
		{"20:Y,YG:YYY Y +10 0 - Y", 10, "20-30"},
		{"20:Y,YG:YYY Y throw 0 - Y", 0, ""},
	} {
		p := mustPPN(t, tc.ppn)
		if got := p.Count(); got != tc.count {
			t.Errorf("Count of %q = %d, want %d", tc.ppn, got, tc.count)
		}
		if got := legal(t, tc.ppn); got != tc.moves {
			t.Errorf("moves of %q = %q, want %q", tc.ppn, got, tc.moves)
		}
	}
}

func TestTurn_OnlyOwnPiecesMove(t *testing.T) {
	testMoves(t, []movesCase{
		{"partner's piece not offered", "20:Y,30:R Y 3 0 - Y", "20-23"},
		{"opponent's piece not offered", "20:Y,30:B Y 3 0 - Y", "20-23"},
		{"red moves red", "20:Y,40:R R 3 0 - Y", "40-43"},
	})
	testRefused(t, []refusedCase{
		{"partner's piece", "20:Y,30:R Y 3 0 - Y", "30-33", engine.RuleWrongColour},
		{"opponent's piece", "20:Y,30:B Y 3 0 - Y", "30-33", engine.RuleWrongColour},
		{"partner's home", "20:Y Y 5 0 - Y", "RH-39", engine.RuleWrongColour},
	})
}

func TestTurn_Throws(t *testing.T) {
	testSteps(t, []stepCase{
		{"no move: throw lost, turn passes", "- Y throw 0 - Y", "3", "- B throw 0 - Y", "lost, turn-passed"},
		{"lost 6: same player throws again", "- Y throw 0 - Y", "6", "- Y throw 1 - Y", "lost"},
		{"second lost 6", "- Y throw 1 - Y", "6", "- Y throw 2 - Y", "lost"},
		{"a 5 is to be played", "- Y throw 0 - Y", "5", "- Y 5 0 - Y", ""},
		{"one legal move is still the player's to make", "20:Y Y throw 0 - Y", "3", "20:Y Y 3 0 - Y", ""},
		{"a non-6 resets sixes", "20:Y Y throw 1 20 Y", "3", "20:Y Y 3 0 20 Y", ""},
		{"a second 6", "20:Y Y throw 1 20 Y", "6", "20:Y Y 6 2 20 Y", ""},
		{"green 6 to play", "60:G G throw 0 - Y", "6", "60:G G 6 1 - Y", ""},
		{"own+own exit and nothing else: 5 lost", "5:YY,7:BB Y throw 0 - Y", "5", "5:YY,7:BB B throw 0 - Y", "lost, turn-passed"},
	})
	testSteps(t, []stepCase{
		{"6 played: throw again", "20:Y Y 6 1 - Y", "20-26", "26:Y Y throw 1 26 Y", ""},
		{"other throw: turn passes", "20:Y Y 3 0 - Y", "20-23", "23:Y B throw 0 - Y", "turn-passed"},
		{"turn passes G to Y", "60:G G 1 0 - Y", "60-61", "61:G Y throw 0 - Y", "turn-passed"},
		{"turn passes B to R", "30:B B 1 0 - Y", "30-31", "31:B R throw 0 - Y", "turn-passed"},
		{"6 that kills: bonus first", "20:Y,26:B Y 6 1 - Y", "20x26", "26:Y Y +20 1 26 Y", "kill 26 B"},
		{"bonus after a 6: throw again", "26:Y Y +20 1 26 Y", "26-46", "46:Y Y throw 1 46 Y", ""},
		{"bonus after a non-6: turn passes", "26:Y Y +20 0 26 Y", "26-46", "46:Y B throw 0 - Y", "turn-passed"},
		{"6 that finishes: no throw again", "Y1:Y,YG:YYY Y 6 1 - Y", "Y1-YG", "YG:YYYY B throw 0 - Y", "goal, bonus-lost 10, finished, turn-passed"},
	})
}

func TestThirdSix(t *testing.T) {
	testSteps(t, []stepCase{
		{"on the track: piece home", "30:Y Y throw 2 30 Y", "6", "- B throw 0 - Y", "third-six, sent-home 30, turn-passed"},
		{"on the track, other pieces stay", "10:Y,30:Y Y throw 2 30 Y", "6", "10:Y B throw 0 - Y", "third-six, sent-home 30, turn-passed"},
		{"one of a barrier", "30:YY Y throw 2 30 Y", "6", "30:Y B throw 0 - Y", "third-six, sent-home 30, turn-passed"},
		{"sharing with the partner", "30:RY Y throw 2 30 Y", "6", "30:R B throw 0 - Y", "third-six, sent-home 30, turn-passed"},
		{"sharing a safe square, arrived last", "29:BY Y throw 2 29 Y", "6", "29:B B throw 0 - Y", "third-six, sent-home 29, turn-passed"},
		{"sharing a safe square, arrived first", "29:YB Y throw 2 29 Y", "6", "29:B B throw 0 - Y", "third-six, sent-home 29, turn-passed"},
		{"on its exit square", "5:Y Y throw 2 5 Y", "6", "- B throw 0 - Y", "third-six, sent-home 5, turn-passed"},
		{"green", "50:G G throw 2 50 B", "6", "- Y throw 0 - B", "third-six, sent-home 50, turn-passed"},
		{"in the home column: stays", "30:Y,Y3:Y Y throw 2 Y3 Y", "6", "30:Y,Y3:Y B throw 0 - Y", "third-six, turn-passed"},
		{"in the goal: stays", "30:Y,YG:Y Y throw 2 YG Y", "6", "30:Y,YG:Y B throw 0 - Y", "third-six, turn-passed"},
		{"no piece moved: nothing sent home", "30:Y Y throw 2 - Y", "6", "30:Y B throw 0 - Y", "third-six, turn-passed"},
	})
	testScripts(t, []script{
		{"three 6s on the track", "20:Y Y throw 0 - Y", [][2]string{
			{"6", "20:Y Y 6 1 - Y"},
			{"20-26", "26:Y Y throw 1 26 Y"},
			{"6", "26:Y Y 6 2 26 Y"},
			{"26-32", "32:Y Y throw 2 32 Y"},
			{"6", "- B throw 0 - Y"},
		}},
		{"last piece moved by a bonus goes home", "10:Y,20:Y,26:B Y throw 1 - Y", [][2]string{
			{"6", "10:Y,20:Y,26:B Y 6 2 - Y"},
			{"20x26", "10:Y,26:Y Y +20 2 26 Y"},
			{"10-30", "26:Y,30:Y Y throw 2 30 Y"},
			{"6", "26:Y B throw 0 - Y"},
		}},
		{"into the home column", "64:Y Y throw 1 - Y", [][2]string{
			{"6", "64:Y Y 6 2 - Y"},
			{"64-Y2", "Y2:Y Y throw 2 Y2 Y"},
			{"6", "Y2:Y B throw 0 - Y"},
		}},
		{"with no move made", "- Y throw 0 - Y", [][2]string{
			{"6", "- Y throw 1 - Y"},
			{"6", "- Y throw 2 - Y"},
			{"6", "- B throw 0 - Y"},
		}},
		{"a 5 between breaks the series", "20:Y Y throw 0 - Y", [][2]string{
			{"6", "20:Y Y 6 1 - Y"},
			{"20-26", "26:Y Y throw 1 26 Y"},
			{"5", "26:Y Y 5 0 26 Y"},
			{"YH-5", "5:Y,26:Y B throw 0 - Y"},
		}},
	})
}

// §4. Coming out.

func TestExit(t *testing.T) {
	testMoves(t, []movesCase{
		{"5 with a piece at home: only the exit", "20:Y Y 5 0 - Y", "YH-5"},
		{"exit even when a kill is possible", "20:Y,25:B Y 5 0 - Y", "YH-5"},
		{"no piece at home: any move", "5:YY,20:YY Y 5 0 - Y", "5-10 20-25"},
		{"other dice never bring out", "20:Y Y 4 0 - Y", "20-24"},
		{"nor a 6", "20:Y Y 6 1 - Y", "20-26"},
		{"nor a bonus", "24:Y Y +20 0 24 Y", "24-44"},
	})
	testRefused(t, []refusedCase{
		{"exit is mandatory", "20:Y Y 5 0 - Y", "20-25", engine.RuleMustExit},
		{"only with a 5", "20:Y Y 4 0 - Y", "YH-5", engine.RuleWrongCount},
		{"onto the exit square only", "20:Y Y 5 0 - Y", "YH-6", engine.RuleWrongCount},
		{"never with a bonus", "24:Y Y +20 0 24 Y", "YH-5", engine.RuleWrongCount},
		{"own+own blocks the exit", "5:YY,20:Y Y 5 0 - Y", "YH-5", engine.RuleBarrier},
		{"exit onto two is a kill", "5:BG Y 5 0 - Y", "YH-5", engine.RuleKillNotDone},
		{"exit onto one is no kill", "5:B Y 5 0 - Y", "YHx5", engine.RuleIllegalMove},
	})
}

func TestExit_Table(t *testing.T) {
	testSteps(t, []stepCase{
		{"Empty", "20:Y Y 5 0 - Y", "YH-5", "5:Y,20:Y B throw 0 - Y", "turn-passed"},
		{"OneOwn_Barrier", "5:Y Y 5 0 - Y", "YH-5", "5:YY B throw 0 - Y", "turn-passed"},
		{"OnePartner_Barrier", "5:R Y 5 0 - Y", "YH-5", "5:RY B throw 0 - Y", "turn-passed"},
		{"OneOpponent_NoKill", "5:B Y 5 0 - Y", "YH-5", "5:BY B throw 0 - Y", "turn-passed"},
		{"OwnAndOwn_OtherPieceMoves", "5:YY,20:Y Y 5 0 - Y", "20-25", "5:YY,25:Y B throw 0 - Y", "turn-passed"},
		{"OwnAndOwn_ExitPieceMoves", "5:YY Y 5 0 - Y", "5-10", "5:Y,10:Y B throw 0 - Y", "turn-passed"},
		{"OwnAndPartner_KillsPartner", "5:YR Y 5 0 - Y", "YHx5", "5:YY Y +20 0 5 Y", "kill 5 R"},
		{"PartnerAndOwn_KillsPartner", "5:RY Y 5 0 - Y", "YHx5", "5:YY Y +20 0 5 Y", "kill 5 R"},
		{"OwnAndOpponent_KillsOpponent", "5:YB Y 5 0 - Y", "YHx5", "5:YY Y +20 0 5 Y", "kill 5 B"},
		{"OpponentAndOwn_KillsOpponent", "5:GY Y 5 0 - Y", "YHx5", "5:YY Y +20 0 5 Y", "kill 5 G"},
		{"PartnerAndOpponent_KillsOpponent", "5:RB Y 5 0 - Y", "YHx5", "5:RY Y +20 0 5 Y", "kill 5 B"},
		{"OpponentAndPartner_KillsOpponent", "5:GR Y 5 0 - Y", "YHx5", "5:RY Y +20 0 5 Y", "kill 5 G"},
		{"PartnerAndPartner_KillsLast", "5:RR Y 5 0 - Y", "YHx5", "5:RY Y +20 0 5 Y", "kill 5 R"},
		{"TwoOpponents_KillsLast", "5:BG Y 5 0 - Y", "YHx5", "5:BY Y +20 0 5 Y", "kill 5 G"},
		{"TwoOpponentsOtherOrder_KillsLast", "5:GB Y 5 0 - Y", "YHx5", "5:GY Y +20 0 5 Y", "kill 5 B"},
		{"TwoOpponentsSameColour_KillsOne", "5:BB Y 5 0 - Y", "YHx5", "5:BY Y +20 0 5 Y", "kill 5 B"},
		{"Blue_TwoOfOtherPair_KillsLast", "22:YR B 5 0 - Y", "BHx22", "22:YB B +20 0 22 Y", "kill 22 R"},
		{"Blue_PartnerAndOpponent", "22:GY B 5 0 - Y", "BHx22", "22:GB B +20 0 22 Y", "kill 22 Y"},
		{"Red_TwoOfOtherPair_KillsLast", "39:GB R 5 0 - Y", "RHx39", "39:GR R +20 0 39 Y", "kill 39 B"},
		{"Red_OwnAndPartner", "39:RY R 5 0 - Y", "RHx39", "39:RR R +20 0 39 Y", "kill 39 Y"},
		{"Green_OwnAndOpponent", "56:GY G 5 0 - Y", "GHx56", "56:GG G +20 0 56 Y", "kill 56 Y"},
	})
	testMoves(t, []movesCase{
		{"OwnAndOwn_NoExit", "5:YY,20:Y Y 5 0 - Y", "5-10 20-25"},
		{"TwoOpponents_ExitKills", "5:BG Y 5 0 - Y", "YHx5"},
		{"AfterExitKill_Bonus", "5:YY Y +20 0 5 Y", "5-25"},
	})
}

// §5. Moving a piece.

func TestMove_Route(t *testing.T) {
	testMoves(t, []movesCase{
		{"yellow turns into its column at 68", "66:Y Y 4 0 - Y", "66-Y2"},
		{"yellow from its entry", "68:Y Y 1 0 - Y", "68-Y1"},
		{"yellow passes blue's entry", "15:Y Y 4 0 - Y", "15-19"},
		{"blue passes 68 to 1", "66:B B 4 0 - Y", "66-2"},
		{"blue turns at 17", "15:B B 4 0 - Y", "15-B2"},
		{"red turns at 34", "33:R R 3 0 - Y", "33-R2"},
		{"green turns at 51", "50:G G 3 0 - Y", "50-G2"},
		{"green passes yellow's entry", "66:G G 4 0 - Y", "66-2"},
		{"column to goal exactly", "Y5:Y Y 3 0 - Y", "Y5-YG"},
		{"no bounce past the goal", "20:Y,Y5:Y Y 4 0 - Y", "20-24"},
		{"track to goal exactly", "56:Y,61:Y Y +20 0 - Y", "56-YG"},
		{"the goal never moves", "20:Y,YG:Y Y 4 0 - Y", "20-24"},
		{"home pieces move only out", "20:Y Y 3 0 - Y", "20-23"},
		{"track and column pieces", "66:Y,Y4:Y Y 4 0 - Y", "66-Y2 Y4-YG"},
	})
}

func TestMove_Barriers(t *testing.T) {
	testMoves(t, []movesCase{
		{"opponent barrier blocks passing", "20:Y,22:BB,40:Y Y 4 0 - Y", "40-44"},
		{"partner barrier blocks", "20:Y,22:RR,40:Y Y 4 0 - Y", "40-44"},
		{"mixed partner barrier off a safe square", "20:Y,22:BG,40:Y Y 4 0 - Y", "40-44"},
		{"own barrier blocks own", "20:Y,22:YY Y 4 0 - Y", "22-26"},
		{"barrier is no destination", "20:Y,24:BB,40:Y Y 4 0 - Y", "40-44"},
		{"non-partner pair on a safe square is passed", "25:Y,29:BR Y 6 1 - Y", "25-31"},
		{"non-partner pair is no destination", "25:Y,29:BR,40:Y Y 4 0 - Y", "40-44"},
		{"home-column barrier blocks", "66:Y,Y1:YY,YG:Y Y 4 0 - Y", "Y1-Y5"},
		{"barrier blocks on the last square passed", "20:Y,23:GG,40:Y Y 4 0 - Y", "40-44"},
		{"barrier on the start square does not block", "20:YY Y 4 0 - Y", "20-24"},
		{"blue blocked by a yellow-red barrier", "60:B,62:YR B 4 0 - Y", ""},
	})
}

func TestMove_Landing(t *testing.T) {
	testMoves(t, []movesCase{
		{"own, off a safe square", "20:Y,24:Y Y 4 0 - Y", "20-24 24-28"},
		{"own, safe square", "25:Y,29:Y Y 4 0 - Y", "25-29 29-33"},
		{"partner, safe square: no kill", "25:Y,29:R Y 4 0 - Y", "25-29"},
		{"partner, off a safe square: choice", "20:Y,24:R Y 4 0 - Y", "20-24 20x24"},
		{"red on yellow: choice", "40:R,44:Y R 4 0 - Y", "40-44 40x44"},
		{"opponent, safe square: share", "25:Y,29:B Y 4 0 - Y", "25-29"},
		{"opponent, off a safe square: kill", "20:Y,24:B Y 4 0 - Y", "20x24"},
		{"green opponent, exit of another colour is safe", "18:Y,22:G Y 4 0 - Y", "18-22"},
		{"killing is not preferred", "20:Y,24:B,30:Y Y 4 0 - Y", "20x24 30-34"},
		{"own in the column", "Y1:Y,Y3:Y Y 2 0 - Y", "Y1-Y3 Y3-Y5"},
	})
	testSteps(t, []stepCase{
		{"Empty", "20:Y Y 4 0 - Y", "20-24", "24:Y B throw 0 - Y", "turn-passed"},
		{"Own_Barrier", "20:Y,24:Y Y 4 0 - Y", "20-24", "24:YY B throw 0 - Y", "turn-passed"},
		{"OwnSafe_Barrier", "25:Y,29:Y Y 4 0 - Y", "25-29", "29:YY B throw 0 - Y", "turn-passed"},
		{"PartnerSafe_Barrier", "25:Y,29:R Y 4 0 - Y", "25-29", "29:RY B throw 0 - Y", "turn-passed"},
		{"Partner_JoinBarrier", "20:Y,24:R Y 4 0 - Y", "20-24", "24:RY B throw 0 - Y", "turn-passed"},
		{"Partner_Kill", "20:Y,24:R Y 4 0 - Y", "20x24", "24:Y Y +20 0 24 Y", "kill 24 R"},
		{"OpponentSafe_Share", "25:Y,29:B Y 4 0 - Y", "25-29", "29:BY B throw 0 - Y", "turn-passed"},
		{"Opponent_Kill", "20:Y,24:B Y 4 0 - Y", "20x24", "24:Y Y +20 0 24 Y", "kill 24 B"},
		{"Opponent_KillGreen", "20:Y,24:G,40:R Y 4 0 - Y", "20x24", "24:Y,40:R Y +20 0 24 Y", "kill 24 G"},
		{"OwnColumn_Barrier", "Y1:Y,Y3:Y Y 2 0 - Y", "Y1-Y3", "Y3:YY B throw 0 - Y", "turn-passed"},
		{"Goal", "Y5:Y Y 3 0 - Y", "Y5-YG", "YG:Y B throw 0 - Y", "goal, bonus-lost 10, turn-passed"},
		{"GoalWithOthers", "Y5:Y,YG:YY Y 3 0 - Y", "Y5-YG", "YG:YYY B throw 0 - Y", "goal, bonus-lost 10, turn-passed"},
		{"LeavingKeepsOrder", "29:BY,33:G B 4 0 - Y", "29-33", "29:Y,33:GB R throw 0 - Y", "turn-passed"},
	})
	testScripts(t, []script{
		{"no move: the throw is lost", "Y5:Y Y throw 0 - Y", [][2]string{{"4", "Y5:Y B throw 0 - Y"}}},
		{"blocked: lost", "20:Y,22:BB Y throw 0 - Y", [][2]string{{"4", "20:Y,22:BB B throw 0 - Y"}}},
		{"pair on destination: lost", "25:Y,29:BR Y throw 0 - Y", [][2]string{{"4", "25:Y,29:BR B throw 0 - Y"}}},
	})
}

func TestMove_Refused(t *testing.T) {
	testRefused(t, []refusedCase{
		{"wrong count, short", "20:Y Y 4 0 - Y", "20-23", engine.RuleWrongCount},
		{"wrong count, long", "20:Y Y 4 0 - Y", "20-25", engine.RuleWrongCount},
		{"wrong count into the goal", "Y5:Y Y 4 0 - Y", "Y5-YG", engine.RuleWrongCount},
		{"backwards", "24:Y Y 4 0 - Y", "24-20", engine.RuleBackwards},
		{"through a barrier", "20:Y,22:BB Y 4 0 - Y", "20-24", engine.RuleBarrier},
		{"onto a barrier", "20:Y,24:BB Y 4 0 - Y", "20-24", engine.RuleBarrier},
		{"onto a full safe square", "25:Y,29:BR Y 4 0 - Y", "25-29", engine.RuleIllegalMove},
		{"kill not done", "20:Y,24:B Y 4 0 - Y", "20-24", engine.RuleKillNotDone},
		{"kill on a safe square", "25:Y,29:B Y 4 0 - Y", "25x29", engine.RuleIllegalMove},
		{"kill partner on a safe square", "25:Y,29:R Y 4 0 - Y", "25x29", engine.RuleIllegalMove},
		{"kill on an empty square", "20:Y Y 4 0 - Y", "20x24", engine.RuleIllegalMove},
		{"kill in the column", "Y1:Y,Y3:Y Y 2 0 - Y", "Y1xY3", engine.RuleIllegalMove},
		{"no piece there", "20:Y Y 4 0 - Y", "30-34", engine.RuleIllegalMove},
		{"off the route", "15:Y Y 4 0 - Y", "15-B2", engine.RuleIllegalMove},
		{"from the goal", "20:Y,YG:Y Y 4 0 - Y", "YG-Y4", engine.RuleIllegalMove},
		{"no move is due", "20:Y Y throw 0 - Y", "20-24", engine.RuleIllegalMove},
		{"game over", "YG:YYYY,RG:RRRR Y end 0 - Y", "YG-YG", engine.RuleIllegalMove},
	})
}

// §6. Barriers.

func TestBarrier_Opening(t *testing.T) {
	testMoves(t, []movesCase{
		{"own barrier must open", "20:YY,40:Y Y 6 1 - Y", "20-26"},
		{"barrier shared with the partner", "20:RY,40:Y Y 6 1 - Y", "20-26"},
		{"shared, partner arrived last", "20:YR,40:Y Y 6 1 - Y", "20-26"},
		{"several barriers: choice", "20:YY,40:YY Y 6 1 - Y", "20-27 40-47"},
		{"barrier in the home column", "30:Y,Y1:YY,YG:Y Y 6 1 - Y", "Y1-YG"},
		{"track and column barriers", "20:YY,Y1:YY Y 6 1 - Y", "20-27 Y1-YG"},
		{"barrier piece may form a new barrier", "20:YY,26:Y Y 6 1 - Y", "20-26"},
		{"none movable: any move", "20:YY,24:BB,40:Y Y 6 1 - Y", "40-46"},
		{"several, none movable", "20:YY,24:BB,30:RY,34:GG,50:Y Y 6 1 - Y", "50-57"},
		{"non-partner pair is no barrier", "29:BY,40:Y Y 6 1 - Y", "29-35 40-46"},
		{"partner's own barrier is not ours", "20:RR,30:Y Y 6 1 - Y", "30-36"},
		{"not on a bonus", "20:YY,40:Y Y +20 0 20 Y", "20-40 40-60"},
		{"not on another die", "20:YY,40:Y Y 4 0 - Y", "20-24 40-44"},
		{"on the second 6 too", "20:YY,40:Y Y 6 2 40 Y", "20-26"},
	})
	testRefused(t, []refusedCase{
		{"must open", "20:YY,40:Y Y 6 1 - Y", "40-46", engine.RuleMustOpenBarrier},
		{"must open, shared", "20:RY,40:Y Y 6 1 - Y", "40-46", engine.RuleMustOpenBarrier},
	})
}

// §7. Bonuses.

func TestBonus(t *testing.T) {
	testSteps(t, []stepCase{
		{"Kill_Bonus20", "20:Y,24:B,40:Y Y 4 0 - Y", "20x24", "24:Y,40:Y Y +20 0 24 Y", "kill 24 B"},
		{"Kill_BonusLost", "20:Y,24:B,30:BB Y 4 0 - Y", "20x24", "24:Y,30:BB B throw 0 - Y", "kill 24 B, bonus-lost 20, turn-passed"},
		{"Goal_Bonus10", "20:Y,Y7:Y Y 1 0 - Y", "Y7-YG", "20:Y,YG:Y Y +10 0 YG Y", "goal"},
		{"Goal_BonusLost", "20:Y,25:BB,Y5:Y Y 3 0 - Y", "Y5-YG", "20:Y,25:BB,YG:Y B throw 0 - Y", "goal, bonus-lost 10, turn-passed"},
		{"Bonus10_Played", "20:Y,YG:Y Y +10 0 YG Y", "20-30", "30:Y,YG:Y B throw 0 - Y", "turn-passed"},
		{"Bonus20_KillsAgain", "24:Y,44:G Y +20 0 24 Y", "24x44", "44:Y Y +20 0 44 Y", "kill 44 G"},
		{"Bonus20_ReachesGoal", "24:Y,56:Y Y +20 0 24 Y", "56-YG", "24:Y,YG:Y Y +10 0 YG Y", "goal"},
		{"Bonus10_ReachesGoal", "30:Y,66:Y,YG:Y Y +10 0 YG Y", "66-YG", "30:Y,YG:YY Y +10 0 YG Y", "goal"},
		{"Bonus10_ReachesGoal_NothingLeft", "66:Y,YG:Y Y +10 0 YG Y", "66-YG", "YG:YY B throw 0 - Y", "goal, bonus-lost 10, turn-passed"},
	})
	testMoves(t, []movesCase{
		{"any own piece, killer included", "24:Y,40:Y Y +20 0 24 Y", "24-44 40-60"},
		{"goal bonus by another piece", "20:Y,YG:Y Y +10 0 YG Y", "20-30"},
		{"obeys barriers", "24:Y,30:BB,40:Y Y +20 0 24 Y", "40-60"},
		{"exact goal", "20:Y,60:Y Y +20 0 20 Y", "20-40"},
		{"kills on landing", "20:Y,40:B Y +20 0 20 Y", "20x40"},
		{"shares a safe square", "26:Y,46:B Y +20 0 26 Y", "26-46"},
		{"never from home", "24:Y Y +20 0 24 Y", "24-44"},
		{"never split", "24:Y,30:Y Y +20 0 24 Y", "24-44 30-50"},
	})
	testScripts(t, []script{
		{"kill chain", "20:Y,24:B,44:G Y 4 0 - Y", [][2]string{
			{"20x24", "24:Y,44:G Y +20 0 24 Y"},
			{"24x44", "44:Y Y +20 0 44 Y"},
			{"44-64", "64:Y B throw 0 - Y"},
		}},
		{"kill then goal", "20:Y,24:B,56:Y Y 4 0 - Y", [][2]string{
			{"20x24", "24:Y,56:Y Y +20 0 24 Y"},
			{"56-YG", "24:Y,YG:Y Y +10 0 YG Y"},
			{"24-34", "34:Y,YG:Y B throw 0 - Y"},
		}},
		{"goal then goal", "30:Y,66:Y,Y7:Y Y 1 0 - Y", [][2]string{
			{"Y7-YG", "30:Y,66:Y,YG:Y Y +10 0 YG Y"},
			{"66-YG", "30:Y,YG:YY Y +10 0 YG Y"},
			{"30-40", "40:Y,YG:YY B throw 0 - Y"},
		}},
		{"bonus after a 6, then throw again", "20:Y,26:B Y throw 0 - Y", [][2]string{
			{"6", "20:Y,26:B Y 6 1 - Y"},
			{"20x26", "26:Y Y +20 1 26 Y"},
			{"26-46", "46:Y Y throw 1 46 Y"},
		}},
	})
	testRefused(t, []refusedCase{
		{"bonus never brings out", "24:Y Y +20 0 24 Y", "YH-5", engine.RuleWrongCount},
		{"bonus is whole", "24:Y,30:Y Y +20 0 24 Y", "24-34", engine.RuleWrongCount},
		{"bonus obeys barriers", "24:Y,30:BB,40:Y Y +20 0 24 Y", "24-44", engine.RuleBarrier},
		{"bonus kill must be written", "20:Y,40:B Y +20 0 20 Y", "20-40", engine.RuleKillNotDone},
	})
}

// §8. Obligations.

func TestObligations(t *testing.T) {
	testMoves(t, []movesCase{
		{"5 with a piece at home: only the exit", "20:Y,25:B Y 5 0 - Y", "YH-5"},
		{"6 with a movable barrier piece: only barrier moves", "20:YY,30:Y,36:B Y 6 1 - Y", "20-26"},
		{"else every legal move", "20:Y,24:B,30:Y Y 4 0 - Y", "20x24 30-34"},
		{"canonical order: from, then to, - before x", "20:Y,24:R,40:Y,Y1:Y Y 4 0 - Y", "20-24 20x24 40-44 Y1-Y5"},
	})
	// The table never moves pieces: a single legal move waits for the
	// player, for a throw and for a bonus.
	testSteps(t, []stepCase{
		{"one legal move waits", "20:Y Y throw 0 - Y", "3", "20:Y Y 3 0 - Y", ""},
		{"one legal bonus move waits", "20:Y,24:B Y 4 0 - Y", "20x24", "24:Y Y +20 0 24 Y", "kill 24 B"},
	})
}

// §9. End of the game.

func TestEnd(t *testing.T) {
	testSteps(t, []stepCase{
		{"FirstFinisher_RoundGoesOn", "30:B,Y7:Y,YG:YYY Y 1 0 - Y", "Y7-YG", "30:B,YG:YYYY B throw 0 - Y", "goal, bonus-lost 10, finished, turn-passed"},
		{"FinisherEndsRound_GameOver", "G7:G,GG:GGG G 1 0 - Y", "G7-GG", "GG:GGGG G end 0 - Y", "goal, bonus-lost 10, finished, game-over"},
		{"RoundEnd_PairsDiffer_GameOver", "30:B,YG:YYYY G throw 0 - Y", "1", "30:B,YG:YYYY G end 0 - Y", "lost, game-over"},
		{"RoundEnd_SkippedPlayer", "GG:GGGG R throw 0 - Y", "1", "GG:GGGG R end 0 - Y", "lost, game-over"},
		{"NotRoundEnd_SkipFinished", "GG:GGGG R throw 0 - B", "1", "GG:GGGG Y throw 0 - B", "lost, turn-passed"},
		{"OtherPairFinishesInRound_PlayGoesOn", "YG:YYYY,G7:G,GG:GGG G 1 0 - Y", "G7-GG", "YG:YYYY,GG:GGGG B throw 0 - Y", "goal, bonus-lost 10, finished, turn-passed"},
		{"Level_SkipBothFinished", "YG:YYYY,BG:BBBB G throw 0 - Y", "1", "YG:YYYY,BG:BBBB R throw 0 - Y", "lost, turn-passed"},
		{"SamePairSecond_RoundGoesOn", "YG:YYYY,R7:R,RG:RRR R 1 0 - Y", "R7-RG", "YG:YYYY,RG:RRRR G throw 0 - Y", "goal, bonus-lost 10, finished, turn-passed"},
		{"SamePairSecond_EndOfRound", "YG:YYYY,RG:RRRR G throw 0 - Y", "1", "YG:YYYY,RG:RRRR G end 0 - Y", "lost, game-over"},
		{"TiePlay_YR", "YG:YYYY,R7:R,RG:RRR,GG:GGGG R 1 0 - Y", "R7-RG", "YG:YYYY,RG:RRRR,GG:GGGG R end 0 - Y", "goal, finished, game-over, tie-play"},
		{"TiePlay_BG", "YG:YYYY,B7:B,BG:BBB,GG:GGGG B 1 0 - Y", "B7-BG", "YG:YYYY,BG:BBBB,GG:GGGG B end 0 - Y", "goal, finished, game-over, tie-play"},
		{"SixThatFinishes_Passes", "Y1:Y,YG:YYY Y 6 1 - Y", "Y1-YG", "YG:YYYY B throw 0 - Y", "goal, bonus-lost 10, finished, turn-passed"},
	})
	testScripts(t, []script{
		{"round completed after the first finisher", "30:B,Y7:Y,YG:YYY Y 1 0 - Y", [][2]string{
			{"Y7-YG", "30:B,YG:YYYY B throw 0 - Y"},
			{"1", "30:B,YG:YYYY B 1 0 - Y"},
			{"30-31", "31:B,YG:YYYY R throw 0 - Y"},
			{"1", "31:B,YG:YYYY G throw 0 - Y"},
			{"1", "31:B,YG:YYYY G end 0 - Y"},
		}},
	})
	for _, tc := range []struct {
		ppn    string
		winner string
	}{
		{"GG:GGGG G end 0 - Y", "BG"},
		{"YG:YYYY G end 0 - Y", "YR"},
		{"YG:YYYY,RG:RRRR,GG:GGGG R end 0 - Y", "YR"},
		{"YG:YYYY,BG:BBBB,GG:GGGG B end 0 - Y", "BG"},
		{"YG:YYYY B throw 0 - Y", ""}, // not over
		{"YG:YYYY,GG:GGGG B end 0 - Y", ""},
	} {
		p := mustPPN(t, tc.ppn)
		w, ok := p.Winner()
		got := ""
		if ok {
			got = w.String()
		}
		if got != tc.winner {
			t.Errorf("Winner of %q = %q, want %q", tc.ppn, got, tc.winner)
		}
	}
	// Nothing is played after the end.
	p := mustPPN(t, "GG:GGGG G end 0 - Y")
	if _, err := p.Throw(3); err == nil {
		t.Error("a throw after the end was accepted")
	}
	if p.String() != "GG:GGGG G end 0 - Y" {
		t.Errorf("a refused throw changed the position to %q", p)
	}
}

// TestEnd_TiePlayByBonusMove: a bonus move that finishes a player while the
// pairs are level ends the game at once.
func TestEnd_TiePlayByBonusMove(t *testing.T) {
	testScripts(t, []script{
		{"goal bonus finishes", "32:R,YG:YYYY,R7:R,RG:RR,GG:GGGG R 1 0 - Y", [][2]string{
			{"R7-RG", "32:R,YG:YYYY,RG:RRR,GG:GGGG R +10 0 RG Y"},
			{"32-RG", "YG:YYYY,RG:RRRR,GG:GGGG R end 0 - Y"},
		}},
	})
}

// TestThrow_Refused: throws only in phase throw, dice 1…6.
func TestThrow_Refused(t *testing.T) {
	for _, tc := range []struct {
		ppn string
		d   int
	}{
		{"20:Y Y 3 0 - Y", 4},
		{"24:Y Y +20 0 24 Y", 4},
		{"GG:GGGG G end 0 - Y", 4},
		{"- Y throw 0 - Y", 0},
		{"- Y throw 0 - Y", 7},
	} {
		p := mustPPN(t, tc.ppn)
		if _, err := p.Throw(tc.d); err == nil {
			t.Errorf("Throw(%d) on %q accepted", tc.d, tc.ppn)
		}
		if p.String() != tc.ppn {
			t.Errorf("refused Throw(%d) changed %q to %q", tc.d, tc.ppn, p)
		}
	}
}

// A position in which every player has finished is valid (NOTATION.md does
// not check finished players against each other) though no game reaches
// it: a throw there ends the game rather than looking for ever for a
// player to pass the turn to.
func TestEnd_EveryPlayerFinished_ThrowEndsTheGame(t *testing.T) {
	p, err := engine.ParsePPN("YG:YYYY,BG:BBBB,RG:RRRR,GG:GGGG Y throw 0 - Y")
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Throw(3)
	if err != nil || !out.GameOver || p.Phase() != engine.PhaseEnd {
		t.Fatalf("after a throw: %s, %+v, %v", p.String(), out, err)
	}
	if _, ok := p.Winner(); ok {
		t.Error("a winner among two level pairs")
	}
}

// Settle resolves a die or bonus phase with no legal move, as play does.
func TestSettle_PhaseWithNoLegalMove(t *testing.T) {
	cases := []struct{ ppn, want string }{
		{"- Y 3 0 - Y", "- B throw 0 - Y"},          // a 3 with every piece home: lost, turn passes
		{"- Y 6 1 - Y", "- Y throw 1 - Y"},          // a 6 lost: the same player throws again
		{"Y7:Y Y +20 0 Y7 Y", "Y7:Y B throw 0 - Y"}, // a bonus no piece can play: lost
		{"5:Y Y 3 0 - Y", "5:Y Y 3 0 - Y"},          // a legal move: nothing to settle
	}
	for _, tc := range cases {
		p, err := engine.ParsePPN(tc.ppn)
		if err != nil {
			t.Fatal(err)
		}
		p.Settle()
		if p.String() != tc.want {
			t.Errorf("%s settles to %s, want %s", tc.ppn, p.String(), tc.want)
		}
	}
}
