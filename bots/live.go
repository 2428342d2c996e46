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
	// Settle, when set, is waited for before a position is estimated
	// (it returns false when ctx ended first); a position overtaken
	// meanwhile is not estimated at all. A caller whose positions come in
	// bursts (a simulated table at many times real speed) gives it a
	// short sleep, so that no work goes on positions nobody will see.
	Settle func(ctx context.Context) bool

	playouts int
	workers  int
	seed     uint64

	mu         sync.Mutex
	pending    LiveEstimate
	hasPending bool
	gen        atomic.Uint64
	wake       chan struct{}
	out        chan LiveEstimate
	dropped    atomic.Uint64
	busy       atomic.Uint64
}

// NewLive returns an estimator making playouts playouts a position,
// shared between workers goroutines (at least 1), with dice seeded by
// seed, the position's Seq and the worker, so that a position's estimate
// is repeatable whatever the machine's scheduling.
func NewLive(playouts, workers int, seed uint64) *Live {
	return &Live{playouts: playouts, workers: max(1, workers), seed: seed, wake: make(chan struct{}, 1), out: make(chan LiveEstimate, 1)}
}

// Post hands the estimator the newest position; it never blocks.
func (l *Live) Post(pos engine.Position, seq uint64) {
	l.mu.Lock()
	l.pending, l.hasPending = LiveEstimate{Seq: seq, Position: pos}, true
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
		job, ok, gen := l.pending, l.hasPending, l.gen.Load()
		l.hasPending = false
		l.mu.Unlock()
		if !ok {
			continue
		}
		if l.Settle != nil {
			if !l.Settle(ctx) {
				return
			}
			if l.gen.Load() != gen {
				// Overtaken while settling: the newer one is pending.
				l.dropped.Add(1)
				continue
			}
		}
		l.busy.Store(job.Seq)
		stop := func() bool { return ctx.Err() != nil || l.gen.Load() != gen }
		job.Estimate = l.estimate(job, stop)
		l.busy.Store(0)
		if job.Playouts < l.playouts || stop() {
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
		l.out <- job
	}
}

// estimate makes the playouts of one position on the workers, each with
// its own dice and its share of the budget; a stop leaves it short.
func (l *Live) estimate(job LiveEstimate, stop func() bool) Estimate {
	parts := make([]Estimate, l.workers)
	var wg sync.WaitGroup
	for w := range parts {
		n := l.playouts / l.workers
		if w < l.playouts%l.workers {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[w] = WinChanceUntil(job.Position, n, newRand(l.seed^job.Seq^uint64(w)<<32), stop)
		}()
	}
	wg.Wait()
	var e Estimate
	for _, p := range parts {
		e.Playouts += p.Playouts
		e.Wins[0] += p.Wins[0]
		e.Wins[1] += p.Wins[1]
	}
	return e
}
