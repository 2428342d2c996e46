package vision

import (
	"image"
	"image/color"
	"testing"
	"time"

	"github.com/parchis-table/parchis/vision/synth"
)

const frameStep = 33 * time.Millisecond

// stream builds frames for the watcher tests.
type stream struct {
	t      *testing.T
	w      *Watcher
	at     time.Duration
	events []Event
	base   synth.Scene
}

func newStream(t *testing.T) *stream {
	s := synth.Scene{W: 200, H: 160, Tray: synth.Trays[0], Seed: 7}
	return &stream{t: t, w: NewWatcher(nil, nil), base: s}
}

func (s *stream) feed(img *image.Gray, frames int) {
	for i := 0; i < frames; i++ {
		s.events = append(s.events, s.w.Feed(img, s.at)...)
		s.at += frameStep
	}
}

func (s *stream) frame(dice ...synth.Die) *image.Gray {
	sc := s.base
	sc.Dice = dice
	return Gray(synth.Render(sc))
}

func die(face int, x, y, angle, tilt float64) synth.Die {
	return synth.Die{Face: face, X: x, Y: y, Size: 56, Angle: angle, Tilt: tilt,
		Body: synth.Palettes[0].Body, Pip: synth.Palettes[0].Pip}
}

// tumble rolls a die across the tray for n frames.
func (s *stream) tumble(n int) {
	for i := 0; i < n; i++ {
		s.feed(s.frame(die(1+i%6, 40+float64(i)*10, 60+float64(i%3)*10, float64(i), 30)), 1)
	}
}

// hand covers most of the tray for n frames.
func (s *stream) hand(n int) {
	g := image.NewGray(image.Rect(0, 0, 200, 160))
	for i := range g.Pix {
		g.Pix[i] = 60
	}
	for y := 0; y < 160; y++ {
		for x := 0; x < 200; x++ {
			if x < 30 {
				g.SetGray(x, y, color.Gray{Y: 90})
			}
		}
	}
	s.feed(g, n)
}

func (s *stream) want(kinds ...string) {
	s.t.Helper()
	var got []string
	for _, e := range s.events {
		got = append(got, e.Kind.String()+":"+e.Result.String())
	}
	if len(got) != len(kinds) {
		s.t.Fatalf("events %v, want %v", got, kinds)
	}
	for i := range got {
		if got[i] != kinds[i] {
			s.t.Fatalf("events %v, want %v", got, kinds)
		}
	}
	s.events = s.events[:0]
}

func TestWatcher_TumbleThenRest_OneThrow(t *testing.T) {
	s := newStream(t)
	s.feed(s.frame(), 5)
	s.tumble(8)
	s.feed(s.frame(die(4, 110, 80, 0.3, 0)), 8) // 264 ms: not yet
	s.want()
	s.feed(s.frame(die(4, 110, 80, 0.3, 0)), 30)
	s.want("throw:4")
}

func TestWatcher_RestTime_Configurable(t *testing.T) {
	s := newStream(t)
	s.w = NewWatcher(nil, &WatchOpts{Rest: 100 * time.Millisecond})
	s.feed(s.frame(), 2)
	s.tumble(5)
	s.feed(s.frame(die(2, 100, 80, 1, 0)), 5) // still from the first of them: 132 ms
	s.want("throw:2")
}

func TestWatcher_EdgeAfterTumble_Rethrow(t *testing.T) {
	s := newStream(t)
	s.feed(s.frame(), 2)
	s.tumble(6)
	s.feed(s.frame(die(3, 100, 80, 0.5, 45)), 15)
	s.want("rethrow:edge")
}

func TestWatcher_DieLeavesTray_Rethrow(t *testing.T) {
	s := newStream(t)
	s.feed(s.frame(), 2)
	s.tumble(6)
	s.feed(s.frame(), 15)
	s.want("rethrow:none")
}

func TestWatcher_PlacedByHand_Suspicious(t *testing.T) {
	s := newStream(t)
	s.feed(s.frame(), 3)
	s.hand(5)
	s.feed(s.frame(die(6, 100, 80, 0.2, 0)), 15)
	s.want("suspicious:6")
}

func TestWatcher_TurnedByHand_Suspicious(t *testing.T) {
	s := newStream(t)
	s.feed(s.frame(), 2)
	s.tumble(6)
	s.feed(s.frame(die(5, 100, 80, 0.2, 0)), 15)
	s.want("throw:5")
	s.hand(4)
	s.feed(s.frame(die(6, 100, 80, 0.2, 0)), 15)
	s.want("suspicious:6")
}

func TestWatcher_HandPassesOver_NoEvent(t *testing.T) {
	s := newStream(t)
	s.feed(s.frame(), 2)
	s.tumble(6)
	s.feed(s.frame(die(5, 100, 80, 0.2, 0)), 15)
	s.want("throw:5")
	s.hand(4)
	s.feed(s.frame(die(5, 100, 80, 0.2, 0)), 15)
	s.want()
}

func BenchmarkWatcher_AtRest640x480(b *testing.B) {
	w := NewWatcher(nil, nil)
	g1 := Gray(synth.Render(synth.RandomScene(1, 640, 480, synth.Flat, 60, 80)))
	g2 := image.NewGray(g1.Rect)
	copy(g2.Pix, g1.Pix)
	w.Changed(g1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			w.Changed(g2)
		} else {
			w.Changed(g1)
		}
	}
}
