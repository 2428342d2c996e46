package serial

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// pair opens a pseudo-terminal and the slave end with Open.
func pair(t *testing.T, o *Opts) (*os.File, *Port) {
	t.Helper()
	m, path, err := OpenPTY()
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	p, err := Open(path, o)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { p.Close() })
	return m, p
}

// readN reads n bytes from r, failing on a timeout or error.
func readN(t *testing.T, r io.Reader, n int) []byte {
	t.Helper()
	got := make([]byte, 0, n)
	buf := make([]byte, n)
	for len(got) < n {
		k, err := r.Read(buf[:n-len(got)])
		got = append(got, buf[:k]...)
		if err != nil {
			t.Fatalf("read after %d of %d bytes: %v", len(got), n, err)
		}
	}
	return got
}

func TestPort_EveryByteValuePassesBothWays(t *testing.T) {
	m, p := pair(t, &DefaultOpts)
	// Every byte value, including those a cooked terminal would act on
	// (CR, XON/XOFF, ^C, ^D, DEL).
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	if _, err := m.Write(all); err != nil {
		t.Fatal(err)
	}
	if got := readN(t, p, len(all)); !bytes.Equal(got, all) {
		t.Errorf("slave read\n%x\nwant\n%x", got, all)
	}
	if _, err := p.Write(all); err != nil {
		t.Fatal(err)
	}
	m.SetReadDeadline(time.Now().Add(5 * time.Second))
	if got := readN(t, m, len(all)); !bytes.Equal(got, all) {
		t.Errorf("master read\n%x\nwant\n%x", got, all)
	}
	if _, err := p.Read(make([]byte, 1)); !errors.Is(err, ErrTimeout) {
		t.Errorf("no echo expected: read %v", err)
	}
}

func TestPort_ReadTimesOutWithNoData(t *testing.T) {
	_, p := pair(t, &Opts{Baud: 115200, Timeout: 200 * time.Millisecond})
	start := time.Now()
	n, err := p.Read(make([]byte, 16))
	took := time.Since(start)
	if n != 0 || !errors.Is(err, ErrTimeout) {
		t.Fatalf("Read = %d, %v; want 0, ErrTimeout", n, err)
	}
	if took < 150*time.Millisecond || took > 2*time.Second {
		t.Errorf("timed out after %v, want about 200ms", took)
	}
}

func TestPort_ReadReturnsWhatHasArrived(t *testing.T) {
	m, p := pair(t, &Opts{Baud: 230400, Timeout: 5 * time.Second})
	go func() {
		time.Sleep(50 * time.Millisecond)
		m.Write([]byte{0xA5, 1, 2})
	}()
	start := time.Now()
	got := readN(t, p, 3)
	if !bytes.Equal(got, []byte{0xA5, 1, 2}) {
		t.Errorf("read %x", got)
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("read waited %v for 3 bytes that came after 50ms", time.Since(start))
	}
}

func TestPort_FlushInputDropsUnread(t *testing.T) {
	m, p := pair(t, &DefaultOpts)
	m.Write([]byte("late answer"))
	time.Sleep(50 * time.Millisecond) // let the bytes reach the slave
	if err := p.FlushInput(); err != nil {
		t.Fatal(err)
	}
	m.Write([]byte{7})
	if got := readN(t, p, 1); got[0] != 7 {
		t.Errorf("read %x after the flush, want 07", got)
	}
}

func TestOpen_Errors(t *testing.T) {
	tests := []struct {
		name, path string
		o          Opts
		want       []string
	}{
		// The options are checked first: the bad rate is reported, not
		// the missing device.
		{"BadRateBeforeDevice", "/nonexistent/tty", Opts{Baud: 250000, Timeout: time.Second}, []string{"baud 250000", "/nonexistent/tty"}},
		{"NoDevice", "/nonexistent/tty", DefaultOpts, []string{"serial: /nonexistent/tty", "no such file"}},
		{"NotATerminal", "/dev/null", DefaultOpts, []string{"serial: /dev/null", "not a terminal"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Open(tc.path, &tc.o)
			if err == nil {
				p.Close()
				t.Fatal("Open succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestSpeeds_EveryRateHasItsConstant(t *testing.T) {
	for _, r := range Rates {
		if _, ok := speeds[r]; !ok {
			t.Errorf("rate %d has no termios constant", r)
		}
	}
	if len(speeds) != len(Rates) {
		t.Errorf("%d constants for %d rates", len(speeds), len(Rates))
	}
}
