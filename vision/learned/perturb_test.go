package learned

import (
	"image"
	"image/draw"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/parchis-table/parchis/vision"
)

// perturbations are mild changes a real camera makes from shot to shot:
// a duller exposure (contrast ×0.85 about mid-grey), a brighter or darker
// one (±15%), a crop whose border falls two pixels short, and a softer
// focus (a 3-pixel box blur, a Gaussian blur of σ 0.7 px). A reader that
// is right on a photo but reads another value once it is so changed is
// right by chance.
var perturbations = []struct {
	name string
	f    func(*image.RGBA) image.Image
}{
	{"contrast ×0.85", func(m *image.RGBA) image.Image {
		return mapLevels(m, func(v float64) float64 { return 128 + 0.85*(v-128) })
	}},
	{"brightness +15%", func(m *image.RGBA) image.Image {
		return mapLevels(m, func(v float64) float64 { return 1.15 * v })
	}},
	{"brightness −15%", func(m *image.RGBA) image.Image {
		return mapLevels(m, func(v float64) float64 { return 0.85 * v })
	}},
	{"2 px off the border", func(m *image.RGBA) image.Image {
		r := m.Rect
		return m.SubImage(image.Rect(r.Min.X, r.Min.Y, r.Max.X-2, r.Max.Y-2))
	}},
	{"3 px box blur", func(m *image.RGBA) image.Image { return blur(m, []float64{1, 1, 1}) }},
	{"Gaussian blur σ 0.7", func(m *image.RGBA) image.Image {
		k := make([]float64, 5)
		for i := range k {
			k[i] = math.Exp(-float64((i-2)*(i-2)) / (2 * 0.7 * 0.7))
		}
		return blur(m, k)
	}},
}

// mapLevels maps each colour level v of m to f(v), rounded and clipped.
func mapLevels(m *image.RGBA, f func(v float64) float64) image.Image {
	var lut [256]uint8
	for v := range lut {
		lut[v] = uint8(math.Max(0, math.Min(255, math.Round(f(float64(v))))))
	}
	for i, v := range m.Pix {
		if i%4 != 3 {
			m.Pix[i] = lut[v]
		}
	}
	return m
}

// blur convolves m's colour channels with the kernel k (of odd length)
// across and then down, the border pixels repeated.
func blur(m *image.RGBA, k []float64) image.Image {
	w, h, r := m.Rect.Dx(), m.Rect.Dy(), len(k)/2
	var ws float64
	for _, kv := range k {
		ws += kv
	}
	pass := func(src []float64, dx, dy int) []float64 {
		dst := make([]float64, len(src))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				var v [3]float64
				for i, kv := range k {
					xx := min(max(x+(i-r)*dx, 0), w-1)
					yy := min(max(y+(i-r)*dy, 0), h-1)
					j := yy*m.Stride + 4*xx
					v[0] += kv * src[j]
					v[1] += kv * src[j+1]
					v[2] += kv * src[j+2]
				}
				j := y*m.Stride + 4*x
				dst[j], dst[j+1], dst[j+2] = v[0]/ws, v[1]/ws, v[2]/ws
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

// TestRead_Perturbed_FewWrongValues reads the crops ≥40 px labelled with a
// value after each perturbation, as the table reads them. A perturbation
// may tip a die the reader was nearly sure of into a wrong value, and
// does so on a few: measured, at most one die more than unperturbed of
// any source and perturbation (awsvegas_dice, brightened, darkened or
// blurred: 2 of 1,033, against 1 unperturbed; skovy_catan_webcam,
// contrast ×0.85: 1 of 151, against none, a die the classifier leans to
// wrongly and the pip rules read alike). Before the pip rules could
// contradict a value the classifier was sure of (contradicts), crops 2 px
// short got awsvegas_dice 4 wrong values, against 2 unperturbed. The test
// holds the bound: at most one wrong value more than unperturbed.
// tomitomi3_gray128 is left out for time: its 1,200 grey crops read 99.9%
// to 100% under every perturbation, none wrong.
func TestRead_Perturbed_FewWrongValues(t *testing.T) {
	for _, source := range sources {
		if source == "tomitomi3_gray128" {
			continue
		}
		t.Run(source, func(t *testing.T) {
			t.Parallel()
			rd := NewReader(nil)
			dir := needData(t, source)
			sizes, _ := vision.BoxSizes(dir)
			var plain vision.Tally
			tls := make([]vision.Tally, len(perturbations))
			for _, l := range loadLabels(t, dir) {
				if s, boxed := sizes[l.File]; !isCrop(l) || boxed && s < 40 || l.Want.Answer != vision.Value {
					continue
				}
				img := decodeImage(t, filepath.Join(dir, l.File))
				plain.Add(l.Want, rd.ReadImage(img), 0)
				m := image.NewRGBA(img.Bounds())
				for k, p := range perturbations {
					draw.Draw(m, m.Rect, img, m.Rect.Min, draw.Src)
					t0 := time.Now()
					got := rd.ReadImage(p.f(m))
					tls[k].Add(l.Want, got, time.Since(t0))
					if got.Answer == vision.Value && got.Value != l.Want.Value {
						t.Logf("%s: %s want %s got %s", p.name, l.File, l.Want, got)
					}
				}
			}
			_, _, base := plain.Values()
			t.Logf("unperturbed: %s", plain.Summary())
			for k, p := range perturbations {
				t.Logf("%s: %s", p.name, tls[k].Summary())
				if _, _, wrong := tls[k].Values(); wrong > base+1 {
					t.Errorf("%s: %d wrong values, unperturbed %d: want at most 1 more", p.name, wrong, base)
				}
			}
		})
	}
}

// TestRead_PerturbedFrames_NoWrongValue reads the whole frames of one die
// labelled with a value, at the duller exposure (the first perturbation):
// no value may be wrong. A frame shows the die's body against the table,
// which a crop mostly leaves out.
func TestRead_PerturbedFrames_NoWrongValue(t *testing.T) {
	rd := NewReader(nil)
	p := perturbations[0]
	for _, source := range sources {
		dir := needData(t, source)
		var tl vision.Tally
		for _, l := range loadLabels(t, dir) {
			if isCrop(l) || l.Want.Answer != vision.Value {
				continue
			}
			img := decodeImage(t, filepath.Join(dir, l.File))
			m := image.NewRGBA(img.Bounds())
			draw.Draw(m, m.Rect, img, m.Rect.Min, draw.Src)
			m2 := p.f(m)
			t0 := time.Now()
			got := rd.ReadImage(m2)
			tl.Add(l.Want, got, time.Since(t0))
			if got.Answer == vision.Value && got.Value != l.Want.Value {
				t.Errorf("%s frames, %s: %s want %s got %s", source, p.name, l.File, l.Want, got)
			}
		}
		t.Logf("%s frames, %s: %s", source, p.name, tl.Summary())
	}
}
