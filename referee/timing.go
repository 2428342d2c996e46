package referee

import (
	"time"

	"github.com/parchis-table/parchis/board"
)

// DefaultGrace is how long the board must hold still in a position that
// no legal outcome explains before the referee calls it wrong, when
// Opts.Grace is zero. People count a piece out square by square at 0.3 to
// 0.6 s a hop, and every hop is a stable snapshot: a shorter grace would
// flag the squares passed on the way.
const DefaultGrace = 1500 * time.Millisecond

// pendingFlag is a board that no legal outcome explains, not yet flagged:
// the mismatch, and the infraction when there is one, wait for the grace
// time or the next throw, whichever comes first. Until then the lights show
// it as provisional.
type pendingFlag struct {
	since      time.Time // when the board settled so
	infraction *Event    // the infraction to report, or nil
}

// grace returns the grace time the options give.
func (r *Referee) grace() time.Duration {
	if r.opts.Grace == 0 {
		return DefaultGrace
	}
	return r.opts.Grace
}

// Deadline returns when the board, if nothing changes, turns from
// provisional to flagged. The daemon then hands the referee an InputTimer
// (journaled like any input) at that time; ok is false when nothing waits.
func (r *Referee) Deadline() (t time.Time, ok bool) {
	if r.pend == nil {
		return time.Time{}, false
	}
	return r.pend.since.Add(r.grace()), true
}

// Provisional reports whether the board is in a position no legal outcome
// explains that is not flagged yet: a piece in transit, or a wrong
// placement still within the grace time.
func (r *Referee) Provisional() bool { return r.pend != nil }

// flag reports a board that no legal outcome explains, with its infraction
// (nil for none): at once when the grace is negative, else when the grace
// ends or the next throw comes. A board that stays as it was keeps the
// time it settled at.
func (r *Referee) flag(inf *Event) {
	if r.flagged && r.flaggedObs == r.obs && r.mismatch != nil {
		// This very board is flagged already (a re-check of the board
		// sends it again): nothing waits.
		return
	}
	if r.grace() < 0 {
		r.openMismatch()
		if inf != nil {
			r.reportIllegal(*inf)
		}
		return
	}
	since := r.now
	if r.held != nil {
		since = r.held.since
	}
	r.pend = &pendingFlag{since: since, infraction: inf}
	r.pendObs = r.obs
	r.pdl = deltas(&r.obs, &r.exp, r.opts.Caps, r.pdl)
}

// expireAt flags what waits when its grace has ended by time t: the board
// held still for the whole grace time.
func (r *Referee) expireAt(t time.Time) {
	if d, ok := r.Deadline(); ok && !t.Before(d) {
		now := r.now
		r.now = d
		r.expire()
		r.now = now
	}
}

// expire flags what waits, now: the mismatch, then the infraction.
func (r *Referee) expire() {
	p := r.pend
	if p == nil {
		return
	}
	r.pend = nil
	if r.game == nil {
		return
	}
	r.exp = board.Expected(&r.game.Pos)
	r.openMismatch()
	if p.infraction != nil {
		r.reportIllegal(*p.infraction)
	}
	r.flagged, r.flaggedObs = true, r.obs
}
