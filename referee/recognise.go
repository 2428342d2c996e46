package referee

import (
	"fmt"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
)

// amendable remembers a landing on the partner's piece that formed a
// barrier, which becomes the kill when the partner's piece is sent home
// before the next throw (RULES.md §5: the action on the board says which).
type amendable struct {
	before *engine.Game
	kill   engine.Move
}

// onBoard handles a new stable snapshot.
func (r *Referee) onBoard() {
	if r.game == nil {
		return
	}
	pos := &r.game.Pos
	if r.amend != nil && r.tryAmend() {
		return
	}
	r.exp = board.Expected(pos)
	if agree(&r.obs, &r.exp, r.opts.Caps) {
		r.owed = r.owed[:0]
		r.inHand, r.reported = engine.NoSite, ""
		r.resolve()
		return
	}
	if r.owedOnly() {
		r.inHand = engine.NoSite
		r.resolve()
		return
	}
	if pos.Phase().IsDie() || pos.Phase().IsBonus() {
		if r.tryMoves() || r.killUnderway() {
			return
		}
	}
	// A piece in hand is no fault in any phase: a piece on its way home,
	// a partner's piece being taken home, a piece lifted and put back.
	if r.lifted() {
		return
	}
	r.illegal()
}

// tryMoves accepts a legal move whose outcome the board shows, or the
// outcome of a kill with the victim not yet taken home.
func (r *Referee) tryMoves() bool {
	pos := &r.game.Pos
	var ml engine.MoveList
	pos.LegalMoves(&ml)
	for pass := 0; pass < 2; pass++ {
		for _, m := range ml.Moves() {
			after := *pos
			out := after.PlayLegal(m)
			r.scratch = board.Expected(&after)
			if pass == 1 {
				if !m.Kill {
					continue
				}
				// The victim still stands where it was killed.
				addOwed(&r.scratch, owedPiece{colour: out.Victim, site: m.To})
			}
			// Earlier victims may still stand, or have gone home meanwhile.
			if !r.withOwed(&r.scratch, func(b *board.Snapshot) bool { return agree(&r.obs, b, r.opts.Caps) }) {
				continue
			}
			if r.touched != engine.NoSite && m.From != r.touched {
				r.flag(&Event{Type: EventInfraction, Colour: pos.Turn().String(), Rule: RuleTouchedPiece, Move: m.String(),
					Sites:  []string{r.touched.String(), m.From.String()},
					Detail: fmt.Sprintf("the piece lifted from %s must be the one played (ficha tocada es ficha jugada)", r.touched)})
				return true
			}
			r.accept(m, pass == 1)
			return true
		}
	}
	return false
}

// accept plays a move seen on the board.
func (r *Referee) accept(m engine.Move, victimOnBoard bool) {
	pos := &r.game.Pos
	c := pos.Turn()
	var before *engine.Game
	if !m.Kill && r.partnerLanding(m) {
		cp := *r.game
		cp.Actions = append([]engine.Action(nil), r.game.Actions...)
		cp.Tags = append([]engine.Tag(nil), r.game.Tags...)
		before = &cp
	}
	out, err := r.game.Play(m)
	if err != nil { // cannot happen: m came from LegalMoves
		r.emit(Event{Type: EventInfraction, Rule: RuleIllegalMove, Move: m.String(), Detail: err.Error()})
		return
	}
	r.resetTurnState()
	if before != nil {
		r.amend = &amendable{before: before, kill: engine.Move{From: m.From, To: m.To, Kill: true}}
	}
	detail := ""
	if m.Kill {
		detail = fmt.Sprintf("kills %s's piece on %s; bonus 20", out.Victim.Name(), m.To)
		if victimOnBoard {
			r.owe(owedPiece{colour: out.Victim, site: m.To, rule: RuleKillNotDone})
			detail += fmt.Sprintf("; take it to %s", engine.HomeSite(out.Victim))
		}
	} else if out.Goal {
		detail = "reaches the goal; bonus 10"
	}
	r.played = playedMove{ok: true, colour: c, move: m}
	r.emit(Event{Type: EventMove, Colour: c.String(), Move: m.String(), Detail: detail})
	r.afterAction(c, out)
	r.checkBoard()
}

// partnerLanding reports whether m lands on the partner's single piece off
// a safe square, where the player may kill instead.
func (r *Referee) partnerLanding(m engine.Move) bool {
	pos := &r.game.Pos
	n, a, _ := pos.Occupants(m.To)
	return n == 1 && m.To.Kind() == engine.Track && !m.To.Safe() && a == pos.Turn().Partner()
}

// tryAmend turns the last barrier on the partner into the kill when the
// board shows the partner's piece sent home.
func (r *Referee) tryAmend() bool {
	a := r.amend
	after := a.before.Pos
	after.PlayLegal(a.kill)
	r.scratch = board.Expected(&after)
	if !agree(&r.obs, &r.scratch, r.opts.Caps) {
		return false
	}
	// Sensors that cannot tell the barrier from the kill (presence only,
	// the partner's home already occupied) leave the barrier as it was:
	// only a board that shows the partner's piece gone makes the kill.
	r.exp = board.Expected(&r.game.Pos)
	if agree(&r.obs, &r.exp, r.opts.Caps) {
		return false
	}
	old := r.game.Actions[len(r.game.Actions)-1].Move
	r.game = a.before
	c := r.game.Pos.Turn()
	out, err := r.game.Play(a.kill)
	if err != nil {
		return false
	}
	r.resetTurnState()
	r.played = playedMove{ok: true, colour: c, move: a.kill}
	r.emit(Event{Type: EventMove, Colour: c.String(), Move: a.kill.String(),
		Detail: fmt.Sprintf("the partner's piece was sent home: %s replaces %s; bonus 20", a.kill, old)})
	r.afterAction(c, out)
	r.checkBoard()
	return true
}

// killUnderway recognises a kill made in the other order: the victim
// already taken home, the killing piece still in its place or in hand.
func (r *Referee) killUnderway() bool {
	pos := &r.game.Pos
	var ml engine.MoveList
	pos.LegalMoves(&ml)
	for _, m := range ml.Moves() {
		victim, ok := pos.Victim(m)
		if !ok {
			continue
		}
		// The victim at home, where the game has it only after the move.
		r.scratch = r.exp
		v, h := &r.scratch.Sites[m.To], &r.scratch.Sites[engine.HomeSite(victim)]
		v.Count--
		v.ByColour[victim]--
		h.Count++
		h.ByColour[victim]++
		if agree(&r.obs, &r.scratch, r.opts.Caps) {
			r.inHand = engine.NoSite
			r.resolve()
			return true
		}
		f := &r.scratch.Sites[m.From]
		f.Count--
		f.ByColour[pos.Turn()]--
		if agree(&r.obs, &r.scratch, r.opts.Caps) {
			r.inHand = m.From
			if r.touched == engine.NoSite {
				r.touched = m.From
			}
			r.resolve()
			return true
		}
	}
	return false
}

// lifted recognises pieces in the players' hands: pieces missing, nothing
// else changed (the killing piece in one hand and its victim in the other,
// on the way home, is no fault however long it takes). The first own piece
// lifted alone that has a legal move becomes the touched piece.
func (r *Referee) lifted() bool {
	// Pieces missing, against the board with the owed pieces that still
	// stand (some may have gone home meanwhile).
	inHand := func(b *board.Snapshot) bool {
		r.dl = deltas(&r.obs, b, r.opts.Caps, r.dl)
		for _, d := range r.dl {
			if d.diff >= 0 {
				return false
			}
		}
		return len(r.dl) > 0
	}
	if !r.withOwed(&r.exp, inHand) {
		return false
	}
	if len(r.dl) > 1 || r.dl[0].diff != -1 {
		// Several pieces in hand: none is touched by this (the first was
		// seen alone, if it was).
		r.resolve()
		return true
	}
	d := r.dl[0]
	pos := &r.game.Pos
	c := pos.Turn()
	// Sensors that tell no colour cannot say whose piece left a site of
	// two colours (a victim beside its killer, pieces sharing a safe
	// square): such a lift touches nothing, rather than holding a player
	// to a piece they may never have touched.
	only, single := onlyColour(pos, d.site)
	own := d.known && d.colour == c && hasColour(pos, d.site, c) || !d.known && single && only == c && !r.owedAt(d.site)
	r.inHand = d.site
	if own && r.touched == engine.NoSite && r.hasMoveFrom(d.site) {
		r.touched = d.site
	}
	r.resolve()
	return true
}

func (r *Referee) hasMoveFrom(s engine.Site) bool {
	var ml engine.MoveList
	r.game.Pos.LegalMoves(&ml)
	for _, m := range ml.Moves() {
		if m.From == s {
			return true
		}
	}
	return false
}

// unseenMove plays the one legal move the sensors cannot tell from no move
// at all, when the board reads as the position has it and exactly one such
// move exists; it reports whether it did.
func (r *Referee) unseenMove() bool {
	pos := &r.game.Pos
	c := pos.Turn()
	r.exp = board.Expected(pos)
	if !agree(&r.obs, &r.exp, r.opts.Caps) {
		return false
	}
	var ml engine.MoveList
	pos.LegalMoves(&ml)
	var unseen []engine.Move
	for _, m := range ml.Moves() {
		after := *pos
		after.PlayLegal(m)
		r.scratch = board.Expected(&after)
		if agree(&r.obs, &r.scratch, r.opts.Caps) {
			unseen = append(unseen, m)
		}
	}
	if len(unseen) != 1 {
		return false
	}
	m := unseen[0]
	out, err := r.game.Play(m)
	if err != nil {
		return false
	}
	r.resetTurnState()
	r.played = playedMove{ok: true, colour: c, move: m}
	r.emit(Event{Type: EventMove, Colour: c.String(), Move: m.String(),
		Detail: "a move the sensors cannot see, taken as played when the next throw came"})
	r.afterAction(c, out)
	return true
}
