package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// PPN field numbers, as NOTATION.md counts them.
var ppnFields = [...]string{"", "placement", "side to move", "phase", "sixes", "last moved", "starter"}

// PPNError reports an invalid PPN position: which field and why.
type PPNError struct {
	Field int // 1…6, or 0 for the line as a whole
	Msg   string
}

func (e *PPNError) Error() string {
	if e.Field == 0 {
		return "bad position: " + e.Msg
	}
	return fmt.Sprintf("bad position: field %d (%s): %s", e.Field, ppnFields[e.Field], e.Msg)
}

func ppnErr(field int, format string, args ...any) error {
	return &PPNError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// String returns the position in PPN.
func (p Position) String() string { return string(p.AppendPPN(nil)) }

// AppendPPN appends the position's PPN to b.
func (p *Position) AppendPPN(b []byte) []byte {
	b = p.appendPlacement(b)
	b = append(b, ' ', p.turn.Letter(), ' ')
	b = append(b, p.phase.String()...)
	b = append(b, ' ', '0'+p.sixes, ' ')
	b = append(b, p.last.String()...)
	return append(b, ' ', p.starter.Letter())
}

func (p *Position) appendPlacement(b []byte) []byte {
	start := len(b)
	for s := Site(0); s < firstHome; s++ {
		cl := &p.cells[s]
		if cl.n == 0 {
			continue
		}
		if len(b) > start {
			b = append(b, ',')
		}
		b = append(b, s.String()...)
		b = append(b, ':')
		for i := uint8(0); i < cl.n; i++ {
			if s.Holds2() {
				b = append(b, cl.c[i].Letter())
			} else {
				b = append(b, s.Owner().Letter())
			}
		}
	}
	if len(b) == start {
		b = append(b, '-')
	}
	return b
}

// ParsePPN parses a position in canonical PPN and checks that it is valid
// (NOTATION.md). The error, a *PPNError, names the field that is wrong.
func ParsePPN(s string) (Position, error) {
	f := strings.Split(s, " ")
	if len(f) != 6 {
		return Position{}, &PPNError{Msg: fmt.Sprintf("want 6 fields separated by single spaces, got %d", len(f))}
	}
	return buildPosition(f[0], f[1], f[2], f[3], f[4], f[5])
}

// buildPosition makes a position from the text of its six fields.
func buildPosition(placement, turn, phase, sixes, last, starter string) (Position, error) {
	p := NewPosition(Yellow)
	if err := p.setPlacement(placement); err != nil {
		return Position{}, err
	}
	var err error
	if p.turn, err = ParseColour(turn); err != nil {
		return Position{}, ppnErr(2, "%q is not a colour: want Y, B, R or G", turn)
	}
	switch {
	case phase == "throw":
		p.phase = PhaseThrow
	case phase == "+10":
		p.phase = PhaseBonus10
	case phase == "+20":
		p.phase = PhaseBonus20
	case phase == "end":
		p.phase = PhaseEnd
	case len(phase) == 1 && phase[0] >= '1' && phase[0] <= '6':
		p.phase = Phase(phase[0] - '0')
	default:
		return Position{}, ppnErr(3, "%q: want throw, 1…6, +20, +10 or end", phase)
	}
	if len(sixes) != 1 || sixes[0] < '0' || sixes[0] > '2' {
		return Position{}, ppnErr(4, "%q: want 0, 1 or 2", sixes)
	}
	p.sixes = sixes[0] - '0'
	// Beyond these two sixes rules, the phase, sixes, last moved and
	// finished players are not checked against each other (NOTATION.md).
	switch {
	case p.phase == 6 && p.sixes == 0:
		return Position{}, ppnErr(4, "a 6 is to be played, so sixes must be at least 1")
	case p.phase.IsDie() && p.phase != 6 && p.sixes != 0:
		return Position{}, ppnErr(4, "a %d is to be played, so sixes must be 0", p.phase)
	}
	if last == "-" {
		p.last = NoSite
	} else if p.last, err = ParseSite(last); err != nil {
		return Position{}, ppnErr(5, "%q is not a site or -", last)
	}
	// A last moved that can never hold in play, whatever the phase and
	// sixes say: the piece last moved is the side to move's (NOTATION.md),
	// so it stands on that colour's route, and never in a home (a piece a
	// third 6 sends home ends the turn, and last moved with it).
	switch {
	case p.last != NoSite && p.last.Kind() == Home:
		return Position{}, ppnErr(5, "%s is a home: the piece last moved is never at home", p.last)
	case p.last != NoSite && !OnRoute(p.turn, p.last):
		return Position{}, ppnErr(5, "%s is off %s's route: the piece last moved is the side to move's", p.last, p.turn.Name())
	}
	if p.starter, err = ParseColour(starter); err != nil {
		return Position{}, ppnErr(6, "%q is not a colour: want Y, B, R or G", starter)
	}
	return p, nil
}

// setPlacement fills the board from a placement field, checking every
// validity rule of NOTATION.md that concerns pieces.
func (p *Position) setPlacement(f string) error {
	if f == "-" {
		return nil
	}
	if f == "" {
		return ppnErr(1, "empty: write - when every piece is at home")
	}
	prev := -1
	for entry := range strings.SplitSeq(f, ",") {
		name, colours, ok := strings.Cut(entry, ":")
		if !ok {
			return ppnErr(1, "%q: want SITE:COLOURS", entry)
		}
		s, ok := parseSite(name)
		if !ok {
			return ppnErr(1, "%q is not a site", name)
		}
		if s.Kind() == Home {
			return ppnErr(1, "%s: homes are not placed (unplaced pieces are at home)", name)
		}
		if int(s) <= prev {
			return ppnErr(1, "%s: sites must be in canonical order, each once", name)
		}
		prev = int(s)
		max := 2
		if s.Kind() == Goal {
			max = 4
		}
		if colours == "" || len(colours) > max {
			return ppnErr(1, "%s: holds %d pieces, want 1 to %d", name, len(colours), max)
		}
		cl := &p.cells[s]
		for i := 0; i < len(colours); i++ {
			c, ok := colourOf(colours[i])
			if !ok {
				return ppnErr(1, "%s: %q is not a colour", name, colours[i])
			}
			if !OnRoute(c, s) {
				return ppnErr(1, "%s: a %s piece never stands there", name, c.Name())
			}
			home := HomeSite(c)
			if p.cells[home].n == 0 {
				return ppnErr(1, "%s: %s has more than 4 pieces", name, c.Name())
			}
			p.cells[home].n--
			p.movePiece(c, home, s)
			if s.Holds2() {
				cl.c[i] = c
			}
			cl.n++
		}
		if cl.n == 2 && cl.c[0].Pair() != cl.c[1].Pair() && !s.Safe() {
			return ppnErr(1, "%s: pieces of non-partner colours share only a safe square", name)
		}
	}
	return nil
}

// positionJSON is the JSON form of a position (NOTATION.md).
type positionJSON struct {
	Placement map[string]string `json:"placement"`
	Turn      string            `json:"turn"`
	Phase     string            `json:"phase"`
	Sixes     int               `json:"sixes"`
	Last      *string           `json:"last"`
	Starter   string            `json:"starter"`
}

// MarshalJSON writes the JSON form, with the placement in canonical order.
func (p Position) MarshalJSON() ([]byte, error) {
	b := []byte(`{"placement":{`)
	first := true
	for s := Site(0); s < firstHome; s++ {
		cl := &p.cells[s]
		if cl.n == 0 {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, s.String()...)
		b = append(b, `":"`...)
		for i := uint8(0); i < cl.n; i++ {
			if s.Holds2() {
				b = append(b, cl.c[i].Letter())
			} else {
				b = append(b, s.Owner().Letter())
			}
		}
		b = append(b, '"')
	}
	b = append(b, `},"turn":"`...)
	b = append(b, p.turn.Letter())
	b = append(b, `","phase":"`...)
	b = append(b, p.phase.String()...)
	b = append(b, `","sixes":`...)
	b = strconv.AppendInt(b, int64(p.sixes), 10)
	b = append(b, `,"last":`...)
	if p.last == NoSite {
		b = append(b, "null"...)
	} else {
		b = append(b, '"')
		b = append(b, p.last.String()...)
		b = append(b, '"')
	}
	b = append(b, `,"starter":"`...)
	b = append(b, p.starter.Letter())
	return append(b, `"}`...), nil
}

// UnmarshalJSON reads the JSON form, with the same validity rules as PPN.
func (p *Position) UnmarshalJSON(data []byte) error {
	var j positionJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("bad position JSON: %w", err)
	}
	sites := make([]Site, 0, len(j.Placement))
	for k, v := range j.Placement {
		s, err := ParseSite(k)
		if err != nil {
			return ppnErr(1, "%q is not a site", k)
		}
		if strings.Trim(v, colourLetters) != "" {
			return ppnErr(1, "%s: %q is not a list of colours", k, v)
		}
		sites = append(sites, s)
	}
	// Order the entries canonically so the PPN rules apply unchanged.
	for i := 1; i < len(sites); i++ {
		for k := i; k > 0 && sites[k-1] > sites[k]; k-- {
			sites[k-1], sites[k] = sites[k], sites[k-1]
		}
	}
	var pl strings.Builder
	for i, s := range sites {
		if i > 0 {
			pl.WriteByte(',')
		}
		pl.WriteString(s.String() + ":" + j.Placement[s.String()])
	}
	if len(sites) == 0 {
		pl.WriteByte('-')
	}
	if j.Sixes < 0 || j.Sixes > 2 {
		return ppnErr(4, "%d: want 0, 1 or 2", j.Sixes)
	}
	last := "-"
	if j.Last != nil {
		last = *j.Last
		if last == "-" {
			return ppnErr(5, `"-": write null for no piece`)
		}
	}
	q, err := buildPosition(pl.String(), j.Turn, j.Phase, strconv.Itoa(j.Sixes), last, j.Starter)
	if err != nil {
		return err
	}
	*p = q
	return nil
}
