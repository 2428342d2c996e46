package sim

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/hw"
)

func TestBoard_PlaceLift(t *testing.T) {
	b := NewBoard(nil)
	s5 := engine.TrackSite(5)
	if err := b.Place(s5, engine.Yellow); err != nil {
		t.Fatal(err)
	}
	if err := b.Place(s5, engine.Red); err != nil {
		t.Fatal(err)
	}
	if err := b.Place(s5, engine.Red); err == nil {
		t.Error("a third piece went on a square")
	}
	if err := b.Lift(s5, engine.Blue); err == nil {
		t.Error("lifted a blue piece that was not there")
	}
	if err := b.Lift(s5, engine.Yellow); err != nil {
		t.Fatal(err)
	}
	var got board.Snapshot
	if err := b.Scan(context.Background(), &got); err != nil {
		t.Fatal(err)
	}
	want := board.Reading{Count: 1, Coloured: true, ByColour: [4]uint8{0, 0, 1, 0}}
	if got.Sites[s5] != want {
		t.Errorf("site 5 reads %+v, want %+v", got.Sites[s5], want)
	}
}

func TestBoard_PresenceOnly(t *testing.T) {
	b := NewBoard(&BoardOpts{PresenceOnly: true})
	yh := engine.HomeSite(engine.Yellow)
	for range 4 {
		if err := b.Place(yh, engine.Yellow); err != nil {
			t.Fatal(err)
		}
	}
	var got board.Snapshot
	_ = b.Scan(context.Background(), &got)
	if got.Sites[yh] != (board.Reading{Count: 1}) || b.Caps() != (hw.Caps{}) {
		t.Errorf("presence-only YH reads %+v, caps %+v", got.Sites[yh], b.Caps())
	}
}

// TestWatcher_SimBoard runs the simulated board under the same watcher as
// the real sensors: a placed piece arrives as one change.
func TestWatcher_SimBoard(t *testing.T) {
	b := NewBoard(nil)
	o := hw.DefaultWatchOpts
	o.Debounce = hw.DebounceOpts{Integrate: 2, Settle: 10 * time.Millisecond}
	o.Fast = time.Millisecond
	w, err := hw.NewWatcher(b, &o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	go w.Run(ctx)
	<-w.Changes()
	_ = b.Place(engine.TrackSite(22), engine.Blue)
	c := <-w.Changes()
	if c.Err != nil || c.Snapshot.Sites[engine.TrackSite(22)].ByColour[engine.Blue] != 1 {
		t.Fatalf("change %+v", c)
	}
	b.Fail(errors.New("sensor bus down"))
	if c := <-w.Changes(); c.Err == nil {
		t.Fatal("failure not reported")
	}
	b.Fail(nil)
	if c := <-w.Changes(); c.Err != nil || c.Snapshot.Sites[engine.TrackSite(22)].Count != 1 {
		t.Fatalf("recovery %+v", c)
	}
}

func TestRender(t *testing.T) {
	b := NewBoard(nil)
	_ = b.Place(engine.TrackSite(5), engine.Yellow)
	_ = b.Place(engine.TrackSite(5), engine.Yellow)
	l := NewLights()
	var f board.Frame
	f.Sites[engine.TrackSite(5)] = board.Light{Colour: board.RGB{R: 255}, Pattern: board.Blink}
	_ = l.Show(&f)
	snap := b.Pieces()
	fr := l.Frame()
	var plain, ansi bytes.Buffer
	if err := Render(&plain, &snap, &fr, RenderOpts{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plain.String(), "  5 YY  !") {
		t.Errorf("plain render lacks site 5 with YY blinking:\n%s", plain.String())
	}
	_ = Render(&ansi, &snap, &fr, RenderOpts{Colour: true})
	if !strings.Contains(ansi.String(), "\x1b[48;2;255;0;0m\x1b[97m\x1b[5m  5 YY  \x1b[0m") {
		t.Errorf("ANSI render lacks a blinking red site 5:\n%q", ansi.String())
	}
}
