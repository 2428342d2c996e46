package direct

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/hw"
)

// setUp is the golden set-up exchange of one expander (mcp23017.DefaultOpts).
func setUp(addr uint16) []i2ctest.IO {
	return []i2ctest.IO{
		{Addr: addr, W: []byte{0x05, 0x00}},
		{Addr: addr, W: []byte{0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0x44, 0x44, 0xFF, 0xFF}},
		{Addr: addr, W: []byte{0x12}, R: []byte{0, 0}},
		{Addr: addr, W: []byte{0x04, 0xFF, 0xFF}},
	}
}

func scanOp(addr uint16, a, b byte) i2ctest.IO {
	return i2ctest.IO{Addr: addr, W: []byte{0x12}, R: []byte{a, b}}
}

func TestScan_StandardBoard_SevenTransactions(t *testing.T) {
	var ops []i2ctest.IO
	for a := uint16(0x20); a <= 0x26; a++ {
		ops = append(ops, setUp(a)...)
	}
	// Closed: GPA0 of 0x20 (site 1), GPB3 of 0x20 (site 12), GPA4 of 0x26
	// (site 101 = YH), GPB3 of 0x24 (site index 75 = YG).
	scan := []i2ctest.IO{
		scanOp(0x20, 0x01, 0x08), scanOp(0x21, 0, 0), scanOp(0x22, 0, 0), scanOp(0x23, 0, 0),
		scanOp(0x24, 0, 0x08), scanOp(0x25, 0, 0), scanOp(0x26, 0x10, 0),
	}
	bus := &i2ctest.Playback{Ops: append(ops, scan...)}
	d, err := New(bus, nil, config.DefaultLayout(), &DefaultOpts)
	if err != nil {
		t.Fatal(err)
	}
	before := bus.Count
	var s board.Snapshot
	if err := d.Scan(context.Background(), &s); err != nil {
		t.Fatal(err)
	}
	if n := bus.Count - before; n != 7 {
		t.Errorf("scan took %d transactions, want 7", n)
	}
	want := map[engine.Site]bool{
		engine.TrackSite(1): true, engine.TrackSite(12): true,
		engine.GoalSite(engine.Yellow): true, engine.HomeSite(engine.Yellow): true,
	}
	for x, r := range s.Sites {
		if got := r.Count == 1; got != want[engine.Site(x)] || r.Count > 1 || r.Coloured {
			t.Errorf("site %v reads %+v", engine.Site(x), r)
		}
	}
	if err := bus.Close(); err != nil {
		t.Error(err)
	}
}

func TestNew_MissingExpandersAllNamed(t *testing.T) {
	var ops []i2ctest.IO
	for a := uint16(0x20); a <= 0x24; a++ {
		ops = append(ops, setUp(a)...)
	}
	bus := &i2ctest.Playback{Ops: ops, DontPanic: true}
	_, err := New(bus, nil, config.DefaultLayout(), &DefaultOpts)
	if err == nil {
		t.Fatal("New succeeded with two expanders missing")
	}
	for _, want := range []string{"mcp23017 at 0x25", "mcp23017 at 0x26"} {
		if !contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// fakeBus answers every read with the same pins and counts transactions.
type fakeBus struct {
	txs  atomic.Int64
	pins [2]byte
}

func (b *fakeBus) String() string                    { return "fake" }
func (b *fakeBus) SetSpeed(physic.Frequency) error   { return nil }
func (b *fakeBus) Tx(addr uint16, w, r []byte) error { b.txs.Add(1); copy(r, b.pins[:]); return nil }

func newStandard(tb testing.TB, bus *fakeBus, irq gpio.PinIn) *Dev {
	tb.Helper()
	d, err := New(bus, irq, config.DefaultLayout(), &DefaultOpts)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

func TestNotify_FallingEdgeWakesWatcher(t *testing.T) {
	irq := &gpiotest.Pin{N: "GPIO17", EdgesChan: make(chan gpio.Level, 1)}
	bus := &fakeBus{}
	d := newStandard(t, bus, irq)
	if irq.P != gpio.PullUp {
		t.Errorf("interrupt pin pull %v, want PullUp", irq.P)
	}
	o := hw.DefaultWatchOpts
	o.Poll = time.Hour // only the interrupt can wake it
	o.Debounce = hw.DebounceOpts{Integrate: 1}
	w, err := hw.NewWatcher(d, &o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	first := <-w.Changes()
	if first.Snapshot != (board.Snapshot{}) {
		t.Fatal("first snapshot not empty")
	}
	bus.pins = [2]byte{0x10, 0} // site 5 closes
	irq.EdgesChan <- gpio.Low
	select {
	case c := <-w.Changes():
		if c.Snapshot.Sites[engine.TrackSite(5)].Count != 1 {
			t.Errorf("after the edge: site 5 reads %+v", c.Snapshot.Sites[engine.TrackSite(5)])
		}
	case <-ctx.Done():
		t.Fatal("no change after the interrupt edge")
	}
	cancel()
	<-done
}

func BenchmarkScan(b *testing.B) {
	bus := &fakeBus{pins: [2]byte{0x21, 0x80}}
	d := newStandard(b, bus, nil)
	var s board.Snapshot
	ctx := context.Background()
	start := bus.txs.Load()
	b.ReportAllocs()
	for b.Loop() {
		if err := d.Scan(ctx, &s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(bus.txs.Load()-start)/float64(b.N), "tx/op")
}

func BenchmarkDecode(b *testing.B) {
	d := newStandard(b, &fakeBus{}, nil)
	pins := []uint16{0x8421, 0x0001, 0xFFFF, 0, 0x1248, 0x0F0F, 0x000F}
	var s board.Snapshot
	b.ReportAllocs()
	for b.Loop() {
		d.Decode(&s, pins)
	}
}
