package referee_test

import (
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

// The mistakes of DESIGN.md's list, one of which the hand-play generator
// makes once in a game.
var handMistakes = []string{
	referee.RuleTouchedPiece, referee.RuleOutOfTurn, referee.RuleWrongColour, referee.RuleBackwards,
	referee.RuleWrongCount, referee.RuleBarrier, referee.RuleKillNotDone, referee.RuleMustExit,
	referee.RuleMustOpenBarrier, referee.RuleThirdSixHome, referee.RuleBonusNotPlayed,
	referee.RuleEarlyThrow, referee.RuleIllegalMove,
}

// refereeRule is the rule the referee names for a piece of the side to
// move taken from one site to another, as referee.why asks the engine:
// "" when the move is legal.
func refereeRule(pos *engine.Position, from, to engine.Site) string {
	first := ""
	for _, kill := range []bool{false, true} {
		err := pos.Check(engine.Move{From: from, To: to, Kill: kill})
		if err == nil {
			return ""
		}
		re, ok := err.(*engine.RuleError)
		if !ok {
			continue
		}
		if re.Rule == referee.RuleKillNotDone || strings.Contains(re.Reason, "kills nothing") {
			if first == "" {
				first = re.Rule
			}
			continue
		}
		return re.Rule
	}
	if first == "" {
		return referee.RuleIllegalMove
	}
	return first
}

// free reports whether a piece may be put on s for a moment: a square
// with room, or a home, column or goal.
func (h *hands) free(s engine.Site) bool {
	return s != engine.NoSite && (!s.Holds2() || h.phys.Sites[s].Count < 2)
}

// displacement finds a piece of colour c, and where to put it, that makes
// the mistake of the given rule; ok is false when there is none now.
func (g *handGame) displacement(rule string) (c engine.Colour, from, to engine.Site, ok bool) {
	pos := &g.shadow
	turn := pos.Turn()
	moveDue := pos.Phase().IsDie() || pos.Phase().IsBonus()
	forward := func(c engine.Colour, n int) (engine.Site, engine.Site, bool) {
		for _, s := range pos.Pieces(c) {
			if k := s.Kind(); k == engine.Home || k == engine.Goal || s == pos.Last() && c == turn {
				// (The piece just played taken on is a wrong count.)
				continue
			}
			if t, ok := engine.Advance(c, s, n); ok && t.Kind() != engine.Goal && g.free(t) {
				if n, a, b := pos.Occupants(t); n == 0 || a.Pair() == c.Pair() && (n == 1 || b.Pair() == c.Pair()) || t.Safe() {
					return s, t, true
				}
			}
		}
		return 0, 0, false
	}
	switch rule {
	case referee.RuleIllegalMove:
		if pos.Phase() == engine.PhaseThrow {
			from, to, ok = forward(turn, 1)
			return turn, from, to, ok
		}
	case referee.RuleWrongColour:
		if moveDue {
			from, to, ok = forward(turn.Partner(), 1)
			return turn.Partner(), from, to, ok
		}
	case referee.RuleOutOfTurn:
		if moveDue {
			from, to, ok = forward(turn.Next(), 1)
			return turn.Next(), from, to, ok
		}
	case referee.RuleWrongCount, referee.RuleBackwards, referee.RuleBarrier, referee.RuleMustExit, referee.RuleMustOpenBarrier:
		if !pos.Phase().IsDie() || g.ref.Touched() != engine.NoSite {
			return 0, 0, 0, false
		}
		for _, s := range pos.Pieces(turn) {
			if k := s.Kind(); k == engine.Home || k == engine.Goal {
				continue
			}
			var tries []int
			switch rule {
			case referee.RuleWrongCount:
				tries = []int{pos.Count() + 1, pos.Count() - 1}
			case referee.RuleBackwards:
				tries = []int{-1, -2}
			default:
				tries = []int{pos.Count()}
			}
			for _, n := range tries {
				t, ok := engine.Advance(turn, s, n)
				if !ok || n == 0 || t.Kind() == engine.Home || t.Kind() == engine.Goal || !g.free(t) {
					continue
				}
				if refereeRule(pos, s, t) == rule {
					return turn, s, t, true
				}
			}
		}
	}
	return 0, 0, 0, false
}

// maybeMistake makes the game's mistake when there is a chance for it,
// checks it is flagged with its rule no later than the next throw, and
// puts the board right again. It reports whether it made one, and keeps
// the events from the mistake to the board put right as its window.
func (g *handGame) maybeMistake() bool {
	if g.mistake == "" || g.made || g.rng.IntN(3) != 0 {
		return false
	}
	mark := len(g.events)
	if !g.makeMistake(mark) {
		return false
	}
	g.window = [2]int{mark, len(g.events)}
	return true
}

func (g *handGame) makeMistake(mark int) bool {
	pos := &g.shadow
	turn := pos.Turn()
	switch g.mistake {
	case referee.RuleEarlyThrow:
		if !pos.Phase().IsDie() || g.ref.Touched() != engine.NoSite {
			return false
		}
		g.made = true
		g.expectAtThrow(referee.RuleEarlyThrow)
		return true
	case referee.RuleBonusNotPlayed:
		if !pos.Phase().IsBonus() || g.ref.Owed() > 0 {
			return false
		}
		g.made = true
		g.expectAtThrow(referee.RuleBonusNotPlayed)
		return true
	case referee.RuleKillNotDone:
		if !pos.Phase().IsDie() || g.ref.Touched() != engine.NoSite {
			return false
		}
		var ml engine.MoveList
		pos.LegalMoves(&ml)
		for _, m := range ml.Moves() {
			victim, kill := pos.Victim(m)
			if n, _, _ := pos.Occupants(m.To); !kill || n != 1 || victim.Pair() == turn.Pair() {
				continue
			}
			// The killing piece is put down, the victim left where it
			// stood, and the die thrown at once.
			g.made = true
			g.carry(turn, m.From, m.To, false)
			g.moves = append(g.moves, m)
			g.shadow.PlayLegal(m)
			g.expectAtThrow(referee.RuleKillNotDone)
			g.lift(m.To, victim)
			g.place(engine.HomeSite(victim), victim)
			g.compare("the victim taken home late")
			return true
		}
		return false
	case referee.RuleTouchedPiece:
		if !pos.Phase().IsDie() || g.ref.Touched() != engine.NoSite {
			return false
		}
		var ml engine.MoveList
		pos.LegalMoves(&ml)
		for _, a := range ml.Moves() {
			for _, b := range ml.Moves() {
				if a.From == b.From || b.Kill || a.From.Kind() == engine.Home || b.From.Kind() == engine.Home {
					continue
				}
				// A is touched and put back; B's piece is played.
				g.made = true
				g.lift(a.From, turn)
				g.place(a.From, turn)
				g.carry(turn, b.From, b.To, g.rng.IntN(2) == 0)
				g.flagBy(referee.RuleTouchedPiece, mark)
				g.lift(b.To, turn)
				g.place(b.From, turn)
				return true
			}
		}
		return false
	}
	c, from, to, ok := g.displacement(g.mistake)
	if !ok {
		return false
	}
	g.made = true
	g.lift(from, c)
	g.place(to, c)
	g.flagBy(g.mistake, mark)
	g.lift(to, c)
	g.place(from, c)
	return true
}

// flagBy leaves the board as it is, then either waits past the grace time
// or throws at once, and checks that an infraction of rule came since
// event mark.
func (g *handGame) flagBy(rule string, mark int) {
	g.t.Helper()
	if g.rng.IntN(2) == 0 {
		g.wait(2 * time.Second)
	} else {
		g.throw(1 + g.rng.IntN(6))
	}
	for _, e := range g.events[mark:] {
		if e.Type == referee.EventInfraction && e.Rule == rule {
			g.flagged = true
			return
		}
	}
	g.failf("mistake %s not flagged by the grace time or the next throw", rule)
}

// TestHandPlay_OneMistakePerGame plays games by hands with one mistake of
// each kind of DESIGN.md's list made in each: every mistake is flagged with
// its rule no later than the next throw, no infraction is reported but
// between the mistake and the board put right (where a throw made at once
// is an early throw too), and the game still ends where the engine's does.
func TestHandPlay_OneMistakePerGame(t *testing.T) {
	rounds := 40
	if testing.Short() {
		rounds = 6
	}
	made := map[string]int{}
	for i := 0; i < rounds*len(handMistakes); i++ {
		kind := handMistakes[i%len(handMistakes)]
		caps := board.Caps{Counts: true, Colours: true}
		if i%3 == 2 {
			caps = board.Caps{Counts: true}
		}
		g := playHandGame(t, uint64(100000+i), caps, kind)
		if g.made {
			made[kind]++
			if !g.flagged {
				t.Fatalf("game %d: %s made, never flagged", i, kind)
			}
		}
		for k, e := range g.events {
			if e.Type == referee.EventInfraction && (k < g.window[0] || k >= g.window[1]) {
				t.Fatalf("game %d (%s): infraction outside the mistake (events %d to %d): %+v", i, kind, g.window[0], g.window[1], e)
			}
		}
		if pos := g.ref.Position(); pos.Phase() != engine.PhaseEnd {
			t.Fatalf("game %d did not end: %s", i, pos.String())
		}
	}
	for _, k := range handMistakes {
		if made[k] < rounds/4 {
			t.Errorf("%s made in %d games of %d", k, made[k], rounds)
		}
	}
	t.Logf("mistakes made: %v", made)
}
