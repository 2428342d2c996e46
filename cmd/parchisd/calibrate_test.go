package main

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/source"
	"github.com/parchis-table/parchis/vision/synth"
)

// trayFrames renders a tray on a lighter table, empty and with one die of
// size px lying flat in its middle, as PNG files.
func trayFrames(t *testing.T, dir string, size float64) (empty, withDie string) {
	t.Helper()
	s := synth.Scene{W: 320, H: 240, Tray: synth.Trays[0], Seed: 3, Noise: 2}
	write := func(name string, sc synth.Scene) string {
		g := vision.Gray(synth.Render(sc))
		for y := 0; y < 240; y++ {
			for x := 0; x < 320; x++ {
				if x < 40 || x >= 280 || y < 24 || y >= 216 {
					g.Pix[y*g.Stride+x] = 230
				}
			}
		}
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, g); err != nil {
			t.Fatal(err)
		}
		return path
	}
	empty = write("1-empty.png", s)
	s.Dice = []synth.Die{{Face: 5, X: 160, Y: 120, Size: size, Angle: 0.4, Body: synth.Palettes[0].Body, Pip: synth.Palettes[0].Pip}}
	return empty, write("2-die.png", s)
}

func TestCalibrate_FromImagesAndFromCamera(t *testing.T) {
	dir := t.TempDir()
	empty, die := trayFrames(t, dir, 64)
	check := func(how string, yamlText []byte, stderr string) {
		t.Helper()
		c, err := vision.ReadCalibrationYAML(bytes.NewReader(yamlText))
		if err != nil {
			t.Fatalf("%s: %v\n%s", how, err, yamlText)
		}
		if c.Tray.Rectangle() != image.Rect(40, 24, 280, 216) || c.DieSize < 55 || c.DieSize > 95 {
			t.Errorf("%s: tray %v, die %.0f px", how, c.Tray.Rectangle(), c.DieSize)
		}
		if !strings.Contains(stderr, "die ") {
			t.Errorf("%s: no summary: %s", how, stderr)
		}
	}
	var out, errb bytes.Buffer
	if st := run([]string{"calibrate", "-empty", empty, "-die", die}, nil, &out, &errb); st != exitOK {
		t.Fatalf("from images: exit %d: %s", st, errb.String())
	}
	check("from images", out.Bytes(), errb.String())

	// From the configuration's camera: a folder of frames stands for it.
	cfg := filepath.Join(dir, "parchisd.yaml")
	os.WriteFile(cfg, []byte("camera:\n  source: files\n  dir: "+dir+"\n"), 0o644)
	outFile := filepath.Join(dir, "camera.yaml")
	out.Reset()
	errb.Reset()
	if st := run([]string{"calibrate", "-config", cfg, "-teach=false", "-o", outFile}, strings.NewReader("\n"), &out, &errb); st != exitOK {
		t.Fatalf("from the camera: exit %d: %s", st, errb.String())
	}
	written, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	check("from the camera", written, errb.String())
	if !strings.Contains(errb.String(), "press Enter") {
		t.Errorf("no prompt: %s", errb.String())
	}
}

func TestCalibrate_Errors(t *testing.T) {
	dir := t.TempDir()
	empty, _ := trayFrames(t, dir, 64)
	cases := []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"calibrate"}, exitUsage, "want -config FILE"},
		{[]string{"calibrate", "-empty", empty}, exitUsage, "want -config FILE"},
		{[]string{"calibrate", "-empty", empty, "-die", filepath.Join(dir, "none.png")}, exitUsage, "none.png"},
		{[]string{"calibrate", "-empty", empty, "-die", empty}, exitFail, "no die found"},
	}
	for _, tc := range cases {
		var out, errb bytes.Buffer
		if st := run(tc.args, nil, &out, &errb); st != tc.status || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tc.args, st, errb.String(), tc.status, tc.want)
		}
	}
}

// TestCalibrate_TeachesTheDice runs the guided step: after the empty tray
// and the die, each face twice from the camera; the profile is written
// beside the calibration, with the empty tray's image, and both load.
func TestCalibrate_TeachesTheDice(t *testing.T) {
	dir := t.TempDir()
	frames := filepath.Join(dir, "frames")
	os.Mkdir(frames, 0o755)
	empty, die := trayFrames(t, frames, 64)
	_, _ = empty, die
	for face := 1; face <= 6; face++ {
		for k := 0; k < 2; k++ {
			s := synth.Scene{W: 320, H: 240, Tray: synth.Trays[0], Seed: uint64(10*face + k), Noise: 2}
			s.Dice = []synth.Die{{Face: face, X: 150 + float64(20*k), Y: 110 + float64(10*k), Size: 64, Angle: 0.5 * float64(face+k),
				Body: synth.Palettes[0].Body, Pip: synth.Palettes[0].Pip}}
			f, err := os.Create(filepath.Join(frames, fmt.Sprintf("3-face-%d-%d.png", face, k)))
			if err != nil {
				t.Fatal(err)
			}
			png.Encode(f, vision.Gray(synth.Render(s)))
			f.Close()
		}
	}
	cfg := filepath.Join(dir, "parchisd.yaml")
	os.WriteFile(cfg, []byte("camera:\n  source: files\n  dir: "+frames+"\n"), 0o644)
	outFile := filepath.Join(dir, "camera.yaml")
	var out, errb bytes.Buffer
	if st := run([]string{"calibrate", "-config", cfg, "-o", outFile}, strings.NewReader(strings.Repeat("\n", 13)), &out, &errb); st != exitOK {
		t.Fatalf("exit %d: %s", st, errb.String())
	}
	for _, want := range []string{"throw each face twice", "show face 6 (2 of 2)", "dice.profile"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("the guided step does not say %q:\n%s", want, errb.String())
		}
	}
	written, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	c, err := vision.ReadCalibrationYAML(bytes.NewReader(written))
	if err != nil {
		t.Fatal(err)
	}
	if bg, err := c.LoadBackground(dir, source.DecodeImage); err != nil || bg == nil {
		t.Errorf("the empty tray's image: %v", err)
	}
	if _, err := vision.LoadProfile(filepath.Join(dir, "dice.profile"), nil); err != nil {
		t.Errorf("the profile: %v", err)
	}
	// the daemon takes all three from its configuration
	os.WriteFile(cfg, []byte("camera:\n  calibration: "+outFile+"\n  profile: "+filepath.Join(dir, "dice.profile")+"\n"), 0o644)
	dc, err := loadConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ro, err := readerOpts(dc)
	if err != nil {
		t.Fatal(err)
	}
	if ro.Profile == nil || ro.Background == nil || ro.DieSize == 0 {
		t.Errorf("reader options from the configuration: %+v", ro)
	}
	// a profile file that is not one stops the daemon, naming it
	os.WriteFile(filepath.Join(dir, "dice.profile"), []byte("{"), 0o644)
	if _, err := readerOpts(dc); err == nil || !strings.Contains(err.Error(), "camera.profile") {
		t.Errorf("a broken profile: %v", err)
	}
}
