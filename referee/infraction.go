package referee

import (
	"fmt"
	"strings"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
)

// illegal flags a board that matches no legal outcome: the mismatch, and
// the infraction when one piece was moved. Both wait for the grace time
// (flag).
func (r *Referee) illegal() {
	pos := &r.game.Pos
	r.dl = deltas(&r.obs, &r.exp, r.opts.Caps, r.dl)
	var from, to engine.Site = engine.NoSite, engine.NoSite
	var col engine.Colour
	known := false
	if len(r.dl) == 2 && r.dl[0].diff*r.dl[1].diff == -1 {
		a, b := r.dl[0], r.dl[1]
		if a.diff > 0 {
			a, b = b, a
		}
		if !a.known || !b.known || a.colour == b.colour {
			from, to = a.site, b.site
			col, known = a.colour, a.known
		}
	}
	if from != engine.NoSite && !known {
		if hasColour(pos, from, pos.Turn()) {
			col, known = pos.Turn(), true
		} else {
			col, known = onlyColour(pos, from)
		}
	}
	if from == engine.NoSite || !known {
		r.flag(nil)
		return
	}
	turn := pos.Turn()
	m := engine.Move{From: from, To: to}
	e := Event{Type: EventInfraction, Colour: col.String(), Move: m.String()}
	switch {
	case r.played.ok && col == r.played.colour && from == r.played.move.To && pos.Phase() == engine.PhaseThrow && engine.Steps(col, from, to) > 0:
		// The piece counted on past the square its move was taken at: a
		// move is taken as soon as the piece rests on its square, so a
		// count that goes too far shows after the move, during the next
		// turn. It is a wrong count, not a piece moved out of turn.
		n := engine.Steps(col, r.played.move.From, to)
		e.Rule, e.Detail = RuleWrongCount, fmt.Sprintf("the piece played %s went on to %s, %d steps from %s: the move %s stands", r.played.move, to, n, r.played.move.From, r.played.move)
	case pos.Phase() == engine.PhaseEnd:
		e.Rule, e.Detail = RuleIllegalMove, "the game is over"
	case col == turn.Partner():
		e.Rule, e.Detail = RuleWrongColour, fmt.Sprintf("%s's piece moved: a player never moves the partner's pieces", col.Name())
	case col != turn:
		e.Rule, e.Detail = RuleOutOfTurn, fmt.Sprintf("%s's piece moved during %s's turn", col.Name(), turn.Name())
	case pos.Phase() == engine.PhaseThrow:
		e.Rule, e.Detail = RuleIllegalMove, "a piece moved before the throw"
	default:
		e.Rule, e.Detail = r.why(m)
	}
	if e.Rule == "" {
		r.flag(nil)
		return
	}
	r.flag(&e)
}

// playedMove is a move accepted on the board, with its colour.
type playedMove struct {
	ok     bool
	colour engine.Colour
	move   engine.Move
}

// why asks the rules why a single move of the side to move is illegal,
// trying it as written with - and with x.
func (r *Referee) why(m engine.Move) (rule, detail string) {
	pos := &r.game.Pos
	var first *engine.RuleError
	for _, kill := range []bool{false, true} {
		m.Kill = kill
		err := pos.Check(m)
		if err == nil {
			// The move is legal: the board differs from its outcome in
			// something else, which the mismatch shows.
			return "", ""
		}
		re, ok := err.(*engine.RuleError)
		if !ok {
			continue
		}
		if re.Rule == RuleKillNotDone || strings.Contains(re.Reason, "kills nothing") {
			if first == nil {
				first = re
			}
			continue
		}
		return re.Rule, re.Reason
	}
	if r.touched != engine.NoSite && m.From != r.touched {
		return RuleTouchedPiece, fmt.Sprintf("the piece lifted from %s must be the one played", r.touched)
	}
	if first != nil {
		return first.Rule, first.Reason
	}
	return RuleIllegalMove, "not a legal move"
}

// reportIllegal emits an infraction once for a given board state.
func (r *Referee) reportIllegal(e Event) {
	key := e.Rule + " " + e.Move
	if r.reported == key && r.reportedObs == r.obs {
		return
	}
	r.reported, r.reportedObs = key, r.obs
	r.emit(e)
}

// openMismatch reports the sites where the board disagrees, when they
// change.
func (r *Referee) openMismatch() {
	r.dl = deltas(&r.obs, &r.exp, r.opts.Caps, r.dl)
	r.mdl = append(r.mdl[:0], r.dl...)
	var sites []engine.Site
	for _, d := range r.dl {
		if len(sites) == 0 || sites[len(sites)-1] != d.site {
			sites = append(sites, d.site)
		}
	}
	if equalSites(sites, r.mismatch) {
		return
	}
	r.mismatch = sites
	names := make([]string, len(sites))
	for i, s := range sites {
		names[i] = s.String()
	}
	r.emit(Event{Type: EventMismatch, Sites: names, Detail: r.describeMismatch()})
}

func (r *Referee) describeMismatch() string {
	var parts []string
	for _, d := range r.dl {
		what := "a piece"
		if d.known {
			what = "a " + d.colour.Name() + " piece"
		}
		if d.diff > 0 {
			parts = append(parts, fmt.Sprintf("%s too many on %s", what, d.site))
		} else {
			parts = append(parts, fmt.Sprintf("%s missing on %s", what, d.site))
		}
	}
	return strings.Join(parts, "; ")
}

// resolve closes an open mismatch.
func (r *Referee) resolve() {
	if r.mismatch == nil {
		return
	}
	r.mismatch, r.mdl = nil, r.mdl[:0]
	r.flagged = false
	r.emit(Event{Type: EventResolved, Detail: "the board agrees with the game again"})
}

func equalSites(a, b []engine.Site) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkBoard compares the last snapshot with the game after a change of
// position, opening or closing a mismatch.
func (r *Referee) checkBoard() {
	r.exp = board.Expected(&r.game.Pos)
	if !r.haveObs {
		r.obs = r.exp
	}
	if agree(&r.obs, &r.exp, r.opts.Caps) {
		r.owed = r.owed[:0]
		r.resolve()
		return
	}
	if r.owedOnly() {
		r.resolve()
		return
	}
	if r.pendingMoveShown() {
		return
	}
	r.openMismatch()
}

// pendingMoveShown reports whether, in a die or bonus phase, the board
// differs only by a piece in hand.
func (r *Referee) pendingMoveShown() bool {
	ph := r.game.Pos.Phase()
	if !ph.IsDie() && !ph.IsBonus() {
		return false
	}
	r.dl = deltas(&r.obs, &r.exp, r.opts.Caps, r.dl)
	return len(r.dl) == 1 && r.dl[0].diff == -1
}
