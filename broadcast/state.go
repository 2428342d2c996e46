package broadcast

import (
	"fmt"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
)

// Players returns the players' names as payloads carry them: colour letter
// to name, leaving out seats without a name.
func Players(names [engine.NumColours]string) map[string]string {
	m := map[string]string{}
	for c, n := range names {
		if n != "" {
			m[engine.Colour(c).String()] = n
		}
	}
	return m
}

var patternNames = [...]string{board.Off: "off", board.Steady: "steady", board.Blink: "blink", board.Pulse: "pulse"}

// Lights lists the lights of a frame that are on: sites by name, the
// tray's lights as T0…T11.
func Lights(f *board.Frame) []Light {
	out := []Light{}
	add := func(name string, l board.Light) {
		if l.Pattern == board.Off || int(l.Pattern) >= len(patternNames) {
			return
		}
		out = append(out, Light{Site: name, Colour: fmt.Sprintf("#%02x%02x%02x", l.Colour.R, l.Colour.G, l.Colour.B), Pattern: patternNames[l.Pattern]})
	}
	for s, l := range f.Sites {
		add(engine.Site(s).String(), l)
	}
	for i, l := range f.Tray {
		add(fmt.Sprintf("T%d", i), l)
	}
	return out
}

// NewState builds a table's state payload.
func NewState(event, table string, seq uint64, pos engine.Position, players [engine.NumColours]string, lastThrow string, f *board.Frame, mismatch []engine.Site, at time.Time) State {
	s := State{
		Schema: StateSchema, Event: event, Table: table, Seq: seq,
		Position: pos.String(), PositionJSON: pos,
		Players: Players(players), LastThrow: lastThrow, Lights: Lights(f), Time: at,
	}
	for _, m := range mismatch {
		s.Mismatch = append(s.Mismatch, m.String())
	}
	if w, ok := pos.Winner(); ok {
		s.Result = w.String()
	}
	return s
}
