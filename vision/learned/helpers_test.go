package learned

import (
	"bytes"
	"github.com/parchis-table/parchis/vision/internal/dicedata"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"testing"

	"github.com/parchis-table/parchis/vision"
)

// sources are the labelled sources of ../shared/data/dice.
var sources = []string{"tomitomi3_gray128", "matteop65_wood", "dice3_roboflow_v3", "awsvegas_dice", "skovy_catan_webcam", "banachowicz_rpgsets"}

func needData(t testing.TB, source string) string { return dicedata.Dir(t, source) }

func loadLabels(t testing.TB, dir string) []vision.Label {
	t.Helper()
	b, err := dicedata.Labels(dir)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := vision.ReadLabels(bytes.NewReader(b))
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
	var kept []vision.Label
	var files []string
	for _, l := range ls {
		if keep == nil || keep(l) {
			kept = append(kept, l)
			files = append(files, l.File)
		}
	}
	got, took := dicedata.ReadEach(t, dir, files, func() func(image.Image) vision.Result {
		o := opts
		return NewReader(&o).ReadImage
	})
	var tl vision.Tally
	for i, l := range kept {
		tl.Add(l.Want, got[i], took[i])
	}
	return &tl
}

func atLeast(t *testing.T, name, what string, rate, bar float64) {
	t.Helper()
	if rate < bar {
		t.Errorf("%s: %s %.2f%% < %.0f%%", name, what, 100*rate, 100*bar)
	}
}
