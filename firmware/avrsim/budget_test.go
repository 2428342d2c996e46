package avrsim_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/parchis-table/parchis/firmware/avrsim"
	"github.com/parchis-table/parchis/firmware/protocol"
	"github.com/parchis-table/parchis/hw"
	"github.com/parchis-table/parchis/hw/serial"
	"github.com/parchis-table/parchis/hw/tiles"
)

// headroom is the share of the chip's flash and RAM the firmware may use.
const headroom = 0.75

func TestSizes_WithinChipLimitsWithHeadroom(t *testing.T) {
	dir := avrsim.Require(t)
	s, err := avrsim.ReadSizes(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("flash %d of %d bytes (%.1f%%), RAM %d of %d bytes (%.1f%%)",
		s.Flash, avrsim.FlashBytes, 100*float64(s.Flash)/avrsim.FlashBytes,
		s.RAM, avrsim.RAMBytes, 100*float64(s.RAM)/avrsim.RAMBytes)
	if s.Flash <= 0 || s.RAM <= 0 {
		t.Fatalf("sizes %+v: the build wrote no sizes", s)
	}
	if limit := int(headroom * avrsim.FlashBytes); s.Flash > limit {
		t.Errorf("flash %d bytes, over %d (%.0f%% of the chip's %d)", s.Flash, limit, 100*headroom, avrsim.FlashBytes)
	}
	if limit := int(headroom * avrsim.RAMBytes); s.RAM > limit {
		t.Errorf("static RAM %d bytes, over %d (%.0f%% of the chip's %d; the stack needs the rest)", s.RAM, limit, 100*headroom, avrsim.RAMBytes)
	}
}

// TestStack_WithinRAM measures the deepest stack the firmware uses while
// it scans and answers every kind of request, and checks static RAM and
// that stack together against the same 75% of the chip's RAM.
func TestStack_WithinRAM(t *testing.T) {
	dir := avrsim.Require(t)
	sizes, err := avrsim.ReadSizes(dir)
	if err != nil {
		t.Fatal(err)
	}
	chip, err := avrsim.Start(dir, avrsim.Opts{Tiles: []avrsim.Tile{{Addr: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	o := serial.DefaultOpts
	o.Timeout = avrsim.AnswerTimeout
	port, err := serial.Open(chip.PTY, &o)
	if err != nil {
		chip.Close()
		t.Fatal(err)
	}
	defer port.Close()
	line := &tiles.Serial{Port: port}
	cal := protocol.Calibration{One: 200, Two: 430, Hysteresis: 20, Colours: true, South: 2}
	for ch := range 40 {
		if err := chip.Pieces(1, ch, 1+ch%2); err != nil {
			t.Fatal(err)
		}
	}
	if err := chip.Settle(1); err != nil {
		t.Fatal(err)
	}
	for i, req := range [][]byte{
		protocol.AppendSnapshotReq(nil, 1, 1),
		protocol.AppendPoll(nil, 1, 2, 1),   // 40 changes in one frame
		protocol.AppendPoll(nil, 1, 3, 100), // a change from the future: a snapshot
		protocol.AppendCalibrate(nil, 1, 4, &cal, true),
		protocol.AppendCalibrate(nil, 1, 5, nil, false),
	} {
		if _, err := line.Exchange(1, req, make([]byte, 0, protocol.MaxFrameLen)); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	if err := chip.Close(); err != nil {
		t.Fatal(err)
	}
	stack := chip.MaxStack(1)
	total := sizes.RAM + stack
	t.Logf("deepest stack %d bytes; with static RAM %d bytes: %d of %d (%.1f%%)", stack, sizes.RAM, total, avrsim.RAMBytes, 100*float64(total)/avrsim.RAMBytes)
	if stack <= 0 {
		t.Fatal("the harness reported no stack use")
	}
	if limit := int(headroom * avrsim.RAMBytes); total > limit {
		t.Errorf("static RAM and stack %d bytes, over %d (%.0f%% of %d)", total, limit, 100*headroom, avrsim.RAMBytes)
	}
}

// lineTime is how long n bytes take on the line (8N1: 10 bits a byte).
func lineTime(n int) time.Duration {
	return time.Duration(n) * 10 * time.Second / protocol.Baud
}

// TestRoundTrip_EightTilesWithinPollInterval polls eight emulated tiles
// once each, as one scan of the daemon does on a quiet board, and checks
// the line time of the whole round against the daemon's poll interval.
func TestRoundTrip_EightTilesWithinPollInterval(t *testing.T) {
	const n = 8
	poll := len(protocol.AppendPoll(nil, 1, 1, 1))
	empty := len(protocol.AppendChanges(nil, 1, 1, 1, 0, nil))
	snap := protocol.HeaderLen + protocol.SnapshotHeader + avrsim.Channels + protocol.CRCLen
	quiet := n * lineTime(poll+empty)
	t.Logf("from frame sizes: a poll is %d bytes, a quiet answer %d: %v a tile, %v for %d tiles; all answering %d-channel snapshots: %v",
		poll, empty, lineTime(poll+empty), quiet, n, avrsim.Channels, n*lineTime(poll+snap))

	dir := avrsim.Require(t)
	var ts []avrsim.Tile
	for a := range n {
		ts = append(ts, avrsim.Tile{Addr: uint8(a + 1)})
	}
	chip, err := avrsim.Start(dir, avrsim.Opts{Tiles: ts})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := chip.Close(); err != nil {
			t.Error(err)
		}
	}()
	o := serial.DefaultOpts
	o.Timeout = avrsim.AnswerTimeout
	port, err := serial.Open(chip.PTY, &o)
	if err != nil {
		t.Fatal(err)
	}
	defer port.Close()
	for _, x := range ts {
		if err := chip.Settle(x.Addr); err != nil {
			t.Fatal(err)
		}
	}
	line := &tiles.Serial{Port: port}
	buf := make([]byte, 0, protocol.MaxFrameLen)
	for _, x := range ts {
		// Change number 1 is the next one: a quiet tile has none.
		b, err := line.Exchange(x.Addr, protocol.AppendPoll(nil, x.Addr, 1, 1), buf)
		if err != nil {
			t.Fatalf("tile %d: %v", x.Addr, err)
		}
		if len(b) != empty {
			t.Fatalf("tile %d answered %d bytes, want %d", x.Addr, len(b), empty)
		}
	}
	// The harness reports an answer once its last byte is out; give the
	// report time to come after the bytes.
	var as []avrsim.Answer
	for range 100 {
		if as = chip.Answers(); len(as) >= n {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(as) != n {
		t.Fatalf("%d answers reported, want %d", len(as), n)
	}
	t.Logf("answers: %+v", as)
	var total time.Duration
	var turn []time.Duration
	for _, a := range as {
		total += a.RoundTrip
		// simavr's UART takes 47 µs a byte (it counts a parity bit).
		turn = append(turn, a.RoundTrip-time.Duration(poll+a.Bytes)*47*time.Microsecond)
	}
	slices.Sort(turn)
	t.Logf("measured in emulation: %v for %d tiles' poll and answer (request's first byte to answer's last), tile turnaround %v…%v",
		total, n, turn[0], turn[len(turn)-1])
	interval := hw.DefaultWatchOpts.Poll
	fast := hw.DefaultWatchOpts.Fast
	t.Logf("the daemon's poll interval is %v; while confirming a change it scans every %v (%s)", interval, fast, fits(total, fast))
	if total > interval || quiet > interval {
		t.Errorf("a round of %d polls takes %v on the line (%v from frame sizes), over the poll interval %v", n, total, quiet, interval)
	}
}

func fits(d, period time.Duration) string {
	if d <= period {
		return "the round fits"
	}
	return fmt.Sprintf("the round does not fit: %.1f× that period", float64(d)/float64(period))
}

// TestScanPeriod measures, in emulation, how often a tile scans its 52
// channels, and so how soon after a piece lands the tile reports it.
func TestScanPeriod(t *testing.T) {
	dir := avrsim.Require(t)
	chip, err := avrsim.Start(dir, avrsim.Opts{Tiles: []avrsim.Tile{{Addr: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := chip.Close(); err != nil {
			t.Error(err)
		}
	}()
	const n = 20
	start, err := chip.ScansAt(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	end, err := chip.ScansAt(1, n)
	if err != nil {
		t.Fatal(err)
	}
	period := (end - start) / n
	// 52 conversions of 13 ADC clocks at F_CPU/128 = 115.2 kHz.
	adc := time.Duration(avrsim.Channels*13) * time.Second / 115200
	t.Logf("a scan every %v (the ADC's conversions alone take %v); a change is taken after %d scans: reported %v…%v after it happens",
		period, adc, avrsim.Debounce, avrsim.Debounce*period, (avrsim.Debounce+1)*period)
	if period < adc || period > 2*adc {
		t.Errorf("a scan every %v: the ADC alone takes %v, and the rest of the loop should not double it", period, adc)
	}
}
