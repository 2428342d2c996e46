//go:build linux && (ppc64 || ppc64le)

package serial

// tcflsh is TCFLSH in the PowerPC ioctl table.
const tcflsh = 0x2000741F
