package avrsim_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/firmware/avrsim"
	"github.com/parchis-table/parchis/firmware/protocol"
	"github.com/parchis-table/parchis/firmware/tile"
	"github.com/parchis-table/parchis/hw/serial"
	"github.com/parchis-table/parchis/hw/tiles"
)

// refFront is the reference's analog front end: the same voltages the
// emulated chip's ADC converts, as the chip's 12-bit samples.
type refFront struct {
	mv  [avrsim.Channels]int
	sel uint8
}

func (f *refFront) Select(a uint8) { f.sel = a }
func (f *refFront) Read(m int) uint16 {
	return avrsim.Sample(f.mv[m*avrsim.PerMux+int(f.sel)])
}

// refTile is the Go reference (firmware/tile) standing in for one chip,
// with what the chip keeps in EEPROM: the boot counter and thresholds.
type refTile struct {
	t     *tile.Tile
	f     refFront
	boots uint16
	class tile.Classifier
	muted bool
	drop  bool
	flip  bool
}

func (r *refTile) powerUp(addr uint8) {
	r.boots++
	r.t = &tile.Tile{
		Addr:     addr,
		Boot:     r.boots,
		Schedule: tile.Schedule{Muxes: avrsim.Muxes, PerMux: avrsim.PerMux},
		Class:    r.class,
		Deb:      tile.Debouncer{N: avrsim.Debounce},
	}
	r.t.Calibrate(&r.f)
}

// settle scans as often as the chip's Settle waits for.
func (r *refTile) settle() {
	for range avrsim.Debounce + 2 {
		r.t.Step(&r.f)
	}
}

// refLine is a line of reference tiles reached as hw/tiles reaches a line.
type refLine struct{ tiles map[uint8]*refTile }

func (l *refLine) Exchange(addr uint8, req, resp []byte) ([]byte, error) {
	f, _, err := protocol.Decode(req)
	if err != nil {
		return nil, tiles.ErrSilent
	}
	r := l.tiles[f.Addr]
	if r == nil || r.muted {
		return nil, tiles.ErrSilent
	}
	out := append(resp[:0], r.t.Handle(req)...)
	if r.t.Class != r.class { // a calibration: the chip stores it
		r.class = r.t.Class
	}
	if len(out) == 0 {
		return nil, tiles.ErrSilent
	}
	if r.drop {
		r.drop = false
		return nil, tiles.ErrSilent
	}
	if r.flip {
		r.flip = false
		out[5] ^= 0x01
	}
	return out, nil
}

// recorder keeps every request and what came back for it.
type recorder struct {
	tr  tiles.Transport
	mu  sync.Mutex
	log []string
}

func (r *recorder) Exchange(addr uint8, req, resp []byte) ([]byte, error) {
	b, err := r.tr.Exchange(addr, req, resp)
	var s string
	switch {
	case errors.Is(err, tiles.ErrSilent):
		s = fmt.Sprintf("→%d % x ← silent", addr, req)
	case err != nil:
		s = fmt.Sprintf("→%d % x ← error %v", addr, req, err)
	default:
		s = fmt.Sprintf("→%d % x ← % x", addr, req, b)
	}
	r.mu.Lock()
	r.log = append(r.log, s)
	r.mu.Unlock()
	return b, err
}

// pair drives the emulated chips and the reference through the same steps.
type pair struct {
	t         *testing.T
	chip      *avrsim.Line
	ref       *refLine
	chipRec   *recorder
	refRec    *recorder
	chipDev   *tiles.Dev
	refDev    *tiles.Dev
	compared  int
	lastChip  board.Snapshot
	lastChipE error
}

var addrs = []uint8{1, 2}

func twoTileLayout(t *testing.T) *config.Layout {
	y := string(config.DefaultLayoutYAML())
	y = strings.Replace(y, "  kind: direct", "  kind: sim", 1)
	l, err := config.LoadLayout(strings.NewReader(y))
	if err != nil {
		t.Fatal(err)
	}
	l.Sensors.Kind = config.SensorsTiles
	for s := range l.Sites {
		l.Sites[s].Sensors = []config.Channel{{Dev: uint8(1 + s/avrsim.Channels), Pin: uint8(s % avrsim.Channels)}}
	}
	return l
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func newPair(t *testing.T) *pair {
	dir := avrsim.Require(t)
	chip, err := avrsim.Start(dir, avrsim.Opts{Tiles: []avrsim.Tile{{Addr: 1, Boots: 99}, {Addr: 2, Boots: 499}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := chip.Close(); err != nil {
			t.Error(err)
		}
	})
	o := serial.DefaultOpts
	o.Timeout = avrsim.AnswerTimeout
	port, err := serial.Open(chip.PTY, &o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { port.Close() })

	ref := &refLine{tiles: map[uint8]*refTile{}}
	for _, a := range addrs {
		r := &refTile{class: tile.DefaultClassifier, boots: map[uint8]uint16{1: 99, 2: 499}[a]}
		for ch := range r.f.mv {
			r.f.mv[ch] = avrsim.Empty
		}
		r.powerUp(a)
		ref.tiles[a] = r
	}
	p := &pair{t: t, chip: chip, ref: ref,
		chipRec: &recorder{tr: &tiles.Serial{Port: port}},
		refRec:  &recorder{tr: ref}}
	for _, a := range addrs {
		if err := chip.Settle(a); err != nil {
			t.Fatal(err)
		}
	}
	lay := twoTileLayout(t)
	opts := tiles.DefaultOpts
	opts.Logger = quiet()
	chipDev, chipErr := tiles.New(p.chipRec, lay, &opts)
	refDev, refErr := tiles.New(p.refRec, lay, &opts)
	if chipErr != nil || refErr != nil {
		t.Fatalf("New: chip %v, reference %v", chipErr, refErr)
	}
	p.chipDev, p.refDev = chipDev, refDev
	p.compare("power-up")
	return p
}

// compare checks that hw/tiles received the same bytes from the chips as
// from the reference since the last comparison.
func (p *pair) compare(step string) {
	p.t.Helper()
	c, r := p.chipRec.log[p.compared:], p.refRec.log[p.compared:]
	n := max(len(c), len(r))
	for i := range n {
		var cs, rs string
		if i < len(c) {
			cs = c[i]
		}
		if i < len(r) {
			rs = r[i]
		}
		if cs != rs {
			p.t.Fatalf("%s: exchange %d differs:\n chip      %s\n reference %s", step, p.compared+i, cs, rs)
		}
	}
	p.compared += n
}

// setMV sets channel ch of tile addr to mV millivolts, on the chip and in
// the reference.
func (p *pair) setMV(addr uint8, ch, mV int) {
	p.t.Helper()
	if err := p.chip.Set(addr, ch, mV); err != nil {
		p.t.Fatal(err)
	}
	p.ref.tiles[addr].f.mv[ch] = mV
}

// set puts n pieces on channel ch of tile addr (negative n: south pole
// down), on the chip and in the reference.
func (p *pair) set(addr uint8, ch, n int) {
	p.t.Helper()
	if err := p.chip.Pieces(addr, ch, n); err != nil {
		p.t.Fatal(err)
	}
	p.ref.tiles[addr].f.mv[ch] = avrsim.Empty + n*avrsim.Piece
}

func (p *pair) settle() {
	p.t.Helper()
	for _, a := range addrs {
		if err := p.chip.Settle(a); err != nil {
			p.t.Fatal(err)
		}
		p.ref.tiles[a].settle()
	}
}

// scan scans both, compares what came back, and returns the chip's board.
func (p *pair) scan(step string) (board.Snapshot, error) {
	p.t.Helper()
	var cs, rs board.Snapshot
	cerr := p.chipDev.Scan(context.Background(), &cs)
	rerr := p.refDev.Scan(context.Background(), &rs)
	p.compare(step)
	if fmt.Sprint(cerr) != fmt.Sprint(rerr) || cs != rs {
		p.t.Fatalf("%s: chip board %v (%v), reference %v (%v)", step, cs, cerr, rs, rerr)
	}
	for _, a := range addrs {
		if p.chipDev.Resyncs(a) != p.refDev.Resyncs(a) {
			p.t.Fatalf("%s: tile %d resynchronised %d times on the chip, %d in the reference", step, a, p.chipDev.Resyncs(a), p.refDev.Resyncs(a))
		}
	}
	return cs, cerr
}

// raw sends one request to both and compares the answers.
func (p *pair) raw(step string, req []byte) []byte {
	p.t.Helper()
	buf := make([]byte, 0, protocol.MaxFrameLen)
	cb, cerr := p.chipRec.Exchange(req[1], req, buf)
	cb = bytes.Clone(cb)
	_, _ = p.refRec.Exchange(req[1], req, make([]byte, 0, protocol.MaxFrameLen))
	p.compare(step)
	if cerr != nil {
		return nil
	}
	return cb
}

func TestDifferential_ChipAnswersAsTheReference(t *testing.T) {
	p := newPair(t)

	// Pieces on both tiles: one and two north-up (Yellow), one south-up
	// (Red); they come as numbered changes.
	p.set(1, 4, 1)
	p.set(1, 17, 2)
	p.set(2, 0, -1)
	p.set(2, 51, 1)
	p.settle()
	s, err := p.scan("pieces placed")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Sites[4]; got.Count != 1 || !got.Coloured || got.ByColour[0] != 1 {
		t.Errorf("site index 4 reads %+v, want one Yellow piece", got)
	}
	if got := s.Sites[17]; got.Count != 2 || got.ByColour[0] != 2 {
		t.Errorf("site index 17 reads %+v, want two Yellow pieces", got)
	}
	if got := s.Sites[52]; got.Count != 1 || got.ByColour[2] != 1 {
		t.Errorf("site index 52 reads %+v, want one Red piece", got)
	}
	if p.chipDev.Resyncs(1) != 1 {
		t.Errorf("tile 1 resynchronised %d times: the changes should have come as changes", p.chipDev.Resyncs(1))
	}

	// More changes than the log holds (64): the poll is answered with a
	// snapshot.
	for ch := range avrsim.Channels {
		p.set(1, ch, 1)
	}
	p.settle()
	for ch := range 20 {
		p.set(1, ch, 0)
	}
	p.settle()
	p.scan("log overrun")
	if p.chipDev.Resyncs(1) != 2 {
		t.Errorf("after the overrun tile 1 resynchronised %d times, want 2", p.chipDev.Resyncs(1))
	}

	// A garbled answer (bad CRC) and a lost one: resynchronised.
	if err := p.chip.Corrupt(2); err != nil {
		t.Fatal(err)
	}
	p.ref.tiles[2].flip = true
	p.set(2, 30, 1)
	p.settle()
	p.scan("bad CRC")
	if err := p.chip.Drop(1); err != nil {
		t.Fatal(err)
	}
	p.ref.tiles[1].drop = true
	p.set(1, 40, 2)
	p.settle()
	p.scan("lost answer")

	// A request with a bad CRC is ignored; the next one is answered.
	bad := protocol.AppendSnapshotReq(nil, 1, 200)
	bad[len(bad)-1] ^= 0xFF
	if got := p.raw("bad request", bad); got != nil {
		t.Errorf("a request with a bad CRC was answered: % x", got)
	}
	if got := p.raw("good request", protocol.AppendSnapshotReq(nil, 1, 201)); got == nil {
		t.Error("no answer after a bad request")
	}

	// A reset tile draws the next boot number and is resynchronised; its
	// baselines are what its sensors read at power-up.
	if err := p.chip.Reset(1); err != nil {
		t.Fatal(err)
	}
	p.ref.tiles[1].powerUp(1)
	p.settle()
	s, _ = p.scan("reset")
	if s.Sites[40].Count != 0 {
		t.Errorf("after the reset site index 40 reads %+v: the power-up baseline includes its pieces", s.Sites[40])
	}
	p.set(1, 40, 0)
	p.settle()
	p.scan("taken off after the reset: the sensor reads below its baseline")

	// A stalled main loop: the watchdog restarts the tile.
	if err := p.chip.Hang(2); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second) // 250 ms of emulated time, on a loaded machine
	for p.chip.Watchdogs(2) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if p.chip.Watchdogs(2) != 1 {
		t.Fatalf("tile 2's watchdog fired %d times after a stall", p.chip.Watchdogs(2))
	}
	p.ref.tiles[2].powerUp(2)
	p.settle()
	p.scan("watchdog restart")

	// A tile that stops answering is reported by name, then comes back.
	if err := p.chip.Mute(2, true); err != nil {
		t.Fatal(err)
	}
	p.ref.tiles[2].muted = true
	_, err = p.scan("silent tile")
	var te *tiles.TileError
	if !errors.As(err, &te) || te.Addr != 2 || !errors.Is(err, tiles.ErrSilent) {
		t.Errorf("scan with tile 2 silent: %v", err)
	}
	if err := p.chip.Mute(2, false); err != nil {
		t.Fatal(err)
	}
	p.ref.tiles[2].muted = false
	if _, err := p.scan("tile back"); err != nil {
		t.Errorf("tile 2 back: %v", err)
	}
}

func TestDifferential_Calibration(t *testing.T) {
	p := newPair(t)
	ask := protocol.AppendCalibrate(nil, 1, 1, nil, false)
	f, _, err := protocol.Decode(p.raw("ask", ask))
	if err != nil {
		t.Fatal(err)
	}
	c, err := protocol.ParseCalibration(f)
	if err != nil || c != protocol.Calibration(tile.DefaultClassifier) {
		t.Fatalf("default calibration %+v (%v), want %+v", c, err, tile.DefaultClassifier)
	}

	p.set(1, 3, 1)
	p.settle()
	p.scan("one piece")

	// Thresholds above one piece's deviation: the piece is no longer read.
	high := protocol.Calibration{One: 260, Two: 450, Hysteresis: 10, Colours: true, North: 1, South: 3}
	f, _, err = protocol.Decode(p.raw("set", protocol.AppendCalibrate(nil, 1, 2, &high, false)))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := protocol.ParseCalibration(f); err != nil || c != high {
		t.Fatalf("calibration answer %+v (%v), want %+v", c, err, high)
	}
	p.set(1, 5, 2) // two pieces: Blue, the new north colour
	p.settle()
	s, _ := p.scan("new thresholds")
	if s.Sites[3].Count != 0 || s.Sites[5].Count != 2 || s.Sites[5].ByColour[1] != 2 {
		t.Errorf("with the new thresholds: site index 3 %+v, 5 %+v", s.Sites[3], s.Sites[5])
	}

	// Inconsistent thresholds are refused (no answer).
	bad := protocol.Calibration{One: 300, Two: 200, Hysteresis: 20}
	if got := p.raw("refused", protocol.AppendCalibrate(nil, 1, 3, &bad, false)); got != nil {
		t.Errorf("inconsistent thresholds answered: % x", got)
	}

	// The thresholds survive a reset.
	if err := p.chip.Reset(1); err != nil {
		t.Fatal(err)
	}
	p.ref.tiles[1].powerUp(1)
	p.settle()
	f, _, err = protocol.Decode(p.raw("after reset", protocol.AppendCalibrate(nil, 1, 4, nil, false)))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := protocol.ParseCalibration(f); err != nil || c != high {
		t.Errorf("after a reset the calibration is %+v (%v), want %+v", c, err, high)
	}

	// New baselines with the pieces on: they read as empty.
	p.raw("rebaseline", protocol.AppendCalibrate(nil, 1, 5, &high, true))
	p.settle()
	s, _ = p.scan("rebaselined")
	if s.Sites[5].Count != 0 {
		t.Errorf("after new baselines site index 5 reads %+v", s.Sites[5])
	}
}

// TestDifferential_RandomSensorScripts drives random voltages, many of them
// near the thresholds where hysteresis decides, with now and then a lost or
// garbled answer, and compares every exchange.
func TestDifferential_RandomSensorScripts(t *testing.T) {
	p := newPair(t)
	rng := rand.New(rand.NewPCG(17, 2026))
	for round := range 12 {
		for range 1 + rng.IntN(16) {
			a := addrs[rng.IntN(len(addrs))]
			// 1.8…3.2 V: both polarities, 0, 1 and 2 pieces, and every
			// threshold with its hysteresis band.
			p.setMV(a, rng.IntN(avrsim.Channels), 1800+rng.IntN(1401))
		}
		switch rng.IntN(6) {
		case 0:
			a := addrs[rng.IntN(len(addrs))]
			if err := p.chip.Corrupt(a); err != nil {
				t.Fatal(err)
			}
			p.ref.tiles[a].flip = true
		case 1:
			a := addrs[rng.IntN(len(addrs))]
			if err := p.chip.Drop(a); err != nil {
				t.Fatal(err)
			}
			p.ref.tiles[a].drop = true
		}
		p.settle()
		p.scan(fmt.Sprintf("round %d", round))
	}
	if p.chipDev.Resyncs(1)+p.chipDev.Resyncs(2) <= 2 {
		t.Error("no resynchronisation in 12 rounds: the faults were not injected")
	}
}
