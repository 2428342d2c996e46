//go:build !linux

package serial

import (
	"fmt"
	"os"
	"runtime"
)

// Port is an open serial port; on this system none can be opened.
type Port struct{}

// Open validates o, then reports that serial ports are not supported on
// this system: the table's daemon runs on Linux.
func Open(path string, o *Opts) (*Port, error) {
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	return nil, fmt.Errorf("serial: %s: not supported on %s", path, runtime.GOOS)
}

// Read implements io.Reader.
func (p *Port) Read(b []byte) (int, error) { return 0, errUnsupported }

// Write implements io.Writer.
func (p *Port) Write(b []byte) (int, error) { return 0, errUnsupported }

// FlushInput discards unread input.
func (p *Port) FlushInput() error { return errUnsupported }

// Close closes the port.
func (p *Port) Close() error { return errUnsupported }

// String returns the port's path.
func (p *Port) String() string { return "" }

// OpenPTY opens a pseudo-terminal pair; on this system there is none.
func OpenPTY() (*os.File, string, error) { return nil, "", errUnsupported }

var errUnsupported = fmt.Errorf("serial: not supported on %s", runtime.GOOS)
