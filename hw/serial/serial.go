package serial

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Opts configures a port.
type Opts struct {
	// Baud is the line's rate, one of Rates.
	Baud int
	// Timeout bounds each Read that finds no data: 100ms…25.5s, rounded up
	// to a tenth of a second (termios counts VTIME in tenths).
	Timeout time.Duration
}

// DefaultOpts is the tiles' line: 230400 baud (firmware/protocol.Baud), and
// a tenth of a second for an answer, ample for the largest frame (207
// bytes take 9 ms at that rate) and the tile's reply latency.
var DefaultOpts = Opts{Baud: 230400, Timeout: 100 * time.Millisecond}

// Rates are the baud rates Open accepts: those termios names (Bnnn), from
// 9600 up. Other rates would need the termios2 custom-rate interface.
var Rates = []int{
	9600, 19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000,
	921600, 1000000, 1152000, 1500000, 2000000, 2500000, 3000000, 3500000, 4000000,
}

// Timeout limits, from VTIME's range (1…255 tenths of a second).
const (
	MinTimeout = 100 * time.Millisecond
	MaxTimeout = 255 * 100 * time.Millisecond
)

// ErrTimeout is returned by Read when no byte arrived within the timeout.
// It has a Timeout method reporting true, like the standard library's
// timeout errors, so callers can tell it from a failing port without
// importing this package.
var ErrTimeout error = timeoutError{}

type timeoutError struct{}

func (timeoutError) Error() string { return "serial: read timed out" }
func (timeoutError) Timeout() bool { return true }

// Validate checks the options.
func (o *Opts) Validate() error {
	if !slices.Contains(Rates, o.Baud) {
		return fmt.Errorf("serial: baud %d not supported: want one of %s", o.Baud, rateList())
	}
	if o.Timeout <= 0 || o.Timeout > MaxTimeout {
		return fmt.Errorf("serial: timeout %v out of range: want more than 0 and at most %v", o.Timeout, MaxTimeout)
	}
	return nil
}

// vtime returns the timeout in tenths of a second, rounded up.
func (o *Opts) vtime() uint8 {
	return uint8((o.Timeout + MinTimeout - 1) / MinTimeout)
}

func rateList() string {
	s := make([]string, len(Rates))
	for i, r := range Rates {
		s[i] = strconv.Itoa(r)
	}
	return strings.Join(s, ", ")
}
