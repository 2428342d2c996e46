package tiles

import (
	"errors"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/firmware/protocol"
	"github.com/parchis-table/parchis/firmware/tile"
)

// counting counts the requests a transport carries.
type counting struct {
	Transport
	n int
}

func (c *counting) Exchange(addr uint8, req, resp []byte) ([]byte, error) {
	c.n++
	return c.Transport.Exchange(addr, req, resp)
}

func TestSetup_SetsAndReadsBackThresholds(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    protocol.Calibration
	}{
		{"Colours", protocol.Calibration{One: 260, Two: 450, Hysteresis: 10, Colours: true, North: 1, South: 3}},
		{"NoColours", protocol.Calibration{One: 100, Two: 4095, Hysteresis: 0}},
		{"Default", protocol.Calibration(tile.DefaultClassifier)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := newBench(t)
			s := &Setup{T: b, Retries: 2}
			got, err := s.Calibrate(2, tc.c, false)
			if err != nil || got != tc.c {
				t.Fatalf("Calibrate: %+v, %v; want %+v", got, err, tc.c)
			}
			if got, err := s.Calibration(2); err != nil || got != tc.c {
				t.Errorf("read back %+v, %v; want %+v", got, err, tc.c)
			}
			// The other tile keeps its own.
			if got, err := s.Calibration(1); err != nil || got != protocol.Calibration(tile.DefaultClassifier) {
				t.Errorf("tile 1: %+v, %v; want the default", got, err)
			}
		})
	}
}

func TestSetup_Status(t *testing.T) {
	b, _ := newBench(t)
	b.put(2, 3, 1)
	b.put(2, 4, 2)
	s := &Setup{T: b}
	st, err := s.Status(2)
	want := Status{Addr: 2, Boot: 200, Seq: 2, Channels: 52, Calibration: protocol.Calibration(tile.DefaultClassifier)}
	if err != nil || st != want {
		t.Errorf("Status(2) = %+v, %v; want %+v", st, err, want)
	}
}

func TestSetup_RefusesBadThresholdsBeforeSending(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    protocol.Calibration
	}{
		{"TwoBelowOne", protocol.Calibration{One: 300, Two: 200, Hysteresis: 20}},
		{"TwoEqualsOne", protocol.Calibration{One: 300, Two: 300, Hysteresis: 20}},
		{"HysteresisNotBelowOne", protocol.Calibration{One: 30, Two: 200, Hysteresis: 30}},
		{"TwoOffScale", protocol.Calibration{One: 300, Two: 4096, Hysteresis: 20}},
		{"NoSuchColour", protocol.Calibration{One: 180, Two: 420, Hysteresis: 30, Colours: true, North: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := newBench(t)
			c := &counting{Transport: b}
			s := &Setup{T: c, Retries: 2}
			_, err := s.Calibrate(1, tc.c, false)
			var te *TileError
			if !errors.Is(err, ErrBadThresholds) || !errors.As(err, &te) || te.Addr != 1 {
				t.Fatalf("err = %v, want tile 1's thresholds refused", err)
			}
			if c.n != 0 {
				t.Errorf("%d requests sent, want none", c.n)
			}
		})
	}
}

func TestSetup_SilentTileNamed(t *testing.T) {
	b, _ := newBench(t)
	c := &counting{Transport: b}
	s := &Setup{T: c, Retries: 2}
	_, err := s.Calibrate(9, protocol.Calibration(tile.DefaultClassifier), false)
	var te *TileError
	if !errors.As(err, &te) || te.Addr != 9 || !errors.Is(err, ErrSilent) || !strings.Contains(err.Error(), "tile 9: no answer") {
		t.Fatalf("err = %v, want tile 9 silent", err)
	}
	if c.n != 3 {
		t.Errorf("%d requests sent, want 3 (2 retries)", c.n)
	}
	if _, err := s.Status(9); !errors.Is(err, ErrSilent) {
		t.Errorf("Status(9): %v, want silent", err)
	}
	if _, err := s.Calibration(0); err == nil || !strings.Contains(err.Error(), "tile 0: address out of range") {
		t.Errorf("Calibration(0): %v, want the address refused", err)
	}
}

func TestSetup_RetriesBadAnswers(t *testing.T) {
	want := protocol.Calibration{One: 200, Two: 500, Hysteresis: 25, Colours: true, North: 2, South: 0}
	for _, tc := range []struct {
		name  string
		fault func(r []byte) ([]byte, error)
	}{
		{"Lost", func(r []byte) ([]byte, error) { return nil, ErrSilent }},
		{"BadCRC", func(r []byte) ([]byte, error) { r[len(r)-1] ^= 0x55; return r, nil }},
		{"WrongKind", func(r []byte) ([]byte, error) {
			r[2] = byte(protocol.KindSnapshot)
			return fixCRC(r), nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := newBench(t)
			faults := 1
			b.fault = func(_ uint8, r []byte) ([]byte, error) {
				if faults > 0 {
					faults--
					return tc.fault(r)
				}
				return r, nil
			}
			s := &Setup{T: b, Retries: 1}
			if got, err := s.Calibrate(1, want, false); err != nil || got != want {
				t.Fatalf("after one bad answer: %+v, %v", got, err)
			}
			faults = 2
			_, err := s.Calibration(1)
			var te *TileError
			if !errors.As(err, &te) || te.Addr != 1 {
				t.Errorf("two bad answers with one retry: %v, want tile 1's error", err)
			}
		})
	}
}

func TestSetup_TileKeepingOtherThresholdsIsAnError(t *testing.T) {
	b, _ := newBench(t)
	b.fault = func(_ uint8, r []byte) ([]byte, error) {
		// A tile that does not store what it is sent: it answers with
		// the defaults.
		return protocol.AppendCalibration(r[:0], r[1], r[3], protocol.Calibration(tile.DefaultClassifier)), nil
	}
	s := &Setup{T: b}
	_, err := s.Calibrate(1, protocol.Calibration{One: 200, Two: 500, Hysteresis: 25}, false)
	if err == nil || !strings.Contains(err.Error(), "tile 1: answered with thresholds") {
		t.Errorf("err = %v, want tile 1's other thresholds reported", err)
	}
}

// TestSetup_DevScansOnAfterwards checks that a Dev scanning the same tiles
// after a calibration still follows them.
func TestSetup_DevScansOnAfterwards(t *testing.T) {
	b, d := newBench(t)
	s := &Setup{T: b}
	if _, err := s.Calibrate(1, protocol.Calibration{One: 200, Two: 600, Hysteresis: 25, Colours: true}, false); err != nil {
		t.Fatal(err)
	}
	b.put(1, 4, 2) // 500 counts: one piece under the new thresholds
	snap, err := scan(t, d)
	if err != nil {
		t.Fatal(err)
	}
	if r := snap.Sites[engine.TrackSite(5)]; r != yellow(1) {
		t.Errorf("site 5 reads %+v, want one yellow piece", r)
	}
}
