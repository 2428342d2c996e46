package main

import (
	"net"
	"os"
	"strconv"
	"time"
)

// sdNotify tells systemd the daemon's state (Type=notify units): READY=1,
// STOPPING=1, WATCHDOG=1. Without NOTIFY_SOCKET it does nothing.
func sdNotify(state string) {
	addr := os.Getenv("NOTIFY_SOCKET")
	if addr == "" {
		return
	}
	if addr[0] == '@' {
		addr = "\x00" + addr[1:]
	}
	c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: addr, Net: "unixgram"})
	if err != nil {
		return
	}
	defer c.Close()
	c.Write([]byte(state))
}

// watchdogTicker ticks at half the watchdog interval systemd asks for
// (WATCHDOG_USEC), or never.
func watchdogTicker() <-chan time.Time {
	usec, err := strconv.ParseInt(os.Getenv("WATCHDOG_USEC"), 10, 64)
	if err != nil || usec <= 0 {
		return nil
	}
	return time.NewTicker(time.Duration(usec) * time.Microsecond / 2).C
}
