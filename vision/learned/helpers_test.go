package learned

import (
	"github.com/parchis-table/parchis/vision/internal/dicedata"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/parchis-table/parchis/vision"
)

func needData(t testing.TB, source string) string { return dicedata.Dir(t, source) }

func loadLabels(t testing.TB, dir string) []vision.Label {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "labels.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ls, err := vision.ReadLabels(f)
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

func boxSizes(t testing.TB, dir string) map[string]float64 {
	t.Helper()
	m, err := vision.BoxSizes(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func isCrop(l vision.Label) bool { return vision.IsCrop(l.File) }

func decodeImage(t testing.TB, path string) image.Image { return dicedata.Decode(t, path) }

// evalLabels reads every label kept by keep and tallies the answers.
func evalLabels(t *testing.T, dir string, ls []vision.Label, opts Opts, keep func(vision.Label) bool) *vision.Tally {
	t.Helper()
	rd := NewReader(&opts)
	var tl vision.Tally
	for _, l := range ls {
		if keep != nil && !keep(l) {
			continue
		}
		img := decodeImage(t, filepath.Join(dir, l.File))
		t0 := time.Now()
		got := rd.ReadImage(img)
		tl.Add(l.Want, got, time.Since(t0))
	}
	return &tl
}

func atLeast(t *testing.T, name, what string, rate, bar float64) {
	t.Helper()
	if rate < bar {
		t.Errorf("%s: %s %.2f%% < %.0f%%", name, what, 100*rate, 100*bar)
	}
}
