package simtable

import (
	"testing"

	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/vision/learned"
)

// The table's camera can be read by the learned reader instead of the
// pip rules: a whole game is then read throw by throw without a wrong
// value (a wrong value would show as a mismatch between the board and
// the referee), every throw the players made reaching the referee.
func TestSimulatedGame_LearnedReader(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game read by the learned reader")
	}
	opts := DefaultOpts
	opts.Seed = 3
	opts.Reader = learned.NewReader(&learned.Opts{DieSize: opts.Camera.DieSize})
	d, events := playGame(t, opts, 200000)
	for _, e := range events {
		if e.Type == referee.EventInfraction || e.Type == referee.EventMismatch {
			t.Errorf("%s in a game without mistakes: %+v", e.Type, e)
		}
	}
	if n := len(d.Players.Throws); n < 50 {
		t.Errorf("%d throws read in a whole game", n)
	}
}
