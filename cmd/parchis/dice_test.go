package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/learned"
	"github.com/parchis-table/parchis/vision/source"
	"github.com/parchis-table/parchis/vision/synth"
)

func writeDie(t *testing.T, dir, name string, face int) string {
	t.Helper()
	s := synth.Scene{W: 160, H: 160, Tray: synth.Trays[0], Seed: uint64(face)}
	s.Dice = []synth.Die{{Face: face, X: 80, Y: 80, Size: 64, Angle: 0.3, Body: synth.Palettes[0].Body, Pip: synth.Palettes[0].Pip}}
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, synth.Render(s)); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDiceRead_FilesAndStdin(t *testing.T) {
	dir := t.TempDir()
	a := writeDie(t, dir, "a.png", 3)
	b := writeDie(t, dir, "b.png", 6)
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
	}{
		{"args", []string{"read", a, b}, ""},
		{"stdin", []string{"read", "-"}, a + "\n" + b + "\n"},
		{"learned, named", []string{"read", "-learned", a, b}, ""},
	} {
		var out, errb bytes.Buffer
		code := runDice(tc.args, strings.NewReader(tc.stdin), &out, &errb)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, errb.String())
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], a+"\t3 ") || !strings.HasPrefix(lines[1], b+"\t6 ") {
			t.Errorf("%s: output %q", tc.name, out.String())
		}
	}
}

func TestDiceRead_MissingFile_Exit2(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runDice([]string{"read", "/nonexistent.png"}, nil, &out, &errb); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if !strings.Contains(errb.String(), "nonexistent") {
		t.Errorf("stderr %q", errb.String())
	}
}

func TestDice_BadUsage_Exit2(t *testing.T) {
	for _, args := range [][]string{nil, {"frobnicate"}, {"read"}, {"eval"}, {"read", "-nope"}} {
		var out, errb bytes.Buffer
		if code := runDice(args, strings.NewReader(""), &out, &errb); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	// the pip rules are no reader of their own any more: the flags that
	// chose them are named as unknown
	for _, flag := range []string{"-pips", "-oblique"} {
		var out, errb bytes.Buffer
		if code := runDice([]string{"read", flag, "a.png"}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), flag) {
			t.Errorf("%s: exit %d, stderr %q; want 2 naming the flag", flag, code, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := runDice([]string{"--help"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "Example") {
		t.Errorf("--help: exit %d, %q", code, out.String())
	}
}

func TestDiceEval_ConfusionAndRates(t *testing.T) {
	dir := t.TempDir()
	writeDie(t, dir, "a.png", 2)
	writeDie(t, dir, "b.png", 5)
	os.WriteFile(filepath.Join(dir, "labels.csv"), []byte("file,label\na.png,2\nb.png,5\n"), 0o644)
	var out, errb bytes.Buffer
	if code := runDice([]string{"eval", dir}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := out.String()
	for _, want := range []string{"true\\read", "read-rate 100.00% (2)", "wrong-rate 0.00% (0)", "ms/image"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	// In Spanish.
	setLang(t, "es_ES.UTF-8")
	out.Reset()
	if code := runDice([]string{"eval", dir}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"real\\leído", "tasa de lectura 100.00% (2)", "tasa de error 0.00% (0)", "ms/imagen"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("Spanish output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestDiceRead_UsesColour checks that dice read answers what the
// recogniser answers on the colour image, not on its grey: on photos of
// coloured dice the two differ (the pip rules, the second witness, read
// colour planes).
func TestDiceRead_UsesColour(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "data", "dice", "dice3_roboflow_v3", "crops")
	files, _ := filepath.Glob(filepath.Join(dir, "valid__*.png"))
	if len(files) == 0 {
		t.Skipf("labelled photos not found at %s", dir)
	}
	rd := learned.NewReader(nil)
	var out, errb bytes.Buffer
	if code := runDice(append([]string{"read"}, files...), nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(files) {
		t.Fatalf("%d lines for %d files", len(lines), len(files))
	}
	differ := 0
	for i, f := range files {
		img, err := source.DecodeImage(f)
		if err != nil {
			t.Fatal(err)
		}
		want := rd.ReadImage(img)
		if got := lines[i]; !strings.HasPrefix(got, f+"\t"+want.String()+" ") {
			t.Errorf("%s: dice read says %q, the recogniser %v", f, got, want)
		}
		if rd.Read(vision.Gray(img)).Answer != want.Answer {
			differ++
		}
	}
	if differ == 0 {
		t.Error("no photo reads differently in colour: the test cannot tell colour from grey")
	}
}

// TestDiceTeach_WritesAProfileThatReadUses teaches the learned reader two
// synthetic photos of each face, reads with the profile, and refuses a
// photo labelled with another face than it shows, naming it.
func TestDiceTeach_WritesAProfileThatReadUses(t *testing.T) {
	dir := t.TempDir()
	var csv strings.Builder
	csv.WriteString("file,label\n")
	for face := 1; face <= 6; face++ {
		for k := 0; k < 2; k++ {
			name := "f" + string(rune('0'+face)) + string(rune('a'+k)) + ".png"
			s := synth.Scene{W: 160, H: 160, Tray: synth.Trays[k], Seed: uint64(face*10 + k)}
			s.Dice = []synth.Die{{Face: face, X: 80 + float64(k*5), Y: 80, Size: 60 + float64(k*6), Angle: 0.3 + float64(k), Body: synth.Palettes[0].Body, Pip: synth.Palettes[0].Pip}}
			f, err := os.Create(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			png.Encode(f, synth.Render(s))
			f.Close()
			csv.WriteString(name + "," + string(rune('0'+face)) + "\n")
		}
	}
	labels := filepath.Join(dir, "labels.csv")
	os.WriteFile(labels, []byte(csv.String()), 0o644)
	profile := filepath.Join(dir, "venue.profile")
	var out, errb bytes.Buffer
	if code := runDice([]string{"teach", "-o", profile, labels}, nil, &out, &errb); code != 0 {
		t.Fatalf("teach: exit %d: %s", code, errb.String())
	}
	if _, err := learned.LoadProfile(profile, nil); err != nil {
		t.Fatalf("the profile written does not load: %v", err)
	}
	probe := writeDie(t, dir, "probe.png", 4)
	out.Reset()
	if code := runDice([]string{"read", "-profile", profile, probe}, nil, &out, &errb); code != 0 {
		t.Fatalf("read -profile: exit %d: %s", code, errb.String())
	}
	got := strings.Fields(out.String())[1]
	if got != "4" && got != "unsure" {
		t.Errorf("read -profile: %q, want the 4 (or unsure, never another value)", out.String())
	}

	// a photo of a 2 labelled 5
	bad := strings.Replace(csv.String(), "f2a.png,2", "f2a.png,5", 1)
	os.WriteFile(labels, []byte(bad), 0o644)
	errb.Reset()
	if code := runDice([]string{"teach", "-o", filepath.Join(dir, "bad.profile"), labels}, nil, &out, &errb); code != 2 {
		t.Errorf("teach with a wrong label: exit %d, want 2", code)
	}
	if !strings.Contains(errb.String(), "f2a.png") {
		t.Errorf("the refusal does not name the photo: %s", errb.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.profile")); err == nil {
		t.Error("a profile was written from photos that disagree")
	}
}
