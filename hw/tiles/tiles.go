// Package tiles is the sensor back-end of sensor tiles running firmware/,
// reached over RS-485/UART (multi-drop, addressed) or I2C. Each scan polls
// every tile for its numbered changes; a missing change number (a gap), a
// frame that fails its CRC, or a tile whose boot number changed (it was
// reset) makes the back-end ask that tile for a full snapshot. A tile that
// does not answer is reported by name, never guessed.
package tiles

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/firmware/protocol"
	"github.com/parchis-table/parchis/hw"
)

// Opts configures the back-end.
type Opts struct {
	// Retries is how many more times a tile is asked (for a full snapshot)
	// after a bad or missing answer before it is reported silent.
	Retries int
	// Colours tells whether the tiles' magnets are fitted by colour, so
	// readings carry colours.
	Colours bool
	// Logger receives resynchronisations; nil means slog.Default().
	Logger *slog.Logger
}

// DefaultOpts retries twice and reads colours.
var DefaultOpts = Opts{Retries: 2, Colours: true}

// ErrFewChannels means a tile reports fewer channels than the layout uses
// on it: a tile built or configured for another part of the board.
var ErrFewChannels = errors.New("fewer channels than the layout uses")

// TileError is a tile that could not be read.
type TileError struct {
	Addr uint8
	Err  error
}

func (e *TileError) Error() string { return fmt.Sprintf("tile %d: %v", e.Addr, e.Err) }
func (e *TileError) Unwrap() error { return e.Err }

type tileState struct {
	addr     uint8
	synced   bool
	boot     uint16
	seq      uint16
	readings [protocol.MaxChannels]protocol.Reading
	resyncs  int
	// used are the channels the layout uses on the tile, in increasing
	// order; channels is how many the tile reported in its last snapshot.
	used     []uint8
	channels int
}

// Dev is the set of tiles of a board.
type Dev struct {
	t     Transport
	opts  Opts
	tiles []*tileState
	byDev map[uint8]*tileState
	sites [engine.NumSites][]config.Channel
	tag   uint8
	req   []byte
	resp  [protocol.MaxFrameLen]byte
	snap  [protocol.MaxChannels]protocol.Reading
}

// New returns the back-end for the tiles the layout uses and reads each of
// them once. It validates the layout before touching the transport; the
// error names every tile that did not answer, and every tile that reports
// fewer channels than the layout uses on it (ErrFewChannels, with the
// channels it lacks).
func New(t Transport, lay *config.Layout, o *Opts) (*Dev, error) {
	if lay.Sensors.Kind != config.SensorsTiles {
		return nil, fmt.Errorf("tiles: layout has sensors of kind %q, want %q", lay.Sensors.Kind, config.SensorsTiles)
	}
	if o.Retries < 0 {
		return nil, fmt.Errorf("tiles: Retries %d must not be negative", o.Retries)
	}
	d := &Dev{t: t, opts: *o, byDev: map[uint8]*tileState{}, req: make([]byte, 0, protocol.MaxFrameLen)}
	if d.opts.Logger == nil {
		d.opts.Logger = slog.Default()
	}
	for _, a := range lay.Devices() {
		if a < protocol.MinAddr || a > protocol.MaxAddr {
			return nil, fmt.Errorf("tiles: tile address %d out of range", a)
		}
		ts := &tileState{addr: a}
		d.tiles = append(d.tiles, ts)
		d.byDev[a] = ts
	}
	for s, w := range lay.Sites {
		d.sites[s] = w.Sensors
		for _, c := range w.Sensors {
			ts := d.byDev[c.Dev]
			ts.used = append(ts.used, c.Pin)
		}
	}
	for _, ts := range d.tiles {
		slices.Sort(ts.used)
	}
	var errs []error
	for _, ts := range d.tiles {
		if err := d.sync(ts); err != nil {
			errs = append(errs, err)
		}
	}
	return d, errors.Join(errs...)
}

// Tiles returns the tile addresses, in scan order.
func (d *Dev) Tiles() []uint8 {
	a := make([]uint8, len(d.tiles))
	for i, t := range d.tiles {
		a[i] = t.addr
	}
	return a
}

// Resyncs returns how many full resynchronisations tile addr needed.
func (d *Dev) Resyncs(addr uint8) int {
	if t := d.byDev[addr]; t != nil {
		return t.resyncs
	}
	return 0
}

// Caps implements hw.Scanner.
func (d *Dev) Caps() hw.Caps { return hw.Caps{Counts: true, Colours: d.opts.Colours} }

// Scan implements hw.Scanner: each tile is polled for its changes. The
// error lists every tile that could not be read; their sites are then not
// current.
func (d *Dev) Scan(ctx context.Context, dst *board.Snapshot) error {
	var errs []error
	for _, ts := range d.tiles {
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		if ts.synced {
			err = d.poll(ts)
		}
		if !ts.synced {
			err = d.sync(ts)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	d.decode(dst)
	return errors.Join(errs...)
}

func (d *Dev) decode(dst *board.Snapshot) {
	for s := range d.sites {
		var r board.Reading
		coloured := d.opts.Colours
		for _, c := range d.sites[s] {
			ts := d.byDev[c.Dev]
			x := ts.readings[c.Pin]
			n := x.Count()
			r.Count += n
			if n == 0 {
				continue
			}
			if !x.Coloured() || n > 2 {
				coloured = false
				continue
			}
			r.ByColour[x.Colour(0)]++
			if n == 2 {
				r.ByColour[x.Colour(1)]++
			}
		}
		if coloured && r.Count > 0 {
			r.Coloured = true
		} else {
			r.ByColour = [engine.NumColours]uint8{}
		}
		dst.Sites[s] = r
	}
}

// exchange sends the request in d.req and decodes the answer.
func (d *Dev) exchange(ts *tileState) (protocol.Frame, error) {
	return exchange(d.t, ts.addr, d.tag, d.req, d.resp[:0:protocol.MaxFrameLen])
}

// exchange sends req, tagged tag, to tile addr over t and decodes the
// answer, which must come from addr and carry tag.
func exchange(t Transport, addr, tag uint8, req, resp []byte) (protocol.Frame, error) {
	b, err := t.Exchange(addr, req, resp)
	if err != nil {
		return protocol.Frame{}, err
	}
	f, _, err := protocol.Decode(b)
	switch {
	case err != nil:
		return f, fmt.Errorf("garbled answer: %w", err)
	case f.Addr != addr:
		return f, fmt.Errorf("answer from address %d", f.Addr)
	case f.Tag != tag:
		return f, fmt.Errorf("stale answer (tag %d, want %d)", f.Tag, tag)
	}
	return f, nil
}

// poll asks for the changes since the last one known. Anything amiss leaves
// the tile unsynced for sync to handle.
func (d *Dev) poll(ts *tileState) error {
	for range 8 { // more changes than one frame holds: keep polling
		d.tag++
		d.req = protocol.AppendPoll(d.req[:0], ts.addr, d.tag, ts.seq+1)
		f, err := d.exchange(ts)
		if err != nil {
			return d.lost(ts, err)
		}
		if f.Kind == protocol.KindSnapshot {
			err := d.apply(ts, f)
			if errors.Is(err, ErrFewChannels) {
				ts.synced = false
				return &TileError{Addr: ts.addr, Err: err}
			}
			if err != nil {
				return d.lost(ts, err)
			}
			return nil
		}
		c, err := protocol.ParseChanges(f)
		if err != nil {
			return d.lost(ts, err)
		}
		if c.Boot != ts.boot {
			return d.lost(ts, fmt.Errorf("reset (boot %d, was %d)", c.Boot, ts.boot))
		}
		want := ts.seq + 1
		for i := 0; i < c.Len(); i++ {
			r := c.At(i)
			if r.Num != want || int(r.Channel) >= ts.channels {
				return d.lost(ts, fmt.Errorf("gap: change %d, want %d", r.Num, want))
			}
			ts.readings[r.Channel] = r.Reading
			ts.seq = want
			want++
		}
		if ts.seq == c.Seq {
			return nil
		}
		if c.Len() == 0 {
			return d.lost(ts, fmt.Errorf("gap: tile at change %d, none sent after %d", c.Seq, ts.seq))
		}
	}
	return nil
}

func (d *Dev) lost(ts *tileState, err error) error {
	ts.synced = false
	d.opts.Logger.Warn("tiles: resynchronising", "tile", ts.addr, "why", err)
	return nil
}

// sync asks for a full snapshot, retrying; the tile is silent when every
// try fails.
func (d *Dev) sync(ts *tileState) error {
	var last error
	for range d.opts.Retries + 1 {
		d.tag++
		d.req = protocol.AppendSnapshotReq(d.req[:0], ts.addr, d.tag)
		f, err := d.exchange(ts)
		if err == nil {
			if err = d.apply(ts, f); err == nil {
				return nil
			}
			if errors.Is(err, ErrFewChannels) {
				// A well-formed answer from the wrong kind of tile:
				// asking again would not change it.
				ts.synced = false
				return &TileError{Addr: ts.addr, Err: err}
			}
		}
		last = err
	}
	ts.synced = false
	if errors.Is(last, ErrSilent) {
		return &TileError{Addr: ts.addr, Err: last}
	}
	return &TileError{Addr: ts.addr, Err: fmt.Errorf("no good answer: %w", last)}
}

func (d *Dev) apply(ts *tileState, f protocol.Frame) error {
	s, err := protocol.ParseSnapshot(f, d.snap[:0])
	if err != nil {
		return err
	}
	if i, _ := slices.BinarySearch(ts.used, uint8(len(s.Readings))); i < len(ts.used) {
		lack := make([]string, len(ts.used)-i)
		for j, ch := range ts.used[i:] {
			lack[j] = config.Channel{Dev: ts.addr, Pin: ch}.String()
		}
		return fmt.Errorf("%w: it reports %d, the layout uses %s", ErrFewChannels, len(s.Readings), strings.Join(lack, ", "))
	}
	ts.readings = [protocol.MaxChannels]protocol.Reading{}
	copy(ts.readings[:], s.Readings)
	ts.boot, ts.seq, ts.synced = s.Boot, s.Seq, true
	ts.channels = len(s.Readings)
	ts.resyncs++
	return nil
}
