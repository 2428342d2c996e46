package learned

import (
	"image"
	"math"
	"slices"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/onnx"
)

// Opts configures a [Reader]. The zero value reads any image with the
// embedded model: any die size from about 24 px, the whole image.
type Opts struct {
	// DieSize is the die's width in pixels, from the calibration; 0 means
	// unknown: dice are looked for at every scale. When set, the frame is
	// searched at the one scale that suits it, which is faster.
	DieSize float64
	// Tray is the region of the image that holds the tray; the empty
	// rectangle means the whole image.
	Tray image.Rectangle
	// Background is the empty tray as the camera sees it (from the
	// calibration), or nil: a die must differ from it, so a pattern
	// printed on the tray is never a die.
	Background image.Image
	// Model is the recogniser's networks; nil means [DefaultModel].
	Model *Model
	// Profile is the venue's dice, taught from labelled photos; nil
	// reads with the model alone.
	Profile *Profile
	// MinConfidence is the confidence under which a value is answered as
	// Unsure; 0 means the model's calibrated threshold.
	MinConfidence float64
	// NetworkOnly reads with the networks alone: a die the classifier is
	// unsure of stays Unsure even when the pip rules or the box witness
	// read the value it leans to (see [Reader.ReadImage]), and the
	// camera's calibration brings no edge check. For tools that study the
	// networks.
	NetworkOnly bool
}

// DefaultOpts are the options of a Reader that knows nothing of the
// camera: the zero Opts.
var DefaultOpts = Opts{}

// The detector's score over which a spot is a die candidate, and the
// classifier's probability of none over which a candidate is no die.
const (
	minScore = 0.3
	noneProb = 0.5
	edgeProb = 0.5
	// maxClassified bounds the candidates classified in one image: a
	// photo of a pile of dice is Multi long before.
	maxClassified = 8
)

// Reader reads the dice in single images. It keeps the networks' buffers
// between calls: use one Reader per goroutine.
type Reader struct {
	opts  Opts
	m     *Model
	sess  *onnx.Session
	frame onnx.Tensor
	crop  onnx.Tensor
	// the networks' inputs, naming frame and crop
	frameIn, cropIn map[string]*onnx.Tensor
	bg              pixels // the empty tray's pixels, when Opts.Background is set
	xs              []int
	dets            []det
	hidden          []det     // candidates the first look took for a die already found (see group)
	embKeep         []float32 // emb, kept while group classifies
	probs           [8]float64
	netProbs        [8]float64 // probs before the venue's profile
	emb             []float32
	// pips is package vision's pip rules, the second witness of a die
	// the classifier is unsure of and, when the camera is calibrated,
	// the judge of a die on an edge (see ReadImage); oblique is the same
	// rules for a camera that sees the dice from the side, a second look
	// when nothing says where the camera is (no calibration). Both nil
	// with Opts.NetworkOnly.
	pips, oblique *vision.Reader
	// lean is the face (1…6) the classifier leans to for the one whole
	// die of the last image, and leanProb its probability (see leaning);
	// 0 when there is no such die or its most likely class is no face
	lean     int
	leanProb float64
	// box is the third witness, which looks in the die's box alone
	box witness
}

// det is a die the detector found, in image coordinates.
type det struct {
	cx, cy, side, score float64
}

func (d det) box() image.Rectangle {
	h := d.side / 2
	return image.Rect(int(math.Floor(d.cx-h)), int(math.Floor(d.cy-h)), int(math.Ceil(d.cx+h)), int(math.Ceil(d.cy+h)))
}

// NewReader returns a Reader with the given options (nil means
// [DefaultOpts]).
func NewReader(opts *Opts) *Reader {
	o := DefaultOpts
	if opts != nil {
		o = *opts
	}
	m := o.Model
	if m == nil {
		m = DefaultModel()
	}
	rd := &Reader{opts: o, m: m, sess: m.net.NewSession()}
	rd.frameIn = map[string]*onnx.Tensor{"frame": &rd.frame}
	rd.cropIn = map[string]*onnx.Tensor{"crop": &rd.crop}
	if o.Background != nil {
		rd.bg = pixelsOf(o.Background)
	}
	if !o.NetworkOnly {
		vo := vision.DefaultOpts
		vo.DieSize, vo.Tray = o.DieSize, o.Tray
		rd.pips = vision.NewReader(&vo)
		if o.DieSize <= 0 {
			ob := vision.ObliqueOpts(vo)
			rd.oblique = vision.NewReader(&ob)
		}
	}
	return rd
}

// Read reads a grey frame; see [Reader.ReadImage].
func (rd *Reader) Read(g *image.Gray) vision.Result { return rd.ReadImage(g) }

// DieSize is the die's width in pixels the reader was given (Opts.DieSize).
func (rd *Reader) DieSize() float64 { return rd.opts.DieSize }

// ReadImage finds every die in img and reads the one there is. The
// detector marks die candidates at the scales the die's size calls for;
// each candidate, cut as the training cut it, is classified as a face
// 1…6, a die on an edge, or no die. No die is None, two or more Multi
// (a cup or a pile of dice the detector took for one die too: group); a
// die cut by the image's border is Unsure, and so is a face whose
// calibrated confidence (with the venue's profile, if any) is under the
// threshold: a wrong value accepted corrupts the game, a repeated throw
// does not. A die the classifier is unsure of has a second witness: the
// pip rules of package vision, which count the pips by their geometry,
// the network's way of seeing put aside. Where they read the face the
// classifier leans to (with at least agreeProb), on the same die, that
// face is the answer (see agree). Where they do not, and the classifier
// leans to its face with at least boxWitnessProb, a third witness looks
// in the die's box alone for that face's pips (see witness). A value the
// classifier is sure of stands unless the pip rules give the same die
// another value: then it is Unsure (see contradicts). With the die's size
// from a calibration, a die the pips' geometry shows on an edge is Edge
// (see edgeCheck).
func (rd *Reader) ReadImage(img image.Image) vision.Result {
	r := rd.readImage(img)
	if rd.pips == nil {
		return r
	}
	value := r.Answer == vision.Value
	unsure := r.Answer == vision.Unsure && rd.lean > 0 && rd.leanProb >= agreeProb
	checkEdge := rd.opts.DieSize > 0 && (value || r.Answer == vision.Unsure)
	if !value && !unsure && !checkEdge {
		return r
	}
	// the pip rules look at the whole tray, as they were measured to:
	// cut to the die, they lose the side faces that show its tilt (145
	// of 200 dice on an edge found so, against 200 of 200)
	p := rd.pips.ReadImage(img)
	if checkEdge && p.Answer == vision.Edge {
		return edgeCheck(r, p)
	}
	if value {
		if contradicts(p, r) || rd.oblique != nil && contradicts(rd.oblique.ReadImage(img), r) {
			return vision.Result{Answer: vision.Unsure, Confidence: r.Confidence, Box: r.Box}
		}
		return r
	}
	if !unsure {
		return r
	}
	if a := agree(r, p, rd.lean, rd.leanProb); a.Answer == vision.Value {
		return a
	}
	// a photo may be taken from the side, where the straight-down rules
	// count the face that fronts the camera: the oblique ones look for
	// the top face (without them, the committed model reads 50.3% of
	// dice3_roboflow_v3's crops of dice >=40 px against 79.9%, and 74.9%
	// of awsvegas_dice's against 83.5%)
	if rd.oblique != nil {
		if a := agree(r, rd.oblique.ReadImage(img), rd.lean, rd.leanProb); a.Answer == vision.Value {
			return a
		}
	}
	if rd.leanProb >= boxWitnessProb && rd.box.reads(pixelsOf(img), r.Box, rd.lean) {
		return vision.Result{Answer: vision.Value, Value: rd.lean, Confidence: rd.leanProb, Box: r.Box}
	}
	return r
}

// contradicts reports whether the pip rules' reading p gives the die the
// classifier read (r) another value: two witnesses that see the die by
// different means and disagree leave its value in doubt, and a throw
// again costs less than a wrong value. The classifier's confident
// mistakes are mostly of dice seen from the side, read as the face
// turned to the camera, or of a two read as a one; the pip rules,
// counting pips by their geometry, seldom make the same mistake on the
// same die. Only a value they give counts against the classifier's:
// they answer Unsure or None for most dice it reads, no evidence either
// way. Measured on the crops of dice >=40 px, with the committed model:
// awsvegas_dice 1 wrong value against 2, at 83.5% read against 83.7%,
// and under the perturbations of perturb_test.go at most 2 against 4
// (crops 2 px short); banachowicz_rpgsets 84.6% read against 85.3%,
// skovy_catan_webcam 72.8% against 73.5%, the others unchanged. Each
// source left out of the networks' training (the models of one
// training, read both ways): awsvegas_dice 0.29% wrong against 0.48%, at
// 77.4% read against 77.8%; dice3_roboflow_v3 none against 0.50%, 76.9%
// against 77.4%; skovy_catan_webcam 66.2% against 67.5%; the others
// unchanged. The straight-down rules alone changed nothing but
// awsvegas_dice left out (0.39%): the oblique ones, which look for the
// top face of a die seen from the side, do most of it. At the table
// (calibrated) only the straight-down rules run, as they already did for
// the edge check; without a calibration a frame whose die the classifier
// is sure of is read by both pip readers too (BenchmarkRead_640x480_SureDie).
// The box witness is not held to it: where the pip rules read another
// face than the one it settles, the box witness was right on the photos
// the networks were trained on (held to it, dice3_roboflow_v3 and
// skovy_catan_webcam each lost a right value, and no wrong value was
// kept out).
func contradicts(p, r vision.Result) bool {
	return p.Answer == vision.Value && p.Value != r.Value && sameDie(r.Box, p.Box)
}

// agreeProb is the probability of the face the classifier leans to from
// which the pip rules' reading of that face settles an unsure die: the
// lowest of 0.95, 0.9, 0.8, 0.7, 0.6 and 0.5 at which no source of
// ../shared/data/dice gets over 0.2% wrong values on its crops of dice
// ≥40 px, neither as trained on nor left out of the networks' training
// (a venue never seen; vision/train/REPORT.md), and the threshold held to
// that bar need not rise: at 0.5 it rose from 0.9973 to 0.9981, which
// cost skovy_catan_webcam 2.7 points of its reads. Left out, 0.6 against
// 0.8 read 66.1% of awsvegas_dice against 63.9%, 75.2% of
// banachowicz_rpgsets against 72.6%, 74.9% of dice3_roboflow_v3 against
// 67.8%, 94.3% of matteop65_wood against 91.5%, with not one wrong value
// more on any source; trained on, 79.4% of dice3_roboflow_v3 against
// 73.9%, and one die under 40 px of awsvegas_dice more wrong (all its
// crops: 0.34% against 0.27%). Under 0.35 nothing changes: the face
// leant to is then the one the pip rules read or no value. A die that
// fronts the camera with one face can fool both witnesses: an orange die
// of awsvegas_dice, 6 on top, reads as its 5 for the network (0.98) and
// the pip rules alike, that source's one wrong value (of its dice >=40 px).
const agreeProb = 0.6

// agree settles a die the classifier is unsure of (r) with the pip rules'
// reading of the same image (p): where they read the face it leans to
// (face, with probability prob), on the same die (the centre of the one
// inside the other's box), that face is the answer, its confidence the
// chance that not both witnesses are wrong, each taken at its word.
func agree(r, p vision.Result, face int, prob float64) vision.Result {
	if p.Answer != vision.Value || p.Value != face || !sameDie(r.Box, p.Box) {
		return r
	}
	return vision.Result{Answer: vision.Value, Value: face, Confidence: 1 - (1-prob)*(1-p.Confidence), Box: r.Box}
}

// sameDie reports whether two boxes are of one die: the centre of either
// lies inside the other.
func sameDie(a, b image.Rectangle) bool {
	in := func(r, s image.Rectangle) bool {
		c := image.Pt((s.Min.X+s.Max.X)/2, (s.Min.Y+s.Max.Y)/2)
		return c.In(r)
	}
	return !a.Empty() && !b.Empty() && (in(a, b) || in(b, a))
}

// readImage is ReadImage without the edge check.
func (rd *Reader) readImage(img image.Image) vision.Result {
	px := pixelsOf(img)
	region := px.rect
	if !rd.opts.Tray.Empty() {
		region = region.Intersect(rd.opts.Tray)
	}
	r := rd.look(px, region, rd.scales(region), 0)
	if f := rd.finerStart(region); r.Answer == vision.None && f > 0 {
		short := float64(min(region.Dx(), region.Dy()))
		r = rd.look(px, region, pyramid(region, f), short/2)
	}
	return r
}

// look finds and reads the dice in the region, the detector looking at
// the given scales, candidates smaller than minSide put aside.
func (rd *Reader) look(px pixels, region image.Rectangle, scales []float64, minSide float64) vision.Result {
	rd.probs, rd.emb = [8]float64{}, rd.emb[:0]
	rd.lean, rd.leanProb = 0, 0
	if region.Dx() < 8 || region.Dy() < 8 {
		return vision.Result{Answer: vision.None, Confidence: 1}
	}
	rd.detect(px, region, scales)
	// candidates that are dice, by index in rd.dets: whole ones, and
	// ones the image's border cuts
	var whole, cutDice []int
	var first vision.Result
	best := 0.0
	for i := range rd.dets {
		if i >= maxClassified || len(whole) >= 2 {
			break
		}
		d := &rd.dets[i]
		look := *d
		rd.refine(px, d)
		if rd.seenBefore(i) {
			*d = look
			if rd.seenBefore(i) {
				continue
			}
		}
		if d.side < minSide || rd.opts.Background != nil && !rd.differs(px, d) {
			continue
		}
		r := rd.classify(px, d)
		if rd.probs[rd.m.classNone] >= noneProb {
			best = max(best, d.score*(1-rd.probs[rd.m.classNone]))
			continue
		}
		if cut(*d, region, rd.opts.DieSize) {
			cutDice = append(cutDice, i)
			continue
		}
		if len(whole) == 0 {
			first = r
			rd.lean, rd.leanProb = rd.leaning()
		}
		whole = append(whole, i)
	}
	switch {
	case len(whole) >= 2:
		rd.lean = 0
		a, b := rd.dets[whole[0]], rd.dets[whole[1]]
		return vision.Result{Answer: vision.Multi, Confidence: min(a.score, b.score), Box: a.box().Union(b.box())}
	case len(whole) == 1:
		if first.Answer != vision.Value && rd.group(px, region, rd.dets[whole[0]]) {
			rd.lean = 0
			return vision.Result{Answer: vision.Multi, Confidence: rd.dets[whole[0]].score, Box: first.Box}
		}
		// a die cut by the border beside a whole one is a neighbour in a
		// photo (the tray camera sees the whole tray): the whole die is
		// the one read
		return first
	case len(cutDice) > 0:
		rd.lean = 0
		d := rd.dets[cutDice[0]]
		return vision.Result{Answer: vision.Unsure, Confidence: d.score, Box: d.box()}
	}
	return vision.Result{Answer: vision.None, Confidence: 1 - best}
}

// group reports whether the one whole candidate d, which the classifier
// gives no value, is a group of dice: two or more smaller candidates
// inside its box, each apart from the others (sameDie), whole and read as
// dice. Seen at a coarse scale, a cup or a pile of dice looks like one
// big die to the detector, which outscores the dice in it, and the first
// look kept it alone: 11 of awsvegas_dice's 134 frames of several dice ≥40
// px were not Multi so (a cup of six dice read as one, Unsure), and 7 of
// banachowicz_rpgsets' 151; with the rule, 2 and none. The candidates inside
// a die are its pips, read as dice too: for a die the classifier reads,
// the rule is not asked, and for one it does not, Multi is no value
// either (the crops of one die, every source, read as many with the rule
// as without, the second witness's included).
func (rd *Reader) group(px pixels, region image.Rectangle, d det) bool {
	box := d.box()
	probs, netProbs := rd.probs, rd.netProbs
	rd.embKeep = append(rd.embKeep[:0], rd.emb...)
	defer func() {
		rd.probs, rd.netProbs = probs, netProbs
		rd.emb = append(rd.emb[:0], rd.embKeep...)
	}()
	var dice []image.Rectangle
	for _, h := range rd.hidden {
		if h.side >= d.side/2 || !image.Pt(int(h.cx), int(h.cy)).In(box) {
			continue
		}
		rd.refine(px, &h)
		if h.side >= d.side/2 || cut(h, region, rd.opts.DieSize) {
			continue
		}
		rd.classify(px, &h)
		if rd.probs[rd.m.classNone] >= noneProb {
			continue
		}
		b := h.box()
		if slices.ContainsFunc(dice, func(o image.Rectangle) bool { return sameDie(b, o) }) {
			continue
		}
		if dice = append(dice, b); len(dice) >= 2 {
			return true
		}
	}
	return false
}

// seenBefore reports whether candidate i is a die a candidate before it
// was already looked at as (oneDie). Two candidates the first look kept
// apart may be two parts of one die, or a pip and the die around it, that
// the second look (refine) put on the whole die: counted twice, the die
// was Multi (the crops of one die ≥40 px read 62.8% of awsvegas_dice
// and 59.3% of dice3_roboflow_v3 with this check, 61.5% and 55.8%
// without). The second look may also take a die for its bigger
// neighbour: a candidate refined onto a die already seen keeps its first
// look, which the check asks again (without that, 13 of dice3_roboflow_v3's
// 287 frames of several dice were no longer Multi).
func (rd *Reader) seenBefore(i int) bool {
	return slices.ContainsFunc(rd.dets[:i], func(k det) bool { return oneDie(rd.dets[i], k) })
}

// oneDie reports whether two candidates are one die: the centre of either
// within half the larger side of the other's. Two dice side by side have
// their centres a side apart.
func oneDie(a, b det) bool {
	return math.Hypot(a.cx-b.cx, a.cy-b.cy) < 0.5*max(a.side, b.side)
}

// edgeCheck answers Edge for a die given a value, or unsure (r), that
// the pip rules (p, Edge) show standing on an edge or leaning. The network alone gave a value to
// 3 to 8 of 200 synthetic dice on an edge or leaning (and answered edge
// for 60–65% of them): dice on an edge are only in the renders, few among
// the photos' faces. Straight down, which a calibrated camera is (see
// docs/camera.md), the pip rules of package vision tell a tilted face
// from a flat one by the pips' shape and spacing, and find every such die
// in the same renders (vision's TestSynth_EdgeDice_AreEdge). Seen from the
// side, as in most photos, every face looks tilted: without a calibration
// there is no check.
func edgeCheck(r, p vision.Result) vision.Result {
	return vision.Result{Answer: vision.Edge, Confidence: p.Confidence, Box: r.Box, Tilt: p.Tilt}
}

// cut reports whether a die may be cut by the region's border: its box
// reaches out of the region by more than the margin the training crops
// left around a box or, when the camera is calibrated (dieSize > 0), the
// box of the die's calibrated size, around the detected centre, comes
// within touchMargin of its side to the border. The detector boxes the part
// of a die it sees, so a die the border cuts shows as a smaller die nearer
// the middle (one such die in 30 synthetic ones was read, as a 2, when the
// test used the detected box, with a classifier trained on windows as
// small as 0.6 of a die); the tray camera sees the whole tray, so a die
// there is cut. A photo of one die is framed close: the second test would
// leave a third of the photos' dice unread (awsvegas_dice,
// dice3_roboflow_v3) and have a neighbour cut by the frame read instead.
func cut(d det, r image.Rectangle, dieSize float64) bool {
	m := 0.15 * d.side
	h := d.side / 2
	if d.cx-h < float64(r.Min.X)-m || d.cy-h < float64(r.Min.Y)-m ||
		d.cx+h > float64(r.Max.X)+m || d.cy+h > float64(r.Max.Y)+m {
		return true
	}
	if dieSize <= 0 {
		return false
	}
	side := max(d.side, dieSize)
	h, t := side/2, touchMargin*side
	return d.cx-h < float64(r.Min.X)+t || d.cy-h < float64(r.Min.Y)+t ||
		d.cx+h > float64(r.Max.X)-t || d.cy+h > float64(r.Max.Y)-t
}

// touchMargin is how near the border, in die sides, a box counts as
// touching it.
const touchMargin = 0.03

// scales returns the factors by which the region is shrunk for the
// detector: the one that makes a die of the calibrated size middling for
// it, or a pyramid covering every size from about 24 px (12 px or less in
// images of 64 px or less, mostly photos of one die). Those small images
// start at half their size (or two cells), not at three quarters of it:
// there, a die filling the photo was past the detector's trained sizes
// and its faces came first. Of the crops of dice ≥40 px, trained on, at
// the threshold of then (0.9973), awsvegas_dice read 78.7% against 73.0%,
// banachowicz_rpgsets 81.8% against 79.4% and dice3_roboflow_v3 79.9%
// against 78.9%, with fewer wrong values (awsvegas_dice 0.10% against
// 0.19%; all its crops, the smaller dice included, 75.3% read and 0.27%
// wrong against 70.4% and 0.34%); shrunk by 1.6 or by 3 first instead,
// they read less.
func (rd *Reader) scales(region image.Rectangle) []float64 {
	if rd.opts.DieSize > 0 {
		return []float64{rd.opts.DieSize / math.Sqrt(rd.m.detMin*rd.m.detMax)}
	}
	long := float64(max(region.Dx(), region.Dy()))
	f := coarseStart
	if long <= 64 {
		// at least two of the detector's cells
		f = min(2, long/float64(2*rd.m.stride))
	}
	return pyramid(region, f)
}

// pyramid returns the scales from f, each pyramidStep coarser, down to
// an image of 12 px.
func pyramid(region image.Rectangle, f float64) []float64 {
	long := float64(max(region.Dx(), region.Dy()))
	var out []float64
	for ; long/f >= 12 || len(out) == 0; f *= pyramidStep {
		out = append(out, f)
	}
	return out
}

// coarseStart is the first scale of the pyramid for an image over 64 px
// without a calibration.
const coarseStart = 4.0

// finerStart returns the first scale of a second look at an image in
// which the first look found nothing, or 0 when there is no second look:
// with a calibration (the table's camera never takes it), or in an image
// of 64 px or less (whose first look is fine already), or of 128 px or
// more. Between the two, the first look sees the photo only two to four
// detector cells wide, and the detector may see no die where there is
// one: banachowicz_rpgsets had 19 of its 456 crops of dice ≥40 px answer
// None, plain dice filling the photo. The second look starts where a die
// filling the photo is at most the largest the detector was trained on,
// in four cells or more, and keeps only dice of half the photo's side or
// more, the dice it is for: at that scale the detector also takes a part
// of a die for a die, read as a 1. Of the 58 labelled photos of a die (six
// sources, every size) in which the first look found nothing, the second
// read 39 right and 1 wrong without that bound (a part of a matteop65_wood
// die, 0.33 of the photo), 21 right and none wrong with it; and the model
// trained without skovy_catan_webcam read a part of an awsvegas_dice die,
// 0.39 of the photo, so, which raised its threshold from 0.9642 to 0.9785
// (62.9% of skovy_catan_webcam read against 59.6%).
//
// As a fallback it reads only where there was nothing: with the committed
// model, banachowicz_rpgsets read 85.1% against 83.1% and awsvegas_dice
// 81.9% against 81.2%, the others as before, with no wrong value more,
// and the threshold chosen again was the same. Starting every look there
// instead read 8 points more of banachowicz_rpgsets, but of awsvegas_dice
// as many dice less as more (33), and a wrong value more.
func (rd *Reader) finerStart(region image.Rectangle) float64 {
	long := float64(max(region.Dx(), region.Dy()))
	if rd.opts.DieSize > 0 || long <= 64 {
		return 0
	}
	if f := max(2, long/rd.m.detMax); f < coarseStart {
		return f
	}
	return 0
}

// pyramidStep is the factor between two scales of the pyramid. With 3, a
// die at the top of one scale's range (34 px at the detector's input, past
// the 32 px it was trained on) was 11 px at the next, in an image of two
// cells, and the detector found its faces instead of it: of the crops of
// one die ≥40 px, 91 of awsvegas_dice's 1,033 read Multi, most of them
// dice of 40–49 px seen from the side (TestScales_ADieFillingThePhotoIsSeenWhole).
// With 2, on the crops of dice ≥40 px, the threshold unchanged: trained
// on, awsvegas_dice read 73.0% against 70.4%, banachowicz_rpgsets 79.4%
// against 77.9% and dice3_roboflow_v3 78.9% against 79.4%, with no wrong
// value more; each left out, REPORT.md's table. It costs the detector
// about a fifth more work on a frame without a calibration. 1.5 read less
// (awsvegas_dice trained on: 72.7%).
const pyramidStep = 2

// detect fills rd.dets with the die candidates, best first, the same die
// seen at two scales kept once.
func (rd *Reader) detect(px pixels, region image.Rectangle, scales []float64) {
	rd.dets, rd.hidden = rd.dets[:0], rd.hidden[:0]
	s := rd.m.stride
	for si, f := range scales {
		w := int(math.Ceil(float64(region.Dx())/f/float64(s))) * s
		h := int(math.Ceil(float64(region.Dy())/f/float64(s))) * s
		w, h = max(w, 2*s), max(h, 2*s)
		// the region in the middle of the detector's input: what the
		// rounding up to whole cells adds is shared by both sides. Put
		// at the top left, a die filling a photo lay against the smeared
		// border the rounding added on two sides, and the detector put
		// its centre on a pip (matteop65_wood: 1 of 387 dice read, as a
		// 1, where it is a 2; none centred)
		x0 := float64(region.Min.X) - (float64(w)*f-float64(region.Dx()))/2
		y0 := float64(region.Min.Y) - (float64(h)*f-float64(region.Dy()))/2
		o := rd.runDetector(px, x0, y0, f, w, h)
		gh, gw := o.Shape[2], o.Shape[3]
		heat := o.Data[:gh*gw]
		// sizes this scale reads well; a coarser scale leaves the small
		// dice to the finer one
		lo, hi := rd.m.detMin*0.8, rd.m.detMax*1.2
		if si > 0 {
			lo = rd.m.detMax / pyramidStep
		}
		if len(scales) == 1 {
			lo, hi = 0, math.Inf(1)
		}
		for y := 0; y < gh; y++ {
			for x := 0; x < gw; x++ {
				v := heat[y*gw+x]
				p := 1 / (1 + math.Exp(-float64(v)))
				if p < minScore || !peak(heat, gw, gh, x, y) {
					continue
				}
				size := math.Exp2(float64(o.Data[gh*gw+y*gw+x]))
				if size < lo || size > hi {
					continue
				}
				d := det{
					cx:    x0 + (float64(x)+float64(o.Data[2*gh*gw+y*gw+x]))*float64(s)*f,
					cy:    y0 + (float64(y)+float64(o.Data[3*gh*gw+y*gw+x]))*float64(s)*f,
					side:  size * f,
					score: p,
				}
				if d.cx < float64(region.Min.X) || d.cy < float64(region.Min.Y) || d.cx >= float64(region.Max.X) || d.cy >= float64(region.Max.Y) {
					continue
				}
				rd.dets = append(rd.dets, d)
			}
		}
	}
	slices.SortStableFunc(rd.dets, func(a, b det) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	// one die, one candidate: a weaker one centred within another's half
	// side is the same die
	kept := rd.dets[:0]
	for _, d := range rd.dets {
		if !slices.ContainsFunc(kept, func(k det) bool { return oneDie(d, k) }) {
			kept = append(kept, d)
		} else {
			rd.hidden = append(rd.hidden, d)
		}
	}
	rd.dets = kept
}

// runDetector runs the detector on the w×h image of the region at (x0,
// y0) shrunk by f, and returns its maps.
func (rd *Reader) runDetector(px pixels, x0, y0, f float64, w, h int) *onnx.Tensor {
	rd.frame.Shape = append(rd.frame.Shape[:0], 1, 3, h, w)
	if cap(rd.frame.Data) < 3*w*h {
		rd.frame.Data = make([]float32, 3*w*h)
	}
	rd.frame.Data = rd.frame.Data[:3*w*h]
	rd.xs = px.resample(rd.frame.Data, rd.xs, x0, y0, float64(w)*f, float64(h)*f, w, h)
	out, err := rd.sess.Run(rd.frameIn, "det")
	if err != nil {
		// the model was checked when loaded; a run cannot fail on a
		// well-formed frame
		panic("vision: detector: " + err.Error())
	}
	return out[0]
}

// refineCells is the side, in detector cells, of the window a candidate
// is looked at again in.
const refineCells = 6

// refine looks at a candidate again, in a window of three times its size
// scaled so that it is as big as the detector sees dice best: the first
// look, at a scale chosen for the whole image, places small or large dice
// only roughly, and the classifier reads best a die cut as it was trained.
func (rd *Reader) refine(px pixels, d *det) {
	s := rd.m.stride
	n := refineCells * s
	f := d.side * 3 / float64(n)
	x0, y0 := d.cx-float64(n)*f/2, d.cy-float64(n)*f/2
	o := rd.runDetector(px, x0, y0, f, n, n)
	gh, gw := o.Shape[2], o.Shape[3]
	best, bx, by := float32(math.Inf(-1)), -1, -1
	for y := gh/2 - 1; y <= gh/2; y++ {
		for x := gw/2 - 1; x <= gw/2; x++ {
			if v := o.Data[y*gw+x]; v > best {
				best, bx, by = v, x, y
			}
		}
	}
	if p := 1 / (1 + math.Exp(-float64(best))); p < minScore {
		return // not seen again: keep the first look
	}
	d.cx = x0 + (float64(bx)+float64(o.Data[2*gh*gw+by*gw+bx]))*float64(s)*f
	d.cy = y0 + (float64(by)+float64(o.Data[3*gh*gw+by*gw+bx]))*float64(s)*f
	d.side = math.Exp2(float64(o.Data[gh*gw+by*gw+bx])) * f
}

// peak reports whether the cell is the highest of its 3×3 neighbourhood
// (the first of equals).
func peak(heat []float32, w, h, x, y int) bool {
	v := heat[y*w+x]
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			nx, ny := x+dx, y+dy
			if (dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= w || ny >= h {
				continue
			}
			u := heat[ny*w+nx]
			if u > v || (u == v && (dy < 0 || dy == 0 && dx < 0)) {
				return false
			}
		}
	}
	return true
}

// classify reads one candidate: it leaves the calibrated class
// probabilities in rd.probs and the embedding in rd.emb, and returns what
// they answer.
//
// It looks once. The detector boxes a die smaller than its labelled box
// (median 0.84 to 0.87 of its side on awsvegas_dice, dice3_roboflow_v3 and
// skovy_catan_webcam, each left out of training), and given the labelled
// box the classifier put the top face right 88% against 77%
// (awsvegas_dice) and 97% against 80% (skovy_catan_webcam). A second look
// at a die left unsure, in a window 1.2 times wider, counted when it
// leaned to the same face, was measured and not taken: it read 0.3 to 4.6
// points more of the photos trained on, the threshold unchanged, but at a
// venue never seen (each source left out, its threshold chosen again)
// the surer of the two looks read 0.9 to 1.3 points more of four sources
// and 4.6 less of skovy_catan_webcam (a threshold of 0.9968 against
// 0.9871), and their geometric mean 0.5 to 1.0 more and 1.3 less, for a
// second classification of every unsure die. Every die read in two
// windows, as cut and 1.2 times wider, their geometric mean in place of
// the mirror's (the same time), was measured and not taken either: trained
// on, the threshold chosen again fell from 0.9940 to 0.9878 and the crops
// of dice ≥40 px read 0.5 to 8.0 points more (skovy_catan_webcam 81.5%
// against 73.5%, dice3_roboflow_v3 82.4% against 79.9%; tomitomi3_gray128
// 0.1 less), a wrong value fewer; left out, the thresholds chosen again,
// awsvegas_dice read 76.0% with 0.39% wrong against 76.6% with 0.68%, and
// skovy_catan_webcam 60.9% against 58.9%. But the photos perturbed
// (perturb_test.go) got a wrong value more under four of the six changes,
// awsvegas_dice 5 of 1,033 with its crops 2 px short against 4: at the
// lower threshold, dice photographed from the side, labelled by the top
// face while the face turned to the camera shows another, get through.
// Windows of 1 and 1.15, and both windows mirrored too, did the same.
func (rd *Reader) classify(px pixels, d *det) vision.Result {
	n := rd.m.facePx
	rd.crop.Shape = append(rd.crop.Shape[:0], 1, 3, n, n)
	if cap(rd.crop.Data) < 3*n*n {
		rd.crop.Data = make([]float32, 3*n*n)
	}
	rd.crop.Data = rd.crop.Data[:3*n*n]
	side := rd.m.faceScale * d.side
	rd.xs = px.resample(rd.crop.Data, rd.xs, d.cx-side/2, d.cy-side/2, side, side, n, n)
	if rd.m.greyCrop {
		standardise(rd.crop.Data, n*n)
	}
	out, err := rd.sess.Run(rd.cropIn, "logits", "embedding")
	if err != nil {
		panic("vision: classifier: " + err.Error())
	}
	rd.emb = append(rd.emb[:0], out[1].Data...)
	softmax(rd.probs[:], out[0].Data, rd.m.temp)
	if views > 1 {
		// the same die in a mirror: a face reads the same (and a photo
		// from the side stays upright), and the geometric mean of the two
		// readings is sure only where both are: a guess on a die unlike
		// any trained on seldom survives the mirror
		mirror(rd.crop.Data, n)
		out, err := rd.sess.Run(rd.cropIn, "logits", "embedding")
		if err != nil {
			panic("vision: classifier: " + err.Error())
		}
		var q [8]float64
		softmax(q[:], out[0].Data, rd.m.temp)
		s := 0.0
		for i := range rd.probs {
			rd.probs[i] = math.Sqrt(rd.probs[i] * q[i])
			s += rd.probs[i]
		}
		for i := range rd.probs {
			rd.probs[i] /= s
		}
		for i, v := range out[1].Data {
			rd.emb[i] = (rd.emb[i] + v) / 2
		}
	}
	rd.netProbs = rd.probs
	if rd.opts.Profile != nil {
		rd.opts.Profile.adjust(rd.probs[:], rd.emb)
	}
	return rd.answer(d)
}

// Scores are what the classifier made of the last die it read, for tools
// that study the reader (vision/train/score): the calibrated probabilities
// of 1…6, edge and none (with the profile, if any, applied), and the
// embedding a profile compares with; nothing when no die was classified.
// They are the reader's buffers, valid until its next read.
func (rd *Reader) Scores() (probs []float64, embedding []float32) {
	return rd.probs[:], rd.emb
}

// leaning returns the face the last die classified is most likely, with
// its probability, by the network alone, or 0 when its most likely class
// is edge or none. The venue's profile is left out: agreeProb was chosen
// on the network's own probabilities, and the profile, which sharpens
// them, would let more dice through the gate (taught with 3 photos a
// face, awsvegas_dice left out of training: 0.59% wrong with the profile
// in the gate, 0.49% without, for 57.6% and 55.6% read).
func (rd *Reader) leaning() (int, float64) {
	bi := argmax(rd.netProbs[:])
	if bi >= 6 {
		return 0, 0
	}
	return bi + 1, rd.netProbs[bi]
}

// answer turns rd.probs into a Result.
func (rd *Reader) answer(d *det) vision.Result {
	bi := argmax(rd.probs[:])
	best := rd.probs[bi]
	box := d.box()
	thr := rd.opts.MinConfidence
	if thr == 0 {
		thr = rd.m.threshold
	}
	switch {
	case bi == rd.m.classEdge && best >= edgeProb:
		return vision.Result{Answer: vision.Edge, Confidence: best, Box: box}
	case bi < 6 && best >= thr:
		return vision.Result{Answer: vision.Value, Value: bi + 1, Confidence: best, Box: box}
	}
	return vision.Result{Answer: vision.Unsure, Confidence: best, Box: box}
}

// views is how many readings of each die the classifier makes: as it is,
// and mirrored. The mirror doubles the classifier's time and is kept for
// safety: on 724 dice of awsvegas_dice, left out of training, one view
// gave about twice the wrong values for the same reads (at 0.995: 0.55%
// wrong for 26.0% read, against 0.28% for 26.4% with the mirror). Eight
// views (the four quarter turns, each as is and mirrored, the threshold
// chosen again on validation) read less of four of the six sources left
// out: dice3_roboflow_v3 45.2% against 67.8%, skovy_catan_webcam 45.7%
// against 55.6%, matteop65_wood 88.4% against 91.5%, awsvegas_dice 60.7%
// against 63.9% (banachowicz_rpgsets 75.2% against 72.6%), for four
// times the classifier's time.
const views = 2

// mirror flips the planes of an n×n image left to right, in place.
func mirror(p []float32, n int) {
	for r := 0; r < len(p)/n; r++ {
		row := p[r*n : (r+1)*n]
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			row[i], row[j] = row[j], row[i]
		}
	}
}

// softmax sets dst to the probabilities of the scores v at temperature
// temp.
func softmax[T float32 | float64](dst []float64, v []T, temp float64) {
	m := math.Inf(-1)
	for _, x := range v {
		m = max(m, float64(x)/temp)
	}
	s := 0.0
	for i, x := range v {
		dst[i] = math.Exp(float64(x)/temp - m)
		s += dst[i]
	}
	for i := range dst {
		dst[i] /= s
	}
}

// differs reports whether the candidate's box differs from the empty
// tray: its mean difference is over 12 levels a channel.
func (rd *Reader) differs(px pixels, d *det) bool {
	bg := rd.bg
	b := d.box().Intersect(px.rect).Intersect(bg.rect)
	if b.Empty() {
		return true
	}
	step := max(1, b.Dx()/16)
	sum, n := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y += step {
		for x := b.Min.X; x < b.Max.X; x += step {
			r1, g1, b1 := px.at(x, y)
			r2, g2, b2 := bg.at(x, y)
			v := int(r1) + int(g1) + int(b1) - int(r2) - int(g2) - int(b2)
			sum += max(v, -v)
			n++
		}
	}
	return sum > 3*12*n
}
