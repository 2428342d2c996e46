package testnet

import (
	"net"
	"strconv"
	"testing"
)

func TestAddr_FreeBelowEphemeralAndNeverTwice(t *testing.T) {
	seen := map[string]bool{}
	for range 50 {
		a := Addr(t)
		if seen[a] {
			t.Fatalf("Addr gave %s twice", a)
		}
		seen[a] = true
		host, port, err := net.SplitHostPort(a)
		if err != nil || host != "127.0.0.1" {
			t.Fatalf("Addr = %q, want 127.0.0.1:port", a)
		}
		p, _ := strconv.Atoi(port)
		if p < floor || p >= ephemeralLow() {
			t.Fatalf("port %d outside [%d, %d)", p, floor, ephemeralLow())
		}
		ln, err := net.Listen("tcp", a)
		if err != nil {
			t.Fatalf("the address Addr gave is not free: %v", err)
		}
		ln.Close()
	}
}

func TestAddr_SkipsAPortInUse(t *testing.T) {
	// a port of the range held by another listener, which Addr never gave
	var held net.Listener
	var p int
	for q := floor; q < ephemeralLow() && held == nil; q++ {
		mu.Lock()
		taken := given[q]
		mu.Unlock()
		if taken {
			continue
		}
		if ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(q))); err == nil {
			held, p = ln, q
		}
	}
	if held == nil {
		t.Fatal("no free port in the range to hold")
	}
	defer held.Close()
	// the first draw is the held port, the next ones the ports after it
	next := p - floor
	got := addr(t, func(int) int { next++; return next - 1 })
	if got == held.Addr().String() {
		t.Fatalf("addr gave %s, held by another listener", got)
	}
	if next < p-floor+2 {
		t.Fatalf("addr took its first draw, the held port %d", p)
	}
	ln, err := net.Listen("tcp", got)
	if err != nil {
		t.Fatalf("addr gave a port in use: %v", err)
	}
	ln.Close()
}
