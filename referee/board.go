package referee

import (
	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
)

// same reports whether an observed reading agrees with an expected one, as
// far as sensors with caps can tell.
func same(obs, exp *board.Reading, caps board.Caps) bool {
	switch {
	case caps.Colours && obs.Coloured:
		return obs.ByColour == exp.ByColour
	case caps.Counts:
		return obs.Count == exp.Count
	}
	return (obs.Count > 0) == (exp.Count > 0)
}

// agree reports whether the whole observed board agrees with the expected.
func agree(obs, exp *board.Snapshot, caps board.Caps) bool {
	for s := range obs.Sites {
		if !same(&obs.Sites[s], &exp.Sites[s], caps) {
			return false
		}
	}
	return true
}

// delta is how one site's observation differs from expectation: how many
// pieces are missing or extra, and of which colour when it is known.
type delta struct {
	site   engine.Site
	diff   int           // observed minus expected pieces (presence: ±1)
	colour engine.Colour // the colour concerned, when known
	known  bool
}

// deltas lists the sites where obs and exp disagree, into dst. Colour-aware
// sites with several colours changed give one delta per colour.
func deltas(obs, exp *board.Snapshot, caps board.Caps, dst []delta) []delta {
	dst = dst[:0]
	for i := range obs.Sites {
		o, e := &obs.Sites[i], &exp.Sites[i]
		if same(o, e, caps) {
			continue
		}
		s := engine.Site(i)
		switch {
		case caps.Colours && o.Coloured:
			for c := engine.Colour(0); c < engine.NumColours; c++ {
				if d := int(o.ByColour[c]) - int(e.ByColour[c]); d != 0 {
					dst = append(dst, delta{site: s, diff: d, colour: c, known: true})
				}
			}
		case caps.Counts:
			dst = append(dst, delta{site: s, diff: int(o.Count) - int(e.Count)})
		default:
			d := 1
			if o.Count == 0 {
				d = -1
			}
			dst = append(dst, delta{site: s, diff: d})
		}
	}
	return dst
}

// onlyColour returns the colour of the pieces on s in pos when they are
// all of one colour.
func onlyColour(pos *engine.Position, s engine.Site) (engine.Colour, bool) {
	n, a, b := pos.Occupants(s)
	if n == 0 || (n == 2 && a != b) {
		return 0, false
	}
	return a, true
}

// hasColour reports whether a piece of colour c stands on s in pos.
func hasColour(pos *engine.Position, s engine.Site, c engine.Colour) bool {
	n, a, b := pos.Occupants(s)
	return n >= 1 && a == c || n == 2 && b == c
}
