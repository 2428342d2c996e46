package learned

import (
	"image"
	"image/draw"
	"math"
	"testing"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/internal/dicedata"
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
	for _, source := range sources {
		dir := needData(t, source)
		sizes, _ := vision.BoxSizes(dir) // a source without boxes has only crops
		ls := loadLabels(t, dir)
		// crops without a box (tomitomi3's images, skovy's own crops) are
		// dice of 50 px and more
		big := readTally(t, dir, ls, func(l vision.Label) bool {
			s, boxed := sizes[l.File]
			return isCrop(l) && (!boxed || s >= 40)
		})
		t.Logf("%s crops ≥40 px: %s", source, big.Summary())
		if big.WrongRate() > 0.002 {
			t.Errorf("%s crops ≥40 px: wrong-rate %.2f%% > 0.2%%", source, 100*big.WrongRate())
		}
		atLeast(t, source+" crops ≥40 px", "read-rate", big.ReadRate(), readFloor[source])
	}
}

// TestRead_LabelledFrames reads the whole frames of every source that has
// them: a frame of one die gets a wrong value for at most 0.2% of them,
// and a frame of several dice ≥40 px is Multi for at least 95% of them.
func TestRead_LabelledFrames(t *testing.T) {
	for _, source := range sources {
		dir := needData(t, source)
		sizes, err := vision.BoxSizes(dir)
		if err != nil {
			continue // a source of crops only
		}
		tl := readTally(t, dir, loadLabels(t, dir), func(l vision.Label) bool {
			return !isCrop(l) && (l.Want.Answer == vision.Value || l.Want.Answer == vision.Multi && sizes[l.File] >= 40)
		})
		t.Logf("%s frames (one die, and several ≥40 px): %s", source, tl.Summary())
		if tl.WrongRate() > 0.002 {
			t.Errorf("%s frames of one die: wrong-rate %.2f%% > 0.2%%", source, 100*tl.WrongRate())
		}
		if tl.Total("multi") > 0 {
			atLeast(t, source+" frames of several dice ≥40 px", "multi", tl.Rate("multi"), 0.95)
		}
	}
}

// readTally reads the images of dir labelled ls that keep keeps with the
// committed reader, and tallies the answers.
func readTally(t *testing.T, dir string, ls []vision.Label, keep func(vision.Label) bool) *vision.Tally {
	t.Helper()
	var kept []vision.Label
	var files []string
	for _, l := range ls {
		if keep(l) {
			kept = append(kept, l)
			files = append(files, l.File)
		}
	}
	got, took := dicedata.ReadEach(t, dir, files, func() func(image.Image) vision.Result {
		return NewReader(nil).ReadImage
	})
	var tl vision.Tally
	for i, l := range kept {
		tl.Add(l.Want, got[i], took[i])
	}
	return &tl
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

// obliqueCrops are dice of awsvegas_dice seen from the side, each alone
// in its crop, whose top and front faces the detector may take for two
// dice.
var obliqueCrops = []string{
	"crops/IMG_20191112_102116_d05.png", "crops/IMG_20191112_111705_d00.png", "crops/Image_1_d00.png",
	"crops/Image_128_d04.png", "crops/Image_143_d02.png", "crops/Image_81_d02.png",
}

// TestRead_TwoDiceSideBySide_Multi puts the oblique dice of obliqueCrops
// two by two beside and above one another, each pair as a photo of two
// dice of about 90 px: never one value. A reader that took two dice for
// one (the square around both read as a face) or missed one gives a throw
// of two dice a value. A rule that read an oblique die's two faces as one
// die (the square around two whole candidates classified, its value
// taken when over the threshold) gave 3 of these 60 pairs at half this
// size a value, and was not kept. At half this size (photos of about
// 120×60 px) the detector misses one of the two dice in 24 of the 60
// pairs, as it did with the pyramid's step of 3 (25): no rule here
// changes that (a finer first scale for small photos, which found both,
// read 10 to 60 points less of the crops of one die).
func TestRead_TwoDiceSideBySide_Multi(t *testing.T) {
	dir := needData(t, "awsvegas_dice")
	var imgs []image.Image
	for _, f := range obliqueCrops {
		imgs = append(imgs, decodeImage(t, dir+"/"+f))
	}
	rd := NewReader(nil)
	for i, a := range imgs {
		for j, b := range imgs {
			if i == j {
				continue
			}
			for _, across := range []bool{true, false} {
				ra, rb := a.Bounds(), b.Bounds()
				off := image.Pt(ra.Dx(), 0)
				if !across {
					off = image.Pt(0, ra.Dy())
				}
				pair := image.NewRGBA(ra.Sub(ra.Min).Union(rb.Sub(rb.Min).Add(off)))
				// the canvas is the first photo's corner colour, as a
				// tray around both dice
				draw.Draw(pair, pair.Rect, image.NewUniform(a.At(ra.Min.X, ra.Min.Y)), image.Point{}, draw.Src)
				draw.Draw(pair, ra.Sub(ra.Min), a, ra.Min, draw.Src)
				draw.Draw(pair, rb.Sub(rb.Min).Add(off), b, rb.Min, draw.Src)
				if got := rd.ReadImage(twice(pair)); got.Answer == vision.Value {
					t.Errorf("%s beside %s (across %v): %v, want multi", obliqueCrops[i], obliqueCrops[j], across, got)
				}
			}
		}
	}
}

// twice returns img at twice its size, each pixel made four.
func twice(img *image.RGBA) *image.RGBA {
	r := img.Rect
	out := image.NewRGBA(image.Rect(0, 0, 2*r.Dx(), 2*r.Dy()))
	for y := range out.Rect.Dy() {
		for x := range out.Rect.Dx() {
			out.SetRGBA(x, y, img.RGBAAt(r.Min.X+x/2, r.Min.Y+y/2))
		}
	}
	return out
}

// cropFraming is how the labelled photos of one die are cut: the die's box
// and 15% a side.
const cropFraming = 1.3

// TestScales_ADieFillingThePhotoIsSeenWhole checks the pyramid: a die that
// fills a photo (its box grown by 15% a side, as the sources' crops are)
// is, at one scale at least, within the sizes the detector was trained on,
// in an image of at least two detector cells. With a step of 3 a die of
// 40–49 px was seen either past those sizes or in an image too small, and
// the detector took its faces for dice (see pyramidStep).
func TestScales_ADieFillingThePhotoIsSeenWhole(t *testing.T) {
	rd := NewReader(nil)
	m := rd.m
	for side := 24; side <= 800; side++ {
		long := int(math.Round(cropFraming * float64(side)))
		ok := false
		for _, f := range rd.scales(image.Rect(0, 0, long, long)) {
			at := float64(side) / f
			if at >= m.detMin && at <= m.detMax && float64(long)/f >= float64(2*m.stride) {
				ok = true
			}
		}
		if !ok {
			t.Errorf("a die of %d px in a photo of %d px: at no scale (%v) within %g–%g px in two cells", side, long, rd.scales(image.Rect(0, 0, long, long)), m.detMin, m.detMax)
		}
	}
}

// A photo of one die, 64 px or less, is first looked at with the die within
// the detector's trained sizes: past them, the detector found the die's top
// face and its front face as two dice, and the photo was multi.
func TestScales_SmallPhotoFirstSeesTheDieWhole(t *testing.T) {
	rd := NewReader(nil)
	for long := 16; long <= 64; long++ {
		side := float64(long) / cropFraming
		f := rd.scales(image.Rect(0, 0, long, long))[0]
		if at := side / f; at > rd.m.detMax {
			t.Errorf("a die of %.0f px in a photo of %d px: first scale %g makes it %.1f px, past the detector's %g", side, long, f, at, rd.m.detMax)
		}
		if cells := float64(long) / f / float64(rd.m.stride); cells < 2 && long >= 2*rd.m.stride {
			t.Errorf("a photo of %d px at scale %g is %.1f cells, fewer than two", long, f, cells)
		}
	}
}

// A photo of 65 to 127 px in which the first look finds nothing gets a
// second look from a finer scale, where a die filling the photo is at
// most the largest the detector was trained on, in four cells or more;
// other photos, and a calibrated camera, get none.
func TestFinerStart(t *testing.T) {
	rd := NewReader(nil)
	m := rd.m
	for long := 8; long <= 700; long++ {
		f := rd.finerStart(image.Rect(0, 0, long, long/2))
		if long <= 64 || long >= 128 {
			if f != 0 {
				t.Errorf("a photo of %d px: a second look from %g, want none", long, f)
			}
			continue
		}
		if first := rd.scales(image.Rect(0, 0, long, long/2)); f <= 0 || f >= first[0] {
			t.Errorf("a photo of %d px: second look from %g, want finer than the first look's %v", long, f, first)
			continue
		}
		if at := float64(long) / f; at > m.detMax+1e-9 {
			t.Errorf("a photo of %d px at %g: a die filling it is %.1f px, past the detector's %g", long, f, at, m.detMax)
		}
		if cells := float64(long) / f / float64(m.stride); cells < 4 {
			t.Errorf("a photo of %d px at %g is %.1f cells, fewer than four", long, f, cells)
		}
	}
	cal := NewReader(&Opts{DieSize: 60})
	if f := cal.finerStart(image.Rect(0, 0, 100, 100)); f != 0 {
		t.Errorf("calibrated: a second look from %g, want none", f)
	}
}

// TestRead_NothingAtFirstLook_LooksAgain reads the photos of one die ≥40 px
// of banachowicz_rpgsets in which the first look finds no die: the second
// look reads 40% of them or more, and none wrong.
func TestRead_NothingAtFirstLook_LooksAgain(t *testing.T) {
	dir := needData(t, "banachowicz_rpgsets")
	sizes := boxSizes(t, dir)
	rd := NewReader(nil)
	var missed, read int
	for _, l := range loadLabels(t, dir) {
		if !isCrop(l) || sizes[l.File] < 40 || l.Want.Answer != vision.Value {
			continue
		}
		img := decodeImage(t, dir+"/"+l.File)
		px := pixelsOf(img)
		if rd.finerStart(px.rect) == 0 || rd.look(px, px.rect, rd.scales(px.rect), 0).Answer != vision.None {
			continue
		}
		missed++
		switch r := rd.ReadImage(img); {
		case r.Answer == vision.Value && r.Value != l.Want.Value:
			t.Errorf("%s: read %d, want %d", l.File, r.Value, l.Want.Value)
		case r.Answer == vision.Value:
			read++
		}
	}
	t.Logf("first look found nothing in %d photos; the second read %d", missed, read)
	if missed < 10 {
		t.Fatalf("the first look found nothing in %d photos; the test wants 10 or more to say anything", missed)
	}
	if float64(read) < 0.4*float64(missed) {
		t.Errorf("the second look read %d of the %d photos the first found nothing in, want 40%% or more", read, missed)
	}
}
