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

	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/learned"
	"github.com/parchis-table/parchis/vision/source"
	"github.com/parchis-table/parchis/vision/synth"
)

// trayFrames renders a tray on a lighter table, empty and with one die of
// size px lying flat in its middle, as PNG files.
func trayFrames(t *testing.T, dir string, size float64) (empty, withDie string) {
	t.Helper()
	empty = trayFrame(t, dir, "1-empty.png", nil)
	return empty, trayFrame(t, dir, "2-die.png", &synth.Die{Face: 5, X: 160, Y: 120, Size: size, Angle: 0.4, Body: synth.Palettes[0].Body, Pip: synth.Palettes[0].Pip})
}

// trayFrame renders the tray of trayFrames with die in it (nil: empty),
// as the PNG file name in dir.
func trayFrame(t *testing.T, dir, name string, die *synth.Die) string {
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
	if die != nil {
		s.Dice = []synth.Die{*die}
	}
	return write(name, s)
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

// The guided teach step: each face thrown twice, in the tray the camera
// sees, makes a profile beside the calibration, and the empty tray's frame
// is kept for the learned reader; a throw that shows another face than
// the one asked for is refused by name.
func TestCalibrate_TeachEachFaceTwice(t *testing.T) {
	for _, tc := range []struct {
		name  string
		wrong bool // the second throw of 5 shows a 2
	}{{"each face as asked", false}, {"a 5 that shows a 2", true}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			frames := filepath.Join(dir, "frames")
			os.Mkdir(frames, 0o755)
			trayFrames(t, frames, 64)
			for face := 1; face <= 6; face++ {
				for k := 1; k <= 2; k++ {
					shown := face
					if tc.wrong && face == 5 && k == 2 {
						shown = 2
					}
					p := synth.Palettes[0]
					die := synth.Die{Face: shown, X: 150 + 12*float64(k), Y: 110 + 5*float64(face), Size: 64, Angle: 0.3*float64(face) + 0.5*float64(k), Body: p.Body, Pip: p.Pip}
					trayFrame(t, frames, fmt.Sprintf("3-face%d-%d.png", face, k), &die)
				}
			}
			cfg := filepath.Join(dir, "parchisd.yaml")
			os.WriteFile(cfg, []byte("camera:\n  source: files\n  dir: "+frames+"\n"), 0o644)
			outFile := filepath.Join(dir, "camera.yaml")
			var out, errb bytes.Buffer
			st := run([]string{"calibrate", "-config", cfg, "-o", outFile, "-teach"}, strings.NewReader(strings.Repeat("\n", 13)), &out, &errb)
			profile := filepath.Join(dir, "camera-dice.json")
			if tc.wrong {
				if st != exitFail || !strings.Contains(errb.String(), "face 5, throw 2") {
					t.Fatalf("exit %d, want %d and an error naming face 5, throw 2:\n%s", st, exitFail, errb.String())
				}
				if _, err := os.Stat(profile); err == nil {
					t.Error("a profile was written from a wrong photo")
				}
				return
			}
			if st != exitOK {
				t.Fatalf("exit %d: %s", st, errb.String())
			}
			for face := 1; face <= 6; face++ {
				if !strings.Contains(errb.String(), fmt.Sprintf("show %d on top", face)) {
					t.Errorf("no prompt for face %d:\n%s", face, errb.String())
				}
			}
			p, err := learned.LoadProfile(profile, nil)
			if err != nil {
				t.Fatal(err)
			}
			if p.Photos != [6]int{2, 2, 2, 2, 2, 2} {
				t.Errorf("profile taught %v photos a face, want 2 each", p.Photos)
			}
			// the calibration names the empty tray's frame, which the
			// daemon's reader then loads
			cal, bg, err := loadCalibration(outFile)
			if err != nil || cal.Background != filepath.Join(dir, "camera-empty.png") || bg == nil || bg.Bounds().Dx() != 320 {
				t.Fatalf("calibration %+v, background %v: %v", cal, bg, err)
			}
			c := config.DefaultDaemon().Camera
			c.Reader, c.Calibration, c.Profile = "learned", outFile, profile
			rd, err := cameraReader(c)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := rd.(*learned.Reader); !ok || rd.DieSize() != cal.DieSize {
				t.Errorf("reader %T with die size %.0f, want the learned one at %.0f", rd, rd.DieSize(), cal.DieSize)
			}
			// the taught throws read with the profile: never a wrong
			// value, at least as many right as with the model alone, and
			// surer (the committed model reads these renders of a white
			// die on green felt under its threshold: none of the 12 is
			// given a value, with the profile or without)
			c.Profile = ""
			bare, err := cameraReader(c)
			if err != nil {
				t.Fatal(err)
			}
			right, rightBare := 0, 0
			conf, confBare := 0.0, 0.0
			for face := 1; face <= 6; face++ {
				for k := 1; k <= 2; k++ {
					g, err := source.ReadImage(filepath.Join(frames, fmt.Sprintf("3-face%d-%d.png", face, k)))
					if err != nil {
						t.Fatal(err)
					}
					r, rb := rd.Read(g), bare.Read(g)
					conf += r.Confidence
					confBare += rb.Confidence
					if r.Answer == vision.Value && r.Value != face {
						t.Errorf("a taught %d reads %v", face, r)
					}
					if r.Answer == vision.Value && r.Value == face {
						right++
					}
					if rb.Answer == vision.Value && rb.Value == face {
						rightBare++
					}
				}
			}
			t.Logf("taught throws read right: %d of 12 with the profile, %d without; mean confidence %.3f and %.3f", right, rightBare, conf/12, confBare/12)
			if right < rightBare || conf <= confBare {
				t.Errorf("taught throws read right: %d of 12 with the profile, %d without; mean confidence %.3f and %.3f", right, rightBare, conf/12, confBare/12)
			}
			if r := rd.Read(vision.Gray(bg)); r.Answer != vision.None {
				t.Errorf("the empty tray reads %v", r)
			}
		})
	}
}

func TestCalibrate_TeachNeedsCameraAndOutput(t *testing.T) {
	dir := t.TempDir()
	empty, die := trayFrames(t, dir, 64)
	var out, errb bytes.Buffer
	if st := run([]string{"calibrate", "-empty", empty, "-die", die, "-teach"}, nil, &out, &errb); st != exitUsage || !strings.Contains(errb.String(), "-teach needs -config") {
		t.Errorf("exit %d, %q", st, errb.String())
	}
}
