package engine_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/engine"
)

// TestPPN_Valid: valid positions are accepted and print back exactly.
func TestPPN_Valid(t *testing.T) {
	for _, s := range []string{
		"- Y throw 0 - Y", // the initial position
		"- G throw 0 - G",
		"5:Y,12:YB,34:RR,56:GY,YG:Y,R3:R B 5 0 - Y", // NOTATION.md's example
		"1:B,68:GY,Y7:Y,YG:YY,B1:B,BG:B,R7:R,RG:RRR,G1:G,GG:G G throw 2 G1 R",
		"YG:YYYY,BG:BBBB,RG:RRRR,GG:GGGG Y end 0 - Y",
		"20:Y,24:R Y 4 0 - Y", // partners share any square
		"30:BG B +20 1 30 B",
		"29:YB,46:RG Y +10 2 - Y", // non-partners share safe squares
		"5:YY,10:YY,22:BB,27:BB,39:RR,44:RR,56:GG,61:GG Y 6 1 - Y",
		"- Y 6 1 - Y", "- Y 6 2 - Y", "- Y 5 0 - Y", "- Y 1 0 - Y",
		"- B throw 1 - Y", "- B throw 2 - Y", "- B +20 0 - Y", "- B +10 2 - Y",
		// Not checked against each other: phase, sixes, last moved and
		// finished players, and whether a die phase has a move.
		"- R throw 0 40 Y",
		"- R throw 0 RG Y",
		"YG:YYYY Y throw 0 - Y",
		"- Y end 0 - Y",
		"- Y end 2 - Y",
		"- Y end 0 12 Y",
		"- Y 3 0 - Y",
		"- Y +20 0 - Y",
	} {
		p, err := engine.ParsePPN(s)
		if err != nil {
			t.Errorf("ParsePPN(%q): %v", s, err)
			continue
		}
		if got := p.String(); got != s {
			t.Errorf("ParsePPN(%q).String() = %q", s, got)
		}
	}
}

func TestPPN_Initial(t *testing.T) {
	for c, want := range []string{"- Y throw 0 - Y", "- B throw 0 - B", "- R throw 0 - R", "- G throw 0 - G"} {
		p := engine.NewPosition(engine.Colour(c))
		if got := p.String(); got != want {
			t.Errorf("NewPosition(%d) = %q, want %q", c, got, want)
		}
		if q := mustPPN(t, want); q != p {
			t.Errorf("ParsePPN(%q) differs from NewPosition", want)
		}
		if p.AtHome(engine.Colour(c)) != 4 {
			t.Errorf("NewPosition: %d pieces at home", p.AtHome(engine.Colour(c)))
		}
	}
}

// TestPPN_Example reads NOTATION.md's example piece by piece.
func TestPPN_Example(t *testing.T) {
	p := mustPPN(t, "5:Y,12:YB,34:RR,56:GY,YG:Y,R3:R B 5 0 - Y")
	type occ struct {
		site  string
		n     int
		first string
		last  string
	}
	for _, o := range []occ{
		{"5", 1, "Y", ""}, {"12", 2, "Y", "B"}, {"34", 2, "R", "R"}, {"56", 2, "G", "Y"},
		{"YG", 1, "Y", ""}, {"R3", 1, "R", ""}, {"YH", 0, "", ""}, {"BH", 3, "", ""},
		{"RH", 1, "", ""}, {"GH", 3, "", ""}, {"13", 0, "", ""},
	} {
		s, err := engine.ParseSite(o.site)
		if err != nil {
			t.Fatal(err)
		}
		n, a, b := p.Occupants(s)
		if n != o.n {
			t.Errorf("%s holds %d, want %d", o.site, n, o.n)
		}
		if o.first != "" && a.String() != o.first {
			t.Errorf("%s: first %s, want %s", o.site, a, o.first)
		}
		if o.last != "" && b.String() != o.last {
			t.Errorf("%s: second %s, want %s", o.site, b, o.last)
		}
	}
	if p.Turn() != engine.Blue || p.Phase() != engine.DiePhase(5) || p.Sixes() != 0 || p.Last() != engine.NoSite || p.Starter() != engine.Yellow {
		t.Errorf("fields 2–6 misread: %v %v %v %v %v", p.Turn(), p.Phase(), p.Sixes(), p.Last(), p.Starter())
	}
	if got := legal(t, p.String()); got != "BH-22" {
		t.Errorf("moves = %q, want BH-22", got)
	}
}

// TestPPN_Invalid: every rule of "valid if and only if", and the canonical
// form, refused with the field named (0: the line as a whole).
func TestPPN_Invalid(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ppn   string
		field int
	}{
		// Each colour has at most 4 pieces placed.
		{"five yellow", "5:YY,10:YY,20:Y Y throw 0 - Y", 1},
		{"five yellow with the goal", "5:Y,YG:YYYY Y throw 0 - Y", 1},
		// A square holds at most 2.
		{"three on a track square", "5:YYY Y throw 0 - Y", 1},
		{"three on a column square", "Y1:YYY Y throw 0 - Y", 1},
		{"five in a goal", "YG:YYYYY Y throw 0 - Y", 1},
		// Every piece on its own route.
		{"yellow on 1", "1:Y Y throw 0 - Y", 1},
		{"yellow on 4", "4:Y Y throw 0 - Y", 1},
		{"blue on 18", "18:B Y throw 0 - Y", 1},
		{"blue on 21", "21:B Y throw 0 - Y", 1},
		{"red on 35", "35:R Y throw 0 - Y", 1},
		{"green on 55", "55:G Y throw 0 - Y", 1},
		{"yellow in blue's column", "B1:Y Y throw 0 - Y", 1},
		{"yellow in red's goal", "RG:Y Y throw 0 - Y", 1},
		{"mixed goal", "YG:YB Y throw 0 - Y", 1},
		// Non-partner colours share only a safe square.
		{"non-partners off a safe square", "24:YB Y throw 0 - Y", 1},
		{"non-partners off a safe square, other order", "24:GY Y throw 0 - Y", 1},
		// Sixes and the die phase.
		{"6 with sixes 0", "- Y 6 0 - Y", 4},
		{"5 with sixes 1", "- Y 5 1 - Y", 4},
		{"1 with sixes 2", "- Y 1 2 - Y", 4},
		{"sixes 3", "- Y throw 3 - Y", 4},
		// Canonical form.
		{"empty line", "", 0},
		{"five fields", "- Y throw 0 -", 0},
		{"seven fields", "- Y throw 0 - Y Y", 0},
		{"double space", "-  Y throw 0 - Y", 0},
		{"leading space", " - Y throw 0 - Y", 0},
		{"trailing space", "- Y throw 0 - Y ", 0},
		{"tab", "-\tY throw 0 - Y", 0},
		{"space in placement", "5:Y, 10:Y Y throw 0 - Y", 0},
		{"wrong order of sites", "10:Y,5:Y Y throw 0 - Y", 1},
		{"column before track", "Y1:Y,5:Y Y throw 0 - Y", 1},
		{"goal before column", "YG:Y,Y1:Y Y throw 0 - Y", 1},
		{"other colour's column first", "B1:B,Y1:Y Y throw 0 - Y", 1},
		{"site twice", "5:Y,5:Y Y throw 0 - Y", 1},
		{"leading zero", "05:Y Y throw 0 - Y", 1},
		{"square 0", "0:Y Y throw 0 - Y", 1},
		{"square 69", "69:Y Y throw 0 - Y", 1},
		{"column 8", "Y8:Y Y throw 0 - Y", 1},
		{"column 0", "Y0:Y Y throw 0 - Y", 1},
		{"lowercase colour", "5:y Y throw 0 - Y", 1},
		{"lowercase site", "y1:Y Y throw 0 - Y", 1},
		{"unknown colour", "5:X Y throw 0 - Y", 1},
		{"home placed", "YH:Y Y throw 0 - Y", 1},
		{"home placed after others", "5:Y,YH:YYY Y throw 0 - Y", 1},
		{"empty placement", " Y throw 0 - Y", 1},
		{"site with no pieces", "5: Y throw 0 - Y", 1},
		{"no colon", "5Y Y throw 0 - Y", 1},
		{"two colons", "5:Y:Y Y throw 0 - Y", 1},
		{"trailing comma", "5:Y, Y throw 0 - Y", 1},
		{"double comma", "5:Y,,10:Y Y throw 0 - Y", 1},
		{"semicolon", "5:Y;10:Y Y throw 0 - Y", 1},
		{"dash and pieces", "-,5:Y Y throw 0 - Y", 1},
		{"double dash", "-- Y throw 0 - Y", 1},
		{"side lowercase", "- y throw 0 - Y", 2},
		{"side name", "- Yellow throw 0 - Y", 2},
		{"side dash", "- - throw 0 - Y", 2},
		{"phase capitalised", "- Y Throw 0 - Y", 3},
		{"phase 0", "- Y 0 0 - Y", 3},
		{"phase 7", "- Y 7 1 - Y", 3},
		{"phase 06", "- Y 06 1 - Y", 3},
		{"phase 20", "- Y 20 0 - Y", 3},
		{"phase +30", "- Y +30 0 - Y", 3},
		{"phase +5", "- Y +5 0 - Y", 3},
		{"phase over", "- Y over 0 - Y", 3},
		{"sixes 00", "- Y throw 00 - Y", 4},
		{"sixes -1", "- Y throw -1 - Y", 4},
		{"sixes x", "- Y throw x - Y", 4},
		{"last 05", "- Y throw 0 05 Y", 5},
		{"last lowercase", "- Y throw 0 yg Y", 5},
		{"last empty word", "- Y throw 0 none Y", 5},
		// Fields that can never hold in play.
		{"last a home", "20:Y Y throw 1 YH Y", 5},
		{"last another's home", "20:Y Y throw 1 BH Y", 5},
		{"last off the route", "20:Y Y throw 1 3 Y", 5},
		{"last another's column", "20:Y Y +10 0 B3 Y", 5},
		{"last another's goal", "20:Y,RG:R Y +10 0 RG Y", 5},
		{"starter lowercase", "- Y throw 0 - y", 6},
		{"starter dash", "- Y throw 0 - -", 6},
		{"starter two letters", "- Y throw 0 - YR", 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := engine.ParsePPN(tc.ppn)
			var pe *engine.PPNError
			if !errors.As(err, &pe) {
				t.Fatalf("ParsePPN(%q) = %v, want a *PPNError", tc.ppn, err)
			}
			if pe.Field != tc.field {
				t.Errorf("ParsePPN(%q): field %d (%v), want field %d", tc.ppn, pe.Field, err, tc.field)
			}
			if pe.Msg == "" {
				t.Errorf("ParsePPN(%q): empty message", tc.ppn)
			}
		})
	}
}

// TestPPN_ArrivalOrder: a piece that arrives is written last; the others
// keep their order when one leaves or is killed.
func TestPPN_ArrivalOrder(t *testing.T) {
	testSteps(t, []stepCase{
		{"arrives last", "25:Y,29:B Y 4 0 - Y", "25-29", "29:BY B throw 0 - Y", "turn-passed"},
		{"first leaves", "29:YB,40:Y Y 1 0 - Y", "29-30", "29:B,30:Y,40:Y B throw 0 - Y", "turn-passed"},
		{"last leaves", "29:BY Y 1 0 - Y", "29-30", "29:B,30:Y B throw 0 - Y", "turn-passed"},
		{"killer written last at the exit", "5:YB Y 5 0 - Y", "YHx5", "5:YY Y +20 0 5 Y", "kill 5 B"},
		{"survivor keeps first place", "5:BG Y 5 0 - Y", "YHx5", "5:BY Y +20 0 5 Y", "kill 5 G"},
	})
}

func TestJSON_RoundTrip(t *testing.T) {
	for _, tc := range []struct{ ppn, json string }{
		{"- Y throw 0 - Y", `{"placement":{},"turn":"Y","phase":"throw","sixes":0,"last":null,"starter":"Y"}`},
		{"5:Y,12:YB,34:RR,56:GY,YG:Y,R3:R B 5 0 - Y",
			`{"placement":{"5":"Y","12":"YB","34":"RR","56":"GY","YG":"Y","R3":"R"},"turn":"B","phase":"5","sixes":0,"last":null,"starter":"Y"}`},
		{"24:Y,40:Y Y +20 2 24 G", `{"placement":{"24":"Y","40":"Y"},"turn":"Y","phase":"+20","sixes":2,"last":"24","starter":"G"}`},
		{"YG:YYYY,BG:BBBB,GG:GGGG B end 0 - Y", `{"placement":{"YG":"YYYY","BG":"BBBB","GG":"GGGG"},"turn":"B","phase":"end","sixes":0,"last":null,"starter":"Y"}`},
		{"Y3:Y,YG:Y Y +10 1 YG B", `{"placement":{"Y3":"Y","YG":"Y"},"turn":"Y","phase":"+10","sixes":1,"last":"YG","starter":"B"}`},
	} {
		p := mustPPN(t, tc.ppn)
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("Marshal(%q): %v", tc.ppn, err)
		}
		if string(b) != tc.json {
			t.Errorf("Marshal(%q) =\n %s\nwant\n %s", tc.ppn, b, tc.json)
		}
		var q engine.Position
		if err := json.Unmarshal([]byte(tc.json), &q); err != nil {
			t.Fatalf("Unmarshal(%s): %v", tc.json, err)
		}
		if q != p {
			t.Errorf("Unmarshal(%s) = %q, want %q", tc.json, q, tc.ppn)
		}
	}
	// NOTATION.md's JSON example, spaced as written, in any key order.
	var p engine.Position
	doc := `{"placement": {"5": "Y", "12": "YB"}, "turn":
"B", "phase": "5", "sixes": 0, "last": null, "starter": "Y"}`
	if err := json.Unmarshal([]byte(doc), &p); err != nil {
		t.Fatal(err)
	}
	if got := p.String(); got != "5:Y,12:YB B 5 0 - Y" {
		t.Errorf("NOTATION.md's JSON = %q", got)
	}
	if err := json.Unmarshal([]byte(`{"starter":"Y","last":null,"sixes":0,"phase":"throw","turn":"Y","placement":{"YG":"Y","5":"Y"}}`), &p); err != nil {
		t.Fatal(err)
	}
	if got := p.String(); got != "5:Y,YG:Y Y throw 0 - Y" {
		t.Errorf("reordered JSON = %q", got)
	}
}

func TestJSON_Refused(t *testing.T) {
	valid := func(edit func(m map[string]any)) string {
		m := map[string]any{
			"placement": map[string]any{"20": "Y"},
			"turn":      "Y", "phase": "throw", "sixes": 0, "last": nil, "starter": "Y",
		}
		edit(m)
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct {
		name  string
		json  string
		field int // -1: not a PPNError (malformed JSON)
	}{
		{"bad site", valid(func(m map[string]any) { m["placement"] = map[string]any{"05": "Y"} }), 1},
		{"home placed", valid(func(m map[string]any) { m["placement"] = map[string]any{"YH": "Y"} }), 1},
		{"capacity", valid(func(m map[string]any) { m["placement"] = map[string]any{"20": "YYY"} }), 1},
		{"lowercase", valid(func(m map[string]any) { m["placement"] = map[string]any{"20": "y"} }), 1},
		{"no pieces", valid(func(m map[string]any) { m["placement"] = map[string]any{"20": ""} }), 1},
		{"off route", valid(func(m map[string]any) { m["placement"] = map[string]any{"2": "Y"} }), 1},
		{"non-partners unsafe", valid(func(m map[string]any) { m["placement"] = map[string]any{"24": "YB"} }), 1},
		{"five pieces", valid(func(m map[string]any) { m["placement"] = map[string]any{"20": "YY", "30": "YY", "YG": "Y"} }), 1},
		{"turn", valid(func(m map[string]any) { m["turn"] = "y" }), 2},
		{"no turn", valid(func(m map[string]any) { delete(m, "turn") }), 2},
		{"phase", valid(func(m map[string]any) { m["phase"] = "7" }), 3},
		{"sixes 3", valid(func(m map[string]any) { m["sixes"] = 3 }), 4},
		{"sixes -1", valid(func(m map[string]any) { m["sixes"] = -1 }), 4},
		{"6 with sixes 0", valid(func(m map[string]any) { m["phase"] = "6" }), 4},
		{"last dash", valid(func(m map[string]any) { m["last"] = "-" }), 5},
		{"last bad", valid(func(m map[string]any) { m["last"] = "05" }), 5},
		{"starter", valid(func(m map[string]any) { m["starter"] = "X" }), 6},
		{"unknown field", valid(func(m map[string]any) { m["extra"] = 1 }), -1},
		{"sixes as text", valid(func(m map[string]any) { m["sixes"] = "0" }), -1},
		{"not an object", `"- Y throw 0 - Y"`, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p engine.Position
			err := json.Unmarshal([]byte(tc.json), &p)
			if err == nil {
				t.Fatalf("Unmarshal(%s) accepted: %q", tc.json, p)
			}
			var pe *engine.PPNError
			if tc.field >= 0 {
				if !errors.As(err, &pe) || pe.Field != tc.field {
					t.Errorf("Unmarshal(%s) = %v, want a PPNError for field %d", tc.json, err, tc.field)
				}
			}
		})
	}
}

// TestSites: names and canonical order of the sites, and the board's
// special squares.
func TestSites(t *testing.T) {
	var names []string
	for n := 1; n <= 68; n++ {
		names = append(names, engine.TrackSite(n).String())
	}
	for _, c := range "YBRG" {
		for i := 1; i <= 7; i++ {
			names = append(names, string(c)+string(rune('0'+i)))
		}
		names = append(names, string(c)+"G")
	}
	for _, c := range "YBRG" {
		names = append(names, string(c)+"H")
	}
	prev := -1
	for _, name := range names {
		s, err := engine.ParseSite(name)
		if err != nil {
			t.Fatalf("ParseSite(%q): %v", name, err)
		}
		if s.String() != name {
			t.Errorf("ParseSite(%q).String() = %q", name, s)
		}
		if int(s) <= prev {
			t.Errorf("%s is out of canonical order", name)
		}
		prev = int(s)
	}
	if len(names) != engine.NumSites {
		t.Errorf("%d names for %d sites", len(names), engine.NumSites)
	}
	for _, bad := range []string{"", "0", "69", "05", "100", "Y0", "Y8", "y1", "X1", "YX", "H", "-", " 5", "5 "} {
		if _, err := engine.ParseSite(bad); err == nil {
			t.Errorf("ParseSite(%q) accepted", bad)
		}
	}
	wantExit := []string{"5", "22", "39", "56"}
	wantEntry := []string{"68", "17", "34", "51"}
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		if got := engine.ExitSquare(c).String(); got != wantExit[c] {
			t.Errorf("ExitSquare(%v) = %s, want %s", c, got, wantExit[c])
		}
		if got := engine.EntrySquare(c).String(); got != wantEntry[c] {
			t.Errorf("EntrySquare(%v) = %s, want %s", c, got, wantEntry[c])
		}
		if got := engine.ColumnSite(c, 1).String(); got != c.String()+"1" {
			t.Errorf("ColumnSite(%v,1) = %s", c, got)
		}
		if got := engine.GoalSite(c).String(); got != c.String()+"G" {
			t.Errorf("GoalSite(%v) = %s", c, got)
		}
		if got := engine.HomeSite(c).String(); got != c.String()+"H" {
			t.Errorf("HomeSite(%v) = %s", c, got)
		}
		// 71 steps from the exit square to the goal, 63 to the entry.
		if got := engine.Steps(c, engine.ExitSquare(c), engine.GoalSite(c)); got != 71 {
			t.Errorf("%v: %d steps exit to goal, want 71", c, got)
		}
		if got := engine.Steps(c, engine.ExitSquare(c), engine.EntrySquare(c)); got != 63 {
			t.Errorf("%v: %d steps exit to entry, want 63", c, got)
		}
	}
	safe := map[int]bool{5: true, 12: true, 17: true, 22: true, 29: true, 34: true, 39: true, 46: true, 51: true, 56: true, 63: true, 68: true}
	for n := 1; n <= 68; n++ {
		if got := engine.TrackSite(n).Safe(); got != safe[n] {
			t.Errorf("square %d safe = %v", n, got)
		}
	}
	if engine.Yellow.Partner() != engine.Red || engine.Blue.Partner() != engine.Green ||
		engine.Yellow.Next() != engine.Blue || engine.Green.Next() != engine.Yellow {
		t.Error("partners or turn order wrong")
	}
}

// TestMoveNotation: FROM-TO and FROMxTO, canonical only.
func TestMoveNotation(t *testing.T) {
	for _, s := range []string{"YH-5", "YHx5", "12-17", "28x33", "63-Y2", "Y3-YG", "68-1", "BH-22"} {
		m, err := engine.ParseMove(s)
		if err != nil {
			t.Errorf("ParseMove(%q): %v", s, err)
			continue
		}
		if m.String() != s {
			t.Errorf("ParseMove(%q).String() = %q", s, m)
		}
		if m.Kill != strings.Contains(s, "x") {
			t.Errorf("ParseMove(%q).Kill = %v", s, m.Kill)
		}
	}
	for _, s := range []string{"", "-", "x", "12", "12-", "-17", "12 17", "12--17", "12X17", "12-17 ", " 12-17", "012-17", "12-69", "yh-5", "YH5", "Y3-Yg", "12–17"} {
		if m, err := engine.ParseMove(s); err == nil {
			t.Errorf("ParseMove(%q) accepted: %v", s, m)
		}
	}
}
