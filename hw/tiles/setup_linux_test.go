package tiles

import (
	"errors"
	"testing"

	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/firmware/avrsim"
	"github.com/parchis-table/parchis/firmware/protocol"
	"github.com/parchis-table/parchis/firmware/tile"
	"github.com/parchis-table/parchis/hw/serial"
)

// TestSetup_OverATTY sets and reads back thresholds over a real tty, on
// the Go reference and on the compiled firmware, with and without a
// transceiver that echoes the Pi's requests.
func TestSetup_OverATTY(t *testing.T) {
	high := protocol.Calibration{One: 260, Two: 450, Hysteresis: 10, Colours: true, North: 1, South: 3}
	for _, tc := range []struct {
		name string
		echo bool
		chip bool
	}{
		{"Plain", false, false},
		{"TransceiverEcho", true, false},
		{"EmulatedChip", false, true},
		{"EmulatedChipTransceiverEcho", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l line
			var p *serial.Port
			if tc.chip {
				l, p = chipSerialLine(t, tc.echo)
			} else {
				l, p = serialLine(t, tc.echo)
			}
			s := &Setup{T: &Serial{Port: p}, Retries: 2}
			if got, err := s.Calibration(1); err != nil || got != protocol.Calibration(tile.DefaultClassifier) {
				t.Fatalf("a new tile's thresholds: %+v, %v; want the default", got, err)
			}
			if got, err := s.Calibrate(1, high, false); err != nil || got != high {
				t.Fatalf("Calibrate: %+v, %v", got, err)
			}
			st, err := s.Status(1)
			if err != nil || st.Calibration != high || st.Channels != avrsim.Channels || st.Addr != 1 {
				t.Fatalf("Status(1) = %+v, %v", st, err)
			}
			if got, err := s.Calibration(2); err != nil || got != protocol.Calibration(tile.DefaultClassifier) {
				t.Errorf("tile 2: %+v, %v; want the default", got, err)
			}

			l.Remove(2)
			if _, err := s.Calibrate(2, high, false); !errors.Is(err, ErrSilent) {
				t.Errorf("tile 2 removed: %v, want no answer", err)
			}
			if !tc.chip {
				return
			}
			// The chip keeps its thresholds in EEPROM through a reset,
			// which gives it a new boot number.
			if err := l.PowerUp(1, 0, tile.Schedule{}); err != nil {
				t.Fatal(err)
			}
			after, err := s.Status(1)
			if err != nil || after.Calibration != high || after.Boot == st.Boot {
				t.Errorf("after a reset: %+v, %v; want %+v under a new boot number than %d", after, err, high, st.Boot)
			}
		})
	}
}

// TestSetup_EmulatedChipTakesNewBaselines puts a magnet over a sensor and
// then has the chip take its readings as the empty baselines: the site
// then reads empty.
func TestSetup_EmulatedChipTakesNewBaselines(t *testing.T) {
	l, p := chipSerialLine(t, false)
	chip := l.(chipLine).chip
	s := &Setup{T: &Serial{Port: p}, Retries: 2}
	if err := l.Put(1, 4, 1); err != nil {
		t.Fatal(err)
	}
	d, err := New(&Serial{Port: p}, tileLayout(t), &DefaultOpts)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := scan(t, d)
	if err != nil || snap.Sites[engine.TrackSite(5)].Count != 1 {
		t.Fatalf("site 5 before: %+v, %v; want one piece", snap.Sites[engine.TrackSite(5)], err)
	}
	c := protocol.Calibration(tile.DefaultClassifier)
	if _, err := s.Calibrate(1, c, true); err != nil {
		t.Fatal(err)
	}
	if err := chip.Settle(1); err != nil {
		t.Fatal(err)
	}
	if snap, err = scan(t, d); err != nil || snap.Sites[engine.TrackSite(5)].Count != 0 {
		t.Errorf("site 5 after new baselines: %+v, %v; want empty", snap.Sites[engine.TrackSite(5)], err)
	}
}
