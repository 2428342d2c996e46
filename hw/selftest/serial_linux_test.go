package selftest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/spi/spitest"

	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/firmware/avrsim"
	"github.com/parchis-table/parchis/firmware/tile"
	"github.com/parchis-table/parchis/hw/serial"
	"github.com/parchis-table/parchis/hw/tiles"
	"github.com/parchis-table/parchis/hw/tiles/tilestest"
)

const tilesLayout = "../../config/examples/layout-tiles.yaml"

// tileLine serves the example tiles layout's four tiles on a
// pseudo-terminal and returns the line and the path of the tty to check.
func tileLine(t *testing.T) (*tilestest.Line, string) {
	t.Helper()
	m, path, err := serial.OpenPTY()
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	line := tilestest.NewLine()
	for a := uint8(1); a <= 4; a++ {
		line.PowerUp(a, uint16(a), tile.Schedule{Muxes: 4, PerMux: 13})
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
	t.Cleanup(func() { cancel(); wg.Wait() })
	return line, path
}

func loadTilesLayout(t *testing.T) *config.Layout {
	t.Helper()
	f, err := os.Open(tilesLayout)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lay, err := config.LoadLayout(f)
	if err != nil {
		t.Fatal(err)
	}
	return lay
}

func TestCheck_TilesOverSerial(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(l *tilestest.Line)
		status int
		want   []string
	}{
		{"AllFound", func(l *tilestest.Line) {
			l.Put(1, 4, 1)  // site 5
			l.Put(1, 28, 1) // one of Yellow home's four slots
			l.Put(1, 29, 2) // and another, two pieces
		}, ExitOK, []string{"found   tile 1", "found   tile 4", "lit     116 LEDs", "occupied 5:1 YH:3", "check: all found"}},
		{"TileSilent", func(l *tilestest.Line) { l.Remove(3) }, ExitMissing, []string{
			"found   tile 2", "MISSING tile 3: no answer", "found   tile 4", "check: something is missing"}},
		{"TileWithTooFewChannels", func(l *tilestest.Line) {
			l.PowerUp(4, 9, tile.Schedule{Muxes: 2, PerMux: 15})
		}, ExitMissing, []string{"MISSING tile 4: fewer channels than the layout uses: it reports 30, the layout uses 4.30, 4.31"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			line, path := tileLine(t)
			tc.break_(line)
			// The emulated tiles answer from this process, which under
			// qemu on a busy machine may take longer than a real tile's
			// 100 ms: the check's findings, not its timing, are tested.
			o := serial.DefaultOpts
			o.Timeout = 500 * time.Millisecond
			p, err := serial.Open(path, &o)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			var out bytes.Buffer
			st := Check(loadTilesLayout(t), Hardware{Tiles: &tiles.Serial{Port: p}, Strip: &spitest.Record{}}, 0, &out)
			if st != tc.status {
				t.Errorf("status %d, want %d\n%s", st, tc.status, out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}

// TestCheck_EmulatedTiles runs the check against the compiled tile
// firmware (firmware/avr) in simavr: four emulated chips at the example
// layout's addresses.
func TestCheck_EmulatedTiles(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(t *testing.T, l *avrsim.Line)
		status int
		want   []string
	}{
		{"AllFound", func(t *testing.T, l *avrsim.Line) {
			for _, p := range []struct{ ch, n int }{{4, 1}, {28, 1}, {29, 2}} { // site 5, two of YH's slots
				if err := l.Pieces(1, p.ch, p.n); err != nil {
					t.Fatal(err)
				}
			}
			if err := l.Settle(1); err != nil {
				t.Fatal(err)
			}
		}, ExitOK, []string{"found   tile 1", "found   tile 4", "occupied 5:1 YH:3", "check: all found"}},
		{"TileSilent", func(t *testing.T, l *avrsim.Line) {
			if err := l.Mute(3, true); err != nil {
				t.Fatal(err)
			}
		}, ExitMissing, []string{"found   tile 2", "MISSING tile 3: no answer", "found   tile 4", "check: something is missing"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := avrsim.Require(t)
			chip, err := avrsim.Start(dir, avrsim.Opts{Tiles: []avrsim.Tile{{Addr: 1}, {Addr: 2}, {Addr: 3}, {Addr: 4}}})
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := chip.Close(); err != nil {
					t.Error(err)
				}
			}()
			for a := uint8(1); a <= 4; a++ {
				if err := chip.Settle(a); err != nil {
					t.Fatal(err)
				}
			}
			tc.break_(t, chip)
			o := serial.DefaultOpts
			o.Timeout = avrsim.AnswerTimeout
			p, err := serial.Open(chip.PTY, &o)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			var out bytes.Buffer
			st := Check(loadTilesLayout(t), Hardware{Tiles: &tiles.Serial{Port: p}, Strip: &spitest.Record{}}, 0, &out)
			if st != tc.status {
				t.Errorf("status %d, want %d\n%s", st, tc.status, out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}

// The -serial and -baud flags reach the tiles over the named tty. This
// machine has no LED strip, so only the tiles' lines are checked.
func TestMain_SerialFlags(t *testing.T) {
	_, path := tileLine(t)
	var out, errb bytes.Buffer
	st := Main("parchis check", []string{"-layout", tilesLayout, "-serial", path, "-baud", "230400", "-step", "0"}, &out, &errb)
	if st == ExitUsage {
		t.Fatalf("usage error: %s", errb.String())
	}
	for a := '1'; a <= '4'; a++ {
		if w := "found   tile " + string(a); !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out.String())
		}
	}
}
