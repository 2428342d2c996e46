package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/internal/dicedata"
	"github.com/parchis-table/parchis/vision/learned"
)

// TestHoldBar_RaisesTheThresholdOverAConfidentWrongValue gives holdBar a
// source of real photos of one die, one of them labelled with a face it
// does not show: read with full confidence, it is one wrong value in a
// few, far over the bar, and the threshold must rise over its confidence;
// with every label right, the threshold stays where validation put it.
// The second witness (the pip rules) reads the 1 as well: no threshold
// drops that wrong value, which the figures returned must keep.
func TestHoldBar_RaisesTheThresholdOverAConfidentWrongValue(t *testing.T) {
	src := dicedata.Dir(t, "tomitomi3_gray128")
	files := []string{"images/1/00000.png", "images/2/00000.png", "images/3/00000.png", "images/4/00000.png", "images/5/00000.png", "images/6/00000.png"}
	rd := learned.NewReader(&learned.Opts{MinConfidence: 1e-9, NetworkOnly: true})
	var conf float64
	for i, f := range files {
		r := rd.ReadImage(dicedata.Decode(t, filepath.Join(src, f)))
		if r.Answer != vision.Value || r.Value != i+1 {
			t.Fatalf("%s read %v, want %d", f, r, i+1)
		}
		if i == 0 {
			conf = r.Confidence
		}
	}
	for _, tc := range []struct {
		name    string
		first   int // the label given to the photo of a 1
		witness bool
		above   bool
		wrong   float64
	}{
		{"labelled right", 1, false, false, 0},
		{"a 1 labelled 6", 6, false, true, 0},
		{"labelled right, with the witness", 1, true, false, 0},
		{"a 1 labelled 6, with the witness", 6, true, true, 1.0 / 6},
	} {
		data := t.TempDir()
		dir := filepath.Join(data, "photos")
		labels := "file,label\n"
		for i, f := range files {
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(src, f), filepath.Join(dir, f)); err != nil {
				t.Fatal(err)
			}
			face := i + 1
			if i == 0 {
				face = tc.first
			}
			labels += fmt.Sprintf("%s,%d\n", f, face)
		}
		if err := os.WriteFile(filepath.Join(dir, "labels.csv"), []byte(labels), 0o644); err != nil {
			t.Fatal(err)
		}
		const validation = 0.5
		thr, rates, err := holdBar(data, []string{"photos"}, learned.Opts{NetworkOnly: !tc.witness}, validation)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tc.above && thr <= conf:
			t.Errorf("%s: threshold %v, want over %v (the wrong value's confidence)", tc.name, thr, conf)
		case !tc.above && thr != validation:
			t.Errorf("%s: threshold %v, want %v (validation's)", tc.name, thr, validation)
		}
		if rates["photos"] != tc.wrong {
			t.Errorf("%s: wrong-rate %v, want %v", tc.name, rates["photos"], tc.wrong)
		}
	}
}
