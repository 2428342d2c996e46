// Package testnet gives tests loopback addresses for the servers they start.
//
// An address from listening on port 0 and closing again is free only for a
// moment: the kernel hands the same ports out to every connection's own end
// (the ephemeral range), so by the time the daemon under test binds it, or
// binds it again after a restart, a client of another test may hold it.
// Addr draws its ports below that range, where the kernel never hands one
// out by itself, and never gives a port twice in one test binary.
package testnet

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// floor is the lowest port drawn: below it lie the well-known services and
// those a developer's machine may run (8080, 1883, 9090…).
const floor = 20000

var (
	mu    sync.Mutex
	given = map[int]bool{}
)

// Addr returns a loopback address ("127.0.0.1:port") whose port is free
// now, lies below the kernel's ephemeral range and was not given before in
// this process.
func Addr(t testing.TB) string {
	t.Helper()
	return addr(t, rand.IntN)
}

// addr is Addr drawing each candidate port as floor + draw(n), n being the
// number of ports below the ephemeral range.
func addr(t testing.TB, draw func(n int) int) string {
	t.Helper()
	ceil := ephemeralLow()
	mu.Lock()
	defer mu.Unlock()
	for range 200 {
		p := floor + draw(ceil-floor)
		if given[p] {
			continue
		}
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			continue // held by something else
		}
		ln.Close()
		given[p] = true
		return ln.Addr().String()
	}
	t.Fatalf("testnet: no free loopback port between %d and %d after 200 tries", floor, ceil)
	return ""
}

// ephemeralLow is the first port of the kernel's ephemeral range, from
// Linux's ip_local_port_range; where it cannot be read, or leaves too little
// room below it, Linux's default, 32768. It is read once.
var ephemeralLow = sync.OnceValue(func() int {
	const def = 32768
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return def
	}
	var lo, hi int
	if _, err := fmt.Sscan(strings.TrimSpace(string(b)), &lo, &hi); err != nil || lo < floor+1000 {
		return def
	}
	return lo
})
