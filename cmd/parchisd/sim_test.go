package main

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/certify"
	"github.com/parchis-table/parchis/internal/testnet"
)

// judgeConfig writes simConfig's configuration with one judge, marta
// (password s3cret, the broker's judge user and a signing key the table
// trusts), and extra settings before her; it returns marta's key too.
func judgeConfig(t testing.TB, dir, extra string) (path, broker, dashboard string, marta ed25519.PrivateKey) {
	t.Helper()
	hash, err := broadcast.HashPassword("s3cret")
	if err != nil {
		t.Fatal(err)
	}
	_, marta, _ = ed25519.GenerateKey(rand.Reader)
	path, broker, dashboard = simConfig(t, dir, "  users:\n  - name: marta\n    password: "+hash+"\n    role: judge",
		extra+"judges:\n  - name: marta\n    public_key: "+certify.PublicKeyString(marta))
	return path, broker, dashboard, marta
}

// simConfig writes a configuration for a simulated table on free ports;
// users is YAML of the broker's users (indented as in the broker section)
// and extra more top-level settings.
func simConfig(t testing.TB, dir string, users, extra string) (path, broker, dashboard string) {
	t.Helper()
	broker, ws, dashboard := testnet.Addr(t), testnet.Addr(t), testnet.Addr(t)
	cfg := fmt.Sprintf(`dir: %s
mqtt:
  broker: tcp://%s
broker:
  tcp: %s
  websocket: %s
%s
dashboard:
  addr: %s
sim:
  render: false
%s
`, dir, broker, broker, ws, users, dashboard, extra)
	path = filepath.Join(dir, "parchisd.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, broker, dashboard
}

// logBuf keeps a process's log for a test to search.
type logBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuf) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.WriteString(line + "\n")
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// notable returns the lines of the log that tell why a test failed:
// warnings, errors and the judges' commands.
func (l *logBuf) notable() string {
	var b strings.Builder
	for line := range strings.Lines(l.String()) {
		if strings.Contains(line, "level=WARN") || strings.Contains(line, "level=ERROR") || strings.Contains(line, "command") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// startSim starts parchisd sim and returns once it logs that it is ready,
// with the time that took.
func startSim(t testing.TB, bin string, args ...string) (*exec.Cmd, time.Duration) {
	t.Helper()
	cmd, _, d := startSimLogged(t, bin, args...)
	return cmd, d
}

// startSimLogged is startSim keeping the daemon's log.
func startSimLogged(t testing.TB, bin string, args ...string) (*exec.Cmd, *logBuf, time.Duration) {
	t.Helper()
	log := &logBuf{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("parchisd's log, its warnings, errors and judges' commands:\n%s", log.notable())
		}
	})
	cmd := exec.Command(bin, append([]string{"sim"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan time.Duration, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			log.add(sc.Text())
			if strings.Contains(sc.Text(), "simulated table ready") {
				ready <- time.Since(t0)
			}
		}
	}()
	select {
	case d := <-ready:
		return cmd, log, d
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("parchisd sim not ready after 20 s:\n%s", log.String())
	}
	return nil, nil, 0
}

// rss returns a process's resident memory in bytes.
func rss(t testing.TB, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb * 1024
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// BenchmarkSim_ReadyAndMemory starts parchisd sim (broker, dashboard,
// simulated players, camera and recogniser), measures the time to ready,
// lets it play for three seconds at 20 times real speed, and reports its
// resident memory.
func BenchmarkSim_ReadyAndMemory(b *testing.B) {
	bin := buildDaemon(b)
	var ready time.Duration
	var mem int64
	for i := 0; i < b.N; i++ {
		dir := b.TempDir()
		cfg, _, _ := simConfig(b, dir, "", "")
		cmd, d := startSim(b, bin, "-config", cfg, "-speed", "20")
		ready += d
		time.Sleep(3 * time.Second)
		mem = max(mem, rss(b, cmd.Process.Pid))
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}
	b.ReportMetric(float64(ready.Milliseconds())/float64(b.N), "ready-ms")
	b.ReportMetric(float64(mem)/(1<<20), "rss-MiB")
}
