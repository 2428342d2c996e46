package simtable

import (
	"testing"

	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/vision/learned"
)

// The table's camera is read by the learned reader (camera.reader:
// learned, the daemon's default): the throws it reads reach the referee
// and none is read wrong (a wrong value would show as a mismatch between
// the board and the referee). It read every one of 600 throws of these
// renders (white dice on felt, straight down; seeds 1 to 4, 150 each):
// more than one throw in twelve thrown again is a regression.
func TestSimulatedTable_LearnedReader(t *testing.T) {
	if testing.Short() {
		t.Skip("a simulated table read by the learned reader")
	}
	opts := DefaultOpts
	opts.Seed = 3
	opts.Reader = learned.NewReader(&learned.Opts{DieSize: opts.Camera.DieSize})
	d, _, events := startGame(t, opts)
	for i := 0; i < 20000 && len(d.Players.Throws) < 12; i++ {
		ev, err := d.Tick()
		if err != nil {
			t.Fatalf("tick %d: %v", i, err)
		}
		events = append(events, ev...)
	}
	rethrows := 0
	for _, e := range events {
		if e.Type == referee.EventInfraction || e.Type == referee.EventMismatch {
			t.Errorf("%s in a game without mistakes: %+v", e.Type, e)
		}
		if e.Type == referee.EventRethrow {
			rethrows++
		}
	}
	t.Logf("%d throws read, %d thrown again", len(d.Players.Throws), rethrows)
	if len(d.Players.Throws) < 12 || rethrows > 1 {
		t.Errorf("%d throws read by the learned reader, %d thrown again", len(d.Players.Throws), rethrows)
	}
}
