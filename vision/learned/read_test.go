package learned

import (
	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/internal/dicedata"
	"image"
	"image/draw"
	"testing"

	"github.com/parchis-table/parchis/vision/synth"
)

// TestRead_DieCutByTheBorder_Unsure reads a die half out of the frame, as
// the table does (the die's size from the calibration): its hidden pips
// could make it any face.
func TestRead_DieCutByTheBorder_Unsure(t *testing.T) {
	bad := 0
	for seed := uint64(0); seed < 30; seed++ {
		s := synth.RandomScene(seed, 200, 160, synth.Flat, 60, 70)
		s.Dice[0].X = 6 + float64(seed%3)*4 // the die's middle near the left border
		got := NewReader(&Opts{DieSize: s.Dice[0].Size}).ReadImage(synth.Render(s))
		if got.Answer == vision.Value {
			bad++
			t.Errorf("seed %d: a die cut by the border read %v", seed, got)
		}
	}
	if bad > 0 {
		t.Errorf("%d of 30 cut dice given a value", bad)
	}
}

// TestRead_Background_PrintedDieIsNoDie prints a die on the tray: with the
// empty tray as the background, the print is no die, while a real die
// thrown beside it is read.
func TestRead_Background_PrintedDieIsNoDie(t *testing.T) {
	printed := synth.RandomScene(5, 320, 240, synth.Flat, 60, 60)
	printed.Dice[0].X, printed.Dice[0].Y = 80, 120
	printed.Noise = 0
	empty := synth.Render(printed) // the tray with the print on it
	opts := Opts{Background: empty}
	if got := NewReader(&opts).ReadImage(empty); got.Answer != vision.None {
		t.Errorf("the empty tray with a printed die, read against itself: %v, want none", got)
	}
	if got := NewReader(nil).ReadImage(empty); got.Answer == vision.None {
		t.Logf("without the background the print reads %v", got)
	}
	// a die thrown beside the print
	die := synth.RandomScene(6, 120, 120, synth.Flat, 60, 60)
	dimg := synth.Render(die)
	frame := image.NewRGBA(empty.Bounds())
	draw.Draw(frame, frame.Rect, empty, image.Point{}, draw.Src)
	draw.Draw(frame, image.Rect(180, 60, 300, 180), dimg, image.Point{}, draw.Src)
	got := NewReader(&opts).ReadImage(frame)
	if got.Answer == vision.Multi {
		t.Errorf("a die beside the print read multi: the print counted as a die")
	}
	if got.Answer == vision.Value && got.Value != die.Dice[0].Face {
		t.Errorf("the thrown die (%d) read %v", die.Dice[0].Face, got)
	}
}

// TestRead_AnyView reads flat dice of the wide renders (any colours, gloss,
// textured trays and cups, the camera up to 50° from straight down), none
// of them a frame the model was trained on: no wrong value. The read-rate
// is held at what the committed reader reaches (65%), a floor against
// regressions (the model before read 8.7% at a threshold of 0.9990, set
// by a validation photo whose label the photo proves wrong: see
// vision/internal/dicedata/corrections.csv).
func TestRead_AnyView(t *testing.T) {
	rd := NewReader(nil)
	var tl vision.Tally
	for seed := uint64(900000); seed < 900150; seed++ {
		s := synth.WideScene(seed, 160, 160, synth.Flat, 1, 50, 80)
		if len(s.Dice) != 1 {
			continue
		}
		got := rd.ReadImage(synth.Render(s))
		tl.Add(vision.Result{Answer: vision.Value, Value: s.Dice[0].Face}, got, 0)
		if got.Answer == vision.Value && got.Value != s.Dice[0].Face {
			t.Errorf("seed %d (view %.0f°): face %d read %v", seed, s.View, s.Dice[0].Face, got)
		}
	}
	t.Logf("wide renders: %s", tl.Summary())
	atLeast(t, "wide renders", "read-rate", tl.ReadRate(), 0.64)
}

// TestRead_LabelledPhotos reads the crops of dice ≥40 px (the size the
// table's camera is set up for, docs/camera.md) of every source of
// ../shared/data/dice: the learned reader gives a wrong value to at most
// 0.2% of any source's dice, and reads at least the committed reader's
// share (readFloor; the bars the table aims at are 99% on
// tomitomi3_gray128 and 97% elsewhere). vision/train/REPORT.md has every
// figure, smaller dice included. The labels are read as corrected where
// the photo proves them wrong (vision/internal/dicedata/corrections.csv).
func TestRead_LabelledPhotos(t *testing.T) {
	for _, source := range []string{"tomitomi3_gray128", "matteop65_wood", "dice3_roboflow_v3", "awsvegas_dice", "skovy_catan_webcam", "banachowicz_rpgsets"} {
		dir := needData(t, source)
		sizes, _ := vision.BoxSizes(dir) // a source without boxes has only crops
		ls := loadLabels(t, dir)
		// crops without a box (tomitomi3's images, skovy's own crops) are
		// dice of 50 px and more
		var crops []vision.Label
		var files []string
		for _, l := range ls {
			if s, boxed := sizes[l.File]; isCrop(l) && (!boxed || s >= 40) {
				crops = append(crops, l)
				files = append(files, l.File)
			}
		}
		got, took := dicedata.ReadEach(t, dir, files, func() func(image.Image) vision.Result {
			return NewReader(nil).ReadImage
		})
		var big vision.Tally
		for i, l := range crops {
			big.Add(l.Want, got[i], took[i])
		}
		t.Logf("%s crops ≥40 px: %s", source, big.Summary())
		if big.WrongRate() > 0.002 {
			t.Errorf("%s crops ≥40 px: wrong-rate %.2f%% > 0.2%%", source, 100*big.WrongRate())
		}
		atLeast(t, source+" crops ≥40 px", "read-rate", big.ReadRate(), readFloor[source])
	}
}

// TestRead_CupOfDice_Multi reads photos of a cup of several dice (about
// 50 px each) that the detector, at a coarse scale, takes for one big die
// it cannot read, outscoring the dice in it: they are Multi (see group).
func TestRead_CupOfDice_Multi(t *testing.T) {
	dir := needData(t, "awsvegas_dice")
	for _, f := range []string{"frames/IMG_20191112_111556.jpg", "frames/IMG_20191112_111604.jpg", "frames/IMG_20191112_111621.jpg"} {
		rd := NewReader(nil)
		got := rd.ReadImage(decodeImage(t, dir+"/"+f))
		if got.Answer != vision.Multi {
			t.Errorf("%s: %v, want multi", f, got)
		}
		if len(rd.dets) == 0 || rd.dets[0].side < 150 {
			t.Errorf("%s: the best candidate is not the cup (over 150 px): %+v", f, rd.dets)
		}
	}
}
