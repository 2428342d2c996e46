package learned

import (
	"image"
	"image/draw"
	"testing"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/synth"
)

// TestResample_GreyPathMatchesGeneric holds the grey frames' fast path to
// the same samples as the general one, at the scales the reader uses, on a
// frame and on a part of it whose origin is not the frame's.
func TestResample_GreyPathMatchesGeneric(t *testing.T) {
	g := vision.Gray(synth.Render(synth.RandomScene(5, 200, 150, synth.Flat, 30, 40)))
	sub := g.SubImage(image.Rect(37, 21, 190, 140)).(*image.Gray)
	for _, img := range []*image.Gray{g, sub} {
		rgba := image.NewRGBA(img.Bounds())
		draw.Draw(rgba, rgba.Bounds(), img, img.Bounds().Min, draw.Src)
		b := img.Bounds()
		for _, c := range []struct {
			x0, y0, sx, sy float64
			w, h           int
		}{
			{float64(b.Min.X), float64(b.Min.Y), float64(b.Dx()), float64(b.Dy()), 48, 40},
			{float64(b.Min.X) - 9.5, float64(b.Min.Y) + 3.25, 120, 120, 48, 48}, // past the border
			{float64(b.Min.X) + 10, float64(b.Min.Y) + 10, 20, 20, 48, 48},      // enlarged
		} {
			fast := make([]float32, 3*c.w*c.h)
			slow := make([]float32, 3*c.w*c.h)
			pixelsOf(img).resample(fast, nil, c.x0, c.y0, c.sx, c.sy, c.w, c.h)
			pixelsOf(rgba).resample(slow, nil, c.x0, c.y0, c.sx, c.sy, c.w, c.h)
			for i := range fast {
				if fast[i] != slow[i] {
					t.Fatalf("image at %v, region %+v: sample %d is %g on the grey path, %g on the general one", b.Min, c, i, fast[i], slow[i])
				}
			}
		}
	}
}
