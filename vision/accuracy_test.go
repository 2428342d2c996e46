package vision

import (
	"bytes"
	"github.com/parchis-table/parchis/vision/internal/dicedata"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"os"
	"testing"
)

func needData(t testing.TB, source string) string { return dicedata.Dir(t, source) }

func loadLabels(t testing.TB, dir string) []Label {
	t.Helper()
	b, err := dicedata.Labels(dir)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := ReadLabels(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// boxSizes returns, per file (frame or crop), the smallest short side of
// the annotated dice in it (see BoxSizes).
func boxSizes(t testing.TB, dir string) map[string]float64 {
	t.Helper()
	m, err := BoxSizes(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func decodeFile(t testing.TB, path string) *image.Gray { return Gray(decodeImage(t, path)) }

func decodeImage(t testing.TB, path string) image.Image { return dicedata.Decode(t, path) }

// evalLabels reads every label kept by keep and tallies the answers.
func evalLabels(t *testing.T, dir string, ls []Label, opts Opts, keep func(Label) bool) *Tally {
	t.Helper()
	var kept []Label
	var files []string
	for _, l := range ls {
		if keep == nil || keep(l) {
			kept = append(kept, l)
			files = append(files, l.File)
		}
	}
	got, took := dicedata.ReadEach(t, dir, files, func() func(image.Image) Result {
		o := opts
		return NewReader(&o).ReadImage
	})
	var tl Tally
	verbose := os.Getenv("VISION_MISREADS") != ""
	for i, l := range kept {
		tl.Add(l.Want, got[i], took[i])
		if verbose && got[i].Label() != l.Want.Label() {
			t.Logf("%s want %s got %s %.2f tilt %.0f", l.File, l.Want, got[i], got[i].Confidence, got[i].Tilt)
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

// checkValues holds the pip rules, on one source, to a read-rate (minRead)
// and a wrong-rate (maxWrong). The rules give the table a value only as
// the learned reader's witness, where the network leans to the same face
// (vision/learned): their finding power is what matters, and it is held a
// point or so under today's. Their wrong values alone are held loosely:
// guards that kept a few of them out were removed where, as a witness,
// they kept no wrong value out of the table's reading (docs/camera.md,
// "The pip rules, as a witness"); the table's own wrong-rate is held to
// the 0.2% bar in vision/learned.
func checkValues(t *testing.T, name string, tl *Tally, minRead, maxWrong float64) {
	t.Helper()
	t.Logf("%s: %s", name, tl.Summary())
	n, _, _ := tl.Values()
	if n == 0 {
		return
	}
	if tl.WrongRate() > maxWrong {
		t.Errorf("%s: wrong-rate %.2f%% > %.1f%%", name, 100*tl.WrongRate(), 100*maxWrong)
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
	checkValues(t, "tomitomi3_gray128", tl, 0.99, 0.002)
}

func isCrop(l Label) bool { return IsCrop(l.File) }

// The pip rules from the side read 98.7% of matteop65_wood's crops of dice
// ≥40 px (none wrong) and 97.0% of dice3_roboflow_v3's (2 of 199 wrong,
// 1.0%); of the smaller dice, 98.1% (0.1% wrong) and 55.4% (2 of 83, 2.4%).
func TestAccuracy_Matteop65_Crops(t *testing.T) {
	testCrops(t, "matteop65_wood", 0.98, 0.002, 0.005)
}

func TestAccuracy_Dice3_Crops(t *testing.T) {
	testCrops(t, "dice3_roboflow_v3", 0.96, 0.015, 0.05)
}

func testCrops(t *testing.T, source string, minRead, maxWrong, maxWrongSmall float64) {
	dir := needData(t, source)
	ls := loadLabels(t, dir)
	sizes := boxSizes(t, dir)
	opts := ObliqueOpts(DefaultOpts)
	big := evalLabels(t, dir, ls, opts, func(l Label) bool { return isCrop(l) && sizes[l.File] >= 40 && subset(l) })
	checkValues(t, source+" crops ≥40 px", big, minRead, maxWrong)
	small := evalLabels(t, dir, ls, opts, func(l Label) bool { return isCrop(l) && sizes[l.File] < 40 && subset(l) })
	checkValues(t, source+" crops <40 px", small, 0, maxWrongSmall)
}
