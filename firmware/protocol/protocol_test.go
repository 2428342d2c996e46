package protocol

import (
	"bytes"
	"errors"
	"testing"
)

func TestCRC16_CheckValue(t *testing.T) {
	if got := CRC16([]byte("123456789")); got != 0x29B1 {
		t.Errorf("CRC16 check = %#04x, want 0x29b1", got)
	}
}

func TestDecode(t *testing.T) {
	good := AppendPoll(nil, 5, 7, 300)
	badCRC := bytes.Clone(good)
	badCRC[len(badCRC)-1] ^= 0xFF
	badKind := appendCRC([]byte{Start, 5, 9, 7, 0})
	tests := []struct {
		name  string
		in    []byte
		err   error
		n     int
		frame Frame
	}{
		{"Poll", good, nil, len(good), Frame{Addr: 5, Kind: KindPoll, Tag: 7, Payload: []byte{1, 44}}},
		{"GarbageBefore", append([]byte{0, 1, 2}, good...), nil, 3 + len(good), Frame{Addr: 5, Kind: KindPoll, Tag: 7, Payload: []byte{1, 44}}},
		{"Short", good[:6], ErrShort, 0, Frame{}},
		{"NoStart", []byte{1, 2, 3}, ErrNoStart, 3, Frame{}},
		{"BadCRC", badCRC, ErrCRC, 1, Frame{}},
		{"BadLength", []byte{Start, 1, 1, 0, 250}, ErrLength, 1, Frame{}},
		{"UnknownKind", badKind, ErrKind, 1, Frame{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, n, err := Decode(tc.in)
			if !errors.Is(err, tc.err) || n != tc.n {
				t.Fatalf("Decode = n %d, err %v; want n %d, err %v", n, err, tc.n, tc.err)
			}
			if err == nil && (f.Addr != tc.frame.Addr || f.Kind != tc.frame.Kind || f.Tag != tc.frame.Tag || !bytes.Equal(f.Payload, tc.frame.Payload)) {
				t.Errorf("frame %+v, want %+v", f, tc.frame)
			}
		})
	}
}

// appendCRC appends the CRC of a frame's start…payload in b.
func appendCRC(b []byte) []byte {
	crc := CRC16(b[1:])
	return append(b, byte(crc>>8), byte(crc))
}

func TestChangesRoundTrip(t *testing.T) {
	recs := []Change{{Num: 10, Channel: 3, Reading: MakeColoured(2, 1, 3)}, {Num: 11, Channel: 60, Reading: 0}}
	f, _, err := Decode(AppendChanges(nil, 9, 1, 500, 11, recs))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseChanges(f)
	if err != nil || c.Boot != 500 || c.Seq != 11 || c.Len() != 2 || c.At(0) != recs[0] || c.At(1) != recs[1] {
		t.Fatalf("%+v %v", c, err)
	}
	if r := c.At(0).Reading; r.Count() != 2 || !r.Coloured() || r.Colour(0) != 1 || r.Colour(1) != 3 {
		t.Errorf("reading %08b", r)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(AppendPoll(nil, 5, 7, 300))
	f.Add(AppendSnapshot(nil, 2, 3, 4, 5, []Reading{1, 2, 3}))
	f.Add(AppendChanges(nil, 9, 1, 500, 11, []Change{{Num: 10, Channel: 3, Reading: 1}}))
	f.Add([]byte{Start, 1, 1, 0, 250})
	f.Add(AppendCalibrate(nil, 3, 4, &Calibration{One: 180, Two: 420, Hysteresis: 30, Colours: true, South: 2}, true))
	f.Add(AppendCalibration(nil, 3, 4, Calibration{One: 180, Two: 420, Hysteresis: 30}))
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, n, err := Decode(b)
		if n < 0 || n > len(b) {
			t.Fatalf("consumed %d of %d bytes", n, len(b))
		}
		if err != nil {
			return
		}
		again, aerr := Append(nil, fr)
		if aerr != nil || !bytes.Equal(again, b[n-len(again):n]) {
			t.Fatalf("re-encoding differs: % x vs % x", again, b[:n])
		}
		switch fr.Kind {
		case KindChanges:
			if c, err := ParseChanges(fr); err == nil {
				for i := 0; i < c.Len(); i++ {
					_ = c.At(i)
				}
			}
		case KindSnapshot:
			_, _ = ParseSnapshot(fr, make([]Reading, 0, MaxChannels))
		case KindPoll:
			_, _ = PollWant(fr)
		case KindCalibrate:
			if c, _, err := ParseCalibrate(fr); err == nil && c != nil {
				if err := c.Validate(); err != nil {
					t.Fatalf("ParseCalibrate accepted %+v: %v", c, err)
				}
			}
		case KindCalibration:
			if c, err := ParseCalibration(fr); err == nil {
				again := AppendCalibration(nil, fr.Addr, fr.Tag, c)
				if !bytes.Equal(again, b[n-len(again):n]) {
					t.Fatalf("calibration re-encoding differs: % x vs % x", again, b[:n])
				}
			}
		}
	})
}

func TestCalibrate(t *testing.T) {
	good := Calibration{One: 180, Two: 420, Hysteresis: 30, Colours: true, North: 1, South: 2}
	tests := []struct {
		name    string
		frame   []byte
		want    *Calibration
		rebase  bool
		wantErr bool
	}{
		{"Ask", AppendCalibrate(nil, 3, 9, nil, false), nil, false, false},
		{"Set", AppendCalibrate(nil, 3, 9, &good, false), &good, false, false},
		{"SetAndRebaseline", AppendCalibrate(nil, 3, 9, &good, true), &good, true, false},
		{"OneNotBelowTwo", AppendCalibrate(nil, 3, 9, &Calibration{One: 400, Two: 400, Hysteresis: 10}, false), nil, false, true},
		{"HysteresisTooLarge", AppendCalibrate(nil, 3, 9, &Calibration{One: 100, Two: 400, Hysteresis: 100}, false), nil, false, true},
		{"BeyondTwelveBits", AppendCalibrate(nil, 3, 9, &Calibration{One: 100, Two: 4096, Hysteresis: 10}, false), nil, false, true},
		{"ReservedBits", appendCRC([]byte{Start, 3, byte(KindCalibrate), 9, 8, 0, 180, 1, 164, 0, 30, 0x10, 0}), nil, false, true},
		{"ShortPayload", appendCRC([]byte{Start, 3, byte(KindCalibrate), 9, 2, 0, 180}), nil, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, _, err := Decode(tc.frame)
			if err != nil {
				t.Fatal(err)
			}
			c, rebase, err := ParseCalibrate(f)
			if (err != nil) != tc.wantErr {
				t.Fatalf("ParseCalibrate: %v, want error %v", err, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			if (c == nil) != (tc.want == nil) || (c != nil && *c != *tc.want) || rebase != tc.rebase {
				t.Errorf("ParseCalibrate = %+v, %v; want %+v, %v", c, rebase, tc.want, tc.rebase)
			}
		})
	}
	f, _, err := Decode(AppendCalibration(nil, 3, 9, good))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := ParseCalibration(f); err != nil || c != good {
		t.Errorf("ParseCalibration = %+v, %v; want %+v", c, err, good)
	}
	if f.Kind.String() != "calibration" {
		t.Errorf("kind %q", f.Kind)
	}
}

// BenchmarkDecode decodes a 52-channel snapshot, the largest answer a rev B
// tile sends, as hw/tiles does for every answer.
func BenchmarkDecode(b *testing.B) {
	frame := AppendSnapshot(nil, 1, 2, 3, 4, make([]Reading, 52))
	dst := make([]Reading, 0, MaxChannels)
	b.ReportAllocs()
	for b.Loop() {
		f, _, err := Decode(frame)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ParseSnapshot(f, dst); err != nil {
			b.Fatal(err)
		}
	}
}
