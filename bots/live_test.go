package bots_test

import (
	"context"
	"testing"
	"time"

	"github.com/parchis-table/parchis/bots"
	"github.com/parchis-table/parchis/engine"
)

// TestLive_NewestOnly: a position posted while another is being estimated
// stops that estimate, which is dropped; only the newest is delivered,
// and it is the same estimate WinChance makes from the same dice.
func TestLive_NewestOnly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// A budget that takes minutes from the middle of a game, and
	// milliseconds from a game over.
	const playouts = 5_000_000
	l := bots.NewLive(playouts, 2, 1)
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	long := mustPPN(t, midGame)
	over := mustPPN(t, "YG:YYYY,RG:RRRR,GG:GGGG R end 0 - Y")
	l.Post(long, 1)
	// Wait until the long estimate has begun, then overtake it.
	for l.Busy() != 1 {
		time.Sleep(time.Millisecond)
	}
	l.Post(over, 2)
	select {
	case e := <-l.Results():
		if e.Seq != 2 || e.Position != over || e.Playouts != playouts || e.Chance(engine.PairYR) != 1 {
			t.Errorf("delivered seq %d, %d playouts, YR %v: want the game over (seq 2) only", e.Seq, e.Playouts, e.Chance(engine.PairYR))
		}
	case <-time.After(60 * time.Second):
		t.Fatal("no estimate delivered")
	}
	if n := l.Dropped(); n != 1 {
		t.Errorf("%d estimates dropped, want 1", n)
	}
	select {
	case e := <-l.Results():
		t.Errorf("a second estimate delivered: seq %d", e.Seq)
	case <-time.After(50 * time.Millisecond):
	}
	cancel()
	<-done
}

// TestLive_Repeatable: a position's estimate depends only on the seed and
// the seq it was posted with.
func TestLive_Repeatable(t *testing.T) {
	pos := mustPPN(t, midGame)
	var got [2]bots.LiveEstimate
	for i := range got {
		ctx, cancel := context.WithCancel(context.Background())
		l := bots.NewLive(301, 2, 5)
		go l.Run(ctx)
		l.Post(pos, 42)
		got[i] = <-l.Results()
		cancel()
	}
	if got[0] != got[1] || got[0].Playouts != 301 {
		t.Errorf("two estimates of one position: %+v and %+v", got[0].Estimate, got[1].Estimate)
	}
}

// TestLive_SettleSkipsOvertaken: a position overtaken while the estimator
// waits for it to settle is never estimated.
func TestLive_SettleSkipsOvertaken(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := bots.NewLive(50, 1, 1)
	waiting, release := make(chan struct{}, 4), make(chan struct{})
	l.Settle = func(ctx context.Context) bool {
		waiting <- struct{}{}
		select {
		case <-release:
			return true
		case <-ctx.Done():
			return false
		}
	}
	go l.Run(ctx)
	first := mustPPN(t, midGame)
	over := mustPPN(t, "YG:YYYY,RG:RRRR,GG:GGGG R end 0 - Y")
	l.Post(first, 1)
	<-waiting
	l.Post(over, 2)
	release <- struct{}{}
	<-waiting
	release <- struct{}{}
	e := <-l.Results()
	if e.Seq != 2 || l.Dropped() != 1 {
		t.Errorf("delivered seq %d with %d dropped, want only seq 2 and the first dropped", e.Seq, l.Dropped())
	}
}
