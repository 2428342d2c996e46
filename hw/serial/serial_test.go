package serial

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/firmware/protocol"
)

func TestOpts_Validate(t *testing.T) {
	tests := []struct {
		name string
		o    Opts
		want string // "" when valid
	}{
		{"Default", DefaultOpts, ""},
		{"Standard921600", Opts{Baud: 921600, Timeout: time.Second}, ""},
		{"LongestTimeout", Opts{Baud: 9600, Timeout: MaxTimeout}, ""},
		{"NonStandardRate", Opts{Baud: 250000, Timeout: time.Second}, "baud 250000 not supported"},
		{"ZeroRate", Opts{Timeout: time.Second}, "baud 0 not supported"},
		{"NoTimeout", Opts{Baud: 115200}, "timeout 0s out of range"},
		{"TimeoutTooLong", Opts{Baud: 115200, Timeout: 26 * time.Second}, "timeout 26s out of range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.o.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Validate: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Validate: %v, want %q", err, tc.want)
			}
		})
	}
}

func TestOpts_TimeoutRoundsUpToTenths(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want uint8
	}{{time.Millisecond, 1}, {100 * time.Millisecond, 1}, {101 * time.Millisecond, 2}, {MaxTimeout, 255}} {
		o := Opts{Baud: 9600, Timeout: tc.d}
		if got := o.vtime(); got != tc.want {
			t.Errorf("timeout %v: VTIME %d, want %d", tc.d, got, tc.want)
		}
	}
}

func TestDefaultOpts_TheTilesRate(t *testing.T) {
	if DefaultOpts.Baud != protocol.Baud {
		t.Errorf("DefaultOpts.Baud %d, the tiles' line runs at %d", DefaultOpts.Baud, protocol.Baud)
	}
	if err := DefaultOpts.Validate(); err != nil {
		t.Error(err)
	}
	var te interface{ Timeout() bool }
	if !errors.As(ErrTimeout, &te) || !te.Timeout() {
		t.Error("ErrTimeout does not report a timeout")
	}
}
