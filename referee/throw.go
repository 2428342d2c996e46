package referee

import (
	"fmt"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
)

// onThrow handles a throw read by the camera.
func (r *Referee) onThrow(kind ThrowKind, value int) {
	if r.game == nil {
		return
	}
	pos := &r.game.Pos
	c := pos.Turn()
	if pos.Phase() == engine.PhaseEnd {
		return
	}
	if kind != ThrowValue || value < 1 || value > 6 {
		r.rethrow = true
		detail := map[ThrowKind]string{
			ThrowEdge:       "the die is not flat: throw again",
			ThrowNone:       "the die left the tray: throw again",
			ThrowMulti:      "more than one die: throw one die again",
			ThrowUnsure:     "the die could not be read: throw again",
			ThrowSuspicious: "the die appeared or turned without tumbling: throw again",
		}[kind]
		if kind == ThrowValue {
			detail = fmt.Sprintf("bad die value %d: throw again", value)
		}
		r.emit(Event{Type: EventRethrow, Colour: c.String(), Throw: kind.String(), Detail: detail})
		return
	}
	val := fmt.Sprint(value)
	// Presence-only sensors cannot see every move (one of two pieces
	// leaving a square for an occupied one): when exactly one legal move
	// is invisible and the board still reads as before, the next throw
	// says it was made.
	for (pos.Phase().IsDie() || pos.Phase().IsBonus()) && r.unseenMove() {
		c = pos.Turn()
	}
	// What is owed comes in the order of play: a piece the rules sent
	// home that still stands (the kill is completed before its bonus, and
	// earlier pieces before later ones), then the bonus, then the move of
	// the last throw. The first one owed names the infraction.
	r.exp = board.Expected(pos)
	agreed := agree(&r.obs, &r.exp, r.opts.Caps)
	if !agreed {
		if o, ok := r.firstOwed(); ok {
			r.emit(Event{Type: EventInfraction, Colour: c.String(), Rule: o.rule, Throw: val, Sites: []string{o.site.String()},
				Detail: fmt.Sprintf("the %s piece on %s must go home before the next throw: this throw does not count", o.colour.Name(), o.site)})
			return
		}
	}
	switch {
	case pos.Phase().IsDie():
		r.emit(Event{Type: EventInfraction, Colour: c.String(), Rule: RuleEarlyThrow, Throw: val,
			Detail: fmt.Sprintf("the %s is still to be played: this throw does not count", pos.Phase())})
		return
	case pos.Phase().IsBonus():
		r.emit(Event{Type: EventInfraction, Colour: c.String(), Rule: RuleBonusNotPlayed, Throw: val,
			Detail: fmt.Sprintf("the bonus %s is still to be played: this throw does not count", pos.Phase())})
		return
	}
	if !agreed {
		r.emit(Event{Type: EventInfraction, Colour: c.String(), Rule: RuleEarlyThrow, Throw: val,
			Detail: "the board does not agree with the game yet: this throw does not count"})
		return
	}
	r.rethrow = false
	r.amend = nil
	r.owed = r.owed[:0]
	out, err := r.game.Throw(value)
	if err != nil {
		r.emit(Event{Type: EventInfraction, Colour: c.String(), Rule: RuleEarlyThrow, Throw: val, Detail: err.Error()})
		return
	}
	r.lastThrow = val
	r.resetTurnState()
	r.played = playedMove{}
	detail := ""
	if value == 6 && pos.Phase() == 6 && pos.Count() == 7 {
		detail = "counts 7"
	}
	r.emit(Event{Type: EventThrow, Colour: c.String(), Throw: val, Detail: detail})
	switch {
	case out.ThirdSix:
		e := Event{Type: EventThirdSix, Colour: c.String(), Throw: val,
			Detail: "third 6: no piece goes home (none moved, or it is in its column or goal); the turn passes"}
		if out.SentHome != engine.NoSite {
			r.owe(owedPiece{colour: c, site: out.SentHome, rule: RuleThirdSixHome})
			e.Sites = []string{out.SentHome.String()}
			e.Detail = fmt.Sprintf("third 6: the piece on %s goes home; the turn passes", out.SentHome)
		}
		r.emit(e)
	case out.Lost:
		r.emit(Event{Type: EventLost, Colour: c.String(), Throw: val, Detail: "no legal move: the throw is lost"})
	}
	r.afterAction(c, out)
	r.checkBoard()
}
