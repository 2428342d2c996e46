package tiles

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/firmware/avrsim"
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

// line is what the end-to-end test does to the tiles on the line: the Go
// emulation (tilestest.Line) or the compiled firmware in simavr (chipLine).
type line interface {
	PowerUp(addr uint8, boot uint16, s tile.Schedule) error
	Put(addr uint8, ch, n int) error
	Remove(addr uint8)
}

// chipLine is a line of tiles 1 and 2 running the compiled firmware
// (firmware/avr) in simavr, through firmware/avrsim.
type chipLine struct {
	t    *testing.T
	chip *avrsim.Line
}

// PowerUp resets the tile: the chip draws its next boot number itself.
func (c chipLine) PowerUp(addr uint8, _ uint16, _ tile.Schedule) error {
	if err := c.chip.Reset(addr); err != nil {
		return err
	}
	return c.chip.Settle(addr)
}

// Put sets the channel's sensor and waits for the tile to take it.
func (c chipLine) Put(addr uint8, ch, n int) error {
	if err := c.chip.Pieces(addr, ch, n); err != nil {
		return err
	}
	return c.chip.Settle(addr)
}

// Remove disconnects the tile's transmitter.
func (c chipLine) Remove(addr uint8) {
	if err := c.chip.Mute(addr, true); err != nil {
		c.t.Error(err)
	}
}

// chipSerialLine starts the compiled firmware for tiles 1 and 2 and opens
// the harness's pty with hw/serial.
func chipSerialLine(t *testing.T, echo bool) (line, *serial.Port) {
	t.Helper()
	dir := avrsim.Require(t)
	chip, err := avrsim.Start(dir, avrsim.Opts{Tiles: []avrsim.Tile{{Addr: 1}, {Addr: 2}}, Echo: echo})
	if err != nil {
		t.Fatal(err)
	}
	o := serial.DefaultOpts
	o.Timeout = avrsim.AnswerTimeout
	p, err := serial.Open(chip.PTY, &o)
	if err != nil {
		chip.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.Close()
		if err := chip.Close(); err != nil {
			t.Error(err)
		}
	})
	for _, a := range []uint8{1, 2} {
		if err := chip.Settle(a); err != nil {
			t.Fatal(err)
		}
	}
	return chipLine{t: t, chip: chip}, p
}

func TestSerial_EndToEndOverATTY(t *testing.T) {
	for _, tc := range []struct {
		name string
		echo bool
		chip bool
	}{
		{"Plain", false, false},
		{"TransceiverEcho", true, false},
		{"EmulatedChip", false, true},
		{"EmulatedChipTransceiverEcho", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var line line
			var port *serial.Port
			if tc.chip {
				line, port = chipSerialLine(t, tc.echo)
			} else {
				line, port = serialLine(t, tc.echo)
			}
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
