package vision

import (
	"image"
	_ "image/jpeg"
	_ "image/png"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// dataDir is the shared folder of labelled photos, beside the repository.
var dataDir = filepath.Join("..", "..", "shared", "data", "dice")

func needData(t testing.TB, source string) string {
	t.Helper()
	dir := filepath.Join(dataDir, source)
	if _, err := os.Stat(filepath.Join(dir, "labels.csv")); err != nil {
		t.Skipf("labelled photos not found at %s (shared/data/dice beside the repository): %v", dir, err)
	}
	return dir
}

func loadLabels(t testing.TB, dir string) []Label {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "labels.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ls, err := ReadLabels(f)
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

func boxSizes(t testing.TB, dir string) map[string]float64 {
	t.Helper()
	m, err := BoxSizes(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func decodeFile(t testing.TB, path string) *image.Gray { return Gray(decodeImage(t, path)) }

func decodeImage(t testing.TB, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// evalLabels reads every label kept by keep and tallies the answers.
func evalLabels(t *testing.T, dir string, ls []Label, opts Opts, keep func(Label) bool) *Tally {
	t.Helper()
	rd := NewReader(&opts)
	var tl Tally
	verbose := os.Getenv("VISION_MISREADS") != ""
	for _, l := range ls {
		if keep != nil && !keep(l) {
			continue
		}
		img := decodeImage(t, filepath.Join(dir, l.File))
		t0 := time.Now()
		got := rd.ReadImage(img)
		tl.Add(l.Want, got, time.Since(t0))
		if verbose && got.Label() != l.Want.Label() {
			t.Logf("%s want %s got %s %.2f", l.File, l.Want, got, got.Confidence)
		}
	}
	return &tl
}

// atLeast checks that rate reaches bar.
func atLeast(t *testing.T, name, what string, rate, bar float64) {
	t.Helper()
	if rate < bar {
		t.Errorf("%s: %s %.2f%% < %.0f%%", name, what, 100*rate, 100*bar)
	}
}

func checkValues(t *testing.T, name string, tl *Tally, minRead float64) {
	t.Helper()
	t.Logf("%s: %s", name, tl.Summary())
	n, _, _ := tl.Values()
	if n == 0 {
		return
	}
	if tl.WrongRate() > 0.002 {
		t.Errorf("%s: wrong-rate %.2f%% > 0.2%%", name, 100*tl.WrongRate())
	}
	atLeast(t, name, "read-rate", tl.ReadRate(), minRead)
}

func subset(l Label) bool {
	if os.Getenv("VISION_SUBSET") == "" {
		return true
	}
	return l.Line%5 == 0
}

func TestAccuracy_Tomitomi3_ReadsTopDownDice(t *testing.T) {
	dir := needData(t, "tomitomi3_gray128")
	ls := loadLabels(t, dir)
	tl := evalLabels(t, dir, ls, DefaultOpts, subset)
	if testing.Verbose() {
		tl.WriteMatrix(os.Stdout)
	}
	checkValues(t, "tomitomi3_gray128", tl, 0.99)
}

func isCrop(l Label) bool { return IsCrop(l.File) }

// The sources of photos seen from the side or from above with boxes, each
// read as crops and as whole frames.
var boxedSources = []string{"matteop65_wood", "dice3_roboflow_v3", "awsvegas_dice", "skovy_catan_webcam", "banachowicz_rpgsets"}

// TestAccuracy_Crops holds every source's crops of a die at least 40 px
// wide to a read-rate of 97%, and all its crops to a wrong-rate of 0.2%.
func TestAccuracy_Crops(t *testing.T) {
	for _, source := range boxedSources {
		t.Run(source, func(t *testing.T) {
			dir := needData(t, source)
			ls := loadLabels(t, dir)
			sizes := boxSizes(t, dir)
			big := evalLabels(t, dir, ls, DefaultOpts, func(l Label) bool {
				s, ok := sizes[l.File]
				// a source's own crops have no box: their dice are 60 px and more
				return isCrop(l) && (s >= 40 || !ok) && subset(l)
			})
			checkValues(t, source+" crops ≥40 px", big, 0.97)
			small := evalLabels(t, dir, ls, DefaultOpts, func(l Label) bool {
				s, ok := sizes[l.File]
				return isCrop(l) && ok && s < 40 && subset(l)
			})
			checkValues(t, source+" crops <40 px", small, 0)
		})
	}
}

// TestAccuracy_Frames holds every source's whole frames to a wrong-rate of
// 0.2% and its frames of several dice at least 40 px wide to 95% multi.
func TestAccuracy_Frames(t *testing.T) {
	for _, source := range boxedSources {
		t.Run(source, func(t *testing.T) {
			dir := needData(t, source)
			ls := loadLabels(t, dir)
			sizes := boxSizes(t, dir)
			tl := evalLabels(t, dir, ls, DefaultOpts, func(l Label) bool { return !isCrop(l) && subset(l) })
			checkValues(t, source+" frames", tl, 0)
			if n := tl.Total("none"); n > 0 {
				t.Logf("%s empty frames: none on %d of %d", source, int(tl.Rate("none")*float64(n)+0.5), n)
			}
			big := evalLabels(t, dir, ls, DefaultOpts, func(l Label) bool {
				return !isCrop(l) && l.Want.Answer == Multi && sizes[l.File] >= 40 && subset(l)
			})
			t.Logf("%s multi frames, dice ≥40 px: %s", source, big.Summary())
			if big.Total("multi") > 0 {
				atLeast(t, source+" multi", "multi recognised on", big.Rate("multi"), 0.95)
			}
		})
	}
}
