package vision

import (
	"image"
	"time"
)

// WatchOpts configures a [Watcher].
type WatchOpts struct {
	// Rest is how long the tray must be still after motion before the
	// die is read. Default 300 ms.
	Rest time.Duration
	// Cell is the side, in pixels, of the cells the at-rest check
	// compares between frames. Default 8.
	Cell int
	// Threshold is the change of a cell's mean grey, in levels, that
	// counts as motion. Default 10.
	Threshold int
	// DieCells is the most cells a tumbling die changes in one frame;
	// more is a hand (or the cup) over the tray. 0 means a quarter of the
	// frame, or about four dice when the reader knows the die's size.
	DieCells int
	// MinTumble is how many frames of die-sized motion a throw needs
	// before coming to rest. Default 2.
	MinTumble int
}

// DefaultWatchOpts are the defaults documented on [WatchOpts].
var DefaultWatchOpts = WatchOpts{Rest: 300 * time.Millisecond, Cell: 8, Threshold: 10, MinTumble: 2}

// EventKind is what a [Watcher] reports.
type EventKind int

// The events.
const (
	// Throw: the die tumbled and came to rest showing a value.
	Throw EventKind = iota + 1
	// Rethrow: the die tumbled and came to rest but cannot count: on an
	// edge, out of the tray, more than one die, or unreadable.
	Rethrow
	// Suspicious: the die appeared, moved or turned without tumbling
	// (placed or turned by hand). Result is what it shows now.
	Suspicious
)

// String returns "throw", "rethrow" or "suspicious".
func (k EventKind) String() string {
	switch k {
	case Throw:
		return "throw"
	case Rethrow:
		return "rethrow"
	case Suspicious:
		return "suspicious"
	}
	return "event?"
}

// Event is one report of a [Watcher].
type Event struct {
	Kind   EventKind
	Result Result        // the reading of the die at rest
	At     time.Duration // timestamp of the frame that was read
}

// DieReader reads the die in a still frame of the tray: the pip rules'
// [Reader], or the learned reader of package vision/learned.
type DieReader interface {
	Read(g *image.Gray) Result
	// DieSize is the die's width in pixels, from the calibration; 0
	// when it is not known.
	DieSize() float64
}

// Watcher decides from a stream of frames when a throw has happened. Feed
// it every frame with its timestamp; it reads the die once the tray has
// been still for Rest after motion, and reports each throw once. It reads
// no clock: time comes with the frames.
type Watcher struct {
	rd   DieReader
	opts WatchOpts

	prev, cur []int32 // cell sums of the previous and current frame
	cw, ch    int     // cells across and down
	started   bool

	moving    bool
	settled   bool          // still for Rest since the last motion, and read
	stillFrom time.Duration // when the tray became still
	tumble    int           // frames of die-sized motion since the last rest
	lastBig   bool          // the last motion was hand-sized
	last      Result        // the last reading at rest
	haveLast  bool
	events    []Event
	changed   int // cells changed in the last frame
}

// NewWatcher returns a Watcher that reads with rd (nil: a Reader with
// DefaultOpts) and the given options (nil: DefaultWatchOpts).
func NewWatcher(rd DieReader, opts *WatchOpts) *Watcher {
	if rd == nil {
		rd = NewReader(nil)
	}
	o := DefaultWatchOpts
	if opts != nil {
		o = *opts
	}
	if o.Rest <= 0 {
		o.Rest = DefaultWatchOpts.Rest
	}
	if o.Cell <= 0 {
		o.Cell = DefaultWatchOpts.Cell
	}
	if o.Threshold <= 0 {
		o.Threshold = DefaultWatchOpts.Threshold
	}
	if o.MinTumble <= 0 {
		o.MinTumble = DefaultWatchOpts.MinTumble
	}
	return &Watcher{rd: rd, opts: o}
}

// Changed compares g with the previous frame given to Changed (or Feed)
// and returns how many cells changed: 0 means at rest. It keeps g's cell
// sums for the next call and allocates nothing once the frame size is
// steady.
func (w *Watcher) Changed(g *image.Gray) int {
	c := w.opts.Cell
	cw, ch := g.Rect.Dx()/c, g.Rect.Dy()/c
	if cw != w.cw || ch != w.ch || !w.started {
		w.cw, w.ch = cw, ch
		if cap(w.prev) < cw*ch {
			w.prev = make([]int32, cw*ch)
			w.cur = make([]int32, cw*ch)
		}
		w.prev, w.cur = w.prev[:cw*ch], w.cur[:cw*ch]
		w.cellSums(g, w.prev)
		w.started = true
		w.changed = 0
		return 0
	}
	w.cellSums(g, w.cur)
	// a cell's sum is over (c/2)² samples
	n := int32(c / 2 * (c / 2))
	thr := int32(w.opts.Threshold) * n
	changed := 0
	for i, v := range w.cur {
		d := v - w.prev[i]
		if d > thr || d < -thr {
			changed++
		}
	}
	w.prev, w.cur = w.cur, w.prev
	w.changed = changed
	return changed
}

// cellSums sums every other pixel of every other row in each cell.
func (w *Watcher) cellSums(g *image.Gray, out []int32) {
	c := w.opts.Cell
	base := g.PixOffset(g.Rect.Min.X, g.Rect.Min.Y)
	for cy := 0; cy < w.ch; cy++ {
		row := out[cy*w.cw : cy*w.cw+w.cw]
		for i := range row {
			row[i] = 0
		}
		for y := cy * c; y < cy*c+c; y += 2 {
			pix := g.Pix[base+y*g.Stride : base+y*g.Stride+w.cw*c]
			for cx := range row {
				p := pix[cx*c : cx*c+c]
				var s int32
				for x := 0; x < len(p); x += 2 {
					s += int32(p[x])
				}
				row[cx] += s
			}
		}
	}
}

// dieCells is the most changed cells a die alone accounts for.
func (w *Watcher) dieCells() int {
	if w.opts.DieCells > 0 {
		return w.opts.DieCells
	}
	if ds := w.rd.DieSize(); ds > 0 {
		k := int(ds)/w.opts.Cell + 2
		return 4 * k * k
	}
	return max(4, w.cw*w.ch/4)
}

// Feed gives the watcher the next frame, taken at time at, and returns
// what happened (usually nothing). The returned slice is reused by the
// next call.
func (w *Watcher) Feed(g *image.Gray, at time.Duration) []Event {
	w.events = w.events[:0]
	first := !w.started
	n := w.Changed(g)
	if first {
		w.stillFrom = at
		return w.events
	}
	if n > 0 {
		if !w.moving {
			w.moving = true
		}
		w.settled = false
		if n <= w.dieCells() {
			w.tumble++
			w.lastBig = false
		} else {
			// a hand over the tray: any tumbling before it does not count
			w.tumble = 0
			w.lastBig = true
		}
		w.stillFrom = at
		return w.events
	}
	w.moving = false
	if w.settled || at-w.stillFrom < w.opts.Rest {
		return w.events
	}
	w.settled = true
	res := w.rd.Read(g)
	tumbled := w.tumble >= w.opts.MinTumble
	w.tumble = 0
	same := w.haveLast && res.Answer == w.last.Answer && res.Value == w.last.Value && near(res.Box, w.last.Box)
	w.last, w.haveLast = res, true
	switch {
	case tumbled && res.Answer == Value:
		w.events = append(w.events, Event{Kind: Throw, Result: res, At: at})
	case tumbled:
		w.events = append(w.events, Event{Kind: Rethrow, Result: res, At: at})
	case same:
		// something passed over the tray; the die did not change
	case res.Answer == None:
		// the die was taken out of the tray: nothing to report until a throw
	default:
		w.events = append(w.events, Event{Kind: Suspicious, Result: res, At: at})
	}
	return w.events
}

// near reports whether two boxes are about the same place.
func near(a, b image.Rectangle) bool {
	if a.Empty() || b.Empty() {
		return a.Empty() == b.Empty()
	}
	tol := max(a.Dx(), a.Dy()) / 4
	d := a.Min.Sub(b.Min)
	e := a.Max.Sub(b.Max)
	return abs(d.X) <= tol && abs(d.Y) <= tol && abs(e.X) <= tol && abs(e.Y) <= tol
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
