package main

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/vision"
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
	if st := run([]string{"calibrate", "-config", cfg, "-o", outFile}, strings.NewReader("\n"), &out, &errb); st != exitOK {
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
