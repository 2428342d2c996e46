package dicedata

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLabels_AppliesTheCorrectionsOnTheirLines(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "awsvegas_dice")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cs, err := Corrections()
	if err != nil {
		t.Fatal(err)
	}
	var in, want strings.Builder
	in.WriteString("file,label\r\n")
	want.WriteString("file,label\r\n")
	for i, c := range cs {
		if c.Source != "awsvegas_dice" {
			continue
		}
		extra := ""
		if i%2 == 1 {
			extra = ",kept"
		}
		in.WriteString("crops/other.png,2\r\n" + c.File + "," + c.Was + extra + "\r\n")
		want.WriteString("crops/other.png,2\r\n" + c.File + "," + c.Label + extra + "\r\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "labels.csv"), []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Labels(dir)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want.String() {
		t.Errorf("Labels:\n%s\nwant\n%s", got, want.String())
	}
}

func TestLabels_RefusesACorrectionThatNoLongerFits(t *testing.T) {
	cs, err := Corrections()
	if err != nil || len(cs) == 0 {
		t.Fatalf("corrections: %v, %d rows", err, len(cs))
	}
	c := cs[0]
	dir := filepath.Join(t.TempDir(), c.Source)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"relabelled": "file,label\n" + c.File + "," + c.Label + "\n",
		"missing":    "file,label\ncrops/other.png,2\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, "labels.csv"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Labels(dir)
		if err == nil || !strings.Contains(err.Error(), c.File) {
			t.Errorf("%s: err = %v, want one naming %s", name, err, c.File)
		}
	}
}

// TestCorrections_FitTheSharedPhotos checks every correction against the
// photos beside the repository: the row is there with the label it
// corrects.
func TestCorrections_FitTheSharedPhotos(t *testing.T) {
	cs, err := Corrections()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range cs {
		if seen[c.Source] {
			continue
		}
		seen[c.Source] = true
		if _, err := Labels(Dir(t, c.Source)); err != nil {
			t.Error(err)
		}
	}
}
