package vision

import (
	"bytes"
	"errors"
	"image"
	"testing"

	"github.com/parchis-table/parchis/vision/synth"
)

func TestCalibrate_FindsTrayAndDieSize(t *testing.T) {
	s := synth.Scene{W: 320, H: 240, Tray: synth.Trays[0], Seed: 3}
	s.Noise = 2
	// a darker border round the tray: the table
	empty := Gray(synth.Render(s))
	for y := 0; y < 240; y++ {
		for x := 0; x < 320; x++ {
			if x < 40 || x >= 280 || y < 24 || y >= 216 {
				empty.Pix[y*empty.Stride+x] = 230
			}
		}
	}
	s.Dice = []synth.Die{{Face: 5, X: 160, Y: 120, Size: 64, Angle: 0.4, Body: synth.Palettes[0].Body, Pip: synth.Palettes[0].Pip}}
	with := Gray(synth.Render(s))
	for y := 0; y < 240; y++ {
		for x := 0; x < 320; x++ {
			if x < 40 || x >= 280 || y < 24 || y >= 216 {
				with.Pix[y*with.Stride+x] = 230
			}
		}
	}
	c, err := Calibrate(empty, with)
	if err != nil {
		t.Fatal(err)
	}
	if tr := c.Tray.Rectangle(); tr != image.Rect(40, 24, 280, 216) {
		t.Errorf("tray %v, want (40,24)-(280,216)", tr)
	}
	if c.DieSize < 55 || c.DieSize > 95 {
		t.Errorf("die size %.0f px, want about 64 (up to the rotated box)", c.DieSize)
	}
	var b bytes.Buffer
	if err := c.WriteYAML(&b); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCalibrationYAML(&b)
	if err != nil {
		t.Fatal(err)
	}
	if back != c {
		t.Errorf("YAML round trip: %+v, want %+v\n%s", back, c, b.String())
	}
	// the calibrated reader still reads the die
	o := DefaultOpts
	o.Tray, o.DieSize = c.Tray.Rectangle(), c.DieSize
	if got := NewReader(&o).Read(with); got.Answer != Value || got.Value != 5 {
		t.Errorf("calibrated read %v, want 5", got)
	}
}

func TestCalibrate_NoDie_Error(t *testing.T) {
	s := synth.Scene{W: 160, H: 120, Tray: synth.Trays[1]}
	g := Gray(synth.Render(s))
	if _, err := Calibrate(g, g); !errors.Is(err, ErrNoDie) {
		t.Fatalf("got %v, want ErrNoDie", err)
	}
}
