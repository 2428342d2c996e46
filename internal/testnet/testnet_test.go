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
	// hold every port Addr gives, so each next draw must find another
	var held []net.Listener
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	for range 20 {
		ln, err := net.Listen("tcp", Addr(t))
		if err != nil {
			t.Fatalf("Addr gave a port in use: %v", err)
		}
		held = append(held, ln)
	}
}
