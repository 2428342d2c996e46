package main

import (
	"testing"
	"time"

	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/hw"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/simtable"
	"github.com/parchis-table/parchis/table"
)

// TestSimEpoch_RestartGoesOnFromTheJournal restarts a simulated table
// whose journal holds times ahead of the wall clock (the simulated clock
// runs faster than real time): the resumed simulation must give the
// referee no input timed before the journal's last one, nor leave a grace
// begun before the restart waiting for a clock that has to catch up.
func TestSimEpoch_RestartGoesOnFromTheJournal(t *testing.T) {
	dir := t.TempDir()
	caps := hw.Caps{Counts: true, Colours: true}
	tb, err := table.Open(table.Opts{Caps: caps, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	opts := simtable.DefaultOpts
	opts.Seed = 5
	opts.Mistakes = map[string]float64{simtable.MistakeTouched: 0.2, simtable.MistakeWrongCount: 0.2, simtable.MistakeKillLeft: 0.2}
	// An earlier run at -speed 500: an hour of its clock took seconds.
	opts.Epoch = time.Now().Add(time.Hour)
	drv := simtable.NewDriver(tb, opts)
	if _, err := drv.Start(engine.Green, [4]string{"Ana", "Bea", "Carla", "Dani"}); err != nil {
		t.Fatal(err)
	}
	for range 3000 {
		if _, err := drv.Tick(); err != nil {
			t.Fatal(err)
		}
	}
	last := tb.LastInput()
	if err := tb.Close(); err != nil {
		t.Fatal(err)
	}

	var early []time.Time
	tb, err = table.Open(table.Opts{Caps: caps, Dir: dir, Sinks: []table.Sink{table.SinkFunc(func(u *table.Update) error {
		if !u.Replayed && !u.Flushed && u.Input.Kind != referee.InputTimer && u.Input.At.Before(last) {
			early = append(early, u.Input.At)
		}
		return nil
	})}})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if !tb.LastInput().Equal(last) {
		t.Fatalf("the reopened table's last input is at %v, the journal's at %v", tb.LastInput(), last)
	}
	opts.Epoch = simEpoch(tb, time.Now())
	drv = simtable.NewDriver(tb, opts)
	if pos := tb.Referee().Position(); tb.Referee().Game() != nil && pos.Phase() != engine.PhaseEnd {
		if _, err := drv.Resume(); err != nil {
			t.Fatal(err)
		}
	} else if _, err := drv.Start(engine.Red, [4]string{"Ana", "Bea", "Carla", "Dani"}); err != nil {
		t.Fatal(err)
	}
	dl, pending := tb.Deadline()
	for range 200 {
		if _, err := drv.Tick(); err != nil {
			t.Fatal(err)
		}
	}
	if len(early) > 0 {
		t.Errorf("%d inputs after the restart are timed before the journal's last (%v), the first at %v", len(early), last, early[0])
	}
	// 200 frames are longer than the grace: one waiting at the restart
	// has ended.
	if now, ok := tb.Deadline(); pending && ok && now.Equal(dl) {
		t.Errorf("the grace that ends at %v still waits after the restart, the simulation's clock at %v", dl, drv.At())
	}
}
