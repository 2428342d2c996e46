// Package avrsim runs the compiled tile firmware (firmware/avr, built by
// firmware/build.sh) in the simavr emulator, through firmware/harness's
// tileharness: every tile an emulated ATmega328P, all on one RS-485 line
// bridged to a pseudo-terminal that hw/tiles opens as its serial port. A
// test sets each channel's sensor voltage, resets, stalls, mutes a tile, or
// loses or garbles its next answer.
//
// It is how the firmware is tested on the build machine; the daemon does
// not use it.
package avrsim

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The emulated board's analog side: the ATmega328P's ADC against its 5 V
// supply, SS49E-type sensors that idle at half the supply.
const (
	// VCC is the supply and ADC reference, in millivolts.
	VCC = 5000
	// Empty is an empty site's sensor voltage, in millivolts.
	Empty = 2500
	// Piece is how far one piece's magnet moves a sensor, in millivolts.
	Piece = 300
	// Channels is the channels of a tile (4 multiplexers × 13 inputs).
	Channels = 52
	// Muxes and PerMux are the firmware's scan schedule.
	Muxes, PerMux = 4, 13
	// Debounce is the scans the firmware needs to accept a change.
	Debounce = 3
)

// AnswerTimeout is how long a test on the emulated line should let the Pi
// wait for an answer (hw/serial's Opts.Timeout), instead of the daemon's
// 100 ms. The emulation is paced to the wall clock, but on a loaded build
// machine the harness can be kept off the CPU for longer than the
// daemon's timeout, and a tile would then look silent for want of CPU.
const AnswerTimeout = 500 * time.Millisecond

// Chip limits of the ATmega328P.
const (
	FlashBytes = 32768
	RAMBytes   = 2048
)

// Sample is the sample, in the firmware's 12-bit counts, that a sensor at
// mV millivolts gives: simavr's 10-bit conversion against VCC, times 4.
func Sample(mV int) uint16 {
	v := mV * 1023 / VCC
	v = min(max(v, 0), 1023)
	return uint16(v << 2)
}

// Env variables: the build folder, and whether its absence is a failure.
const (
	EnvBuild    = "PARCHIS_FIRMWARE_BUILD"
	EnvRequired = "PARCHIS_FIRMWARE_REQUIRED"
)

// BuildDir returns the folder of firmware/build.sh's output: $EnvBuild, or
// firmware/build in this source tree.
func BuildDir() string {
	if d := os.Getenv(EnvBuild); d != "" {
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "build")
}

// Require returns the build folder for a test, once the firmware and the
// harness are there. Without them the test is skipped, naming the script
// to run, or fails when $EnvRequired is 1 (test.sh sets it after building).
func Require(tb testing.TB) string {
	tb.Helper()
	d := BuildDir()
	for _, f := range []string{"tile.elf", "tileharness", "sizes"} {
		if _, err := os.Stat(filepath.Join(d, f)); err != nil {
			msg := fmt.Sprintf("the tile firmware is not built (%v): run bash ci/avr.sh && bash firmware/build.sh", err)
			if os.Getenv(EnvRequired) == "1" {
				tb.Fatal(msg)
			}
			tb.Skip(msg)
		}
	}
	return d
}

// Sizes is the firmware's flash and RAM use, as firmware/build.sh wrote
// them.
type Sizes struct{ Flash, RAM int }

// ReadSizes reads dir/sizes.
func ReadSizes(dir string) (Sizes, error) {
	b, err := os.ReadFile(filepath.Join(dir, "sizes"))
	if err != nil {
		return Sizes{}, fmt.Errorf("avrsim: %w", err)
	}
	var s Sizes
	if _, err := fmt.Sscanf(string(b), "flash %d\nram %d\n", &s.Flash, &s.RAM); err != nil {
		return Sizes{}, fmt.Errorf("avrsim: %s: %w", filepath.Join(dir, "sizes"), err)
	}
	return s, nil
}

// Tile is one emulated tile: its address and the boot counter in its
// EEPROM at start (its first boot number is Boots+1).
type Tile struct {
	Addr  uint8
	Boots uint16
}

// Opts configures a line.
type Opts struct {
	Tiles []Tile
	// Echo sends every request back before the answer, as a transceiver
	// whose receiver stays on does.
	Echo bool
	// Firmware is the image to run, a file of the build folder; empty is
	// tile.elf.
	Firmware string
}

// Answer is one answer a tile sent, with its round trip in emulated time:
// from the request's first byte on the line to the answer's last.
type Answer struct {
	Addr      uint8
	Bytes     int
	RoundTrip time.Duration
}

// Line is a running harness.
type Line struct {
	// PTY is the path of the line's serial port.
	PTY string

	cmd   *exec.Cmd
	stdin io.WriteCloser
	done  chan error

	mu        sync.Mutex
	syncs     map[string]chan struct{}
	at        map[string]time.Duration // emulated time of each sync
	answers   []Answer
	watchdogs map[uint8]int
	stack     map[uint8]int
	errs      []string
	n         int
}

// Start runs the harness of dir (BuildDir) with the given tiles.
func Start(dir string, o Opts) (*Line, error) {
	if len(o.Tiles) == 0 {
		return nil, errors.New("avrsim: no tiles")
	}
	args := []string{}
	if o.Echo {
		args = append(args, "-e")
	}
	fw := o.Firmware
	if fw == "" {
		fw = "tile.elf"
	}
	args = append(args, "-v", strconv.Itoa(Empty), filepath.Join(dir, fw))
	for _, t := range o.Tiles {
		args = append(args, fmt.Sprintf("%d:%d", t.Addr, t.Boots))
	}
	cmd := exec.Command(filepath.Join(dir, "tileharness"), args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("avrsim: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("avrsim: %w", err)
	}
	var stderr strings.Builder
	cmd.Stderr = &limited{w: &stderr, n: 64 << 10}
	if p := os.Getenv("TILEHARNESS_TRACE"); p != "" { // files PATH.N, every byte on the line
		f, err := os.Create(fmt.Sprintf("%s.%d", p, time.Now().UnixNano()))
		if err != nil {
			return nil, fmt.Errorf("avrsim: trace: %w", err)
		}
		defer f.Close()
		cmd.Stderr = f
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("avrsim: %w", err)
	}
	l := &Line{cmd: cmd, stdin: stdin, done: make(chan error, 1), syncs: map[string]chan struct{}{}, at: map[string]time.Duration{}, watchdogs: map[uint8]int{}, stack: map[uint8]int{}}
	sc := bufio.NewScanner(stdout)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), "pty ") {
		stdin.Close()
		err := cmd.Wait()
		return nil, fmt.Errorf("avrsim: harness did not start (%v): %s", err, stderr.String())
	}
	l.PTY = strings.TrimPrefix(sc.Text(), "pty ")
	go func() {
		for sc.Scan() {
			l.event(sc.Text())
		}
		err := cmd.Wait()
		if err != nil {
			err = fmt.Errorf("avrsim: harness: %w: %s", err, stderr.String())
		}
		l.done <- err
		l.mu.Lock()
		for _, c := range l.syncs {
			close(c)
		}
		l.syncs = nil
		l.mu.Unlock()
	}()
	return l, nil
}

// limited keeps at most n bytes of what is written.
type limited struct {
	w io.Writer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if k := min(len(p), l.n); k > 0 {
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

func (l *Line) event(s string) {
	f := strings.Fields(s)
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case len(f) == 3 && f[0] == "synced":
		if c := l.syncs[f[1]]; c != nil {
			us, _ := strconv.ParseInt(f[2], 10, 64)
			l.at[f[1]] = time.Duration(us) * time.Microsecond
			close(c)
			delete(l.syncs, f[1])
		}
	case len(f) == 4 && f[0] == "answer":
		a, _ := strconv.Atoi(f[1])
		n, _ := strconv.Atoi(f[2])
		us, _ := strconv.Atoi(f[3])
		l.answers = append(l.answers, Answer{Addr: uint8(a), Bytes: n, RoundTrip: time.Duration(us) * time.Microsecond})
	case len(f) == 3 && f[0] == "stack":
		a, _ := strconv.Atoi(f[1])
		n, _ := strconv.Atoi(f[2])
		l.stack[uint8(a)] = n
	case len(f) == 2 && f[0] == "watchdog":
		a, _ := strconv.Atoi(f[1])
		l.watchdogs[uint8(a)]++
	default:
		l.errs = append(l.errs, s)
	}
}

func (l *Line) send(format string, args ...any) error {
	if _, err := fmt.Fprintf(l.stdin, format+"\n", args...); err != nil {
		return fmt.Errorf("avrsim: harness: %w", err)
	}
	return nil
}

// Set makes channel ch of tile addr read mV millivolts. The voltages set
// take effect together, at the tile's first scan after the next command
// that is not a Set (Settle, Scans, Reset…), so one scan sees them all.
func (l *Line) Set(addr uint8, ch, mV int) error {
	if ch < 0 || ch >= Channels {
		return fmt.Errorf("avrsim: no channel %d.%d", addr, ch)
	}
	return l.send("set %d %d %d", addr, ch, mV)
}

// Pieces makes channel ch of tile addr read n pieces, north pole down
// (negative n: south pole down).
func (l *Line) Pieces(addr uint8, ch, n int) error { return l.Set(addr, ch, Empty+n*Piece) }

// Settle waits until tile addr has scanned enough times to have taken
// every voltage set so far through its debouncing.
func (l *Line) Settle(addr uint8) error { return l.Scans(addr, Debounce+2) }

// Scans waits until tile addr has started n more scans.
func (l *Line) Scans(addr uint8, n int) error {
	_, err := l.ScansAt(addr, n)
	return err
}

// ScansAt waits until tile addr has started n more scans, and returns the
// tile's emulated time (since the harness started) when it did.
func (l *Line) ScansAt(addr uint8, n int) (time.Duration, error) {
	l.mu.Lock()
	if l.syncs == nil {
		l.mu.Unlock()
		return 0, errors.New("avrsim: harness stopped")
	}
	l.n++
	id := strconv.Itoa(l.n)
	c := make(chan struct{})
	l.syncs[id] = c
	l.mu.Unlock()
	if err := l.send("sync %d %d %s", addr, n, id); err != nil {
		return 0, err
	}
	select {
	case <-c:
	case <-time.After(time.Duration(n)*time.Second + 10*time.Second):
		return 0, fmt.Errorf("avrsim: tile %d did not scan %d times in time", addr, n)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.syncs == nil {
		return 0, errors.New("avrsim: harness stopped")
	}
	at := l.at[id]
	delete(l.at, id)
	return at, nil
}

// Reset pulls tile addr's reset line.
func (l *Line) Reset(addr uint8) error { return l.send("reset %d", addr) }

// Hang stalls tile addr's main loop (interrupts still run): its watchdog
// must restart it.
func (l *Line) Hang(addr uint8) error { return l.send("hang %d", addr) }

// Mute disconnects tile addr's transmitter from the line, or reconnects it.
func (l *Line) Mute(addr uint8, mute bool) error {
	if mute {
		return l.send("mute %d", addr)
	}
	return l.send("unmute %d", addr)
}

// Drop loses tile addr's next answer.
func (l *Line) Drop(addr uint8) error { return l.send("drop %d", addr) }

// Corrupt flips a bit in the sixth byte (the first of the payload) of tile
// addr's next answer.
func (l *Line) Corrupt(addr uint8) error { return l.send("corrupt %d", addr) }

// Answers returns the answers sent so far.
func (l *Line) Answers() []Answer {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Answer(nil), l.answers...)
}

// Watchdogs returns how many times tile addr's watchdog restarted it.
func (l *Line) Watchdogs(addr uint8) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.watchdogs[addr]
}

// MaxStack returns the most stack tile addr used, in bytes, from the
// harness's report when it stopped: call it after Close.
func (l *Line) MaxStack(addr uint8) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stack[addr]
}

// Errors returns what the harness reported amiss: a byte sent with the
// transceiver disabled, the line released before the last byte was out, a
// bad command.
func (l *Line) Errors() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.errs...)
}

// Close stops the harness. It returns the harness's failure and anything
// it reported amiss.
func (l *Line) Close() error {
	l.send("quit")
	l.stdin.Close()
	var err error
	select {
	case err = <-l.done:
	case <-time.After(5 * time.Second):
		l.cmd.Process.Kill()
		err = <-l.done
	}
	if e := l.Errors(); len(e) > 0 {
		err = errors.Join(err, fmt.Errorf("avrsim: harness reported: %s", strings.Join(e, "; ")))
	}
	return err
}
