package termboard

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// sampleView is a game in the middle: Blue has thrown a 5 and lifted a
// piece; a piece killed on 12 is still owed home, one stands where it
// should not, one is missing, and Yellow has a piece in the goal.
func sampleView(t *testing.T) *View {
	t.Helper()
	pos, err := engine.ParsePPN("12:YB,34:RR,56:GY,YG:YY,R3:R B 5 0 - Y")
	if err != nil {
		t.Fatal(err)
	}
	snap := board.Expected(&pos)
	snap.Sites[engine.TrackSite(40)] = board.Reading{Count: 1, Coloured: true, ByColour: [4]uint8{0, 0, 1, 0}}
	var f board.Frame
	light := func(s engine.Site, c board.RGB, p board.Pattern) { f.Sites[s] = board.Light{Colour: c, Pattern: p} }
	light(engine.HomeSite(engine.Blue), referee.PlayerColours[engine.Blue], board.Steady)
	light(engine.HomeSite(engine.Green), referee.ColourOrange, board.Steady)
	light(engine.TrackSite(56), referee.ColourOrange, board.Blink)
	light(engine.TrackSite(22), referee.ColourWhite, board.Pulse)
	light(engine.TrackSite(12), referee.ColourWhite, board.Steady)
	light(engine.TrackSite(40), referee.ColourMagenta, board.Blink)
	light(engine.ColumnSite(engine.Red, 3), referee.PlayerColours[engine.Red], board.Blink)
	light(engine.TrackSite(60), referee.ColourViolet, board.Pulse)
	for i := range f.Tray {
		f.Tray[i] = board.Light{Colour: referee.PlayerColours[engine.Blue], Pattern: board.Pulse}
	}
	in := referee.Event{Seq: 7, Type: referee.EventInfraction, Colour: "B", Rule: referee.RuleTouchedPiece}
	return &View{
		Header: []string{"parchisd sim · dashboard http://127.0.0.1:8080 (juez / juez) · Ctrl-C stops; the game resumes where it was"},
		Pieces: &snap, Lights: &f, Showing: &in,
		Events: []referee.Event{
			{Seq: 5, Type: referee.EventThrow, Colour: "B", Throw: "5"},
			{Seq: 6, Type: referee.EventMove, Colour: "Y", Move: "7x12", Detail: "kills Blue's piece on 12; bonus 20"},
			in,
		},
	}
}

func TestRender_Golden(t *testing.T) {
	for _, tc := range []struct {
		cols int
		lang Lang
	}{{80, Spanish}, {80, English}, {120, Spanish}, {120, English}} {
		name := filepath.Join("testdata", "board-"+string(tc.lang)+"-"+itoa(tc.cols)+".golden")
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Render(&b, sampleView(t), Opts{Columns: tc.cols, Lang: tc.lang}); err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(name)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if b.String() != string(want) {
				t.Errorf("drawing differs from %s (go test -update rewrites it); got, without colours:\n%s", name, stripANSI(b.String()))
			}
			for i, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
				if w := VisibleWidth(l); w > tc.cols {
					t.Errorf("line %d is %d columns wide, more than %d: %q", i+1, w, tc.cols, stripANSI(l))
				}
			}
		})
	}
}

func itoa(n int) string {
	if n == 120 {
		return "120"
	}
	return "80"
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func stripANSI(s string) string { return ansi.ReplaceAllString(s, "") }

// TestRender_BoardShape checks the drawing against the real board: the
// homes in their corners, each colour's exit on the lane beside its home,
// its column running from its arm's tip to the centre.
func TestRender_BoardShape(t *testing.T) {
	var snap board.Snapshot
	var f board.Frame
	var b bytes.Buffer
	if err := Render(&b, &View{Pieces: &snap, Lights: &f}, Opts{Columns: 80, Lang: English}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(stripANSI(b.String()), "\n")
	// at returns the label drawn in the cell at column x, row y.
	at := func(x, y int) string {
		r := []rune(lines[y] + strings.Repeat(" ", 80))
		return strings.TrimSpace(string(r[x*4 : x*4+4]))
	}
	for _, tc := range []struct {
		x, y int
		want string
	}{
		{9, 18, "68"}, {10, 18, "1"}, {10, 14, "5"}, {9, 17, "Y1"}, {9, 11, "Y7"}, {9, 10, "YG"},
		{18, 9, "17"}, {14, 8, "22"}, {17, 9, "B1"}, {10, 9, "BG"},
		{9, 0, "34"}, {8, 4, "39"}, {9, 1, "R1"}, {9, 8, "RG"},
		{0, 9, "51"}, {4, 10, "56"}, {1, 9, "G1"}, {8, 9, "GG"},
	} {
		if got := at(tc.x, tc.y); got != tc.want {
			t.Errorf("cell (%d,%d) shows %q, want %q", tc.x, tc.y, got, tc.want)
		}
	}
	for _, tc := range []struct {
		y    int
		name string
		left bool
	}{{3, "RED", true}, {3, "BLUE", false}, {14, "GREEN", true}, {14, "YELLOW", false}} {
		i := strings.Index(lines[tc.y], tc.name)
		if i < 0 || (i < 38) != tc.left {
			t.Errorf("%s home not in its corner: line %d is %q", tc.name, tc.y, lines[tc.y])
		}
	}
}

func TestGrid_EverySiteOnce_TrackContinuous(t *testing.T) {
	where := map[engine.Site][2]int{}
	for y := range gridSize {
		for x := range gridSize {
			if g := grid[y][x]; g.kind == cellSite {
				if _, dup := where[g.site]; dup {
					t.Errorf("site %s drawn twice", g.site)
				}
				where[g.site] = [2]int{x, y}
			}
		}
	}
	if want := int(engine.HomeSite(0)); len(where) != want {
		t.Errorf("%d sites drawn, want %d (all but the homes)", len(where), want)
	}
	// Consecutive squares touch, side by side or, at an arm's inner
	// corner, diagonally, as on the board.
	for n := 1; n <= engine.TrackLen; n++ {
		a, b := where[engine.TrackSite(n)], where[engine.TrackSite(n%engine.TrackLen+1)]
		if dx, dy := abs(a[0]-b[0]), abs(a[1]-b[1]); dx > 1 || dy > 1 {
			t.Errorf("squares %d and %d are apart: %v %v", n, n%engine.TrackLen+1, a, b)
		}
	}
}

func abs(n int) int { return max(n, -n) }

func TestLegend_NamesTheLightsInUse(t *testing.T) {
	lit := func(s engine.Site, c board.RGB, p board.Pattern) *board.Frame {
		var f board.Frame
		f.Sites[s] = board.Light{Colour: c, Pattern: p}
		return &f
	}
	tray := func(c board.RGB, p board.Pattern) *board.Frame {
		var f board.Frame
		for i := range f.Tray {
			f.Tray[i] = board.Light{Colour: c, Pattern: p}
		}
		return &f
	}
	for _, tc := range []struct {
		name  string
		frame *board.Frame
		en    string
		es    string
	}{
		{"nothing lit", &board.Frame{}, "lights: none", "luces: ninguna"},
		{"whose turn", tray(referee.PlayerColours[engine.Red], board.Pulse), "whose turn", "turno"},
		{"may move", lit(engine.TrackSite(9), referee.ColourWhite, board.Steady), "may move", "puede mover"},
		{"may go", lit(engine.TrackSite(9), referee.ColourWhite, board.Pulse), "~ may go", "~ puede ir"},
		{"owed", lit(engine.TrackSite(9), referee.ColourOrange, board.Blink), "! owed: take home", "! debida: a casa"},
		{"provisional", lit(engine.TrackSite(9), referee.ColourViolet, board.Pulse), "~ wait", "~ espera"},
		{"wrong", lit(engine.TrackSite(9), referee.ColourMagenta, board.Blink), "! should not be there", "! sobra"},
		{"missing", lit(engine.TrackSite(9), referee.PlayerColours[engine.Green], board.Blink), "! missing", "! falta"},
		{"throw again", tray(referee.ColourMagenta, board.Blink), "! throw again", "! repetir tirada"},
		{"winners", lit(engine.GoalSite(engine.Blue), referee.PlayerColours[engine.Blue], board.Pulse), "~ winners", "~ ganan"},
		{"robot's square", lit(engine.TrackSite(9), referee.PlayerColours[engine.Green], board.Pulse), "~ robot's move: put it here", "~ jugada del robot: aquí"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for lang, want := range map[Lang]string{English: tc.en, Spanish: tc.es} {
				got := stripANSI(legend(tc.frame, lang, 80))
				if !strings.HasSuffix(got, want) || strings.Count(got, "■") > 1 {
					t.Errorf("%s legend %q, want only %q", lang, got, want)
				}
			}
		})
	}
}

func TestEventLine_InWords(t *testing.T) {
	for _, tc := range []struct {
		e      referee.Event
		en, es string
	}{
		{referee.Event{Type: referee.EventStart, Colour: "R"}, "A game starts: Red plays first", "Empieza una partida: sale Rojo"},
		{referee.Event{Type: referee.EventThrow, Colour: "B", Throw: "6"}, "Blue throws 6", "Azul saca 6"},
		{referee.Event{Type: referee.EventRethrow, Colour: "Y", Throw: "edge"}, "Yellow throws again: the die on its edge", "Amarillo repite la tirada: dado de canto"},
		{referee.Event{Type: referee.EventMove, Colour: "Y", Move: "7x10", Detail: "kills Blue's piece on 10"}, "Yellow plays 7x10: kills Blue's piece on 10", "Amarillo juega 7x10 y come"},
		{referee.Event{Type: referee.EventInfraction, Colour: "G", Rule: referee.RuleKillNotDone}, "INFRACTION by Green: a killed piece left on the board: it goes home first", "INFRACCIÓN de Verde: ficha comida sin llevar a casa: primero a casa"},
		{referee.Event{Type: referee.EventMismatch, Sites: []string{"12", "BH"}}, "The board does not match the game at 12 BH", "El tablero no coincide con la partida en 12 BH"},
		{referee.Event{Type: referee.EventResult, Result: "BG"}, "Game over: Blue and Green win; a judge certifies it on the dashboard", "Fin de la partida: ganan Azul y Verde; un juez la certifica en el panel"},
	} {
		if got := English.EventLine(tc.e); got != tc.en {
			t.Errorf("English %s: %q, want %q", tc.e.Type, got, tc.en)
		}
		if got := Spanish.EventLine(tc.e); got != tc.es {
			t.Errorf("Spanish %s: %q, want %q", tc.e.Type, got, tc.es)
		}
	}
}

func TestRuleWords_EveryRuleSaid(t *testing.T) {
	for _, r := range []string{referee.RuleTouchedPiece, referee.RuleOutOfTurn, referee.RuleWrongColour, referee.RuleBackwards,
		referee.RuleWrongCount, referee.RuleBarrier, referee.RuleKillNotDone, referee.RuleMustExit, referee.RuleMustOpenBarrier,
		referee.RuleThirdSixHome, referee.RuleBonusNotPlayed, referee.RuleEarlyThrow, referee.RuleIllegalMove} {
		for _, l := range []Lang{English, Spanish} {
			if w := l.RuleWords(r); w == r || w == "" {
				t.Errorf("%s: rule %s not said in words", l, r)
			}
		}
	}
}

func TestLangFromEnv(t *testing.T) {
	for locale, want := range map[string]Lang{"es_ES.UTF-8": Spanish, "es": Spanish, "ES_AR": Spanish, "en_GB.UTF-8": English, "": English, "C.UTF-8": English, "de_DE": English} {
		if got := LangFromEnv(locale); got != want {
			t.Errorf("LangFromEnv(%q) = %s, want %s", locale, got, want)
		}
	}
}

// TestRender_FitsTheRows leaves out the oldest events, then the header,
// then the fault's line, to fit a short terminal; never the board nor the
// tour's words.
func TestRender_FitsTheRows(t *testing.T) {
	for _, tc := range []struct {
		rows  int
		say   []string
		lines int    // drawn
		want  string // kept
		not   string // left out
	}{
		{0, nil, 1 + boardLines + 1 + 3, "    5  Blue throws 5", ""},
		{40, nil, 1 + boardLines + 1 + 3, "    5  Blue throws 5", ""},
		{27, nil, 1 + boardLines + 1 + 3, "    5  Blue throws 5", ""},
		{26, nil, 25, "    6  Yellow plays", "    5  Blue throws 5"},
		{24, nil, 23, "parchisd sim", "    5  Blue throws 5"},
		{24, []string{"SAID 1", "SAID 2"}, 23, "SAID 2", "The table shows:"},
		{10, []string{"SAID 1"}, boardLines + 1, "SAID 1", "The table shows:"},
	} {
		v := sampleView(t)
		v.Say = tc.say
		var b bytes.Buffer
		if err := Render(&b, v, Opts{Columns: 80, Lang: English, Rows: tc.rows}); err != nil {
			t.Fatal(err)
		}
		out := stripANSI(b.String())
		if n := strings.Count(out, "\n"); n != tc.lines {
			t.Errorf("rows %d: %d lines, want %d:\n%s", tc.rows, n, tc.lines, out)
		}
		if !strings.Contains(out, tc.want) || (tc.not != "" && strings.Contains(out, tc.not)) || !strings.Contains(out, "╰") {
			t.Errorf("rows %d: want %q kept and %q left out:\n%s", tc.rows, tc.want, tc.not, out)
		}
	}
}
