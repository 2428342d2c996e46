package tiles

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/firmware/tile"
	"github.com/parchis-table/parchis/hw/serial"
	"github.com/parchis-table/parchis/hw/tiles/tilestest"
)

// serialLine starts an emulated line of tiles 1 and 2 (52 channels each)
// on the master of a pseudo-terminal, and opens its slave with hw/serial
// as the daemon opens /dev/ttyAMA0.
func serialLine(t *testing.T, echo bool) (*tilestest.Line, *serial.Port) {
	t.Helper()
	m, path, err := serial.OpenPTY()
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	line := tilestest.NewLine()
	line.Echo = echo
	for _, a := range []uint8{1, 2} {
		if err := line.PowerUp(a, 100*uint16(a), tile.Schedule{Muxes: 4, PerMux: 13}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := line.Serve(ctx, m); err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("Serve: %v", err)
		}
	}()
	o := serial.DefaultOpts
	p, err := serial.Open(path, &o)
	if err != nil {
		cancel()
		wg.Wait()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.Close()
		cancel()
		wg.Wait()
	})
	return line, p
}

func TestSerial_EndToEndOverATTY(t *testing.T) {
	for _, tc := range []struct {
		name string
		echo bool
	}{{"Plain", false}, {"TransceiverEcho", true}} {
		t.Run(tc.name, func(t *testing.T) {
			line, port := serialLine(t, tc.echo)
			d, err := New(&Serial{Port: port}, tileLayout(t), &DefaultOpts)
			if err != nil {
				t.Fatal(err)
			}
			s, err := scan(t, d)
			if err != nil {
				t.Fatal(err)
			}
			for x, r := range s.Sites {
				if r.Count != 0 {
					t.Fatalf("site %v reads %+v on an empty board", engine.Site(x), r)
				}
			}

			line.Put(1, 4, 1)  // site 5
			line.Put(2, 48, 2) // YH
			s, err = scan(t, d)
			if err != nil {
				t.Fatal(err)
			}
			if s.Sites[engine.TrackSite(5)] != yellow(1) || s.Sites[engine.HomeSite(engine.Yellow)] != yellow(2) {
				t.Errorf("site 5 %+v, YH %+v", s.Sites[engine.TrackSite(5)], s.Sites[engine.HomeSite(engine.Yellow)])
			}
			if d.Resyncs(1) != 1 || d.Resyncs(2) != 1 {
				t.Errorf("resyncs %d, %d: the changes should have come as changes", d.Resyncs(1), d.Resyncs(2))
			}

			// A reset tile is resynchronised: its board is empty again.
			line.PowerUp(1, 7, tile.Schedule{Muxes: 4, PerMux: 13})
			if s, err = scan(t, d); err != nil {
				t.Fatal(err)
			}
			if s.Sites[engine.TrackSite(5)].Count != 0 || d.Resyncs(1) != 2 {
				t.Errorf("after the reset: site 5 %+v, resyncs %d", s.Sites[engine.TrackSite(5)], d.Resyncs(1))
			}

			// A tile taken off the line is reported once the read times
			// out, by name; the other still reads.
			line.Remove(2)
			line.Put(1, 9, 1) // site 10
			start := time.Now()
			s, err = scan(t, d)
			var te *TileError
			if !errors.As(err, &te) || te.Addr != 2 || !errors.Is(err, ErrSilent) {
				t.Fatalf("scan with tile 2 gone: %v", err)
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("silent tile took %v to report", took)
			}
			if s.Sites[engine.TrackSite(10)] != yellow(1) {
				t.Errorf("site 10 %+v with tile 2 gone", s.Sites[engine.TrackSite(10)])
			}
		})
	}
}
