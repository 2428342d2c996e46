package engine_test

import (
	"bytes"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/engine"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// header returns a record header with the given Start and Result and any
// extra tag lines, ending with the blank line.
func header(start, result string, extra ...string) string {
	h := `[Event "Club night"]
[Date "2025-03-01"]
[Table "3"]
[Yellow "Ana"]
[Blue "Ben"]
[Red "Rosa"]
[Green "Gil"]
[Start "` + start + `"]
[Result "` + result + `"]
`
	for _, e := range extra {
		h += e + "\n"
	}
	return h + "\n"
}

func clubTags() []engine.Tag {
	return []engine.Tag{
		{Key: "Event", Value: "Club night"}, {Key: "Date", Value: "2025-03-01"}, {Key: "Table", Value: "3"},
		{Key: "Yellow", Value: "Ana"}, {Key: "Blue", Value: "Ben"}, {Key: "Red", Value: "Rosa"}, {Key: "Green", Value: "Gil"},
	}
}

// TestRecord_WriteRead: a game played through Game writes the record
// NOTATION.md describes, which reads back to the same game.
func TestRecord_WriteRead(t *testing.T) {
	g := engine.NewGame(engine.NewPosition(engine.Yellow), append(clubTags(), engine.Tag{Key: "Round", Value: "1"})...)
	do := func(action string) {
		t.Helper()
		var err error
		if len(action) == 1 {
			_, err = g.Throw(int(action[0] - '0'))
		} else {
			_, err = g.Play(mustMove(t, action))
		}
		if err != nil {
			t.Fatalf("%s: %v", action, err)
		}
	}
	do("5")
	do("YH-5")
	g.Annotate("19:02:11")
	do("3") // Blue: nothing to move
	do("6") // Red: lost, throws again
	do("6") // lost again
	do("6") // third 6
	g.Comment("touched piece: Green lifted a piece and put it back")
	do("5")
	do("GH-56")
	do("4")
	do("5-9")
	do("6") // Blue: lost 6
	do("1") // Blue: lost
	do("2")
	want := header("Y", "*", `[Round "1"]`) + `Y 5 YH-5 {19:02:11}
B 3 -
R 6 -
R 6 -
R 6 !
; touched piece: Green lifted a piece and put it back
G 5 GH-56
Y 4 5-9
B 6 -
B 1 -
R 2 -
`
	var b bytes.Buffer
	if _, err := g.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != want {
		t.Fatalf("record:\n%s\nwant:\n%s", b.String(), want)
	}
	if got := g.Pos.String(); got != "9:Y,56:G G throw 0 - Y" {
		t.Errorf("position %q", got)
	}
	r, err := engine.ReadRecord(strings.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	if r.Pos != g.Pos || r.Start != g.Start {
		t.Errorf("read back: %q from %q", r.Pos, r.Start)
	}
	if len(r.Actions) != len(g.Actions) {
		t.Fatalf("read back %d actions, want %d", len(r.Actions), len(g.Actions))
	}
	for i := range r.Actions {
		if r.Actions[i] != g.Actions[i] {
			t.Errorf("action %d: %+v, want %+v", i, r.Actions[i], g.Actions[i])
		}
	}
	if r.Tag("Round") != "1" || r.Tag("Yellow") != "Ana" {
		t.Errorf("tags read back: %v", r.Tags)
	}
	var b2 bytes.Buffer
	r.WriteTo(&b2)
	if b2.String() != want {
		t.Errorf("rewritten record differs:\n%s", b2.String())
	}
}

// TestRecord_CommentsAndNotes: comment lines, notes in braces, blank lines
// and CRLF line ends are read.
func TestRecord_CommentsAndNotes(t *testing.T) {
	rec := header("Y", "*") + "; before the first throw\r\nY 5 YH-5 {12:00:01 a note, with {braces}\r\n\r\n;no space\nB 3 - {}\n   \n"
	g, err := engine.ReadRecord(strings.NewReader(rec))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Action{
		{Kind: engine.ActComment, Note: "before the first throw"},
		{Kind: engine.ActMove, Colour: engine.Yellow, Throw: 5, Move: mustMove(t, "YH-5"), Note: "12:00:01 a note, with {braces"},
		{Kind: engine.ActComment, Note: "no space"},
		{Kind: engine.ActNone, Colour: engine.Blue, Throw: 3},
	}
	if len(g.Actions) != len(want) {
		t.Fatalf("actions %+v", g.Actions)
	}
	for i := range want {
		if g.Actions[i] != want[i] {
			t.Errorf("action %d: %+v, want %+v", i, g.Actions[i], want[i])
		}
	}
	if g.Pos.String() != "5:Y R throw 0 - Y" {
		t.Errorf("position %q", g.Pos)
	}
}

// TestRecord_IllegalLine: the first illegal line is reported with its
// number and the rule it breaks.
func TestRecord_IllegalLine(t *testing.T) {
	const first = 11 // the first action line after a 9-tag header and a blank line
	for _, tc := range []struct {
		name    string
		actions string
		line    int
		rule    string // "" when the error is not a broken rule
	}{
		{"must exit", "Y 5 YH-5\nB 3 -\nR 2 -\nG 1 -\nY 5 5-10\n", first + 4, engine.RuleMustExit},
		{"out of turn", "Y 5 YH-5\nR 3 -\n", first + 1, engine.RuleOutOfTurn},
		{"wrong count", "Y 5 YH-5\nB 3 -\nR 2 -\nG 1 -\nY 4 5-10\n", first + 4, engine.RuleWrongCount},
		{"bonus not due", "Y 5 YH-5\nY +20 5-25\n", first + 1, engine.RuleOutOfTurn},
		{"third 6 not marked", "Y 6 -\nY 6 -\nY 6 -\n", first + 2, ""},
		{"playable throw written -", "Y 5 -\n", first, ""},
		{"lost throw given a move", "Y 3 YH-3\n", first, ""},
		{"bad line", "Y 5 YH-5\nY five\n", first + 1, ""},
		{"unclosed note", "Y 5 YH-5 {note\n", first, ""},
		{"! on a non-6", "Y 3 !\n", first, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := engine.ReadRecord(strings.NewReader(header("Y", "*") + tc.actions))
			var re *engine.RecordError
			if !errors.As(err, &re) {
				t.Fatalf("err = %v, want a *RecordError", err)
			}
			if re.Line != tc.line {
				t.Errorf("line %d (%v), want %d", re.Line, err, tc.line)
			}
			var rule *engine.RuleError
			if tc.rule != "" && (!errors.As(err, &rule) || rule.Rule != tc.rule) {
				t.Errorf("err = %v, want rule %s", err, tc.rule)
			}
			if !strings.Contains(err.Error(), "line ") {
				t.Errorf("message %q names no line", err)
			}
		})
	}
	// From set-up positions.
	for _, tc := range []struct {
		name, setup, actions string
		line                 int
		rule                 string
	}{
		{"kill not done", "20:Y,24:B Y throw 0 - Y", "Y 4 20-24\n", first + 1, engine.RuleKillNotDone},
		{"barrier not opened", "20:YY,40:Y Y throw 0 - Y", "Y 6 40-46\n", first + 1, engine.RuleMustOpenBarrier},
		{"through a barrier", "20:Y,22:BB,40:Y Y throw 0 - Y", "Y 4 20-24\n", first + 1, engine.RuleBarrier},
		{"bonus moved wrong", "20:Y,24:B,40:Y Y throw 0 - Y", "Y 4 20x24\nY +20 24-34\n", first + 2, engine.RuleWrongCount},
		{"bonus skipped", "20:Y,24:B,40:Y Y throw 0 - Y", "Y 4 20x24\nB 3 -\n", first + 2, engine.RuleOutOfTurn},
		{"throw after the end", "G7:G,GG:GGG G throw 0 - Y", "G 1 G7-GG\nG 3 -\n", first + 2, engine.RuleOutOfTurn},
		{"bonus lost by another colour", "20:Y,24:B,30:BB Y throw 0 - Y", "Y 4 20x24\nB +20 -\n", first + 2, ""},
		{"playable bonus written -", "20:Y,24:B,40:Y Y throw 0 - Y", "Y 4 20x24\nY +20 -\n", first + 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := header("Y", "*", `[Setup "`+tc.setup+`"]`) + tc.actions
			_, err := engine.ReadRecord(strings.NewReader(rec))
			var re *engine.RecordError
			if !errors.As(err, &re) {
				t.Fatalf("err = %v, want a *RecordError", err)
			}
			if re.Line != tc.line {
				t.Errorf("line %d (%v), want %d", re.Line, err, tc.line)
			}
			var rule *engine.RuleError
			if tc.rule != "" && (!errors.As(err, &rule) || rule.Rule != tc.rule) {
				t.Errorf("err = %v, want rule %s", err, tc.rule)
			}
		})
	}
	// The same lines, stated correctly, replay.
	for _, tc := range []struct{ setup, actions, want string }{
		{"20:Y,24:B Y throw 0 - Y", "Y 4 20x24\nY +20 24-44\n", "44:Y B throw 0 - Y"},
		{"20:Y,24:B,30:BB Y throw 0 - Y", "Y 4 20x24\nY +20 -\n", "24:Y,30:BB B throw 0 - Y"},
		{"20:Y,24:B,30:BB Y throw 0 - Y", "Y 4 20x24\n", "24:Y,30:BB B throw 0 - Y"},
		{"20:Y,24:B Y 4 0 - Y", "Y 4 20x24\nY +20 24-44\n", "44:Y B throw 0 - Y"},
		{"30:Y Y throw 2 30 Y", "Y 6 !\n", "- B throw 0 - Y"},
	} {
		rec := header("Y", "*", `[Setup "`+tc.setup+`"]`) + tc.actions
		g, err := engine.ReadRecord(strings.NewReader(rec))
		if err != nil {
			t.Errorf("%s / %q: %v", tc.setup, tc.actions, err)
			continue
		}
		if g.Pos.String() != tc.want {
			t.Errorf("%s / %q: %q, want %q", tc.setup, tc.actions, g.Pos, tc.want)
		}
	}
}

// TestRecord_Header: required tags, tag syntax, Start and Setup.
func TestRecord_Header(t *testing.T) {
	full := header("Y", "*")
	for _, tc := range []struct{ name, rec string }{
		{"missing Table", strings.Replace(full, "[Table \"3\"]\n", "", 1)},
		{"missing Result", strings.Replace(full, "[Result \"*\"]\n", "", 1)},
		{"tag twice", strings.Replace(full, "[Table \"3\"]\n", "[Table \"3\"]\n[Table \"4\"]\n", 1)},
		{"unquoted value", strings.Replace(full, `[Table "3"]`, `[Table 3]`, 1)},
		{"no brackets", strings.Replace(full, `[Table "3"]`, `Table "3"`, 1)},
		{"bad Start", header("X", "*")},
		{"bad Result", header("Y", "RY")},
		{"bad Setup", header("Y", "*", `[Setup "5:YYY Y throw 0 - Y"]`)},
		{"Setup with another starter", header("Y", "*", `[Setup "- B throw 0 - B"]`)},
	} {
		_, err := engine.ReadRecord(strings.NewReader(tc.rec))
		var re *engine.RecordError
		if !errors.As(err, &re) || re.Line < 1 {
			t.Errorf("%s: err = %v, want a *RecordError with a line", tc.name, err)
		}
	}
	g, err := engine.ReadRecord(strings.NewReader(header("R", "*")))
	if err != nil {
		t.Fatal(err)
	}
	if g.Pos.String() != "- R throw 0 - R" {
		t.Errorf("empty record with Start R: %q", g.Pos)
	}
}

// TestRecord_Result: the Result tag must match the end of the game.
func TestRecord_Result(t *testing.T) {
	setup := `[Setup "G7:G,GG:GGG G throw 0 - Y"]`
	for _, tc := range []struct {
		name, result, actions string
		ok                    bool
	}{
		{"over, right pair", "BG", "G 1 G7-GG\n", true},
		{"over, with the lost bonus stated", "BG", "G 1 G7-GG\nG +10 -\n", true},
		{"over, wrong pair", "YR", "G 1 G7-GG\n", false},
		{"over, no result", "*", "G 1 G7-GG\n", false},
		{"not over, no result", "*", "G 2 -\n", true},
		{"not over, a result", "BG", "G 2 -\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := engine.ReadRecord(strings.NewReader(header("Y", tc.result, setup) + tc.actions))
			if tc.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var re *engine.RecordError
			if !errors.As(err, &re) {
				t.Fatalf("err = %v (game %v), want a *RecordError", err, g)
			}
			if re.Line != 9 { // the Result line
				t.Errorf("line %d, want 9 (Result)", re.Line)
			}
		})
	}
	// A game played to the end writes its result.
	g := engine.NewGame(mustPPN(t, "G7:G,GG:GGG G 1 0 - Y"), clubTags()...)
	if _, err := g.Play(mustMove(t, "G7-GG")); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	g.WriteTo(&b)
	if g.Tag("Result") != "BG" || !strings.Contains(b.String(), `[Result "BG"]`) {
		t.Errorf("Result not written:\n%s", b.String())
	}
	if !strings.HasSuffix(b.String(), "\nG 1 G7-GG\nG +10 -\n") {
		t.Errorf("actions:\n%s", b.String())
	}
}

// TestRecord_JudgeSet: a judge's correction sets the position and replay
// goes on from it.
func TestRecord_JudgeSet(t *testing.T) {
	rec := header("Y", "*") + "Y 5 YH-5\n; judge set 20:Y,24:B Y 4 0 - Y piece found on 20\nY 4 20x24\nY +20 24-44\n"
	g, err := engine.ReadRecord(strings.NewReader(rec))
	if err != nil {
		t.Fatal(err)
	}
	if g.Pos.String() != "44:Y B throw 0 - Y" {
		t.Errorf("position %q", g.Pos)
	}
	// A correction to a throw that cannot be played: it is lost, as in
	// play, and the record goes on with the next player.
	lost := header("Y", "*") + "; judge set - Y 3 0 - Y\nB 5 BH-22\n"
	if g, err := engine.ReadRecord(strings.NewReader(lost)); err != nil || g.Pos.String() != "22:B R throw 0 - Y" {
		t.Errorf("correction to a lost throw: %v, %v", g, err)
	}
	bad := header("Y", "*") + "; judge set 5:YYY Y throw 0 - Y\n"
	var re *engine.RecordError
	if _, err := engine.ReadRecord(strings.NewReader(bad)); !errors.As(err, &re) || re.Line != 11 {
		t.Errorf("bad correction: %v", err)
	}
}

// playRecordedGame plays one random game through Game, as a table would,
// with a comment and a note on the way.
func playRecordedGame(rng *rand.Rand, start engine.Colour) (*engine.Game, error) {
	g := engine.NewGame(engine.NewPosition(start), []engine.Tag{
		{Key: "Event", Value: "Engine sample"}, {Key: "Date", Value: "2025-01-01"}, {Key: "Table", Value: "1"},
		{Key: "Yellow", Value: "Random"}, {Key: "Blue", Value: "Random"}, {Key: "Red", Value: "Random"}, {Key: "Green", Value: "Random"},
	}...)
	var ml engine.MoveList
	for n := 0; g.Pos.Phase() != engine.PhaseEnd; n++ {
		if n > engine.MaxGameActions {
			return g, errors.New("the game does not end")
		}
		if g.Pos.Phase() == engine.PhaseThrow {
			out, err := g.Throw(1 + rng.IntN(6))
			if err != nil {
				return g, err
			}
			if out.ThirdSix {
				g.Comment("third 6 seen by the judge")
			}
			continue
		}
		g.Pos.LegalMoves(&ml)
		if ml.Len() == 0 {
			return g, errors.New("no legal move in " + g.Pos.String())
		}
		out, err := g.Play(ml.At(rng.IntN(ml.Len())))
		if err != nil {
			return g, err
		}
		if out.Killed != engine.NoSite && n%7 == 0 {
			g.Annotate("kill")
		}
	}
	return g, nil
}

// TestRecord_GoldenGame: testdata/game.txt is a complete game written by
// Game.WriteTo; it replays to its end and result, and writing the replayed
// game gives the same bytes. Run with -update to rewrite it.
func TestRecord_GoldenGame(t *testing.T) {
	path := filepath.Join("testdata", "game.txt")
	if *update {
		g, err := playRecordedGame(rand.New(rand.NewPCG(2025, 3)), engine.Blue)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		g.WriteTo(&b)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.ReadRecord(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if g.Pos.Phase() != engine.PhaseEnd {
		t.Fatalf("the sample game does not end: %q", g.Pos)
	}
	w, _ := g.Pos.Winner()
	if g.Tag("Result") != w.String() {
		t.Errorf("Result %q, winner %s", g.Tag("Result"), w)
	}
	var b bytes.Buffer
	g.WriteTo(&b)
	if !bytes.Equal(b.Bytes(), data) {
		t.Error("the replayed game writes a different record")
	}
	// The same game played again from its seed writes the same record.
	again, err := playRecordedGame(rand.New(rand.NewPCG(2025, 3)), engine.Blue)
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	again.WriteTo(&b)
	if !bytes.Equal(b.Bytes(), data) {
		t.Error("testdata/game.txt is out of date: run go test -run GoldenGame -update")
	}
}

// A line longer than MaxRecordLine, in the header or among the actions,
// is reported with its own line number.
func TestRecord_LineTooLong_RealLineNumber(t *testing.T) {
	b, err := os.ReadFile("testdata/game.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for _, at := range []int{1, 3, 9, 15, 200} {
		l := append([]string(nil), lines...)
		l[at-1] = strings.Repeat("x", engine.MaxRecordLine+1)
		_, err := engine.ReadRecord(strings.NewReader(strings.Join(l, "\n")))
		var re *engine.RecordError
		if !errors.As(err, &re) || re.Line != at || !strings.Contains(err.Error(), "line longer than") {
			t.Errorf("long line %d: %v", at, err)
		}
	}
}
