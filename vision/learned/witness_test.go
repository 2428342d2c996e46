package learned

import (
	"image"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/synth"
)

// faceBlobs returns the pips of a die's face of the given count as the
// witness's grid shows them: a face of half the grid centred at (cx, cy),
// turned by turn radians, flattened vertically by squash (a camera
// looking from below the image, as an upright photo from the side), its
// pips of the given diameter.
func faceBlobs(count int, cx, cy, turn, squash, diam float64) []blob {
	grid := map[int][][2]float64{
		2: {{-1, -1}, {1, 1}},
		3: {{-1, -1}, {0, 0}, {1, 1}},
		4: {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}},
		5: {{-1, -1}, {1, -1}, {0, 0}, {-1, 1}, {1, 1}},
		6: {{-1, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {1, 1}},
	}[count]
	const unit = witnessPx * 0.15 // a pip's place is 0.3 of the face's side
	r := diam / 2
	out := make([]blob, 0, len(grid))
	for _, g := range grid {
		x := unit * (g[0]*math.Cos(turn) - g[1]*math.Sin(turn))
		y := unit * (g[0]*math.Sin(turn) + g[1]*math.Cos(turn)) * squash
		out = append(out, blob{x: cx + x, y: cy + y, area: math.Pi * r * r * squash, sxx: r * r / 4, syy: r * r * squash * squash / 4})
	}
	return out
}

// isFaceOf reports whether some count of bs is a face, as findFace asks.
func isFaceOf(bs []blob, count int) bool {
	var w witness
	return w.findFace(append([]blob(nil), bs...), count)
}

func TestWitness_FaceGeometry(t *testing.T) {
	const c = witnessPx / 2
	for _, tc := range []struct {
		name  string
		blobs []blob
		count int
		want  bool
	}{
		{"a 2 straight down", faceBlobs(2, c, c, 0, 1, 6), 2, true},
		{"a 3 turned", faceBlobs(3, c, c, 0.5, 1, 6), 3, true},
		{"a 4 turned, seen from the side", faceBlobs(4, c, c-8, 0.3, 0.65, 7), 4, true},
		{"a 5 turned", faceBlobs(5, c, c, 1.0, 1, 6), 5, true},
		{"a 6 at 45°", faceBlobs(6, c, c, math.Pi/4, 1, 6), 6, true},
		{"a 6 seen from the side", faceBlobs(6, c, c-6, 0.2, 0.7, 6), 6, true},
		{"a 6 is no 4", faceBlobs(6, c, c, 0.3, 1, 6), 4, false},
		{"a 6 is no 2", faceBlobs(6, c, c, math.Pi/4, 1, 6), 2, false},
		{"a 6 is no 3", faceBlobs(6, c, c, 0, 1, 6), 3, false},
		{"a 5 is no 4", faceBlobs(5, c, c, 0.2, 1, 6), 4, false},
		{"a 5 is no 3", faceBlobs(5, c, c, 0.2, 1, 6), 3, false},
		{"a 4 is no 2", faceBlobs(4, c, c, 0.6, 1, 6), 2, false},
		{"a 3 is no 2", faceBlobs(3, c, c, 0.6, 1, 6), 2, false},
		{"a 4 is no 3", faceBlobs(4, c, c, 0.6, 1, 6), 3, false},
		{"a face low in the box fronts the camera", faceBlobs(4, c, c+12, 0, 0.7, 6), 4, false},
		{"a face off the box's middle", faceBlobs(4, c+16, c, 0, 1, 6), 4, false},
		{"pips as big as their spacing are a blot", faceBlobs(4, c, c, 0, 1, 14), 4, false},
		{"a face with pips above it is a side face",
			append(faceBlobs(4, c, c+4, 0, 0.8, 6), faceBlobs(2, c, c-14, 0, 0.4, 6)...), 4, false},
		{"the top face above a side face", append(faceBlobs(2, c, c-10, 0.1, 0.6, 6), faceBlobs(4, c, c+24, 0, 0.5, 6)...), 2, true},
	} {
		if got := isFaceOf(tc.blobs, tc.count); got != tc.want {
			t.Errorf("%s: a face of %d found %v, want %v", tc.name, tc.count, got, tc.want)
		}
	}
}

// TestWitness_RenderedDice asks the box witness, for rendered flat dice
// of every colour seen straight down or up to 50° from the side (held
// upright), with their outline box, whether each face 2…6 is on top. Of
// the faces that are not, it may say so of a few only: it is a second
// opinion on the face the classifier leans to, not a reader; and it must
// find the top face of most dice.
func TestWitness_RenderedDice(t *testing.T) {
	var w witness
	var read, tried [2]int
	wrong, asked := 0, 0
	for seed := uint64(0); seed < 400; seed++ {
		s := synth.WideScene(7000+seed, 160, 160, synth.Flat, 1, 60, 100)
		if len(s.Dice) != 1 {
			continue
		}
		px := pixelsOf(synth.Render(s))
		box, top := s.Boxes()[0], s.Dice[0].Face
		side := 0
		if s.View > 20 {
			side = 1
		}
		if top > 1 {
			tried[side]++
		}
		for face := 2; face <= 6; face++ {
			got := w.reads(px, box, face)
			switch {
			case face == top && got:
				read[side]++
			case face != top:
				asked++
				if got {
					wrong++
				}
			}
		}
	}
	for i, name := range []string{"seen from at most 20°", "seen from 20° to 50°"} {
		t.Logf("%s: top face read on %d of %d", name, read[i], tried[i])
	}
	t.Logf("a face not on top found %d times of %d", wrong, asked)
	atLeast(t, "rendered dice seen from at most 20°", "top face read on", float64(read[0])/float64(tried[0]), 0.7)
	atLeast(t, "rendered dice seen from 20° to 50°", "top face read on", float64(read[1])/float64(tried[1]), 0.6)
	if rate := float64(wrong) / float64(asked); rate > 0.02 {
		t.Errorf("a face not on top found on %.2f%% of the questions, over 2%%", 100*rate)
	}
}

// boxSettled reads the labelled crops of dice ≥40 px of a source and
// returns those the box witness settles: the classifier alone is unsure
// of them, the pip rules (straight down and from the side) do not read
// the face it leans to, and the reader reads a value; each with that
// value.
func boxSettled(tb testing.TB, source string) (ls []vision.Label, imgs []image.Image, got []vision.Result) {
	dir := needData(tb, source)
	sizes := boxSizes(tb, dir)
	alone := NewReader(&Opts{NetworkOnly: true})
	full := NewReader(nil)
	for _, l := range loadLabels(tb, dir) {
		if !isCrop(l) || l.Want.Answer != vision.Value || sizes[l.File] < 40 {
			continue
		}
		img := decodeImage(tb, filepath.Join(dir, l.File))
		a := alone.ReadImage(img)
		if a.Answer != vision.Unsure || agree(a, full.pips.ReadImage(img), alone.lean, alone.leanProb).Answer == vision.Value ||
			agree(a, full.oblique.ReadImage(img), alone.lean, alone.leanProb).Answer == vision.Value {
			continue
		}
		if r := full.ReadImage(img); r.Answer == vision.Value {
			ls, imgs, got = append(ls, l), append(imgs, img), append(got, r)
		}
	}
	return ls, imgs, got
}

// TestRead_BoxWitness reads the labelled crops of skovy_catan_webcam (a
// webcam over a board game's dice, where the box witness settles the
// most) that the classifier leaves unsure and the pip rules do not read:
// the box witness settles some, each as its label says.
func TestRead_BoxWitness(t *testing.T) {
	ls, _, got := boxSettled(t, "skovy_catan_webcam")
	for i, l := range ls {
		if got[i].Value != l.Want.Value {
			t.Errorf("%s (%d): the box witness settles %d", l.File, l.Want.Value, got[i].Value)
		}
	}
	t.Logf("%d crops ≥40 px settled by the box witness", len(ls))
	if len(ls) < 8 {
		t.Errorf("the box witness settled %d crops, want 8 or more (10 when measured)", len(ls))
	}
}

// BenchmarkRead_BoxWitnessCrop reads a labelled photo's crop of a die
// that the box witness settles: the reader's slowest path (both
// networks, the pip rules straight down and from the side, then the box
// witness).
func BenchmarkRead_BoxWitnessCrop(b *testing.B) {
	ls, imgs, _ := boxSettled(b, "skovy_catan_webcam")
	if len(ls) == 0 {
		b.Fatal("no crop the box witness settles")
	}
	b.Logf("%s", ls[0].File)
	rd := NewReader(nil)
	b.ReportAllocs()
	for b.Loop() {
		rd.ReadImage(imgs[0])
	}
}

func BenchmarkWitness(b *testing.B) {
	s := synth.WideScene(7003, 160, 160, synth.Flat, 1, 60, 100)
	px := pixelsOf(synth.Render(s))
	box := s.Boxes()[0]
	var w witness
	b.ReportAllocs()
	for b.Loop() {
		w.reads(px, box, 6)
	}
}

// TestExtreme checks the running-window filter against the plain one on
// random grids, for both signs and the radii about the witness's.
func TestExtreme(t *testing.T) {
	const n = witnessPx
	rng := rand.New(rand.NewPCG(1, 2))
	src, got, want, tmp := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
	for _, r := range []int{1, 4, 10, n / 3} {
		for _, sign := range []float64{-1, 1} {
			for i := range src {
				src[i] = float64(rng.IntN(256))
			}
			extreme(got, src, tmp, n, r, sign)
			for y := 0; y < n; y++ {
				for x := 0; x < n; x++ {
					m := math.Inf(-1)
					for j := max(0, y-r); j <= min(n-1, y+r); j++ {
						for i := max(0, x-r); i <= min(n-1, x+r); i++ {
							m = max(m, sign*src[j*n+i])
						}
					}
					want[y*n+x] = sign * m
				}
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("radius %d, sign %v: cell (%d, %d) is %v, want %v", r, sign, i%n, i/n, got[i], want[i])
				}
			}
		}
	}
}

// TestWitness_SmallBoxNotLooked asks the box witness about rendered dice
// whose box is under witnessMinPx: it never finds a face there.
func TestWitness_SmallBoxNotLooked(t *testing.T) {
	var w witness
	for seed := uint64(0); seed < 20; seed++ {
		s := synth.WideScene(9000+seed, 96, 96, synth.Flat, 1, 18, 22)
		if len(s.Dice) != 1 {
			continue
		}
		box := s.Boxes()[0]
		if min(box.Dx(), box.Dy()) >= witnessMinPx {
			continue
		}
		px := pixelsOf(synth.Render(s))
		for face := 2; face <= 6; face++ {
			if w.reads(px, box, face) {
				t.Errorf("seed %d: a box of %v read as %d", 9000+seed, box.Size(), face)
			}
		}
	}
}
