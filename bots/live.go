package bots

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/parchis-table/parchis/engine"
)

// LiveEstimate is the win chance of one position of a game in play: Seq
// is the number of the table's last event when the position was posted.
type LiveEstimate struct {
	Seq      uint64
	Position engine.Position
	Estimate
}

// Live estimates the win chances of a table's positions on its own
// goroutine (Run), so that whoever posts them (the referee's goroutine)
// never waits. Only the newest position counts: one posted while an
// estimate runs stops it, and that estimate is dropped, never delivered.
type Live struct {
	playouts int
	seed     uint64

	mu      sync.Mutex
	pending *LiveEstimate
	gen     atomic.Uint64
	wake    chan struct{}
	out     chan LiveEstimate
	dropped atomic.Uint64
	busy    atomic.Uint64
}

// NewLive returns an estimator making playouts playouts a position, with
// dice seeded by seed and the position's Seq, so that a position's
// estimate is repeatable.
func NewLive(playouts int, seed uint64) *Live {
	return &Live{playouts: playouts, seed: seed, wake: make(chan struct{}, 1), out: make(chan LiveEstimate, 1)}
}

// Post hands the estimator the newest position; it never blocks.
func (l *Live) Post(pos engine.Position, seq uint64) {
	l.mu.Lock()
	l.pending = &LiveEstimate{Seq: seq, Position: pos}
	l.gen.Add(1)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Results delivers the finished estimates, each of the newest position
// posted when it finished. An estimate not taken before the next one
// finishes is replaced by it.
func (l *Live) Results() <-chan LiveEstimate { return l.out }

// Dropped returns how many estimates were stopped by a newer position.
func (l *Live) Dropped() uint64 { return l.dropped.Load() }

// Busy returns the Seq of the position being estimated, or 0.
func (l *Live) Busy() uint64 { return l.busy.Load() }

// Run makes the estimates until ctx ends.
func (l *Live) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.wake:
		}
		l.mu.Lock()
		job, gen := l.pending, l.gen.Load()
		l.pending = nil
		l.mu.Unlock()
		if job == nil {
			continue
		}
		l.busy.Store(job.Seq)
		stopped := false
		stop := func() bool {
			stopped = stopped || ctx.Err() != nil || l.gen.Load() != gen
			return stopped
		}
		job.Estimate = WinChanceUntil(job.Position, l.playouts, newRand(l.seed^job.Seq), stop)
		l.busy.Store(0)
		if stopped || stop() {
			if ctx.Err() == nil {
				l.dropped.Add(1)
			}
			continue
		}
		// Replace an estimate nobody took yet.
		select {
		case <-l.out:
		default:
		}
		l.out <- *job
	}
}
