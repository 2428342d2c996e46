package tile

import (
	"testing"

	"github.com/parchis-table/parchis/firmware/protocol"
)

// FakeFront is an analog front end whose samples tests set.
type FakeFront struct {
	S       Schedule
	Samples []uint16
	addr    uint8
	Selects int
}

func (f *FakeFront) Select(a uint8)    { f.addr = a; f.Selects++ }
func (f *FakeFront) Read(m int) uint16 { return f.Samples[m*f.S.PerMux+int(f.addr)] }

func TestSchedule_OneSelectPerInput(t *testing.T) {
	s := Schedule{Muxes: 3, PerMux: 16}
	f := &FakeFront{S: s, Samples: make([]uint16, 48)}
	for i := range f.Samples {
		f.Samples[i] = uint16(i)
	}
	dst := make([]uint16, 48)
	s.Scan(f, dst)
	for i, v := range dst {
		if v != uint16(i) {
			t.Fatalf("channel %d = %d", i, v)
		}
	}
	if f.Selects != 16 {
		t.Errorf("%d selects, want 16", f.Selects)
	}
	if (Schedule{Muxes: 5, PerMux: 16}).Validate() == nil {
		t.Error("5 multiplexers accepted")
	}
}

func TestClassify(t *testing.T) {
	c := DefaultClassifier
	const base = 2048
	none := protocol.MakeReading(0)
	tests := []struct {
		name   string
		sample uint16
		prev   protocol.Reading
		want   protocol.Reading
	}{
		{"Empty", base + 20, none, none},
		{"OneNorthIsYellow", base + 250, none, protocol.MakeColoured(1, 0, 0)},
		{"OneSouthIsRed", base - 250, none, protocol.MakeColoured(1, 2, 2)},
		{"TwoNorth", base + 500, none, protocol.MakeColoured(2, 0, 0)},
		{"NearThresholdStaysEmpty", base + 190, none, none},
		{"NearThresholdStaysOne", base + 170, protocol.MakeColoured(1, 0, 0), protocol.MakeColoured(1, 0, 0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := c.Classify(tc.sample, base, tc.prev); got != tc.want {
				t.Errorf("Classify(%d) = %08b, want %08b", tc.sample, got, tc.want)
			}
		})
	}
	plain := Classifier{One: 180, Two: 420}
	if got := plain.Classify(base-500, base, none); got != protocol.MakeReading(2) || got.Coloured() {
		t.Errorf("without colours: %08b", got)
	}
}

func TestDebouncer_BouncingReading(t *testing.T) {
	d := Debouncer{N: 3}
	one := protocol.MakeReading(1)
	var changes []int
	for _, r := range []protocol.Reading{one, 0, one, one, 0, one, one, one} {
		d.Feed([]protocol.Reading{r}, func(ch int, r protocol.Reading) { changes = append(changes, ch) })
	}
	if len(changes) != 1 || d.Stable(0) != one {
		t.Errorf("changes %v, stable %v", changes, d.Stable(0))
	}
}

func TestLog_Since(t *testing.T) {
	var l Log
	buf := make([]protocol.Change, 0, 10)
	if recs, ok := l.Since(1, buf); !ok || len(recs) != 0 {
		t.Fatalf("empty log: %v %v", recs, ok)
	}
	for i := range 70 {
		l.Add(i%8, protocol.MakeReading(1))
	}
	if recs, ok := l.Since(65, buf); !ok || len(recs) != 6 || recs[0].Num != 65 || recs[5].Num != 70 {
		t.Errorf("Since(65) = %v %v", recs, ok)
	}
	if _, ok := l.Since(3, buf); ok {
		t.Error("Since(3) answered after 70 changes in a log of 64")
	}
	if _, ok := l.Since(80, buf); ok {
		t.Error("Since(80) answered: a change from the future")
	}
	if recs, ok := l.Since(10, buf); !ok || len(recs) != 10 || recs[9].Num != 19 {
		t.Errorf("Since(10) limited to 10 = %v %v", recs, ok)
	}
}

func TestTile_AnswersPollsAndSnapshots(t *testing.T) {
	s := Schedule{Muxes: 1, PerMux: 4}
	f := &FakeFront{S: s, Samples: []uint16{2048, 2048, 2048, 2048}}
	tl := &Tile{Addr: 3, Boot: 77, Schedule: s, Class: DefaultClassifier, Deb: Debouncer{N: 2}}
	tl.Calibrate(f)
	f.Samples[2] = 2048 - 300
	tl.Step(f)
	tl.Step(f)
	if tl.Seq() != 1 {
		t.Fatalf("seq %d after one change", tl.Seq())
	}
	resp := tl.Handle(protocol.AppendPoll(nil, 3, 9, 1))
	fr, _, err := protocol.Decode(resp)
	if err != nil || fr.Tag != 9 {
		t.Fatalf("poll answer %v %v", fr, err)
	}
	c, err := protocol.ParseChanges(fr)
	if err != nil || c.Boot != 77 || c.Len() != 1 || c.At(0) != (protocol.Change{Num: 1, Channel: 2, Reading: protocol.MakeColoured(1, 2, 2)}) {
		t.Fatalf("changes %+v %v", c, err)
	}
	if tl.Handle(protocol.AppendPoll(nil, 4, 9, 1)) != nil {
		t.Error("answered a poll for another tile")
	}
	bad := protocol.AppendSnapshotReq(nil, 3, 1)
	bad[len(bad)-1] ^= 1
	if tl.Handle(bad) != nil {
		t.Error("answered a frame with a bad CRC")
	}
	fr, _, _ = protocol.Decode(tl.Handle(protocol.AppendSnapshotReq(nil, 3, 10)))
	snap, err := protocol.ParseSnapshot(fr, nil)
	if err != nil || len(snap.Readings) != 4 || snap.Readings[2].Count() != 1 || snap.Seq != 1 {
		t.Fatalf("snapshot %+v %v", snap, err)
	}
}

func TestTile_Calibration(t *testing.T) {
	s := Schedule{Muxes: 1, PerMux: 2}
	f := &FakeFront{S: s, Samples: []uint16{2048, 2048}}
	tl := &Tile{Addr: 3, Boot: 1, Schedule: s, Class: DefaultClassifier, Deb: Debouncer{N: 1}}
	tl.Calibrate(f)

	ask := func(req []byte) (protocol.Calibration, bool) {
		t.Helper()
		resp := tl.Handle(req)
		if resp == nil {
			return protocol.Calibration{}, false
		}
		fr, _, err := protocol.Decode(resp)
		if err != nil {
			t.Fatal(err)
		}
		c, err := protocol.ParseCalibration(fr)
		if err != nil {
			t.Fatal(err)
		}
		return c, true
	}
	if c, ok := ask(protocol.AppendCalibrate(nil, 3, 1, nil, false)); !ok || c != protocol.Calibration(DefaultClassifier) {
		t.Fatalf("asked: %+v %v", c, ok)
	}

	f.Samples[0] = 2048 + 250
	tl.Step(f)
	if tl.Deb.Stable(0).Count() != 1 {
		t.Fatalf("one piece reads %v", tl.Deb.Stable(0))
	}
	high := protocol.Calibration{One: 300, Two: 600, Hysteresis: 10, Colours: true, North: 3, South: 1}
	if c, ok := ask(protocol.AppendCalibrate(nil, 3, 2, &high, false)); !ok || c != high {
		t.Fatalf("set: %+v %v", c, ok)
	}
	tl.Step(f)
	if tl.Deb.Stable(0).Count() != 0 {
		t.Errorf("with One at 300 a deviation of 250 reads %v", tl.Deb.Stable(0))
	}
	if _, ok := ask(protocol.AppendCalibrate(nil, 3, 3, &protocol.Calibration{One: 5, Two: 4}, false)); ok {
		t.Error("inconsistent thresholds answered")
	}
	if tl.Class != Classifier(high) {
		t.Errorf("inconsistent thresholds taken: %+v", tl.Class)
	}

	// New baselines: the next scan is taken as empty.
	f.Samples[1] = 2048 - 700
	ask(protocol.AppendCalibrate(nil, 3, 4, &high, true))
	tl.Step(f)
	tl.Step(f)
	if tl.Deb.Stable(1).Count() != 0 {
		t.Errorf("after new baselines channel 1 reads %v", tl.Deb.Stable(1))
	}
	f.Samples[1] = 2048
	tl.Step(f)
	if r := tl.Deb.Stable(1); r.Count() != 2 || r.Colour(0) != 3 {
		t.Errorf("700 above the new baseline reads %v, want two Green (north) pieces", r)
	}
}

// BenchmarkTile_StepAndPoll is one scan of 52 channels and the answer to a
// poll, the reference model's work per scan in the simulated table.
func BenchmarkTile_StepAndPoll(b *testing.B) {
	s := Schedule{Muxes: 4, PerMux: 13}
	f := &FakeFront{S: s, Samples: make([]uint16, s.Channels())}
	for i := range f.Samples {
		f.Samples[i] = 2048
	}
	tl := &Tile{Addr: 1, Boot: 1, Schedule: s, Class: DefaultClassifier, Deb: Debouncer{N: 3}}
	tl.Calibrate(f)
	poll := protocol.AppendPoll(nil, 1, 1, 1)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		f.Samples[i%52] = 2048 + uint16(250*(i/52%2)) // pieces come and go
		tl.Step(f)
		if tl.Handle(poll) == nil {
			b.Fatal("no answer")
		}
	}
}
