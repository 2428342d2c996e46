package vision

import (
	"image"
	"image/color"
	"math/rand/v2"
	"testing"
)

// TestOutline_PlacesTheTopFace draws a red die body on a grey, speckled
// table and checks that its outline is found and that only a face at its
// top is taken as the top face.
func TestOutline_PlacesTheTopFace(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 120, 120))
	rnd := rand.New(rand.NewPCG(1, 2))
	body := image.Rect(40, 30, 80, 90)
	for y := 0; y < 120; y++ {
		for x := 0; x < 120; x++ {
			c := color.NRGBA{180, 180, 180, 255}
			if image.Pt(x, y).In(body) {
				c = color.NRGBA{170, 30, 30, 255}
			}
			switch rnd.IntN(50) {
			case 0:
				c = color.NRGBA{0, 0, 0, 255}
			case 1:
				c = color.NRGBA{255, 255, 255, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	rd := NewReader(nil)
	box, ok := rd.outline(img, vec{60, 45}, 12)
	wantOutline(t, box, ok, body)
	for _, tc := range []struct {
		c    vec
		h    float64
		want bool
	}{
		{vec{60, 45}, 10, true},  // the top face
		{vec{60, 45}, 0, true},   // a one there
		{vec{60, 75}, 10, false}, // a side face, low on the die
		{vec{45, 45}, 10, false}, // off the die's middle
		{vec{60, 60}, 6, false},  // deeper than its face's height allows
	} {
		rd.faceC, rd.faceH = tc.c, tc.h
		if got := rd.onTop(box); got != tc.want {
			t.Errorf("face at %v, half height %.0f: onTop %v, want %v", tc.c, tc.h, got, tc.want)
		}
	}
	// a grey die on a grey table has no outline to tell
	grey := image.NewNRGBA(image.Rect(0, 0, 120, 120))
	for i := range grey.Pix {
		grey.Pix[i] = 180
	}
	if _, ok := rd.outline(grey, vec{60, 45}, 12); ok {
		t.Errorf("outline found on a plain grey image")
	}
}

// TestOutline_LeavesOutATableOfAnotherHue draws a red die on a grey table
// whose teal part touches the die's top and right sides, as a cloth beside
// the tray may: the teal stands out from the grey as much as the die, but
// it is of another hue and is no part of the die's outline.
func TestOutline_LeavesOutATableOfAnotherHue(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 120, 120))
	body := image.Rect(40, 30, 80, 90)
	for y := 0; y < 120; y++ {
		for x := 0; x < 120; x++ {
			c := color.NRGBA{180, 180, 180, 255}
			switch {
			case image.Pt(x, y).In(body):
				c = color.NRGBA{170, 30, 30, 255}
			case y < 30 && x >= 40 || x >= 80 && y < 60:
				c = color.NRGBA{20, 150, 150, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	rd := NewReader(nil)
	box, ok := rd.outline(img, vec{60, 45}, 12)
	wantOutline(t, box, ok, body)
}

// wantOutline fails the test unless an outline was found within 2 px of
// body on every side.
func wantOutline(t *testing.T, box image.Rectangle, ok bool, body image.Rectangle) {
	t.Helper()
	if !ok || absf(float64(box.Min.X-body.Min.X)) > 2 || absf(float64(box.Max.X-body.Max.X)) > 2 ||
		absf(float64(box.Min.Y-body.Min.Y)) > 2 || absf(float64(box.Max.Y-body.Max.Y)) > 2 {
		t.Fatalf("outline %v %v, want about %v", box, ok, body)
	}
}
