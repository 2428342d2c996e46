//go:build linux && !(mips || mipsle || mips64 || mips64le || ppc64 || ppc64le)

package serial

// tcflsh is TCFLSH, which package syscall does not name on every
// architecture (arm, 386 and amd64 lack it); its number follows the
// generic ioctl table there.
const tcflsh = 0x540B
