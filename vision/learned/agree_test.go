package learned

import (
	"image"
	"image/draw"
	"testing"

	"github.com/parchis-table/parchis/vision"
)

// TestAgree settles a die the classifier is unsure of only where the pip
// rules read the face it leans to, on the same die.
func TestAgree(t *testing.T) {
	die := image.Rect(40, 40, 100, 100)
	unsure := vision.Result{Answer: vision.Unsure, Confidence: 0.9, Box: die}
	for _, c := range []struct {
		name string
		pips vision.Result
		want vision.Result
	}{
		{"the same face on the same die",
			vision.Result{Answer: vision.Value, Value: 4, Confidence: 0.8, Box: image.Rect(45, 42, 98, 101)},
			vision.Result{Answer: vision.Value, Value: 4, Confidence: 1 - 0.1*0.2, Box: die}},
		{"another face", vision.Result{Answer: vision.Value, Value: 5, Confidence: 0.9, Box: die}, unsure},
		{"the same face on another die",
			vision.Result{Answer: vision.Value, Value: 4, Confidence: 0.9, Box: image.Rect(120, 40, 180, 100)}, unsure},
		{"a die the pips see only in part, inside",
			vision.Result{Answer: vision.Value, Value: 4, Confidence: 0.7, Box: image.Rect(60, 60, 80, 80)},
			vision.Result{Answer: vision.Value, Value: 4, Confidence: 1 - 0.1*0.3, Box: die}},
		{"the pips unsure", vision.Result{Answer: vision.Unsure, Confidence: 0.5, Box: die}, unsure},
		{"the pips see an edge", vision.Result{Answer: vision.Edge, Confidence: 0.6, Box: die}, unsure},
		{"the pips see several dice", vision.Result{Answer: vision.Multi, Confidence: 0.8, Box: die}, unsure},
		{"a value without a box", vision.Result{Answer: vision.Value, Value: 4, Confidence: 0.9}, unsure},
	} {
		got := agree(unsure, c.pips, 4, 0.9)
		if got.Answer != c.want.Answer || got.Value != c.want.Value || got.Box != c.want.Box ||
			got.Confidence < c.want.Confidence-1e-9 || got.Confidence > c.want.Confidence+1e-9 {
			t.Errorf("%s: agree = %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestRead_NetworkOnly_NoSecondWitness reads the labelled crops that the
// classifier alone leaves unsure: with the pip rules as a second witness
// some are read, each as its label says, and with NetworkOnly none.
func TestRead_NetworkOnly_NoSecondWitness(t *testing.T) {
	dir := needData(t, "banachowicz_rpgsets")
	sizes := boxSizes(t, dir)
	alone := NewReader(&Opts{NetworkOnly: true})
	both := NewReader(nil)
	settled, n := 0, 0
	for _, l := range loadLabels(t, dir) {
		if !isCrop(l) || l.Want.Answer != vision.Value || sizes[l.File] < 40 {
			continue
		}
		if n++; n > 120 {
			break
		}
		img := decodeImage(t, dir+"/"+l.File)
		a := alone.ReadImage(img)
		if a.Answer != vision.Unsure {
			continue
		}
		b := both.ReadImage(img)
		if b.Answer == vision.Value {
			settled++
			if b.Value != l.Want.Value {
				t.Errorf("%s (%d): the witnesses agree on %d", l.File, l.Want.Value, b.Value)
			}
		}
	}
	t.Logf("%d of the first %d crops ≥40 px unsure for the network alone, then read", settled, n-1)
	if settled == 0 {
		t.Error("no crop the network was unsure of was read with the pip rules' help")
	}
}

// TestContradicts holds a value against the pip rules' reading only when
// they give the same die another value.
func TestContradicts(t *testing.T) {
	die := image.Rect(40, 40, 100, 100)
	read := vision.Result{Answer: vision.Value, Value: 1, Confidence: 0.998, Box: die}
	for _, c := range []struct {
		name string
		pips vision.Result
		want bool
	}{
		{"another face on the same die", vision.Result{Answer: vision.Value, Value: 2, Confidence: 0.8, Box: image.Rect(45, 42, 98, 101)}, true},
		{"another face, the pips seen in part", vision.Result{Answer: vision.Value, Value: 2, Confidence: 0.7, Box: image.Rect(60, 60, 80, 80)}, true},
		{"the same face", vision.Result{Answer: vision.Value, Value: 1, Confidence: 0.9, Box: die}, false},
		{"another face on another die", vision.Result{Answer: vision.Value, Value: 2, Confidence: 0.9, Box: image.Rect(120, 40, 180, 100)}, false},
		{"the pips unsure", vision.Result{Answer: vision.Unsure, Confidence: 0.5, Box: die}, false},
		{"the pips see an edge", vision.Result{Answer: vision.Edge, Confidence: 0.6, Box: die}, false},
		{"the pips see several dice", vision.Result{Answer: vision.Multi, Confidence: 0.8, Box: die}, false},
		{"the pips see none", vision.Result{Answer: vision.None, Confidence: 0.9}, false},
		{"a value without a box", vision.Result{Answer: vision.Value, Value: 2, Confidence: 0.9}, false},
	} {
		if got := contradicts(c.pips, read); got != c.want {
			t.Errorf("%s: contradicts = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestRead_ContradictedValue_Unsure reads a crop of awsvegas_dice (a two)
// cut 2 px short, which the classifier reads as a one with 0.998 and the
// pip rules as a two: the table asks for a throw again instead of
// accepting either.
func TestRead_ContradictedValue_Unsure(t *testing.T) {
	img := decodeImage(t, needData(t, "awsvegas_dice")+"/crops/IMG_20191112_111648_d01.png")
	b := img.Bounds()
	short := image.NewRGBA(image.Rect(0, 0, b.Dx()-2, b.Dy()-2))
	draw.Draw(short, short.Rect, img, b.Min, draw.Src)
	alone := NewReader(&Opts{NetworkOnly: true})
	if a := alone.ReadImage(short); a.Answer != vision.Value || a.Value == 2 {
		t.Fatalf("the classifier alone reads %v, not the one this test is of: choose another crop for this model", a)
	}
	if got := NewReader(nil).ReadImage(short); got.Answer != vision.Unsure {
		t.Errorf("read %v, want unsure (the pip rules read a two)", got)
	}
}
