package vision

import (
	"image"
	"path/filepath"
	"testing"

	"github.com/parchis-table/parchis/vision/synth"
)

func benchRead(b *testing.B, g *image.Gray, opts Opts) {
	rd := NewReader(&opts)
	rd.Read(g)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rd.Read(g)
	}
}

func BenchmarkRead_640x480(b *testing.B) {
	g := Gray(synth.Render(synth.RandomScene(11, 640, 480, synth.Flat, 60, 70)))
	benchRead(b, g, DefaultOpts)
}

func BenchmarkRead_640x480_Calibrated(b *testing.B) {
	g := Gray(synth.Render(synth.RandomScene(11, 640, 480, synth.Flat, 60, 70)))
	o := DefaultOpts
	o.DieSize = 65
	benchRead(b, g, o)
}

func BenchmarkRead_128x128(b *testing.B) {
	g := Gray(synth.Render(synth.RandomScene(12, 128, 128, synth.Flat, 50, 60)))
	benchRead(b, g, DefaultOpts)
}

func TestRead_NoDie_None(t *testing.T) {
	s := synth.Scene{W: 200, H: 150, Tray: synth.Trays[2], Noise: 3}
	if got := NewReader(nil).Read(Gray(synth.Render(s))); got.Answer != None {
		t.Errorf("empty tray read %v, want none", got)
	}
}

func TestRead_TwoDice_Multi(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		a := synth.RandomScene(seed, 320, 240, synth.Flat, 50, 70)
		b := synth.RandomScene(seed+100, 320, 240, synth.Flat, 50, 70)
		d1, d2 := a.Dice[0], b.Dice[0]
		d2.Body, d2.Pip, d2.Size = d1.Body, d1.Pip, d1.Size
		d1.X, d1.Y = 80, 120
		d2.X, d2.Y = 230, 110
		a.Dice = append(a.Dice[:0], d1, d2)
		if got := NewReader(nil).Read(Gray(synth.Render(a))); got.Answer != Multi {
			t.Errorf("seed %d: two dice read %v, want multi", seed, got)
		}
	}
}

// BenchmarkReadImage_ObliqueColourCrops reads the dice3 crops ≥40 px in
// colour from the side, the slowest path (colour planes, outline): ns/op is
// per crop.
func BenchmarkReadImage_ObliqueColourCrops(b *testing.B) {
	dir := needData(b, "dice3_roboflow_v3")
	sizes := boxSizes(b, dir)
	var imgs []image.Image
	for f, s := range sizes {
		if isCrop(Label{File: f}) && s >= 40 {
			imgs = append(imgs, decodeImage(b, filepath.Join(dir, f)))
		}
	}
	opts := ObliqueOpts(DefaultOpts)
	rd := NewReader(&opts)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rd.ReadImage(imgs[i%len(imgs)])
	}
}
