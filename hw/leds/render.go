package leds

import (
	"fmt"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/engine"
)

// Timing of the animated patterns.
type Timing struct {
	// Blink is the period of a blinking light: on for the first half,
	// off for the second.
	Blink time.Duration
	// Pulse is the period of a pulsing light: its level rises from
	// PulseFloor to full and falls back, linearly.
	Pulse time.Duration
	// PulseFloor is a pulsing light's lowest level, 0…255.
	PulseFloor uint8
}

// DefaultTiming blinks at 2 Hz and pulses over 1.6 s.
var DefaultTiming = Timing{Blink: 500 * time.Millisecond, Pulse: 1600 * time.Millisecond, PulseFloor: 24}

// Renderer turns frames into the strip's RGB bytes: each light's colour at
// the moment given, scaled by its pattern and the brightness cap, at its
// LED's place on the strip.
type Renderer struct {
	count      int
	brightness uint16
	timing     Timing
	site       [engine.NumSites]uint16
	tray       [board.TrayLights]uint16
}

// NewRenderer builds the renderer of a layout's strip.
func NewRenderer(lay *config.Layout, t Timing) (*Renderer, error) {
	if t.Blink <= 0 || t.Pulse <= 0 {
		return nil, fmt.Errorf("leds: blink and pulse periods must be positive (%v, %v)", t.Blink, t.Pulse)
	}
	r := &Renderer{count: lay.LEDs.Count, brightness: uint16(lay.LEDs.Brightness), timing: t}
	for s, w := range lay.Sites {
		if w.LED < 0 || w.LED >= r.count {
			return nil, fmt.Errorf("leds: site %v: LED %d out of range 0…%d", engine.Site(s), w.LED, r.count-1)
		}
		r.site[s] = uint16(w.LED)
	}
	for i, led := range lay.Tray {
		if led < 0 || led >= r.count {
			return nil, fmt.Errorf("leds: tray light %d: LED %d out of range 0…%d", i, led, r.count-1)
		}
		r.tray[i] = uint16(led)
	}
	return r, nil
}

// Len returns the number of bytes Render writes: three per LED.
func (r *Renderer) Len() int { return 3 * r.count }

// Animated reports whether f has blinking or pulsing lights, which need
// redrawing as time passes.
func Animated(f *board.Frame) bool {
	for i := range f.Sites {
		if p := f.Sites[i].Pattern; p == board.Blink || p == board.Pulse {
			return true
		}
	}
	for i := range f.Tray {
		if p := f.Tray[i].Pattern; p == board.Blink || p == board.Pulse {
			return true
		}
	}
	return false
}

// Render writes into dst (Len bytes, R G B per LED in strip order) what f
// shows at time at, measured from any fixed origin. LEDs no light uses are
// off.
func (r *Renderer) Render(dst []byte, f *board.Frame, at time.Duration) {
	dst = dst[:3*r.count]
	clear(dst)
	blink := r.level(board.Blink, at)
	pulse := r.level(board.Pulse, at)
	for i := range f.Sites {
		r.put(dst, int(r.site[i]), &f.Sites[i], blink, pulse)
	}
	for i := range f.Tray {
		r.put(dst, int(r.tray[i]), &f.Tray[i], blink, pulse)
	}
}

func (r *Renderer) put(dst []byte, led int, l *board.Light, blink, pulse uint16) {
	var lv uint16
	switch l.Pattern {
	case board.Steady:
		lv = 255
	case board.Blink:
		lv = blink
	case board.Pulse:
		lv = pulse
	default:
		return
	}
	// scale is level × brightness, out of 255 × 255.
	scale := uint32(lv) * uint32(r.brightness)
	p := dst[3*led : 3*led+3]
	p[0] = byte((uint32(l.Colour.R)*scale + 32512) / 65025)
	p[1] = byte((uint32(l.Colour.G)*scale + 32512) / 65025)
	p[2] = byte((uint32(l.Colour.B)*scale + 32512) / 65025)
}

// level is the level (0…255) of a pattern at time at.
func (r *Renderer) level(p board.Pattern, at time.Duration) uint16 {
	if at < 0 {
		at = -at
	}
	switch p {
	case board.Blink:
		if at%r.timing.Blink < r.timing.Blink/2 {
			return 255
		}
		return 0
	case board.Pulse:
		half := r.timing.Pulse / 2
		ph := at % r.timing.Pulse
		if ph > half {
			ph = r.timing.Pulse - ph
		}
		floor := uint16(r.timing.PulseFloor)
		return floor + uint16(int64(255-floor)*int64(ph)/int64(half))
	}
	return 255
}
