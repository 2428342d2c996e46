//go:build linux || darwin

package main

import (
	"os"
	"syscall"
	"unsafe"
)

// windowSize asks the terminal on f for its width and height; 0, 0 when
// it cannot.
func windowSize(f *os.File) (cols, rows int) {
	var ws struct{ Row, Col, X, Y uint16 }
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), uintptr(syscall.TIOCGWINSZ), uintptr(unsafe.Pointer(&ws))); e != 0 {
		return 0, 0
	}
	return int(ws.Col), int(ws.Row)
}
