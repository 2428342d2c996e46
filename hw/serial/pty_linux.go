package serial

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// OpenPTY opens a pseudo-terminal pair: it returns the master end and the
// path of the slave end (/dev/pts/N), which Open takes like any serial
// port. Whatever is written to the master arrives on the slave and back,
// so a program can stand in for the devices on a serial line: an emulated
// line of tiles in tests and simulations.
//
// The master is in the runtime's poller: closing it ends a Read in
// progress.
func OpenPTY() (master *os.File, slave string, err error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, "", fmt.Errorf("serial: pseudo-terminal: %w", err)
	}
	c, err := m.SyscallConn()
	if err != nil {
		m.Close()
		return nil, "", fmt.Errorf("serial: pseudo-terminal: %w", err)
	}
	var n uint32
	var ierr error
	err = c.Control(func(fd uintptr) {
		// grantpt has nothing to do with devpts; unlockpt and ptsname are
		// these two ioctls.
		var unlock int32
		if ierr = ioctl(int(fd), syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); ierr != nil {
			ierr = fmt.Errorf("unlock (TIOCSPTLCK): %w", ierr)
			return
		}
		if ierr = ioctl(int(fd), syscall.TIOCGPTN, unsafe.Pointer(&n)); ierr != nil {
			ierr = fmt.Errorf("slave number (TIOCGPTN): %w", ierr)
		}
	})
	if err == nil {
		err = ierr
	}
	if err != nil {
		m.Close()
		return nil, "", fmt.Errorf("serial: pseudo-terminal: %w", err)
	}
	return m, "/dev/pts/" + strconv.FormatUint(uint64(n), 10), nil
}
