package learned

import (
	"runtime"
	"testing"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/synth"
)

func benchRead(b *testing.B, seed uint64, w, h int, lo, hi float64, opts Opts) {
	img := vision.Gray(synth.Render(synth.RandomScene(seed, w, h, synth.Flat, lo, hi)))
	rd := NewReader(&opts)
	rd.ReadImage(img)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rd.ReadImage(img)
	}
}

// BenchmarkRead_640x480 reads a tray frame of one die, localisation and
// classification together. The classifier is unsure of the die and the
// pip rules, straight down, settle it (see ReadImage).
func BenchmarkRead_640x480(b *testing.B) { benchRead(b, 11, 640, 480, 60, 70, DefaultOpts) }

// BenchmarkRead_640x480_SureDie reads a frame of a die the classifier is
// sure of, which both pip readers (straight down and from the side) then
// read too, for a value that would contradict it (see contradicts).
func BenchmarkRead_640x480_SureDie(b *testing.B) { benchRead(b, 12, 640, 480, 60, 70, DefaultOpts) }

// BenchmarkRead_640x480_Calibrated knows the die's size: one scale.
func BenchmarkRead_640x480_Calibrated(b *testing.B) {
	benchRead(b, 11, 640, 480, 60, 70, Opts{DieSize: 80})
}

// BenchmarkRead_128x128 reads a crop of one die.
func BenchmarkRead_128x128(b *testing.B) { benchRead(b, 11, 128, 128, 50, 60, DefaultOpts) }

// TestReader_HeapUnder20MB holds what a reader keeps (the networks'
// buffers, its scratch, after a frame and a crop) to 20 MB; the model,
// parsed once per process, is measured with it.
func TestReader_HeapUnder20MB(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m, err := ParseModel(embeddedModel)
	if err != nil {
		t.Fatal(err)
	}
	rd := NewReader(&Opts{Model: m})
	rd.ReadImage(vision.Gray(synth.Render(synth.RandomScene(11, 640, 480, synth.Flat, 60, 70))))
	rd.ReadImage(synth.Render(synth.RandomScene(12, 128, 128, synth.Flat, 50, 60)))
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(rd)
	h := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("a reader with its model holds %.2f MB", float64(h)/(1<<20))
	if h > 20<<20 {
		t.Errorf("a reader holds %.1f MB, over 20 MB", float64(h)/(1<<20))
	}
}

// BenchmarkRead_UnsureCrop reads a labelled photo's crop of a die the
// classifier alone is unsure of and the pip rules settle: the reader's
// slowest path (both networks, then the pip rules straight down and from
// the side).
func BenchmarkRead_UnsureCrop(b *testing.B) {
	dir := needData(b, "banachowicz_rpgsets")
	sizes := boxSizes(b, dir)
	alone := NewReader(&Opts{NetworkOnly: true})
	rd := NewReader(nil)
	for _, l := range loadLabels(b, dir) {
		if !isCrop(l) || sizes[l.File] < 40 {
			continue
		}
		img := decodeImage(b, dir+"/"+l.File)
		if alone.ReadImage(img).Answer != vision.Unsure || rd.ReadImage(img).Answer != vision.Value {
			continue
		}
		b.Logf("%s, %.0f px", l.File, sizes[l.File])
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			rd.ReadImage(img)
		}
		return
	}
	b.Fatal("no crop the pip rules settle")
}
