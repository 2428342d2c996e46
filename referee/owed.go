package referee

import (
	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
)

// owedPiece is a piece the rules sent home that still stands on the
// board: the victim of a kill, the piece of a third 6.
type owedPiece struct {
	colour engine.Colour
	site   engine.Site
	rule   string // the infraction if the next throw comes first
}

// maxOwed bounds the pieces owed at once. A turn owes a few at most (a
// kill, and its bonus's kills); past that the oldest is no longer told
// apart from any other wrong piece, which keeps owedOnly's search small.
const maxOwed = 6

// owe records a piece the rules sent home that still stands on the board.
func (r *Referee) owe(o owedPiece) {
	if len(r.owed) == maxOwed {
		r.owed = append(r.owed[:0], r.owed[1:]...)
	}
	r.owed = append(r.owed, o)
}

// owedOnly reports whether the board differs from the game only by pieces
// the rules sent home that are still to be taken there, and forgets those
// already taken home.
func (r *Referee) owedOnly() bool {
	return len(r.owed) > 0 && r.withOwed(&r.exp, func(b *board.Snapshot) bool { return agree(&r.obs, b, r.opts.Caps) })
}

// withOwed tries base with each subset of the owed pieces still standing
// where they were, largest first, until ok accepts one; then it forgets
// the owed pieces that are no longer there (taken home) and reports true.
func (r *Referee) withOwed(base *board.Snapshot, ok func(*board.Snapshot) bool) bool {
	n := len(r.owed)
	for mask := 1<<n - 1; mask >= 0; mask-- {
		r.owedScratch = *base
		for i, o := range r.owed {
			if mask&(1<<i) != 0 {
				addOwed(&r.owedScratch, o)
			}
		}
		if !ok(&r.owedScratch) {
			continue
		}
		kept := r.owed[:0]
		for i, o := range r.owed {
			if mask&(1<<i) != 0 {
				kept = append(kept, o)
			}
		}
		r.owed = kept
		return true
	}
	return false
}

// addOwed moves an owed piece in an expected snapshot from its home back
// to the site where it still stands.
func addOwed(s *board.Snapshot, o owedPiece) {
	h := engine.HomeSite(o.colour)
	if s.Sites[h].Count == 0 {
		return
	}
	s.Sites[h].Count--
	s.Sites[h].ByColour[o.colour]--
	s.Sites[o.site].Count++
	s.Sites[o.site].ByColour[o.colour]++
}

// firstOwed returns the first owed piece, in the order the rules sent them
// home, that still stands on the board.
func (r *Referee) firstOwed() (owedPiece, bool) {
	if len(r.owed) == 0 {
		return owedPiece{}, false
	}
	if r.owedOnly() {
		// The board is the game's but for owed pieces: those still owed
		// are exactly the ones left standing.
		if len(r.owed) > 0 {
			return r.owed[0], true
		}
		return owedPiece{}, false
	}
	// Something else differs too: an owed piece stands while its site
	// holds more of its colour than the game has there.
	for _, o := range r.owed {
		obs, exp := &r.obs.Sites[o.site], &r.exp.Sites[o.site]
		switch {
		case r.opts.Caps.Colours && obs.Coloured:
			if obs.ByColour[o.colour] > exp.ByColour[o.colour] {
				return o, true
			}
		case r.opts.Caps.Counts:
			if obs.Count > exp.Count {
				return o, true
			}
		case obs.Count > 0 && exp.Count == 0:
			return o, true
		}
	}
	return owedPiece{}, false
}

// owedAt reports whether an owed piece stands on s.
func (r *Referee) owedAt(s engine.Site) bool {
	for _, o := range r.owed {
		if o.site == s {
			return true
		}
	}
	return false
}
