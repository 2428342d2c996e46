// Package serial opens a Linux serial port (a UART such as /dev/ttyAMA0, or
// a USB adapter such as /dev/ttyUSB0) raw, 8N1, at a standard baud rate,
// with a read timeout. It is the port under hw/tiles' Serial transport,
// which needs a Read that gives up when a tile does not answer.
//
// It uses only the standard library (termios through the TCGETS and TCSETS
// ioctls), so it builds without cgo for every Linux architecture the Pi
// runs (arm with GOARM=6, arm64). On other systems Open reports that serial
// ports are not supported.
//
// Only the standard rates of termios are offered (Rates): 230400 baud, the
// tiles' rate (firmware/protocol.Baud), is one of them, so any UART or USB
// adapter takes it without the termios2 custom-rate interface.
//
// The read timeout is termios' VTIME with VMIN 0: a Read returns as soon
// as any byte has arrived, or after the timeout with ErrTimeout. VTIME
// counts tenths of a second, so the timeout is rounded up to one.
package serial
