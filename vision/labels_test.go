package vision

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadLabels_ParsesAndReportsEveryBadLine(t *testing.T) {
	in := "file,label\na.png,3\n\n# comment\nb.png,multi,extra\nc.png,7\n,1\nd.png\ne.png,none\r\n"
	ls, err := ReadLabels(strings.NewReader(in))
	if len(ls) != 3 || ls[0].File != "a.png" || ls[0].Want.Value != 3 || ls[1].Want.Answer != Multi || ls[2].Want.Answer != None {
		t.Errorf("labels %+v", ls)
	}
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"line 6", "line 7", "line 8"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestParseLabel_RoundTrip(t *testing.T) {
	for _, s := range []string{"1", "2", "3", "4", "5", "6", "none", "multi", "edge", "unsure"} {
		r, err := ParseLabel(s)
		if err != nil || r.Label() != s {
			t.Errorf("%q: %v %v", s, r, err)
		}
	}
	if _, err := ParseLabel("0"); err == nil {
		t.Error("0 accepted")
	}
}

func FuzzReadLabels(f *testing.F) {
	f.Add("file,label\na.png,3\nb.png,multi\n")
	f.Add("a,b,c\n\n#x\n,\n")
	f.Fuzz(func(t *testing.T, in string) {
		ls, _ := ReadLabels(strings.NewReader(in))
		for _, l := range ls {
			if l.File == "" || l.Line <= 0 {
				t.Fatalf("bad label %+v", l)
			}
			if _, err := ParseLabel(l.Want.Label()); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// BoxSizes and CropFrames read a folder's annotations.csv: the smallest
// die of each frame and crop, and each crop's frame; a missing column is
// an error naming it.
func TestAnnotations(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "annotations.csv"), []byte("frame,split,die,label,xmin,ymin,xmax,ymax,crop\n"+
		"frames/a.jpg,Train,0,1,10,10,60,50,crops/a_d00.png\n"+
		"frames/a.jpg,Train,1,2,100,100,130,140,crops/a_d01.png\n"+
		"frames/b.jpg,Train,,none,,,,,\n"), 0o644)
	sizes, err := BoxSizes(dir)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]float64{"frames/a.jpg": 30, "crops/a_d00.png": 40, "crops/a_d01.png": 30} {
		if sizes[k] != want {
			t.Errorf("BoxSizes[%s] = %g, want %g", k, sizes[k], want)
		}
	}
	frames, err := CropFrames(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != 2 || frames["crops/a_d01.png"] != "frames/a.jpg" {
		t.Errorf("CropFrames = %v", frames)
	}
	os.WriteFile(filepath.Join(dir, "annotations.csv"), []byte("frame,xmin\nframes/a.jpg,1\n"), 0o644)
	if _, err := BoxSizes(dir); err == nil || !strings.Contains(err.Error(), `no column "crop"`) {
		t.Errorf("BoxSizes without a crop column: %v", err)
	}
}
