package tiles

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/firmware/protocol"
	"github.com/parchis-table/parchis/firmware/tile"
	"github.com/parchis-table/parchis/hw/tiles/tilestest"
)

// bench is two tiles of 52 channels (4 multiplexers × 13) on an emulated
// line, reached directly (no serial port) so that answers can be altered.
type bench struct {
	*tilestest.Line
	// fault, when set, may alter or drop an answer.
	fault func(addr uint8, resp []byte) ([]byte, error)
}

func (b *bench) Exchange(addr uint8, req, resp []byte) ([]byte, error) {
	out := append(resp[:0], b.Handle(req)...)
	if len(out) == 0 {
		return nil, ErrSilent
	}
	if b.fault != nil {
		return b.fault(addr, out)
	}
	return out, nil
}

func (b *bench) powerUp(addr uint8, boot uint16) {
	if err := b.PowerUp(addr, boot, tile.Schedule{Muxes: 4, PerMux: 13}); err != nil {
		panic(err)
	}
}

// put sets channel ch of tile addr to n north-up pieces (Yellow) and lets
// the tile scan.
func (b *bench) put(addr uint8, ch, n int) {
	if err := b.Put(addr, ch, n); err != nil {
		panic(err)
	}
}

// tileLayout wires site s (canonical index) to tile 1+s/52, channel s%52.
func tileLayout(t *testing.T) *config.Layout {
	y := string(config.DefaultLayoutYAML())
	y = strings.Replace(y, "  kind: direct", "  kind: sim", 1)
	l, err := config.LoadLayout(strings.NewReader(y))
	if err != nil {
		t.Fatal(err)
	}
	l.Sensors.Kind = config.SensorsTiles
	for s := range l.Sites {
		l.Sites[s].Sensors = []config.Channel{{Dev: uint8(1 + s/52), Pin: uint8(s % 52)}}
	}
	return l
}

func newBench(t *testing.T) (*bench, *Dev) {
	b := &bench{Line: tilestest.NewLine()}
	b.powerUp(1, 100)
	b.powerUp(2, 200)
	d, err := New(b, tileLayout(t), &DefaultOpts)
	if err != nil {
		t.Fatal(err)
	}
	return b, d
}

func scan(t *testing.T, d *Dev) (board.Snapshot, error) {
	t.Helper()
	var s board.Snapshot
	err := d.Scan(context.Background(), &s)
	return s, err
}

func yellow(n uint8) board.Reading {
	return board.Reading{Count: n, Coloured: true, ByColour: [4]uint8{n, 0, 0, 0}}
}

func TestScan_FollowsChanges(t *testing.T) {
	b, d := newBench(t)
	b.put(1, 4, 1)  // site 5
	b.put(2, 48, 2) // site 101 = YH (index 100)
	s, err := scan(t, d)
	if err != nil {
		t.Fatal(err)
	}
	if s.Sites[engine.TrackSite(5)] != yellow(1) || s.Sites[engine.HomeSite(engine.Yellow)] != yellow(2) {
		t.Errorf("site 5 %+v, YH %+v", s.Sites[engine.TrackSite(5)], s.Sites[engine.HomeSite(engine.Yellow)])
	}
	if d.Resyncs(1) != 1 || d.Resyncs(2) != 1 {
		t.Errorf("resyncs %d, %d: want only the first snapshot", d.Resyncs(1), d.Resyncs(2))
	}
}

func TestScan_Resyncs(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(b *bench)
	}{
		{"BadCRC", func(b *bench) {
			once := true
			b.fault = func(addr uint8, r []byte) ([]byte, error) {
				if addr == 1 && once {
					once = false
					r[len(r)-1] ^= 0x55
				}
				return r, nil
			}
		}},
		{"Gap", func(b *bench) {
			once := true
			b.fault = func(addr uint8, r []byte) ([]byte, error) {
				if addr == 1 && once && r[2] == 3 && r[4] > 4 {
					once = false
					r[5+4+1]++ // the first record's number skips ahead
					r = fixCRC(r)
				}
				return r, nil
			}
		}},
		{"TileReset", func(b *bench) {
			b.powerUp(1, 101)
		}},
		{"LostAnswer", func(b *bench) {
			once := true
			b.fault = func(addr uint8, r []byte) ([]byte, error) {
				if addr == 1 && once {
					once = false
					return nil, ErrSilent
				}
				return r, nil
			}
		}},
		{"LogOverrun", func(b *bench) {
			for i := range 70 {
				b.put(1, 0, i%2)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, d := newBench(t)
			tc.break_(b)
			b.put(1, 11, 1) // site 12
			s, err := scan(t, d)
			if err != nil {
				t.Fatal(err)
			}
			if s.Sites[engine.TrackSite(12)] != yellow(1) {
				t.Errorf("site 12 reads %+v after resync", s.Sites[engine.TrackSite(12)])
			}
			if d.Resyncs(1) != 2 {
				t.Errorf("tile 1 took %d snapshots, want 2", d.Resyncs(1))
			}
		})
	}
}

func fixCRC(r []byte) []byte {
	n := len(r) - 2
	crc := protocol.CRC16(r[1:n])
	r[n], r[n+1] = byte(crc>>8), byte(crc)
	return r
}

func TestScan_SilentTileReportedNotGuessed(t *testing.T) {
	b, d := newBench(t)
	b.put(2, 0, 1) // site 53
	if _, err := scan(t, d); err != nil {
		t.Fatal(err)
	}
	b.Remove(2)
	s, err := scan(t, d)
	var te *TileError
	if !errors.As(err, &te) || te.Addr != 2 || !errors.Is(err, ErrSilent) {
		t.Fatalf("err = %v, want tile 2 silent", err)
	}
	if !strings.Contains(err.Error(), "tile 2: no answer") {
		t.Errorf("error %q does not name the tile", err)
	}
	_ = s
}

func TestNew_NamesSilentTiles(t *testing.T) {
	b := &bench{Line: tilestest.NewLine()}
	b.powerUp(1, 1)
	_, err := New(b, tileLayout(t), &DefaultOpts)
	if err == nil || !strings.Contains(err.Error(), "tile 2") || strings.Contains(err.Error(), "tile 1") {
		t.Fatalf("err = %v, want tile 2 only", err)
	}
}
