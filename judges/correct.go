package judges

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/internal/spanish"
)

// A correction by picture: the judge edits the drawn board on the table's
// page (pieces per site and colour, turn, phase, sixes, last moved); the
// page asks /t/{event}/{table}/preview what the engine says of the
// position and how it differs from the table's, and shows both before the
// judge sends it.

// Preview is the answer of /preview.
type Preview struct {
	// OK says the position is valid; Error, in the page's language, why
	// not.
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
	// Position is the position in canonical PPN.
	Position string `json:"position,omitempty"`
	// Diff says what changes from the table's position, one line each.
	Diff []string `json:"diff"`
	// Moves are the legal moves in the position, when a move is due.
	Moves string `json:"moves,omitempty"`
}

// occupantsText says who stands on a site: "amarilla, azul" or "vacía";
// for a home or a goal, how many.
func occupantsText(lang string, p *engine.Position, s engine.Site) string {
	n, first, second := p.Occupants(s)
	if s.Kind() == engine.Home || s.Kind() == engine.Goal {
		return itoa(n)
	}
	switch n {
	case 0:
		return T(lang, "empty")
	case 1:
		return pieceName(lang, first)
	}
	return pieceName(lang, first) + ", " + pieceName(lang, second)
}

// pieceName says a piece's colour, as a piece is named.
func pieceName(lang string, c engine.Colour) string {
	if lang == LangES {
		return spanish.PieceAdjective(c.String())
	}
	return strings.ToLower(T(lang, "colour."+c.String()))
}

// PositionDiff says, one line a change, how after differs from before
// (nil before: every occupied site).
func PositionDiff(lang string, before, after *engine.Position) []string {
	var out []string
	for s := engine.Site(0); s < engine.NumSites; s++ {
		a := occupantsText(lang, after, s)
		var b string
		if before != nil {
			b = occupantsText(lang, before, s)
		} else if n, _, _ := after.Occupants(s); n == 0 || s.Kind() == engine.Home {
			continue
		}
		if a != b {
			out = append(out, s.String()+": "+b+" → "+a)
		}
	}
	field := func(key, b, a string) {
		if a != b {
			out = append(out, T(lang, key)+": "+b+" → "+a)
		}
	}
	if before != nil {
		field("turn", colourName(lang, before.Turn().String()), colourName(lang, after.Turn().String()))
		field("phase", phaseText(lang, before), phaseText(lang, after))
		field("sixes", itoa(before.Sixes()), itoa(after.Sixes()))
		field("last-moved", siteOrDash(before.Last()), siteOrDash(after.Last()))
		field("starter", colourName(lang, before.Starter().String()), colourName(lang, after.Starter().String()))
	}
	return out
}

func siteOrDash(s engine.Site) string {
	if s == engine.NoSite {
		return "-"
	}
	return s.String()
}

// previewOf checks a position a judge drew against the table's.
func previewOf(lang string, t *Table, ppn string) Preview {
	pv := Preview{Diff: []string{}}
	p, err := engine.ParsePPN(strings.TrimSpace(ppn))
	if err != nil {
		pv.Error = capitalise(Detail(lang, err.Error()))
		return pv
	}
	pv.OK, pv.Position = true, p.String()
	pv.Diff = PositionDiff(lang, t.Pos(), &p)
	if len(pv.Diff) == 0 {
		pv.Diff = []string{T(lang, "no-change")}
	}
	if ph := p.Phase(); ph.IsDie() || ph.IsBonus() {
		var ml engine.MoveList
		p.LegalMoves(&ml)
		pv.Moves = ml.String()
	}
	return pv
}

// servePreview answers what the engine says of a position and how it
// differs from the table's (Preview, JSON). It changes nothing.
func (s *Server) servePreview(w http.ResponseWriter, r *http.Request) {
	t, ok := s.store.Get(tableID(r))
	if !ok {
		http.NotFound(w, r)
		return
	}
	lang := pickLang(r, s.opts.Lang)
	q := r.URL.Query().Get("position")
	if len(q) > 400 {
		http.Error(w, T(lang, "bad-form"), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(previewOf(lang, t, q))
}

// capitalise makes a sentence's first letter a capital.
func capitalise(s string) string {
	for i, r := range s {
		return strings.ToUpper(string(r)) + s[i+len(string(r)):]
	}
	return s
}
