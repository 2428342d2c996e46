package leds

import (
	"bytes"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/spi/spitest"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/engine"
)

var update = flag.Bool("update", false, "rewrite the golden SPI frames in testdata/")

var (
	red   = board.RGB{R: 255}
	green = board.RGB{G: 255}
	white = board.RGB{R: 255, G: 255, B: 255}
)

// testFrame lights site 1 steady red, YH blinking green and tray light 0
// pulsing white.
func testFrame() *board.Frame {
	var f board.Frame
	f.Sites[engine.TrackSite(1)] = board.Light{Colour: red, Pattern: board.Steady}
	f.Sites[engine.HomeSite(engine.Yellow)] = board.Light{Colour: green, Pattern: board.Blink}
	f.Tray[0] = board.Light{Colour: white, Pattern: board.Pulse}
	return &f
}

func layout(kind string) *config.Layout {
	l := config.DefaultLayout()
	l.LEDs.Kind = kind
	return l
}

func fixedClock() func() time.Time {
	t := time.Date(2025, 5, 1, 18, 0, 0, 0, time.UTC)
	return func() time.Time { return t }
}

func TestRender(t *testing.T) {
	r, err := NewRenderer(layout(config.LEDsAPA102), DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	yh := int(config.DefaultLayout().Sites[engine.HomeSite(engine.Yellow)].LED)
	tray := config.DefaultLayout().Tray[0]
	tests := []struct {
		name string
		at   time.Duration
		led  int
		want [3]byte
	}{
		{"SteadyCappedAt96", 0, 0, [3]byte{96, 0, 0}},
		{"BlinkOnFirstHalf", 100 * time.Millisecond, yh, [3]byte{0, 96, 0}},
		{"BlinkOffSecondHalf", 300 * time.Millisecond, yh, [3]byte{0, 0, 0}},
		{"BlinkOnAgain", 500 * time.Millisecond, yh, [3]byte{0, 96, 0}},
		{"PulseAtFloor", 0, tray, [3]byte{9, 9, 9}},
		{"PulseAtPeak", 800 * time.Millisecond, tray, [3]byte{96, 96, 96}},
		{"UnusedLEDOff", 0, 50, [3]byte{}},
	}
	buf := make([]byte, r.Len())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r.Render(buf, testFrame(), tc.at)
			if got := [3]byte(buf[3*tc.led:]); got != tc.want {
				t.Errorf("LED %d = %v, want %v", tc.led, got, tc.want)
			}
		})
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	text := hex.Dump(got)
	if *update {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if text != string(want) {
		t.Errorf("SPI frame differs from %s:\n%s", path, text)
	}
}

func TestStrip_APA102_RecordedFrame(t *testing.T) {
	rec := &spitest.Record{}
	o := DefaultOpts
	o.Now = fixedClock()
	s, err := New(rec, layout(config.LEDsAPA102), &o)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Show(testFrame()); err != nil {
		t.Fatal(err)
	}
	if len(rec.Ops) != 1 {
		t.Fatalf("%d SPI transfers, want 1", len(rec.Ops))
	}
	w := rec.Ops[0].W
	// Start frame, then one 4-byte word per LED (0b111 and 5 bits of global
	// brightness first), then the end frame.
	if !bytes.Equal(w[:4], []byte{0, 0, 0, 0}) || w[4]&0xE0 != 0xE0 || len(w) != 4*117+116/16+1 {
		t.Errorf("not an APA102 frame of 116 LEDs: % x…", w[:12])
	}
	if w[5] != 0 || w[6] != 0 || w[7] == 0 {
		t.Errorf("LED 0 (site 1) should be red only: % x", w[4:8])
	}
	golden(t, "apa102.hex", w)
}

func TestStrip_WS2812_RecordedFrame(t *testing.T) {
	rec := &spitest.Record{}
	o := DefaultOpts
	o.Now = fixedClock()
	s, err := New(rec, layout(config.LEDsWS2812), &o)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Show(testFrame()); err != nil {
		t.Fatal(err)
	}
	if len(rec.Ops) != 1 {
		t.Fatalf("%d SPI transfers, want 1", len(rec.Ops))
	}
	w := rec.Ops[0].W
	if len(w) != 3+4*3*116+3 {
		t.Fatalf("frame of %d bytes, want %d", len(w), 3+4*3*116+3)
	}
	// LED 0 is G=0, R=96, B=0; each bit is 4 SPI bits, 1000 for 0, 1110 for 1.
	want := []byte{0x88, 0x88, 0x88, 0x88, 0x8E, 0xE8, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88}
	if !bytes.Equal(w[3:15], want) {
		t.Errorf("LED 0 encoded % x, want % x", w[3:15], want)
	}
	golden(t, "ws2812.hex", w)
}

func TestNew_RejectsBadLayoutBeforeTouchingPort(t *testing.T) {
	l := layout(config.LEDsAPA102)
	l.Sites[7].LED = 500
	rec := &spitest.Record{}
	_, err := New(rec, l, &DefaultOpts)
	if err == nil || !strings.Contains(err.Error(), "site 8") {
		t.Fatalf("err = %v, want one naming site 8", err)
	}
	if rec.Initialized {
		t.Error("port connected before validation")
	}
}

func BenchmarkRender(b *testing.B) {
	r, err := NewRenderer(config.DefaultLayout(), DefaultTiming)
	if err != nil {
		b.Fatal(err)
	}
	var f board.Frame
	for i := range f.Sites {
		f.Sites[i] = board.Light{Colour: board.RGB{R: uint8(i), G: 200, B: 7}, Pattern: board.Pattern(i % 4)}
	}
	buf := make([]byte, r.Len())
	b.ReportAllocs()
	var at time.Duration
	for b.Loop() {
		r.Render(buf, &f, at)
		at += 20 * time.Millisecond
	}
}
