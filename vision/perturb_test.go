package vision

import (
	"image"
	"image/draw"
	"path/filepath"
	"testing"
	"time"
)

// perturbations are mild changes a real camera makes from shot to shot:
// a duller exposure (contrast ×0.85 about mid-grey) and a crop whose
// border falls two pixels short. A reader that is right on a photo but
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
