package simtable

import (
	"image"
	"math"
	"time"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/synth"
)

// CameraOpts configures the synthetic dice camera.
type CameraOpts struct {
	// W and H are the frame size; DieSize the die's side in pixels (a real
	// tray camera should see it at least 60 px wide).
	W, H    int
	DieSize float64
	// Tumble is how long a throw tumbles before it rests; Read how long
	// the players then wait for the table to read it (the watcher's rest
	// time and a frame or two).
	Tumble, Read time.Duration
	Seed         uint64
}

// DefaultCameraOpts are small frames that still show the die 60 px wide.
var DefaultCameraOpts = CameraOpts{W: 240, H: 180, DieSize: 60, Tumble: 200 * time.Millisecond, Read: 400 * time.Millisecond, Seed: 1}

// Camera renders what a camera over the tray sees as the simulated players
// throw: the die picked up, tumbling, then at rest, flat or on an edge.
// Frames are rendered once per pose and reused.
type Camera struct {
	opts  CameraOpts
	empty *image.Gray
	cache map[pose]*image.Gray

	thrown  bool
	at      time.Duration // when the last throw started
	face    int
	edge    bool
	variant int
}

type pose struct {
	face, variant int
	edge, tumble  bool
}

// NewCamera returns a camera showing an empty tray.
func NewCamera(opts CameraOpts) *Camera {
	c := &Camera{opts: opts, cache: map[pose]*image.Gray{}}
	c.empty = c.render(nil)
	return c
}

func (c *Camera) render(d *synth.Die) *image.Gray {
	sc := synth.Scene{W: c.opts.W, H: c.opts.H, Tray: synth.Trays[0], Seed: c.opts.Seed, Noise: 2}
	sc.Light.Gradient = 0.15
	if d != nil {
		sc.Dice = []synth.Die{*d}
	}
	return vision.Gray(synth.Render(sc))
}

// Throw starts a throw at time at that comes to rest showing face, or on
// an edge.
func (c *Camera) Throw(at time.Duration, face int, edge bool) {
	c.thrown, c.at, c.face, c.edge = true, at, face, edge
	c.variant = (c.variant + 1) % 4
}

// Resting reports whether the die of the last throw has come to rest by
// time at, and the table has had the time to read it.
func (c *Camera) Resting(at time.Duration) bool {
	return !c.thrown || at >= c.at+frameGap+c.opts.Tumble+c.opts.Read
}

const frameGap = 40 * time.Millisecond

// Frame returns the frame at time at. The frame must not be changed.
func (c *Camera) Frame(at time.Duration) *image.Gray {
	if !c.thrown || at < c.at {
		return c.empty
	}
	dt := at - c.at
	switch {
	case dt < frameGap:
		// The player's hand took the die: the tray is empty.
		return c.empty
	case dt < c.opts.Tumble+frameGap:
		step := int(dt / frameGap)
		return c.pose(pose{face: 1 + step%6, variant: step % 5, tumble: true})
	}
	return c.pose(pose{face: c.face, variant: c.variant, edge: c.edge})
}

func (c *Camera) pose(p pose) *image.Gray {
	if g, ok := c.cache[p]; ok {
		return g
	}
	w, h, s := float64(c.opts.W), float64(c.opts.H), c.opts.DieSize
	d := synth.Die{Face: p.face, Size: s, Body: synth.Palettes[0].Body, Pip: synth.Palettes[0].Pip}
	switch {
	case p.tumble:
		// Across the tray, tilted, a new place each step.
		d.X = s + float64(p.variant)*(w-2*s)/4
		d.Y = s + float64((p.variant*3)%5)*(h-2*s)/4
		d.Angle, d.Tilt, d.TiltDir = float64(p.variant), 30, float64(p.variant)*1.3
	default:
		d.X = w/2 + float64(p.variant-2)*s/4
		d.Y = h/2 + float64(p.variant%3-1)*s/4
		d.Angle = float64(p.variant) * 0.4
		if p.edge {
			d.Tilt, d.TiltDir = 45, math.Pi/3
		}
	}
	g := c.render(&d)
	c.cache[p] = g
	return g
}
