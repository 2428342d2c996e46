package main

import (
	"testing"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/table"
)

// The run loop's grace timer delivers the referee's deadline when it
// comes, and the timer input given then flags the board left wrong; with
// no deadline it stays silent.
func TestGraceTimer_FiresAtTheDeadline(t *testing.T) {
	tb, err := table.Open(table.Opts{Caps: board.Caps{Counts: true, Colours: true}, Grace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	// Wall-clock times, as the sensors give them.
	now := time.Now()
	pos, _ := engine.ParsePPN("20:Y Y 4 0 - Y")
	snap := board.Expected(&pos)
	for _, in := range []referee.Input{{At: now, Kind: referee.InputSetup, Position: pos}, {At: now, Kind: referee.InputBoard, Board: snap}} {
		if _, err := tb.Handle(in, ""); err != nil {
			t.Fatal(err)
		}
	}
	// A piece moved one square too far.
	snap.Sites[engine.TrackSite(20)] = board.Reading{}
	snap.Sites[engine.TrackSite(25)] = board.Reading{Count: 1, Coloured: true, ByColour: [4]uint8{1, 0, 0, 0}}
	if events, _ := tb.Handle(referee.Input{At: now, Kind: referee.InputBoard, Board: snap}, ""); len(events) != 0 {
		t.Fatalf("flagged within the grace time: %+v", events)
	}
	g := newGraceTimer()
	defer g.stop()
	g.arm(tb)
	dl, ok := tb.Deadline()
	if !ok || !dl.Equal(now.Add(100*time.Millisecond)) {
		t.Fatalf("deadline %v %v, want %v", dl, ok, now.Add(100*time.Millisecond))
	}
	select {
	case at := <-g.C():
		if !at.Equal(dl) {
			t.Fatalf("timer at %v, want the deadline %v", at, dl)
		}
		events, err := tb.Handle(referee.Input{At: at, Kind: referee.InputTimer}, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(events) != 2 || events[0].Type != referee.EventMismatch || events[1].Rule != referee.RuleWrongCount {
			t.Errorf("timer input gave %+v, want a mismatch and the wrong count", events)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the grace timer never fired")
	}
	// The same board sent again (a re-check) is flagged already: no new
	// wait, and the timer stays silent.
	if events, _ := tb.Handle(referee.Input{At: time.Now(), Kind: referee.InputBoard, Board: snap}, ""); len(events) != 0 {
		t.Errorf("a re-check of a flagged board gave %+v", events)
	}
	g.arm(tb)
	select {
	case at := <-g.C():
		t.Errorf("timer fired at %v with no deadline", at)
	case <-time.After(300 * time.Millisecond):
	}
}
