package tablescript

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

func TestParseLine(t *testing.T) {
	cases := []struct {
		line string
		ok   bool
		want func(Step) bool
	}{
		{"", false, nil},
		{"   # a comment", false, nil},
		{"opening Y3 B5 R5 G2 B6 R1", true, func(s Step) bool {
			return len(s.Opening) == 6 && s.Opening[5] == engine.OpeningThrow{Colour: engine.Red, Value: 1}
		}},
		{"start B", true, func(s Step) bool { return s.Verb == VerbStart && s.Starter == engine.Blue }},
		{"setup 5:Y B 5 0 - Y", true, func(s Step) bool { return s.Position.String() == "5:Y B 5 0 - Y" }},
		{"at 0.4 throw edge", true, func(s Step) bool { return s.HasAt && s.At == 400*time.Millisecond && s.Throw == referee.ThrowEdge }},
		{"at 12 throw 6", true, func(s Step) bool { return s.At == 12*time.Second && s.Value == 6 }},
		{"at 1.2 lift YH", true, func(s Step) bool {
			return s.Verb == VerbLift && s.Site == engine.HomeSite(engine.Yellow) && !s.HasColour
		}},
		{"at 1.9 place 5 Y", true, func(s Step) bool { return s.Site == engine.TrackSite(5) && s.HasColour && s.Colour == engine.Yellow }},
		{"at 2 board 5:Y,12:2", true, func(s Step) bool {
			return s.Board.Sites[engine.TrackSite(5)].ByColour[engine.Yellow] == 1 && s.Board.Sites[engine.TrackSite(12)].Count == 2 && !s.Board.Sites[engine.TrackSite(12)].Coloured
		}},
		{"at 9.0 judge set 5:Y B throw 0 - Y by Ana", true, func(s Step) bool { return s.JudgeSet && s.Judge == "Ana" && s.Position.String() == "5:Y B throw 0 - Y" }},
		{"judge start G", true, func(s Step) bool { return !s.JudgeSet && s.Starter == engine.Green }},
		{"players Ana Bea_Luz - Dani", true, func(s Step) bool { return s.Names == [4]string{"Ana", "Bea Luz", "", "Dani"} }},
		{"sensors counts", true, func(s Step) bool { return s.Caps == board.Caps{Counts: true} }},
		{"robots - mc:50 - greedy", true, func(s Step) bool { return s.Verb == VerbRobots && s.Robots == [4]string{"", "mc:50", "", "greedy"} }},
		{"robots - - - -", true, func(s Step) bool { return s.Robots == [4]string{} }},
		{"seq 120", true, func(s Step) bool { return s.Seq == 120 }},
		{"at 3.5 timer", true, func(s Step) bool { return s.Verb == VerbTimer && s.At == 3500*time.Millisecond }},
	}
	for _, tc := range cases {
		st, ok, err := ParseLine(tc.line)
		if err != nil || ok != tc.ok || (tc.want != nil && !tc.want(st)) {
			t.Errorf("%q: %+v, ok %v, err %v", tc.line, st, ok, err)
		}
	}
}

// Every malformed line is refused with a message naming what is wrong.
func TestParseLine_Errors(t *testing.T) {
	cases := []struct{ line, want string }{
		{"at", "at SECONDS"},
		{"at x throw 5", `bad time "x"`},
		{"at -1 throw 5", `bad time "-1"`},
		{"at 1.0000000001 throw 5", "bad time"},
		{"throw 7", `bad throw "7"`},
		{"throw", "want: throw"},
		{"lift 69", `bad site "69"`},
		{"place 5 X", `bad colour "X"`},
		{"start", "start COLOUR"},
		{"setup 5:Y B 5 0 -", "six fields"},
		{"setup 5:Y B 5 1 - Y", "sixes"},
		{"opening Y7", `bad opening throw "Y7"`},
		{"board 5:Q", "bad board entry"},
		{"board 12:Y,5:Y", "canonical order"},
		{"board 5:9", "out of 1…4"},
		{"judge dance", "judge set PPN"},
		{"sensors sonar", `bad sensors "sonar"`},
		{"players Ana", "players YELLOW"},
		{"robots greedy", "robots YELLOW BLUE RED GREEN"},
		{"robots - - - clever", `robot Green: bad bot "clever"`},
		{"robots - mc:0 - -", `robot Blue: bad bot "mc:0"`},
		{"robots random greedy mc mc:9", "every colour is a robot"},
		{"fly 5", `unknown verb "fly"`},
		{"timer 5", "want: timer"},
	}
	for _, tc := range cases {
		_, _, err := ParseLine(tc.line)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.line, err, tc.want)
		}
	}
}

// FormatInput writes lines that parse back to the same inputs, times exact
// to the nanosecond.
func TestFormatInput_RoundTrip(t *testing.T) {
	at := time.Unix(1764412345, 123456789).UTC()
	pos, _ := engine.ParsePPN("5:Y,12:YB B 5 0 - Y")
	snap := board.Expected(&pos)
	inputs := []referee.Input{
		{At: at, Kind: referee.InputBoard, Board: snap},
		{At: at, Kind: referee.InputThrow, Value: 4},
		{At: at, Kind: referee.InputThrow, Throw: referee.ThrowMulti},
		{At: at, Kind: referee.InputStart, Starter: engine.Red},
		{At: at, Kind: referee.InputStart, Starter: engine.Red, Judge: "Ana"},
		{At: at, Kind: referee.InputStart, Starter: engine.Red, Judge: "Ana", Players: [4]string{"Ana", "Bea", "Carla", "Dani"}},
		{At: at, Kind: referee.InputOpening, Opening: []engine.OpeningThrow{{Colour: engine.Yellow, Value: 6}, {Colour: engine.Blue, Value: 2}}},
		{At: at, Kind: referee.InputSetup, Position: pos, Players: [4]string{"Ana", "Bea Luz", "", "Dani"}},
		{At: at, Kind: referee.InputJudgeSet, Position: pos, Judge: "Ana"},
		{At: at, Kind: referee.InputTimer},
	}
	for _, in := range inputs {
		text := FormatInput(in)
		r := NewRunner(referee.Opts{Caps: board.Caps{Counts: true, Colours: true}})
		var got referee.Input
		for line := range strings.SplitSeq(text, "\n") {
			st, ok, err := ParseLine(line)
			if err != nil || !ok {
				t.Fatalf("%q: %v", line, err)
			}
			if in, ok, err := r.Input(st); err != nil {
				t.Fatal(err)
			} else if ok {
				got = in
			}
		}
		if got.At != in.At || got.Kind != in.Kind || got.Value != in.Value || got.Throw != in.Throw || got.Starter != in.Starter ||
			got.Position != in.Position || got.Judge != in.Judge || got.Players != in.Players || len(got.Opening) != len(in.Opening) ||
			(in.Kind == referee.InputBoard && got.Board != in.Board) {
			t.Errorf("%q reads back as %+v, want %+v", text, got, in)
		}
	}
}

func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"opening Y3 B5 R5 G2 B6 R1", "setup 5:Y B 5 0 - Y", "at 0.4 throw edge", "at 1.2 lift YH",
		"at 1.9 place 5 Y", "at 2 board 5:Y,12:2,YH:YYY", "at 9.0 judge set - Y throw 0 - Y by Ana", "players A B C D", "seq 7", "at 3.5 timer", "robots - mc:50 - greedy"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		st, ok, err := ParseLine(line)
		if err == nil && ok && st.Verb == VerbRobots {
			// Robot seats that parse print and parse back the same.
			back, _, err := ParseLine(FormatSetup(st))
			if err != nil || back.Robots != st.Robots {
				t.Fatalf("robots %q: %+v, %v", FormatSetup(st), back.Robots, err)
			}
		}
		if err != nil || !ok || st.Verb != VerbBoard {
			return
		}
		// A board that parses prints and parses back the same.
		back, err := ParseBoard(FormatBoard(&st.Board))
		if err != nil || back != st.Board {
			t.Fatalf("board %q: %v", FormatBoard(&st.Board), err)
		}
	})
}

// A lift without a colour, from a site of several colours, lifts the
// colour that the script next places elsewhere; with no later place, the
// side to move's piece. A place without a colour puts the piece in hand.
func TestRunner_LiftWithoutColour(t *testing.T) {
	cases := []struct {
		name, script string
		want         string // the board after the script
	}{
		{"next place names the colour", "setup 5:BG,30:Y Y 5 0 - Y\nlift 5\nplace GH G\n", "5:B,30:Y,YH:YYY,BH:BBB,RH:RRRR,GH:GGGG"},
		{"next place on a home", "setup 5:BG,30:Y Y 5 0 - Y\nlift 5\nplace GH\n", "5:B,30:Y,YH:YYY,BH:BBB,RH:RRRR,GH:GGGG"},
		{"next place elsewhere, not back", "setup 24:YR Y 4 0 - Y\nlift 24\nplace 24\nlift 24\nplace RH\n", "24:Y,YH:YYY,BH:BBBB,RH:RRRR,GH:GGGG"},
		{"no place: the side to move", "setup 24:YR R 4 0 - Y\nlift 24\n", "24:Y,YH:YYY,BH:BBBB,RH:RRR,GH:GGGG"},
		{"a throw ends the look ahead", "setup 12:YB B throw 0 - Y\nlift 12\nthrow 3\nplace YH Y\n", "12:Y,YH:YYYY,BH:BBB,RH:RRRR,GH:GGGG"},
		{"place puts the piece in hand", "setup 12:BR R throw 0 - Y\nlift 12 B\nplace 13\n", "12:R,13:B,YH:YYYY,BH:BBB,RH:RRR,GH:GGGG"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := ReadAll(strings.NewReader(tc.script))
			if err != nil {
				t.Fatal(err)
			}
			r := NewRunner(referee.Opts{Caps: board.Caps{Counts: true, Colours: true}})
			for i, l := range sc.Lines {
				if l.Err != nil || !l.OK {
					t.Fatalf("line %d: %v", l.N, l.Err)
				}
				r.SetAhead(sc.Ahead(i))
				in, ok, err := r.Input(l.Step)
				if err != nil {
					t.Fatalf("line %d: %v", l.N, err)
				}
				if ok {
					r.Referee.Handle(in)
				}
			}
			if got := FormatBoard(r.Board()); got != tc.want {
				t.Errorf("board %s, want %s", got, tc.want)
			}
		})
	}
}

// ReadAll keeps every line with its number and error, and the steps ahead
// of a line stop at the first line that does not parse.
func TestReadAll_Ahead(t *testing.T) {
	sc, err := ReadAll(strings.NewReader("setup 20:Y Y 4 0 - Y\n# a comment\nat 1 lift 20\r\nat 2 place 24 Y\nfly 5\nat 3 throw 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Lines) != 6 || sc.Lines[2].N != 3 || sc.Lines[2].Text != "at 1 lift 20" || sc.Lines[1].OK || sc.Lines[4].Err == nil {
		t.Fatalf("lines %+v", sc.Lines)
	}
	if got := sc.Ahead(0); len(got) != 2 || got[0].Verb != VerbLift || got[1].Verb != VerbPlace {
		t.Errorf("ahead of line 1: %+v, want the lift and the place (the bad line 5 ends them)", got)
	}
	if got := sc.Ahead(3); len(got) != 0 {
		t.Errorf("ahead of line 4: %+v, want none", got)
	}
}

// A seq that would take the numbers past what JSON readers keep exact,
// or overflow, is refused.
func TestParseLine_SeqBounded(t *testing.T) {
	cases := []struct {
		line string
		ok   bool
	}{
		{"seq 12", true},
		{"seq " + strconv.FormatUint(MaxSeq, 10), true},
		{"seq " + strconv.FormatUint(MaxSeq+1, 10), false},
		{"seq 18446744073709551615", false},
		{"seq 18446744073709551616", false},
	}
	for _, tc := range cases {
		_, _, err := ParseLine(tc.line)
		if (err == nil) != tc.ok {
			t.Errorf("%q: %v, want ok %v", tc.line, err, tc.ok)
		}
	}
}

func TestClock_RefusesTimeGoingBackwards(t *testing.T) {
	var c Clock
	steps := []struct {
		line string
		ok   bool
	}{
		{"at 1 throw 5", true},
		{"lift 5", true}, // no time: the last one holds
		{"at 1 place 9 Y", true},
		{"at 2.5 throw 3", true},
		{"at 2.4 throw 3", false},
		{"at 3 throw 3", true},
	}
	for _, s := range steps {
		st, _, err := ParseLine(s.line)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Check(st); (err == nil) != s.ok {
			t.Errorf("%q: %v, want ok %v", s.line, err, s.ok)
		}
	}
}

// ReadAll marks a time going backwards as the line's error, and ends the
// script at a line too long, with that line's real number; the lines
// before run as they would have.
func TestReadAll_BadLinesWithTheirNumbers(t *testing.T) {
	sc, err := ReadAll(strings.NewReader("start Y\nat 2 throw 5\nat 1.5 throw 3\n" + strings.Repeat("#", MaxLine+10) + "\nat 3 throw 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Lines) != 4 {
		t.Fatalf("%d lines, want 4 (the long one last)", len(sc.Lines))
	}
	if l := sc.Lines[2]; l.N != 3 || l.Err == nil || !strings.Contains(l.Err.Error(), "time goes backwards") {
		t.Errorf("line 3: %+v, want time goes backwards", l)
	}
	if l := sc.Lines[3]; l.N != 4 || !errors.Is(l.Err, ErrLineTooLong) {
		t.Errorf("line 4: %+v, want ErrLineTooLong", l)
	}
	if got := sc.Ahead(0); len(got) != 1 || got[0].Verb != VerbThrow {
		t.Errorf("ahead of line 1: %+v, want the one throw before the bad line", got)
	}
}

// A robots line prints and parses back the same, and seats its robots
// for the next game alone: the game after it, started without one, has
// no robots line to go by.
func TestRobots_NextGameAlone(t *testing.T) {
	st := Step{Verb: VerbRobots, Robots: [4]string{"", "mc:50", "", "greedy"}}
	line := FormatSetup(st)
	back, ok, err := ParseLine(line)
	if err != nil || !ok || back.Robots != st.Robots {
		t.Fatalf("%q reads back as %+v, %v", line, back.Robots, err)
	}
	r := NewRunner(referee.Opts{Caps: board.Caps{Counts: true, Colours: true}})
	steps := []struct {
		line   string
		levels [4]string
		ok     bool
	}{
		{"start Y", [4]string{}, false},
		{line, [4]string{}, false}, // for the next start, not this game
		{"at 1 throw 5", [4]string{}, false},
		{"judge start B", st.Robots, true},
		{"at 2 throw 3", st.Robots, true},
		{"robots - - - -", st.Robots, true},
		{"setup 5:Y B 5 0 - Y", [4]string{}, true},
		{"start R", [4]string{}, false},
	}
	for _, s := range steps {
		step, _, err := ParseLine(s.line)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := r.Input(step); err != nil {
			t.Fatalf("%q: %v", s.line, err)
		}
		if levels, ok := r.Robots(); levels != s.levels || ok != s.ok {
			t.Errorf("after %q: robots %q, %v; want %q, %v", s.line, levels, ok, s.levels, s.ok)
		}
	}
}
