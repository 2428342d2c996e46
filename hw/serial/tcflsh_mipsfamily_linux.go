//go:build linux && (mips || mipsle || mips64 || mips64le)

package serial

// tcflsh is TCFLSH in the MIPS ioctl table.
const tcflsh = 0x5407
