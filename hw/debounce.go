package hw

import (
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
)

// DebounceOpts configures a Debouncer.
type DebounceOpts struct {
	// Integrate is how many more scans must show a new reading than show
	// the old one before a site's filtered reading follows (a per-site
	// integrator: a scan agreeing with the filtered reading counts down,
	// one showing the candidate counts up). 1 follows every scan.
	Integrate int
	// Settle is how long the filtered readings of the whole board must stay
	// unchanged before a change is reported: a hand sweeping over the board
	// or a piece slid across several squares is reported once it rests.
	Settle time.Duration
}

// DefaultDebounceOpts suits reed switches scanned every 5 ms.
var DefaultDebounceOpts = DebounceOpts{Integrate: 4, Settle: 250 * time.Millisecond}

// Debouncer turns raw scans into stable snapshots. It reads no clock: every
// scan comes with its time. The zero value is not usable; see NewDebouncer.
type Debouncer struct {
	opts     DebounceOpts
	stable   board.Snapshot
	filtered board.Snapshot
	cand     board.Snapshot
	level    [engine.NumSites]int16
	moved    time.Time // when a filtered reading last changed
	pending  bool      // a filtered reading changed since the last report
	busy     bool      // some site is integrating a candidate
}

// NewDebouncer returns a debouncer whose stable snapshot starts as initial
// (typically the first scan).
func NewDebouncer(initial *board.Snapshot, o DebounceOpts) *Debouncer {
	if o.Integrate < 1 {
		o.Integrate = 1
	}
	return &Debouncer{opts: o, stable: *initial, filtered: *initial}
}

// Stable returns the latest stable snapshot.
func (d *Debouncer) Stable() *board.Snapshot { return &d.stable }

// Pending reports whether a change is being confirmed: the caller should
// keep scanning quickly until it is not.
func (d *Debouncer) Pending() bool { return d.pending || d.busy }

// Feed takes one raw scan taken at time t and reports whether the stable
// snapshot changed.
func (d *Debouncer) Feed(t time.Time, raw *board.Snapshot) bool {
	n := int16(d.opts.Integrate)
	d.busy = false
	for s := range raw.Sites {
		r := &raw.Sites[s]
		switch {
		case *r == d.filtered.Sites[s]:
			if d.level[s] > 0 {
				d.level[s]--
				d.busy = d.busy || d.level[s] > 0
			}
			continue
		case *r == d.cand.Sites[s]:
			d.level[s]++
		default:
			d.cand.Sites[s] = *r
			d.level[s] = 1
		}
		if d.level[s] >= n {
			d.filtered.Sites[s] = *r
			d.level[s] = 0
			d.moved = t
			d.pending = true
		} else {
			d.busy = true
		}
	}
	if !d.pending || t.Sub(d.moved) < d.opts.Settle {
		return false
	}
	d.pending = false
	if d.filtered == d.stable {
		return false
	}
	d.stable = d.filtered
	return true
}
