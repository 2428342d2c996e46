package source

import (
	"image"
	"io"
	"time"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/synth"
)

// Throw is one throw of the synthetic source: the die tumbles for Tumble
// frames and then rests showing Face (or on an edge when Tilt is 40 or
// more) for Rest frames.
type Throw struct {
	Face         int
	Tilt         float64 // degrees; 0 flat
	Tumble, Rest int     // frames
}

// Synth renders a sequence of throws on an empty tray, as the simulated
// table's camera.
type Synth struct {
	scene  synth.Scene
	throws []Throw
	rate   float64
	frames []*image.Gray
	n      int
}

// NewSynth returns a synthetic camera of w×h frames at rate frames a
// second (0 means 30) showing the throws, with a die of size px.
func NewSynth(w, h int, size float64, rate float64, seed uint64, throws []Throw) *Synth {
	if rate <= 0 {
		rate = 30
	}
	s := &Synth{rate: rate, throws: throws}
	s.scene = synth.Scene{W: w, H: h, Tray: synth.Trays[0], Seed: seed}
	s.scene.Light.Gradient = 0.15
	s.scene.Noise = 2
	pal := synth.Palettes[0]
	for ti, t := range throws {
		for i := 0; i < t.Tumble; i++ {
			x := size + float64((i*37+ti*11)%max(1, w-int(2*size)))
			y := size + float64((i*23+ti*7)%max(1, h-int(2*size)))
			s.frames = append(s.frames, s.render(synth.Die{Face: 1 + (i+ti)%6, X: x, Y: y, Size: size,
				Angle: float64(i), Tilt: 30, TiltDir: float64(i * 2), Body: pal.Body, Pip: pal.Pip}))
		}
		rest := s.render(synth.Die{Face: t.Face, X: float64(w) / 2, Y: float64(h) / 2, Size: size,
			Angle: float64(ti) * 0.7, Tilt: t.Tilt, Body: pal.Body, Pip: pal.Pip})
		for i := 0; i < t.Rest; i++ {
			s.frames = append(s.frames, rest)
		}
	}
	return s
}

func (s *Synth) render(d synth.Die) *image.Gray {
	sc := s.scene
	sc.Dice = []synth.Die{d}
	sc.Seed++
	s.scene.Seed++
	return vision.Gray(synth.Render(sc))
}

// Next returns the next frame.
func (s *Synth) Next() (Frame, error) {
	if s.n >= len(s.frames) {
		return Frame{}, io.EOF
	}
	f := Frame{Gray: s.frames[s.n], At: time.Duration(float64(s.n) / s.rate * float64(time.Second)), Name: "synthetic"}
	s.n++
	return f, nil
}
