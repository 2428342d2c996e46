// Package leds drives the lights under the board: an APA102 or WS2812 strip
// on a SPI port (periph.io's apa102 and nrzled drivers), one LED per site in
// the layout's order plus the tray lights. Blinking and pulsing are animated
// here, so the referee only hands over frames.
package leds

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/apa102"
	"periph.io/x/devices/v3/nrzled"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/config"
)

// Opts configures a Strip.
type Opts struct {
	// Timing of blinking and pulsing lights.
	Timing Timing
	// Refresh is the redraw period while some light is animated.
	Refresh time.Duration
	// Now tells the time for the animation; nil means time.Now.
	Now func() time.Time
}

// DefaultOpts redraws animated frames at 50 Hz.
var DefaultOpts = Opts{Timing: DefaultTiming, Refresh: 20 * time.Millisecond}

// pixels is what apa102.Dev and nrzled.Dev have in common.
type pixels interface {
	Write(rgb []byte) (int, error)
	Halt() error
}

// Strip is the LED strip. It implements hw.Lights.
type Strip struct {
	dev    pixels
	r      *Renderer
	opts   Opts
	origin time.Time
	wake   chan struct{}

	mu    sync.Mutex
	frame board.Frame
	buf   []byte
}

// New opens the strip the layout describes (kind, LED count, brightness)
// on port. It validates the layout and options before touching the port.
func New(port spi.Port, lay *config.Layout, o *Opts) (*Strip, error) {
	if o.Refresh <= 0 {
		return nil, fmt.Errorf("leds: refresh period %v must be positive", o.Refresh)
	}
	r, err := NewRenderer(lay, o.Timing)
	if err != nil {
		return nil, err
	}
	s := &Strip{r: r, opts: *o, wake: make(chan struct{}, 1), buf: make([]byte, r.Len())}
	if s.opts.Now == nil {
		s.opts.Now = time.Now
	}
	s.origin = s.opts.Now()
	switch lay.LEDs.Kind {
	case config.LEDsAPA102:
		// Brightness is capped by the renderer; the driver sends the
		// colours at full intensity without colour correction.
		s.dev, err = apa102.New(port, &apa102.Opts{NumPixels: lay.LEDs.Count, Intensity: 255, Temperature: apa102.NeutralTemp})
	case config.LEDsWS2812:
		s.dev, err = nrzled.NewSPI(port, &nrzled.Opts{NumPixels: lay.LEDs.Count, Channels: 3, Freq: 2500 * physic.KiloHertz})
	default:
		return nil, fmt.Errorf("leds: unknown strip kind %q", lay.LEDs.Kind)
	}
	if err != nil {
		return nil, fmt.Errorf("leds: %s strip of %d: %w", lay.LEDs.Kind, lay.LEDs.Count, err)
	}
	return s, nil
}

// Show implements hw.Lights: f is drawn at once, and Run keeps blinking and
// pulsing lights moving.
func (s *Strip) Show(f *board.Frame) error {
	s.mu.Lock()
	s.frame = *f
	err := s.drawLocked()
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return err
}

func (s *Strip) drawLocked() error {
	s.r.Render(s.buf, &s.frame, s.opts.Now().Sub(s.origin))
	if _, err := s.dev.Write(s.buf); err != nil {
		return fmt.Errorf("leds: %w", err)
	}
	return nil
}

// Run animates the frame on show until ctx is done, then turns every LED
// off and returns ctx's error.
func (s *Strip) Run(ctx context.Context) error {
	t := time.NewTicker(s.opts.Refresh)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			s.mu.Lock()
			defer s.mu.Unlock()
			_ = s.dev.Halt()
			return ctx.Err()
		case <-s.wake:
		case <-t.C:
			s.mu.Lock()
			if Animated(&s.frame) {
				if err := s.drawLocked(); err != nil {
					slog.Error("lights: redraw failed", "err", err)
				}
			}
			s.mu.Unlock()
		}
	}
}

// Halt turns every LED off.
func (s *Strip) Halt() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dev.Halt()
}
