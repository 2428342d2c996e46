package hw

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/parchis-table/parchis/board"
)

// WatchOpts configures a Watcher.
type WatchOpts struct {
	// Debounce configures the debouncer.
	Debounce DebounceOpts
	// Fast is the scan period while a change is being confirmed.
	Fast time.Duration
	// Poll is the scan period while nothing happens. Behind an interrupt
	// line (a Notifier) it is only a safety net and may be long; a back-end
	// without one needs it short.
	Poll time.Duration
	// Now tells the time of each scan; nil means time.Now.
	Now func() time.Time
	// Logger receives read failures and recoveries; nil means slog.Default().
	Logger *slog.Logger
}

// DefaultWatchOpts suits a back-end with an interrupt line.
var DefaultWatchOpts = WatchOpts{
	Debounce: DefaultDebounceOpts,
	Fast:     5 * time.Millisecond,
	Poll:     500 * time.Millisecond,
}

// Watcher scans a back-end, debounces, and delivers stable changes: it
// implements Sensors over any Scanner.
type Watcher struct {
	sc      Scanner
	opts    WatchOpts
	changes chan Change

	mu     sync.Mutex
	stable board.Snapshot
}

// NewWatcher returns a Watcher of sc. Call Run to start it.
func NewWatcher(sc Scanner, o *WatchOpts) (*Watcher, error) {
	if sc == nil {
		return nil, errors.New("hw: watcher needs a scanner")
	}
	if o == nil {
		o = &DefaultWatchOpts
	}
	opts := *o
	if opts.Fast <= 0 || opts.Poll <= 0 {
		return nil, fmt.Errorf("hw: watcher periods must be positive (fast %v, poll %v)", opts.Fast, opts.Poll)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Watcher{sc: sc, opts: opts, changes: make(chan Change, 8)}, nil
}

// Caps implements Sensors.
func (w *Watcher) Caps() Caps { return w.sc.Caps() }

// Snapshot implements Sensors.
func (w *Watcher) Snapshot() board.Snapshot {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stable
}

// Changes implements Sensors. The first Change is the board as first read.
func (w *Watcher) Changes() <-chan Change { return w.changes }

// Run scans until ctx is done, then returns ctx's error.
func (w *Watcher) Run(ctx context.Context) error {
	var notify <-chan struct{}
	if n, ok := w.sc.(Notifier); ok {
		notify = n.Notify(ctx)
	}
	var (
		raw     board.Snapshot
		deb     *Debouncer
		failing error
	)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-notify:
		case <-timer.C:
		}
		err := w.sc.Scan(ctx, &raw)
		t := w.opts.Now()
		switch {
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			w.opts.Logger.Error("sensors: scan failed", "err", err)
			if failing == nil {
				failing = err
				if !w.send(ctx, Change{At: t, Snapshot: w.Snapshot(), Err: err}) {
					return ctx.Err()
				}
			}
		case deb == nil:
			deb = NewDebouncer(&raw, w.opts.Debounce)
			failing = nil
			if !w.publish(ctx, t, deb.Stable()) {
				return ctx.Err()
			}
		default:
			if failing != nil {
				failing = nil
				w.opts.Logger.Info("sensors: reading again")
				if !w.send(ctx, Change{At: t, Snapshot: w.Snapshot()}) {
					return ctx.Err()
				}
			}
			if deb.Feed(t, &raw) && !w.publish(ctx, t, deb.Stable()) {
				return ctx.Err()
			}
		}
		next := w.opts.Poll
		if deb != nil && deb.Pending() {
			next = w.opts.Fast
		}
		timer.Reset(next)
	}
}

func (w *Watcher) publish(ctx context.Context, t time.Time, s *board.Snapshot) bool {
	w.mu.Lock()
	w.stable = *s
	w.mu.Unlock()
	return w.send(ctx, Change{At: t, Snapshot: *s})
}

func (w *Watcher) send(ctx context.Context, c Change) bool {
	select {
	case w.changes <- c:
		return true
	case <-ctx.Done():
		return false
	}
}
