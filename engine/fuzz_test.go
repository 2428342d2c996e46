package engine_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/engine"
)

// FuzzParsePPN: the parser never panics, refuses with a *PPNError, and
// accepts only canonical text: a position it accepts prints back as the
// same text, survives JSON, and can be played on.
func FuzzParsePPN(f *testing.F) {
	for _, s := range []string{
		"- Y throw 0 - Y",
		"5:Y,12:YB,34:RR,56:GY,YG:Y,R3:R B 5 0 - Y",
		"YG:YYYY,RG:RRRR,GG:GGGG R end 0 - Y",
		"20:YY,40:Y Y 6 1 - Y",
		"24:Y,40:Y Y +20 2 24 G",
		"05:Y Y throw 0 - Y",
		"10:Y,5:Y Y throw 0 - Y",
		"-  Y throw 0 - Y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := engine.ParsePPN(s)
		if err != nil {
			var pe *engine.PPNError
			if !errors.As(err, &pe) || pe.Field < 0 || pe.Field > 6 {
				t.Fatalf("ParsePPN(%q) = %v, want a *PPNError", s, err)
			}
			return
		}
		if got := p.String(); got != s {
			t.Fatalf("ParsePPN(%q) accepted a form it prints as %q", s, got)
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var q engine.Position
		if err := json.Unmarshal(b, &q); err != nil || q != p {
			t.Fatalf("JSON %s: %v", b, err)
		}
		var ml engine.MoveList
		p.LegalMoves(&ml)
		for _, m := range ml.Moves() {
			c := p
			if _, err := c.Play(m); err != nil {
				t.Fatalf("legal %s refused on %q: %v", m, s, err)
			}
		}
		if p.Phase() == engine.PhaseThrow {
			for d := 1; d <= 6; d++ {
				c := p
				if _, err := c.Throw(d); err != nil {
					t.Fatalf("Throw(%d) on %q: %v", d, s, err)
				}
			}
		}
	})
}

// FuzzParseMove: a move that parses prints back as the same text.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"YH-5", "YHx5", "12-17", "28x33", "63-Y2", "Y3-YG", "12--17", "012-17"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := engine.ParseMove(s)
		if err != nil {
			return
		}
		if got := m.String(); got != s {
			t.Fatalf("ParseMove(%q) prints as %q", s, got)
		}
	})
}

// FuzzPositionJSON: JSON that reads as a position writes back to JSON that
// reads as the same position.
func FuzzPositionJSON(f *testing.F) {
	f.Add(`{"placement": {"5": "Y", "12": "YB"}, "turn": "B", "phase": "5", "sixes": 0, "last": null, "starter": "Y"}`)
	f.Add(`{"placement":{"YG":"YYYY"},"turn":"R","phase":"end","sixes":0,"last":null,"starter":"Y"}`)
	f.Add(`{"placement":{"24":"Y"},"turn":"Y","phase":"+20","sixes":2,"last":"24","starter":"G"}`)
	f.Fuzz(func(t *testing.T, s string) {
		var p engine.Position
		if json.Unmarshal([]byte(s), &p) != nil {
			return
		}
		q, err := engine.ParsePPN(p.String())
		if err != nil || q != p {
			t.Fatalf("JSON %s reads as %q, which does not parse back: %v", s, p, err)
		}
		b, _ := json.Marshal(p)
		var r engine.Position
		if err := json.Unmarshal(b, &r); err != nil || r != p {
			t.Fatalf("JSON %s round-trips to %s: %v", s, b, err)
		}
	})
}

// FuzzReadRecord: the reader never panics, reports problems as a
// *RecordError with a line, and a record it accepts writes a record that
// reads back to the same game and writes the same bytes.
func FuzzReadRecord(f *testing.F) {
	if data, err := os.ReadFile("testdata/game.txt"); err == nil {
		f.Add(string(data))
	}
	f.Add(header("Y", "*") + "Y 5 YH-5 {19:02:11}\nB 3 -\n; touched piece\nR 6 -\n")
	f.Add(header("Y", "BG", `[Setup "G7:G,GG:GGG G throw 0 - Y"]`) + "G 1 G7-GG\nG +10 -\n")
	f.Add(header("Y", "*", `[Setup "20:Y,24:B Y 4 0 - Y"]`) + "Y 4 20x24\nY +20 24-44\n")
	f.Add(header("Y", "*") + "Y 5 YH-5\n; judge set 20:Y,24:B Y 4 0 - Y\nY 4 20x24\n")
	f.Fuzz(func(t *testing.T, s string) {
		g, err := engine.ReadRecord(strings.NewReader(s))
		if err != nil {
			var re *engine.RecordError
			if !errors.As(err, &re) || re.Line < 0 {
				t.Fatalf("err = %v, want a *RecordError", err)
			}
			return
		}
		var b bytes.Buffer
		g.WriteTo(&b)
		r, err := engine.ReadRecord(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatalf("written record does not read: %v\n%s", err, b.String())
		}
		if r.Pos != g.Pos {
			t.Fatalf("written record replays to %q, not %q", r.Pos, g.Pos)
		}
		var b2 bytes.Buffer
		r.WriteTo(&b2)
		if !bytes.Equal(b.Bytes(), b2.Bytes()) {
			t.Fatalf("record not stable:\n%s\n---\n%s", b.String(), b2.String())
		}
	})
}
