package main

import (
	"bytes"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
)

// mqttLength is MQTT's variable-length remaining length.
func mqttLength(n int) []byte {
	var b []byte
	for {
		d := byte(n % 128)
		if n /= 128; n > 0 {
			d |= 0x80
		}
		if b = append(b, d); n == 0 {
			return b
		}
	}
}

// TestAttack_BrokerMemoryBounded_TableKeepsRefereeing runs parchisd sim
// and, for several seconds, attacks its embedded broker as a stranger:
// CONNECTs announcing 250 MB (with their first bytes sent), silent
// connections held open, a 5 MB publish, and publishes of 60 KB where
// anonymous clients may not write, in a loop. The daemon's resident
// memory is sampled all along and must stay at or under 100 MB; its log
// must hold no payload and grow by little; and the table must go on
// refereeing: moves keep reaching a viewer after the attack.
func TestAttack_BrokerMemoryBounded_TableKeepsRefereeing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon under attack for seconds")
	}
	bin := buildDaemon(t)
	dir := t.TempDir()
	// Room for the attackers on one address (the limit per address is
	// tested in broadcast): the table, the dashboard and the viewer, 16
	// silent connections, 8 floods and the intruder.
	cfg, broker, _ := simConfig(t, dir, "  max_clients_per_address: 32", "")
	cmd, log, _ := startSimLogged(t, bin, "-config", cfg, "-speed", "20")
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	w := watchFeed(t, broker)
	seq, _ := w.nextMove(t, 0, 20*time.Second)
	before := rss(t, cmd.Process.Pid)
	logBefore := len(log.String())

	const attackFor = 6 * time.Second
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var attempts, refusedPublishes atomic.Int64
	big := append([]byte{0x10}, mqttLength(250<<20)...)
	big = append(big, bytes.Repeat([]byte{0}, 4096)...)
	// Attack 1: CONNECTs announcing 250 MB each, from 8 goroutines.
	for range 8 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				c, err := net.DialTimeout("tcp", broker, time.Second)
				if err != nil {
					continue
				}
				attempts.Add(1)
				c.SetDeadline(time.Now().Add(time.Second))
				c.Write(big)
				c.Read(make([]byte, 1))
				c.Close()
			}
		})
	}
	// Silent connections held open.
	var held []net.Conn
	for range 16 {
		if c, err := net.Dial("tcp", broker); err == nil {
			held = append(held, c)
		}
	}
	// Attack 2: a 5 MB publish, then 60 KB publishes where a stranger may
	// not write, each marked so that the log can be searched for it.
	wg.Go(func() {
		marker := bytes.Repeat([]byte("PAYLOAD!"), 60_000/8)
		for {
			select {
			case <-stop:
				return
			default:
			}
			c := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + broker).SetClientID("intruder").
				SetConnectTimeout(2 * time.Second).SetAutoReconnect(false))
			if tok := c.Connect(); !tok.WaitTimeout(3*time.Second) || tok.Error() != nil {
				time.Sleep(50 * time.Millisecond)
				continue
			}
			for i := 0; i < 200 && c.IsConnected(); i++ {
				c.Publish("parchis/v1/local/1/cmd/new-game", 0, false, marker).WaitTimeout(time.Second)
				refusedPublishes.Add(1)
			}
			c.Publish("parchis/v1/local/1/result", 0, true, bytes.Repeat(marker, 84)).WaitTimeout(time.Second)
			refusedPublishes.Add(1)
			c.Disconnect(0)
		}
	})
	var peak int64
	t0 := time.Now()
	for time.Since(t0) < attackFor {
		peak = max(peak, rss(t, cmd.Process.Pid))
		time.Sleep(50 * time.Millisecond)
	}
	close(stop)
	t1 := time.Now()
	wg.Wait()
	t.Logf("attackers stopped in %v", time.Since(t1))
	for _, c := range held {
		c.Close()
	}
	peak = max(peak, rss(t, cmd.Process.Pid))
	// Then 40 connections at once from the one address: those beyond the
	// limit are closed as they come.
	refused := 0
	var more []net.Conn
	for range 40 {
		c, err := net.Dial("tcp", broker)
		if err != nil {
			refused++
			continue
		}
		more = append(more, c)
	}
	for _, c := range more {
		c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err != nil && !os.IsTimeout(err) {
			refused++
		}
		c.Close()
	}
	if refused < 40-(32-3) {
		t.Errorf("%d of 40 connections from one address refused, want at least %d", refused, 40-(32-3))
	}
	peak = max(peak, rss(t, cmd.Process.Pid))
	after, _ := w.nextMove(t, seq, 20*time.Second)
	if after == 0 {
		t.Errorf("no move reached the viewer after the attack (last before it: %d)", seq)
	}
	out := log.String()[logBefore:]
	t.Logf("RSS %.1f MB before, %.1f MB at most under attack; %d CONNECTs of 250 MB, %d refused publishes, %d of 40 connections refused; log grew %d bytes; events %d → %d",
		float64(before)/(1<<20), float64(peak)/(1<<20), attempts.Load(), refusedPublishes.Load(), refused, len(out), seq, after)
	if peak > 100<<20 {
		t.Errorf("resident memory reached %.1f MB under attack, want ≤ 100 MB", float64(peak)/(1<<20))
	}
	if attempts.Load() < 100 || refusedPublishes.Load() < 100 {
		t.Errorf("the attack did not run: %d CONNECTs, %d publishes", attempts.Load(), refusedPublishes.Load())
	}
	if strings.Contains(out, "PAYLOAD!") {
		t.Error("the daemon's log holds a refused payload")
	}
	if len(out) > 256<<10 {
		t.Errorf("the log grew by %d bytes under attack, want ≤ 256 KiB", len(out))
	}
	if !strings.Contains(out, "publish refused") || !strings.Contains(out, "packet refused") || !strings.Contains(out, "connection refused") {
		t.Errorf("the refusals are not in the log:\n%.3000s", out)
	}
}
