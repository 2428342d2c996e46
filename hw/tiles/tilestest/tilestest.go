// Package tilestest emulates a line of sensor tiles for tests and
// simulations: each tile runs the firmware's own logic (firmware/tile) on a
// fake analog front end, and the line answers requests on a serial port's
// far end, such as the master of hw/serial's pseudo-terminal pair. The
// hw/tiles back-end then runs unchanged over a real tty.
package tilestest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"syscall"

	"github.com/parchis-table/parchis/firmware/protocol"
	"github.com/parchis-table/parchis/firmware/tile"
)

// Baseline is the empty-site sample of every emulated sensor (mid-scale of
// the 12-bit ADC), and Step how far one piece moves it.
const (
	Baseline = 2048
	Step     = 250
)

// Line is a multi-drop line of emulated tiles. Its methods may be called
// while Serve runs.
type Line struct {
	// Echo makes the line send every request back before the answer, as an
	// RS-485 transceiver whose receiver stays on does.
	Echo bool

	mu     sync.Mutex
	tiles  map[uint8]*tile.Tile
	fronts map[uint8]*front
}

// front is an analog front end with settable samples.
type front struct {
	s       tile.Schedule
	samples []uint16
	addr    uint8
}

func (f *front) Select(a uint8)    { f.addr = a }
func (f *front) Read(m int) uint16 { return f.samples[m*f.s.PerMux+int(f.addr)] }

// NewLine returns a line with no tiles.
func NewLine() *Line {
	return &Line{tiles: map[uint8]*tile.Tile{}, fronts: map[uint8]*front{}}
}

// PowerUp starts (or restarts) the tile at addr with boot number boot and
// the given schedule, every site empty and calibrated. The tile reads
// colours, Yellow for a north pole (tile.DefaultClassifier), and accepts a
// change after one scan.
func (l *Line) PowerUp(addr uint8, boot uint16, s tile.Schedule) error {
	if err := s.Validate(); err != nil {
		return err
	}
	if addr < protocol.MinAddr || addr > protocol.MaxAddr {
		return fmt.Errorf("tilestest: address %d out of range", addr)
	}
	f := &front{s: s, samples: make([]uint16, s.Channels())}
	for i := range f.samples {
		f.samples[i] = Baseline
	}
	t := &tile.Tile{Addr: addr, Boot: boot, Schedule: s, Class: tile.DefaultClassifier, Deb: tile.Debouncer{N: 1}}
	t.Calibrate(f)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tiles[addr], l.fronts[addr] = t, f
	return nil
}

// Remove takes the tile at addr off the line: it no longer answers.
func (l *Line) Remove(addr uint8) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.tiles, addr)
	delete(l.fronts, addr)
}

// Put sets channel ch of tile addr to n Yellow pieces (north pole down)
// and lets the tile scan once.
func (l *Line) Put(addr uint8, ch, n int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.fronts[addr]
	if f == nil || ch < 0 || ch >= len(f.samples) {
		return fmt.Errorf("tilestest: no channel %d.%d", addr, ch)
	}
	f.samples[ch] = Baseline + uint16(Step*n)
	l.tiles[addr].Step(f)
	return nil
}

// Handle answers one request frame as the line would: the response of the
// tile addressed, or nil when no tile answers.
func (l *Line) Handle(req []byte) []byte {
	f, _, err := protocol.Decode(req)
	if err != nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.tiles[f.Addr]
	if t == nil {
		return nil
	}
	return append([]byte(nil), t.Handle(req)...)
}

// Serve answers the requests arriving on rw until ctx ends, the far end
// hangs up, or rw fails. It owns rw: it closes it when ctx ends, which
// also ends a Read in progress (an *os.File in the runtime's poller, such
// as a pseudo-terminal's master). Garbage between frames is skipped, as
// the firmware does.
//
// It returns ctx's error when ctx ended, nil on a hang-up (end of file, or
// EIO: a pseudo-terminal's master once its slave is closed), and the
// failure otherwise.
func (l *Line) Serve(ctx context.Context, rw io.ReadWriteCloser) error {
	stop := context.AfterFunc(ctx, func() { rw.Close() })
	defer stop()
	var in [protocol.MaxFrameLen]byte
	n := 0
	for {
		k, err := rw.Read(in[n:])
		n += k
		for n > 0 {
			_, used, derr := protocol.Decode(in[:n])
			if errors.Is(derr, protocol.ErrShort) {
				if n == len(in) {
					n = 0
				}
				break
			}
			if derr == nil {
				req := in[:used]
				if l.Echo {
					if _, werr := rw.Write(req); werr != nil {
						return l.stopped(ctx, werr)
					}
				}
				if resp := l.Handle(req); resp != nil {
					if _, werr := rw.Write(resp); werr != nil {
						return l.stopped(ctx, werr)
					}
				}
			}
			n = copy(in[:], in[used:n])
		}
		if err != nil {
			return l.stopped(ctx, err)
		}
	}
}

func (l *Line) stopped(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, io.EOF) || errors.Is(err, syscall.EIO):
		return nil
	}
	return fmt.Errorf("tilestest: %w", err)
}
