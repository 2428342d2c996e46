package serial

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"unsafe"
)

// speeds maps each of Rates to its termios constant.
var speeds = map[int]uint32{
	9600: syscall.B9600, 19200: syscall.B19200, 38400: syscall.B38400,
	57600: syscall.B57600, 115200: syscall.B115200, 230400: syscall.B230400,
	460800: syscall.B460800, 500000: syscall.B500000, 576000: syscall.B576000,
	921600: syscall.B921600, 1000000: syscall.B1000000, 1152000: syscall.B1152000,
	1500000: syscall.B1500000, 2000000: syscall.B2000000, 2500000: syscall.B2500000,
	3000000: syscall.B3000000, 3500000: syscall.B3500000, 4000000: syscall.B4000000,
}

// cbaud covers the bits of Cflag that hold the rate.
var cbaud = func() uint32 {
	var m uint32
	for _, s := range speeds {
		m |= s
	}
	return m
}()

// Port is an open serial port. Read, Write and Close may be called from
// different goroutines; Close waits for a Read in progress, which ends
// within the timeout.
type Port struct {
	f    *os.File
	path string
}

// Open opens the serial port at path raw (no echo, no line editing, no
// translation of any byte, no flow control), 8 data bits, no parity, one
// stop bit, at o.Baud, with reads that give up after o.Timeout. It
// validates o before touching the device. Bytes received before Open are
// discarded.
func Open(path string, o *Opts) (*Port, error) {
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	// O_NONBLOCK keeps open from waiting for a modem's carrier; it is
	// cleared once CLOCAL is set, since VTIME only applies to blocking reads.
	fd, err := syscall.Open(path, syscall.O_RDWR|syscall.O_NOCTTY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("serial: %s: %w", path, err)
	}
	if err := setRaw(fd, o); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("serial: %s: %w", path, err)
	}
	if err := syscall.SetNonblock(fd, false); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("serial: %s: %w", path, err)
	}
	// A blocking descriptor is not put in the runtime's poller by
	// os.NewFile, so reads are plain read(2) calls and VTIME governs them.
	return &Port{f: os.NewFile(uintptr(fd), path), path: path}, nil
}

func setRaw(fd int, o *Opts) error {
	var t syscall.Termios
	if err := ioctl(fd, syscall.TCGETS, unsafe.Pointer(&t)); err != nil {
		return fmt.Errorf("not a terminal (TCGETS): %w", err)
	}
	t.Iflag &^= syscall.IGNBRK | syscall.BRKINT | syscall.PARMRK | syscall.ISTRIP |
		syscall.INLCR | syscall.IGNCR | syscall.ICRNL | syscall.IXON | syscall.IXOFF | syscall.IXANY | syscall.INPCK
	t.Oflag &^= syscall.OPOST
	t.Lflag &^= syscall.ECHO | syscall.ECHONL | syscall.ICANON | syscall.ISIG | syscall.IEXTEN
	// Cflag is built whole: the rate sits in its CBAUD bits, and anything
	// left from a previous user (parity, two stop bits, hardware flow
	// control) must go.
	t.Cflag = speeds[o.Baud] | syscall.CS8 | syscall.CREAD | syscall.CLOCAL
	t.Cc[syscall.VMIN] = 0
	t.Cc[syscall.VTIME] = o.vtime()
	if err := ioctl(fd, syscall.TCSETS, unsafe.Pointer(&t)); err != nil {
		return fmt.Errorf("setting raw mode at %d baud (TCSETS): %w", o.Baud, err)
	}
	// Read the settings back: a driver may silently refuse a rate.
	var got syscall.Termios
	if err := ioctl(fd, syscall.TCGETS, unsafe.Pointer(&got)); err != nil {
		return fmt.Errorf("TCGETS: %w", err)
	}
	if got.Cflag&(syscall.CSIZE|syscall.CSTOPB|syscall.PARENB) != syscall.CS8 ||
		got.Cflag&cbaud != speeds[o.Baud] || got.Cc[syscall.VTIME] != o.vtime() {
		return fmt.Errorf("the driver did not take raw 8N1 at %d baud", o.Baud)
	}
	return ioctlInt(fd, tcflsh, syscall.TCIFLUSH)
}

// ioctl is an ioctl(2) whose argument points to memory.
func ioctl(fd int, req uintptr, arg unsafe.Pointer) error {
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), req, uintptr(arg)); e != 0 {
		return e
	}
	return nil
}

// ioctlInt is an ioctl(2) whose argument is an integer.
func ioctlInt(fd int, req, arg uintptr) error {
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), req, arg); e != 0 {
		return e
	}
	return nil
}

// Read reads what has arrived, waiting up to the timeout for the first
// byte; it returns 0 and ErrTimeout when none came.
func (p *Port) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, err := p.f.Read(b)
	if n == 0 && (err == nil || errors.Is(err, io.EOF)) {
		// VMIN 0: read(2) returned nothing when VTIME ran out (os.File
		// reports that as end of file).
		return 0, ErrTimeout
	}
	if err != nil {
		return n, fmt.Errorf("serial: %s: %w", p.path, unwrapPath(err))
	}
	return n, nil
}

// Write writes b; it returns once the bytes are queued for the line.
func (p *Port) Write(b []byte) (int, error) {
	n, err := p.f.Write(b)
	if err != nil {
		return n, fmt.Errorf("serial: %s: %w", p.path, unwrapPath(err))
	}
	return n, nil
}

// FlushInput discards the bytes received and not yet read, such as a late
// answer from a tile already taken as silent.
func (p *Port) FlushInput() error {
	c, err := p.f.SyscallConn()
	if err != nil {
		return fmt.Errorf("serial: %s: %w", p.path, err)
	}
	var ierr error
	if err := c.Control(func(fd uintptr) {
		ierr = ioctlInt(int(fd), tcflsh, syscall.TCIFLUSH)
	}); err != nil {
		return fmt.Errorf("serial: %s: %w", p.path, err)
	}
	if ierr != nil {
		return fmt.Errorf("serial: %s: flush: %w", p.path, ierr)
	}
	return nil
}

// Close closes the port.
func (p *Port) Close() error {
	if err := p.f.Close(); err != nil {
		return fmt.Errorf("serial: %s: %w", p.path, unwrapPath(err))
	}
	return nil
}

// String returns the port's path.
func (p *Port) String() string { return p.path }

// unwrapPath drops os's *PathError, whose "read /dev/x" would repeat the
// path the error already names.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
