package hw

import (
	"context"
	"time"

	"github.com/parchis-table/parchis/board"
)

// Caps tells what a sensor back-end can know. It lives in board, with the
// readings it describes, so that the referee depends on no edge.
type Caps = board.Caps

// Scanner is a sensor back-end: each Scan reads every site once, raw (not
// debounced).
type Scanner interface {
	// Scan overwrites dst with the raw reading of every site. On error dst
	// is unspecified; the error names the device at fault.
	Scan(ctx context.Context, dst *board.Snapshot) error
	// Caps tells what the readings carry.
	Caps() Caps
}

// Notifier is a Scanner that tells when its readings may have changed (an
// interrupt line, the simulated board): the Watcher then scans at once
// instead of waiting for its next poll.
type Notifier interface {
	// Notify returns a channel that receives a value after the readings
	// may have changed. Any goroutine it needs stops with ctx.
	Notify(ctx context.Context) <-chan struct{}
}

// Change is one debounced change of the board, or a failure to read it.
type Change struct {
	// At is when the change became stable (the time of the scan that
	// confirmed it).
	At time.Time
	// Snapshot is the board after the change. On error it is the last
	// stable snapshot.
	Snapshot board.Snapshot
	// Err, when not nil, says the board could not be read (a chip that no
	// longer answers, a silent tile); the snapshot is then not current.
	// A Change with a nil Err follows once the board reads again.
	Err error
}

// Sensors is what the referee reads: the stable board and its changes.
type Sensors interface {
	// Caps tells what the readings carry.
	Caps() Caps
	// Snapshot returns the latest stable snapshot.
	Snapshot() board.Snapshot
	// Changes delivers every stable change, in order, and read failures.
	// None is dropped: the sensors wait for the reader.
	Changes() <-chan Change
}

// Lights is what the referee drives: it hands over a whole frame, and the
// hardware layer shows it, animating blinking and pulsing lights itself.
type Lights interface {
	// Show makes f the frame on display. It returns once the frame is
	// stored; f is copied.
	Show(f *board.Frame) error
}
