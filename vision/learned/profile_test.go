package learned

import (
	"bytes"
	"github.com/parchis-table/parchis/vision"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// teachSet returns n labelled crops ≥40 px of each face of a source, in
// file order, and the rest of its crops ≥40 px.
func teachSet(t *testing.T, source string, n int) (teach []TeachPhoto, rest []vision.Label, dir string) {
	t.Helper()
	dir = needData(t, source)
	sizes := boxSizes(t, dir)
	ls := loadLabels(t, dir)
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].File < ls[j].File })
	var per [7]int
	for _, l := range ls {
		s, boxed := sizes[l.File]
		if !isCrop(l) || l.Want.Answer != vision.Value || (boxed && s < 40) {
			continue
		}
		if per[l.Want.Value] < n {
			per[l.Want.Value]++
			teach = append(teach, TeachPhoto{Name: l.File, Image: decodeImage(t, filepath.Join(dir, l.File)), Face: l.Want.Value})
			continue
		}
		rest = append(rest, l)
	}
	return teach, rest, dir
}

func TestTeach_ProfileReadsTheVenuesDice(t *testing.T) {
	teach, rest, dir := teachSet(t, "skovy_catan_webcam", 2)
	p, err := Teach(nil, teach)
	if err != nil {
		t.Fatal(err)
	}
	for k, n := range p.Photos {
		if n != 2 {
			t.Errorf("face %d: %d photos, want 2", k+1, n)
		}
	}
	// the profile round-trips through its file
	var buf bytes.Buffer
	if err := p.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	p2, err := ReadProfile(&buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	plain := evalLabels(t, dir, rest, DefaultOpts, nil)
	taught := evalLabels(t, dir, rest, Opts{Profile: p2}, nil)
	t.Logf("skovy crops not taught, without the profile: %s", plain.Summary())
	t.Logf("skovy crops not taught, with a profile of 12 photos: %s", taught.Summary())
	if taught.WrongRate() > 0.002 {
		t.Errorf("with the profile, wrong-rate %.2f%% > 0.2%%", 100*taught.WrongRate())
	}
	if taught.ReadRate() < plain.ReadRate()-0.01 {
		t.Errorf("the profile lowered the read-rate from %.1f%% to %.1f%%", 100*plain.ReadRate(), 100*taught.ReadRate())
	}
}

func TestTeach_RefusesDisagreeingPhotos(t *testing.T) {
	teach, _, _ := teachSet(t, "matteop65_wood", 3)
	// a "5" that shows a 2
	var bad string
	for i := range teach {
		if teach[i].Face == 2 {
			bad = teach[i].Name
			teach[i].Face = 5
			break
		}
	}
	_, err := Teach(nil, teach)
	if err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("a photo of a 2 labelled 5: err %v, want one naming %s", err, bad)
	}
	t.Logf("refused: %v", err)
}

func TestTeach_Errors(t *testing.T) {
	teach, _, _ := teachSet(t, "matteop65_wood", 1)
	if _, err := Teach(nil, teach[:5]); err == nil || !strings.Contains(err.Error(), "no photo of face") {
		t.Errorf("five faces taught: %v, want the missing face named", err)
	}
	if _, err := ReadProfile(strings.NewReader(`{"model":"0123","faces":[],"photos":[1,1,1,1,1,1]}`), nil); err == nil || !strings.Contains(err.Error(), "not with this one") {
		t.Errorf("a profile of another model: %v", err)
	}
	if _, err := ReadProfile(strings.NewReader(`{"model":`), nil); err == nil {
		t.Error("a truncated profile was read")
	}
}

func FuzzReadProfile(f *testing.F) {
	f.Add([]byte(`{"model":"x","faces":[[1],[1],[1],[1],[1],[1]],"photos":[1,1,1,1,1,1]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ReadProfile(bytes.NewReader(b), nil)
		if err == nil && p.Model != DefaultModel().sum {
			t.Errorf("a profile of model %q was accepted", p.Model)
		}
	})
}
