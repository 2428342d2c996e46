package tiles

import (
	"errors"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/firmware/tile"
	"github.com/parchis-table/parchis/hw/tiles/tilestest"
)

// lineTransport carries requests straight to an emulated line.
type lineTransport struct{ l *tilestest.Line }

func (t lineTransport) Exchange(addr uint8, req, resp []byte) ([]byte, error) {
	out := append(resp[:0], t.l.Handle(req)...)
	if len(out) == 0 {
		return nil, ErrSilent
	}
	return out, nil
}

func TestNew_TileWithFewerChannelsThanTheLayoutUses(t *testing.T) {
	tests := []struct {
		name   string
		sched2 tile.Schedule // tile 2's; the layout uses its channels 0…51
		want   []string      // in the error; none when all is well
	}{
		{"EnoughChannels", tile.Schedule{Muxes: 4, PerMux: 13}, nil},
		{"MoreChannelsThanUsed", tile.Schedule{Muxes: 4, PerMux: 16}, nil},
		{"FourShort", tile.Schedule{Muxes: 4, PerMux: 12}, []string{
			"tile 2: fewer channels than the layout uses: it reports 48, the layout uses 2.48, 2.49, 2.50, 2.51"}},
		{"OneMultiplexer", tile.Schedule{Muxes: 1, PerMux: 16}, []string{"tile 2:", "it reports 16", "2.16, 2.17", "2.51"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			line := tilestest.NewLine()
			line.PowerUp(1, 1, tile.Schedule{Muxes: 4, PerMux: 13})
			line.PowerUp(2, 2, tc.sched2)
			_, err := New(lineTransport{line}, tileLayout(t), &DefaultOpts)
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var te *TileError
			if !errors.As(err, &te) || te.Addr != 2 || !errors.Is(err, ErrFewChannels) {
				t.Fatalf("New: %v, want a TileError for tile 2 with ErrFewChannels", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "tile 1") {
				t.Errorf("tile 1 blamed: %v", err)
			}
		})
	}
}

func TestScan_TileReplacedByOneWithFewerChannels(t *testing.T) {
	line := tilestest.NewLine()
	line.PowerUp(1, 1, tile.Schedule{Muxes: 4, PerMux: 13})
	line.PowerUp(2, 2, tile.Schedule{Muxes: 4, PerMux: 13})
	d, err := New(lineTransport{line}, tileLayout(t), &DefaultOpts)
	if err != nil {
		t.Fatal(err)
	}
	line.PowerUp(2, 3, tile.Schedule{Muxes: 3, PerMux: 13})
	for range 2 { // reported on every scan until the tile is put right
		if _, err := scan(t, d); !errors.Is(err, ErrFewChannels) || !strings.Contains(err.Error(), "tile 2:") || !strings.Contains(err.Error(), "2.39, 2.40") {
			t.Fatalf("scan: %v", err)
		}
	}
	line.PowerUp(2, 4, tile.Schedule{Muxes: 4, PerMux: 13})
	if _, err := scan(t, d); err != nil {
		t.Fatalf("scan with the right tile back: %v", err)
	}
}
