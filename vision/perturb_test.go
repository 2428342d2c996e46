package vision

import (
	"image"
	"image/draw"
	"math"
	"path/filepath"
	"testing"
	"time"
)

// perturbations are mild changes a real camera makes from shot to shot:
// a duller exposure (contrast ×0.85 about mid-grey), a crop whose border
// falls two pixels short, and a softer focus (a 3-pixel box blur). A reader that is right on a photo but
// reads another value once it is so changed is right by chance.
var perturbations = []struct {
	name string
	f    func(*image.RGBA) image.Image
}{
	{"contrast ×0.85", func(m *image.RGBA) image.Image {
		for i, v := range m.Pix {
			if i%4 != 3 {
				m.Pix[i] = uint8(128 + 0.85*(float64(v)-128) + 0.5)
			}
		}
		return m
	}},
	{"2 px off the border", func(m *image.RGBA) image.Image {
		r := m.Rect
		return m.SubImage(image.Rect(r.Min.X, r.Min.Y, r.Max.X-2, r.Max.Y-2))
	}},
	{"3 px box blur", func(m *image.RGBA) image.Image { return blur(m, []float64{1, 1, 1}) }},
}

// blur convolves m's colour channels with the kernel k (of odd length)
// across and then down, the border pixels repeated.
func blur(m *image.RGBA, k []float64) image.Image {
	w, h, r := m.Rect.Dx(), m.Rect.Dy(), len(k)/2
	pass := func(src []float64, dx, dy int) []float64 {
		dst := make([]float64, len(src))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				for c := 0; c < 3; c++ {
					var v, ws float64
					for i, kv := range k {
						xx := min(max(x+(i-r)*dx, 0), w-1)
						yy := min(max(y+(i-r)*dy, 0), h-1)
						v += kv * src[yy*m.Stride+4*xx+c]
						ws += kv
					}
					dst[y*m.Stride+4*x+c] = v / ws
				}
			}
		}
		return dst
	}
	src := make([]float64, len(m.Pix))
	for i, v := range m.Pix {
		src[i] = float64(v)
	}
	out := pass(pass(src, 1, 0), 0, 1)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for c := 0; c < 3; c++ {
				i := y*m.Stride + 4*x + c
				m.Pix[i] = uint8(math.Round(out[i]))
			}
		}
	}
	return m
}

// TestAccuracy_Perturbed_NoWrongValue reads the crops ≥40 px labelled with
// a value, of the sources seen from the side, after each perturbation: no
// value may be wrong (unsure is fine).
func TestAccuracy_Perturbed_NoWrongValue(t *testing.T) {
	opts := ObliqueOpts(DefaultOpts)
	rd := NewReader(&opts)
	for _, source := range []string{"dice3_roboflow_v3", "matteop65_wood"} {
		dir := needData(t, source)
		sizes := boxSizes(t, dir)
		for _, p := range perturbations {
			var tl Tally
			for _, l := range loadLabels(t, dir) {
				if !isCrop(l) || sizes[l.File] < 40 || l.Want.Answer != Value || !subset(l) {
					continue
				}
				img := decodeImage(t, filepath.Join(dir, l.File))
				m := image.NewRGBA(img.Bounds())
				draw.Draw(m, m.Rect, img, m.Rect.Min, draw.Src)
				m2 := p.f(m)
				t0 := time.Now()
				got := rd.ReadImage(m2)
				tl.Add(l.Want, got, time.Since(t0))
				if got.Answer == Value && got.Value != l.Want.Value {
					t.Errorf("%s, %s: %s want %s got %s", source, p.name, l.File, l.Want, got)
				}
			}
			t.Logf("%s crops ≥40 px, %s: %s", source, p.name, tl.Summary())
		}
	}
}
