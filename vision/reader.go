package vision

import (
	"image"
	"math"
	"slices"
	"sort"
)

// Opts configures a [Reader]. The zero value is not useful; start from
// [DefaultOpts].
type Opts struct {
	// MaxTilt is the largest tilt from flat, in degrees, of a face that
	// is read as the top of a flat die. A die whose best face is tilted
	// more is on an edge or leaning: the answer is Edge. The tray camera
	// looks straight down, so a flat die's top face shows no tilt; 30° is
	// the default. For a camera that looks at the dice obliquely (as in
	// photos taken from the side) raise it, see [ObliqueOpts].
	MaxTilt float64
	// Oblique says the camera is not straight above: the side faces of a
	// flat die are visible too, and the top face is the least tilted.
	Oblique bool
	// DieSize is the expected width of the die in pixels (from the
	// calibration); 0 means unknown: any size from about 20 px is looked
	// for. When set, only pips of a matching size are searched, which is
	// faster and rejects clutter.
	DieSize float64
	// Tray is the region of the image that holds the tray; the empty
	// rectangle means the whole image.
	Tray image.Rectangle
	// MinConfidence is the confidence under which a value is answered as
	// Unsure instead.
	MinConfidence float64
}

// DefaultOpts are the options for the tray camera: straight down, size
// unknown, the whole frame.
var DefaultOpts = Opts{MaxTilt: 30, MinConfidence: 0.5}

// ObliqueOpts returns o set for a camera that sees the dice from the side
// (up to about 55° from vertical, photo upright): side faces are visible, the
// top face is the highest face of the die and
// is foreshortened; a face tilted over 58° (70° when the die's outline in a
// colour image puts it on top, see [Reader.ReadImage], or when it has three
// or more pips and a whole face of the same die lies below it), a face under 16 px,
// a face that a coloured die's outline does not put on top, a face with
// pips of the same die above it (or a face or pair of pips of another size
// just above it), a face with pips of the same kind grouped with it farther
// than a die's reach, a face of four to six pips that stays long once its
// pips' tilt is undone, or a reading under 0.75 confidence is answered
// Unsure. The tilt itself does not lower the confidence (it is the
// camera's); a face of one or two pips needs clearer blanks, and a face of
// two pips closer than a two's is answered Unsure; but a lone pip above two
// side faces whose values leave only one or six for the top is read as a
// one unless its blanks look like a six's pips, and so is, in a colour
// image, a lone pip that no pip seen around it on any plane shows to be
// part of another face (see [Reader.ReadImage]). Dice on an edge cannot be
// told from flat ones then.
func ObliqueOpts(o Opts) Opts {
	o.Oblique = true
	o.MaxTilt = 58
	o.MinConfidence = max(o.MinConfidence, 0.75)
	return o
}

// Reader reads the die in single images. It keeps scratch buffers between
// calls: use one Reader per goroutine.
type Reader struct {
	opts Opts
	s    scratch
	g    *image.Gray
	off  int
	img  image.Image // the colour image being read, if any

	pipPix []uint8 // distance of each pixel from a coloured die's body
	ccol   []int   // the columns' parts of the chroma offsets of a YCbCr image (see rgbPlane)

	grey      *image.Gray              // the grey of the colour image being read
	greyPix   []uint8                  // the buffer it is converted into (see grayIn)
	sight     []pip                    // pip candidates on every plane of the colour image being read
	sightDone bool                     // sight is filled for the image being read
	wholeSeen bool                     // a whole face of two or more pips, no steeper than Opts.MaxTilt, was found on a plane of the image being read
	sightWin  image.Rectangle          // the part of the image searched for sight
	ss        scratch                  // scratch of the search for sight
	spix      []uint8                  // the colour plane searched for sight
	seen      []pip                    // pips found on other planes, added to those of the plane read (see readSteep)
	prior     []pip                    // the pips of every face found on the planes of the image read so far, face after face
	priorEnd  []int                    // where each face's pips end in prior
	priorKind []planeKind              // the plane each face was found on
	others    []pip                    // the pips of every plane read by readSteep so far
	found     []foundPips              // the pips found so far on the planes of the image being read (see detect)
	nFound    int                      // how many of found hold pips of the image being read
	bodyC     madeChroma               // the chroma of the coloured die's body in the image being read (see bodyChromaOf)
	planes    [planeWeak + 1]madePlane // the colour planes of the image being read, by kind (see colourPlane)

	faceR   float64 // half side of the face read last, px
	faceC   vec     // centre of the face read last, in the image's coordinates
	faceH   float64 // its half height as seen, px (0 for a one)
	confirm bool    // the value read last stands only if the die's outline puts its face on top

	ochroma []uint8 // Cb, Cr of the window searched by outline
	osum    []int32 // integral of its body mask
	omask   []uint8
	ostack  []int32
}

// NewReader returns a Reader with the given options (nil means
// [DefaultOpts]).
func NewReader(opts *Opts) *Reader {
	o := DefaultOpts
	if opts != nil {
		o = *opts
	}
	return &Reader{opts: o}
}

// ReadImage converts img to grey once (see [Gray]) and reads it. With an
// oblique camera ([ObliqueOpts]) and a colour image that the grey does not
// read, the pips are looked for again where colour sets them apart: as
// light pips on the plane of distances from a coloured die's body colour,
// then as light pips on the plane of the channels that body is weak in (at
// full resolution, where a camera keeps colour at half of it or less),
// then as black pips on a white face on the plane of the largest of red,
// green and blue (where coloured print is as light as white).
//
// The blanks of a one are judged in colour too: coloured print beside a
// black one on a white die is no pip. Seen from the side, a one need not
// show clean blanks (glare, noise and low contrast darken them on glossy
// coloured dice) if the pips found around it, on the grey and every colour
// plane, show that no other face holds its pip or is centred on it: none of
// the pip's colour and size near it, beside it or above it, none in a row
// or square with it below it, no much bigger pip beside it; and the face
// around it is the die body's colour, with no blank of the pip's colour.
// The same evidence lets a one be read whose face, guessed from its pip's
// size as if seen square on, would reach past the image border, but does
// not once foreshortened as its pip is.
//
// Seen from the side, an image that is read on no plane, shows no other
// die and no whole face, is read once more on every plane looking for the
// thinner pips of a steeper face too (see readSteep).
//
// With an oblique camera, a value is answered only if the die's outline,
// when it can be told from the background (a coloured die), puts the face
// read at the die's top (see onTop); a face steeper than Opts.MaxTilt is
// read only then.
func (rd *Reader) ReadImage(img image.Image) Result {
	rd.img, rd.sightDone, rd.wholeSeen = img, false, false
	rd.grey, rd.greyPix = grayIn(img, rd.greyPix)
	rd.prior, rd.priorEnd, rd.priorKind = rd.prior[:0], rd.priorEnd[:0], rd.priorKind[:0]
	rd.nFound, rd.bodyC.made = 0, false
	for k := range rd.planes {
		rd.planes[k].made = false
	}
	defer func() { rd.img, rd.grey = nil, nil }()
	res := rd.onTopOf(img, rd.read(rd.grey, planeGrey))
	// as the learned reader's witness, each colour plane reads dice the
	// grey does not: without them, each source left out of the networks'
	// training, 0.3 to 1.3 points less of five sources
	for _, kind := range [...]planeKind{planeBody, planeWeak, planeValue} {
		if !rd.opts.Oblique || res.Answer != Unsure && res.Answer != None {
			break
		}
		if g, ok := rd.colourPlane(img, kind); ok {
			if r := rd.onTopOf(img, rd.read(g, kind)); r.Answer == Value {
				res = r
			}
		}
	}
	if !rd.opts.Oblique || res.Answer == Multi || res.Answer == None || !rd.opts.Tray.Empty() {
		return res
	}
	// a witness of 2.5 points of dice3_roboflow_v3 left out
	if res.Answer == Unsure && !rd.wholeSeen {
		return rd.readSteep(img, res)
	}
	return res
}

// readSteep reads img again, on the grey and then on each colour plane,
// looking for pips foreshortened further than a face is usually seen (see
// steepRatio), and returns the first value read, or res. Seen from the
// side, a steep top face's pips are thin slivers, as thin as the glints
// and the edges of a die's rounded corners; looked for on every image,
// these would break up the faces that are read now, so they are looked
// for only when nothing else was read and no other die was seen. Nor are
// they looked for when a whole face of two or more pips, no steeper than
// Opts.MaxTilt, was found and not read (it was not on top, say): the image
// was then unsure for a reason thinner pips do not undo, and the slivers
// of the steep face above a face seen square on would be read instead of
// it. A steeper whole face may be the rounder pips of a steep face whose
// thinner ones were missed (the four nearer rows of a six), and so may two
// pips closer than a two's (two pips of a row). On a steep face, a six
// whose pips the sheen smears across their foreshortening is read too
// (see latticeShape).
//
// When no plane reads a value, the plane that found the most pips is read
// once more with the pips that only the others found added: a pip's
// contrast with the face differs from plane to plane (the glare on a
// glossy face whitens one pip in grey, the body's colour bleeds into
// another in colour), so that each plane may miss a different pip of a
// steep six.
func (rd *Reader) readSteep(img image.Image, res Result) Result {
	rd.s.steep = true
	defer func() { rd.s.steep, rd.seen = false, rd.seen[:0] }()
	rd.seen, rd.others = rd.seen[:0], rd.others[:0]
	best, most := planeGrey, 0
	for _, kind := range [...]planeKind{planeGrey, planeBody, planeWeak, planeValue} {
		g, ok := rd.plane(img, kind)
		if !ok {
			continue
		}
		if r := rd.onTopOf(img, rd.read(g, kind)); r.Answer == Value {
			return r
		}
		if len(rd.s.pips) > most {
			best, most = kind, len(rd.s.pips)
		}
		rd.others = append(rd.others, rd.s.pips...)
	}
	if most == 0 {
		return res
	}
	// the pips of the other planes, those of the best one found again
	rd.seen, rd.others = rd.others, rd.seen[:0]
	g, _ := rd.plane(img, best)
	if r := rd.onTopOf(img, rd.read(g, best)); r.Answer == Value {
		return r
	}
	return res
}

// plane returns the plane of img of the given kind: rd.grey or a colour
// plane (see colourPlane).
func (rd *Reader) plane(img image.Image, kind planeKind) (*image.Gray, bool) {
	if kind == planeGrey {
		return rd.grey, true
	}
	return rd.colourPlane(img, kind)
}

// overlapsAny reports whether a pip of ps lies as near q as the larger
// major semi-axis of the two: the same pip found on two planes.
func overlapsAny(ps []pip, q pip) bool {
	for i := range ps {
		if sq(q.x-ps[i].x)+sq(q.y-ps[i].y) < sq(max(q.a, ps[i].a)) {
			return true
		}
	}
	return false
}

// onTopOf returns res, a reading of img, or Unsure when the camera is
// oblique and the die's outline does not put the face read on top, or is
// needed to confirm a steep face and cannot be told. As the learned
// reader's witness it still keeps wrong values out: without it, each
// source left out of the networks' training, 2 more on awsvegas_dice and
// 1 on skovy_catan_webcam.
func (rd *Reader) onTopOf(img image.Image, res Result) Result {
	if res.Answer != Value || !rd.opts.Oblique {
		return res
	}
	box, ok := rd.outline(img, rd.faceC, rd.faceR)
	if ok && !rd.onTop(box) || !ok && rd.confirm {
		return Result{Answer: Unsure, Confidence: 0.5, Box: res.Box, Tilt: res.Tilt}
	}
	return res
}

// DieSize is the die's width in pixels the reader was given (Opts.DieSize).
func (rd *Reader) DieSize() float64 { return rd.opts.DieSize }

// Read reads the die in g (within Opts.Tray when set). A reading that
// only a colour image's outline of the die could confirm (see
// [Reader.ReadImage]) is answered Unsure.
func (rd *Reader) Read(g *image.Gray) Result {
	res := rd.read(g, planeGrey)
	if res.Answer == Value && rd.confirm {
		return Result{Answer: Unsure, Confidence: 0.5, Box: res.Box, Tilt: res.Tilt}
	}
	return res
}

// read reads the die in g, a plane of the given kind; rd.confirm says
// whether the value needs the die's outline to stand.
func (rd *Reader) read(g *image.Gray, kind planeKind) Result {
	rd.confirm = false
	if !rd.opts.Tray.Empty() {
		if sub, ok := g.SubImage(rd.opts.Tray).(*image.Gray); ok && !sub.Rect.Empty() {
			g = sub
		}
	}
	rd.g = g
	rd.off = g.PixOffset(g.Rect.Min.X, g.Rect.Min.Y)
	minD, maxD := 0.0, 0.0
	if ds := rd.opts.DieSize; ds > 0 {
		minD, maxD = 0.08*ds, 0.35*ds
	}
	rd.s.oblique = rd.opts.Oblique
	rd.s.kind = kind
	ps := rd.detect(&rd.s, g, minD, maxD)
	for _, q := range rd.seen {
		if !overlapsAny(ps, q) {
			ps = append(ps, q)
		}
	}
	rd.s.pips = ps
	if len(ps) == 0 {
		return Result{Answer: None, Confidence: 0.9}
	}
	faces := rd.findFaces()
	for i := range faces {
		// a two whose pips are closer than a two's is a row of a larger
		// face whose other pips were missed (see decide), not a whole one
		if f := &faces[i]; f.ok && !f.partial && f.n >= 2 && f.tilt <= rd.opts.MaxTilt && !(f.n == 2 && f.q < minTwoSpacing*f.d) {
			rd.wholeSeen = true
		}
	}
	res := rd.decide(faces)
	if rd.img != nil {
		for i := range faces {
			for _, j := range faces[i].idx {
				rd.prior = append(rd.prior, ps[j])
			}
			rd.priorEnd = append(rd.priorEnd, len(rd.prior))
			rd.priorKind = append(rd.priorKind, kind)
		}
	}
	if !res.Box.Empty() {
		res.Box = res.Box.Add(g.Rect.Min).Intersect(g.Rect)
	}
	if res.Answer == Value {
		rd.faceC = rd.faceC.add(vec{float64(g.Rect.Min.X), float64(g.Rect.Min.Y)})
	}
	return res
}

// findFaces groups compatible pips into faces and checks each.
func (rd *Reader) findFaces() []face {
	ps := rd.s.pips
	n := len(ps)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	strict := true
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if compatible(&ps[i], &ps[j], strict) {
				parent[find(i)] = find(j)
			}
		}
	}
	groups := map[int][]int{}
	for i := 0; i < n; i++ {
		r := find(i)
		groups[r] = append(groups[r], i)
	}
	keys := make([]int, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	taken := make([]bool, n)
	var list [][]int
	for _, k := range keys {
		idx := groups[k]
		if rd.opts.Oblique && len(idx) >= 2 && len(idx) <= maxSplit {
			if f := rd.checkFace(idx); !f.ok || f.partial {
				if parts := rd.adopt(idx, keys, groups, taken); parts != nil {
					list = append(list, parts...)
					continue
				}
				list = append(list, rd.splitGroup(idx)...)
				continue
			}
		}
		list = append(list, idx)
	}
	kept := list[:0]
	for _, idx := range list {
		if len(idx) != 1 || !taken[idx[0]] {
			kept = append(kept, idx)
		}
	}
	list = kept
	var faces []face
	for _, idx := range list {
		f := rd.checkFace(idx)
		if f.n > 6 || !f.ok {
			f.ok = false
			// a rough centre and size for grouping
			var c vec
			var d float64
			for _, i := range idx {
				c = c.add(ps[i].pos())
				d += ps[i].d()
			}
			f.c = c.mul(1 / float64(len(idx)))
			f.d = d / float64(len(idx))
			var rr float64
			for _, i := range idx {
				rr = maxf(rr, dist(ps[i].pos(), f.c)+ps[i].a)
			}
			f.r = maxf(rr, 2*f.d)
			f.ratio = 0
			for _, i := range idx {
				f.ratio += ps[i].b / ps[i].a
			}
			f.ratio /= float64(len(idx))
			f.con = 0
			for _, i := range idx {
				f.con += ps[i].contrast()
			}
			f.con /= float64(len(idx))
			f.dark = ps[idx[0]].dark
		}
		if f.ok && !f.partial && rd.pastBorder(&f, rd.opts.Oblique && f.n >= 3) {
			// (as the learned reader's witness, without this a wrong value
			// more on skovy_catan_webcam left out of the networks' training)
			// seen from the side, the face's outline is foreshortened as
			// its pips are; one or two pips say too little of their
			// face's extent, but a one that reaches past the border only
			// unforeshortened may be whole (see decide)
			f.partial = true
			f.squareCut = rd.opts.Oblique && f.n == 1 && !rd.pastBorder(&f, true)
		}
		faces = append(faces, f)
	}
	return faces
}

// adopt looks, for the group idx of four to eight pips that is not one
// face, for a pip left alone by the grouping that completes it into a
// whole face of four or more pips: seen from the side, a corner pip nearer
// or farther than the others, or on a glare, is foreshortened differently
// enough to be kept apart. The pip must be a corner of the face (a five's
// centre would be a blank of a four). The face must hold every pip of idx
// but those of a side face that the grouping took in instead, which must
// lie below the face and beyond it in its plane, and the pieces of its own
// pips that a speck or a glint split off. The lone pips are the groups
// (keyed in the order keys) of one pip not yet taken. It returns the face
// and the side face, if any, marking the adopted pip taken, or nil.
func (rd *Reader) adopt(idx, keys []int, groups map[int][]int, taken []bool) [][]int {
	ps := rd.s.pips
	n := len(idx)
	if n < 4 || n > maxAdopt {
		return nil
	}
	for _, k := range keys {
		if len(groups[k]) != 1 || taken[groups[k][0]] {
			continue
		}
		s := groups[k][0]
		near := false
		for _, i := range idx {
			if compatible(&ps[i], &ps[s], false) {
				near = true
				break
			}
		}
		if !near {
			continue
		}
		// the group less the fewest pips first: every pip it keeps is
		// evidence for the face
		for k := min(n, 5); k >= max(3, n-maxSideFace); k-- {
			pick := make([]int, k)
			for i := range pick {
				pick[i] = i
			}
			for {
				face, rest := make([]int, 0, k+1), make([]int, 0, n-k)
				for i, j := 0, 0; i < n; i++ {
					if j < k && pick[j] == i {
						face = append(face, idx[i])
						j++
					} else {
						rest = append(rest, idx[i])
					}
				}
				face = append(face, s)
				if side, ok := rd.adoptable(face, rest, s); ok {
					taken[s] = true
					if len(side) == 0 {
						return [][]int{face}
					}
					return [][]int{face, side}
				}
				if !nextCombination(pick, n) {
					break
				}
			}
		}
	}
	return nil
}

// maxAdopt is the largest group that adopt searches, and maxSideFace the
// most pips of a side face it leaves out of it.
const (
	maxAdopt    = 8
	maxSideFace = 3
)

// adoptable reports whether face, which holds the adopted pip s, is a
// whole face of which s is a corner, with the pips rest of a side face
// below it (see adopt), and returns those of rest that are not pieces of
// the face's pips (see fragment). As splitTop does, it asks the side face's
// pips to lie well below the face's centre and beyond the face in its
// plane, but no pattern of them: some of its pips may be lost, and where
// they lie is what shows they are none of the face's.
func (rd *Reader) adoptable(face, rest []int, s int) ([]int, bool) {
	ps := rd.s.pips
	f := rd.checkFace(face)
	if !f.ok || f.partial || f.n == 5 && dist(ps[s].pos(), f.c) < 0.5*f.q {
		return nil, false
	}
	var side []int
	for _, j := range rest {
		if rd.fragment(&f, j) {
			continue
		}
		if ps[j].y < f.c.y+0.6*f.r || !rd.outside(f, ps[j].pos()) {
			return nil, false
		}
		side = append(side, j)
	}
	return side, true
}

// fragment reports whether the pip j, not one of the face f's, lies nearer
// one of them in the plane of the face than half the spacing of a face's
// pips: no face holds two pips that close, so j is a piece of that pip
// that a speck of noise or a glint split off, not a pip of its own.
func (rd *Reader) fragment(f *face, j int) bool {
	ps := rd.s.pips
	fr := faceFrame{u: f.u, r: maxf(f.ratio, 0.3)}
	for _, i := range f.idx {
		if ps[i].dark == ps[j].dark && fr.unproj(ps[j].pos().sub(ps[i].pos())).len() < 0.5*f.q {
			return true
		}
	}
	return false
}

// maxSplit is the largest group of pips that splitGroup searches.
const maxSplit = 12

// splitGroup looks, in a group of pips that is not one face, for a whole
// face whose pattern checks and which holds no other pip of the group
// inside it (seen from the side, the pips of two faces of a die join into
// one group). Only faces of four to six pips are looked for: fewer pips
// may be part of a bigger face, unless the rest of the group lies below
// them and is a face of its own (see splitTop). It returns that face and
// the splits of the rest, largest faces first, or the group as it is.
func (rd *Reader) splitGroup(idx []int) [][]int {
	ps := rd.s.pips
	n := len(idx)
	var sub [6]int
	var bestSub []int
	bestScore := math.Inf(1)
	for k := min(6, n-1); k >= 4 && bestSub == nil; k-- {
		// every k-subset, in lexicographic order
		var pick [6]int
		for i := 0; i < k; i++ {
			pick[i] = i
		}
		for {
			for i := 0; i < k; i++ {
				sub[i] = idx[pick[i]]
			}
			f := rd.checkFace(sub[:k])
			if f.ok && !f.partial {
				inside := false
				fr := faceFrame{u: f.u, r: maxf(f.ratio, 0.3)}
				for _, j := range idx {
					in := false
					for i := 0; i < k; i++ {
						if sub[i] == j {
							in = true
						}
					}
					if !in && fr.unproj(ps[j].pos().sub(f.c)).len() < 1.05*f.r {
						inside = true
						break
					}
				}
				if sc := f.blank + f.resid; !inside && sc < bestScore {
					bestScore = sc
					bestSub = append(bestSub[:0], sub[:k]...)
				}
			}
			if !nextCombination(pick[:k], n) {
				break
			}
		}
	}
	if bestSub == nil {
		if top, rest := rd.splitTop(idx); top != nil {
			return [][]int{top, rest}
		}
		return [][]int{idx}
	}
	var rest []int
	for _, j := range idx {
		in := false
		for _, i := range bestSub {
			if i == j {
				in = true
			}
		}
		if !in {
			rest = append(rest, j)
		}
	}
	out := [][]int{bestSub}
	if len(rest) >= 2 {
		return append(out, rd.splitGroup(rest)...)
	}
	if len(rest) == 1 {
		out = append(out, rest)
	}
	return out
}

// splitTop looks, in a group of pips that is not one face, for a face of
// one to three pips with every other pip of the group more than 0.6 half
// sides below its centre, or a whole half side below a one's pip (seen
// from the side of an upright photo, the side faces lie below the top
// face) and either forming a whole face of its own
// or lying wholly beyond the top face in its plane (a side face of which
// some pips were lost: its pattern says nothing, but the top's blanks have
// shown those pips are none of the top's): the group is then the top face
// and one side face. A split whose side face is whole is looked for first,
// as it accounts for every pip of the group; only such a split is made
// with a top of one pip, whose blanks need not be clear, only no darker
// than maxLoneBlank (glare or a pip found in part darken them): whether it
// is a one is then for the pips seen around it to show (see oneShown). A
// top of two or three pips must check. It returns both, or nil.
func (rd *Reader) splitTop(idx []int) (top, rest []int) {
	if n := len(idx); n < 3 || n > 9 {
		return nil, nil
	}
	for _, whole := range [...]bool{true, false} {
		for k := 3; k >= 1; k-- {
			if top, rest := rd.splitTopOf(idx, k, whole); top != nil {
				return top, rest
			}
		}
	}
	return nil, nil
}

// splitTopOf looks for the split of splitTop with a top face of k pips
// and, if whole, a side face that is whole.
func (rd *Reader) splitTopOf(idx []int, k int, whole bool) (top, rest []int) {
	if k == 1 && !whole {
		return nil, nil
	}
	ps := rd.s.pips
	n := len(idx)
	var pick [3]int
	for i := 0; i < k; i++ {
		pick[i] = i
	}
	for {
		sub := make([]int, 0, 3)
		in := make([]bool, n)
		for i := 0; i < k; i++ {
			sub = append(sub, idx[pick[i]])
			in[pick[i]] = true
		}
		f := rd.checkFace(sub)
		if f.ok && !f.partial || k == 1 && !f.partial && f.blank < maxLoneBlank {
			// a side face lies past the top face's edge; a one's pip is
			// its face's centre, and a pip less than a half side below it
			// may still be of its face (the other pip of a two, say), so
			// past the farthest the face can reach, seen square on
			reach := 0.6 * f.r
			if k == 1 {
				reach = f.r
			}
			var others []int
			below := true
			for j := 0; j < n; j++ {
				if in[j] {
					continue
				}
				others = append(others, idx[j])
				if ps[idx[j]].y < f.c.y+reach {
					below = false
				}
			}
			if below && len(others) >= 1 && len(others) <= 6 {
				if whole && len(others) >= 2 {
					if o := rd.checkFace(others); o.ok && !o.partial {
						return sub, others
					}
				} else if !whole && rd.allOutside(f, others) {
					return sub, others
				}
			}
		}
		if !nextCombination(pick[:k], n) {
			return nil, nil
		}
	}
}

// allOutside reports whether every pip of idx lies beyond the face f, in
// the plane of the face.
func (rd *Reader) allOutside(f face, idx []int) bool {
	for _, i := range idx {
		if !rd.outside(f, rd.s.pips[i].pos()) {
			return false
		}
	}
	return true
}

// outside reports whether the point p lies beyond the face f, in the
// plane of the face.
func (rd *Reader) outside(f face, p vec) bool {
	fr := faceFrame{u: f.u, r: maxf(f.ratio, 0.3)}
	return fr.unproj(p.sub(f.c)).len() >= 1.05*f.r
}

// compatible reports whether two pips may be on the same face.
func compatible(p, q *pip, strict bool) bool {
	if p.dark != q.dark {
		return false
	}
	ra := p.a / q.a
	if ra < 1 {
		ra = 1 / ra
	}
	if ra > 1.6 {
		return false
	}
	rc := p.contrast() / q.contrast()
	if rc < 0.5 || rc > 2 {
		return false
	}
	dx, dy := p.x-q.x, p.y-q.y
	lim := 4.8 * (p.a + q.a)
	if dx*dx+dy*dy > lim*lim {
		return false
	}
	if strict {
		rp, rq := p.b/p.a, q.b/q.a
		if absf(rp-rq) > 0.2 {
			return false
		}
		if rp < 0.85 && rq < 0.85 && absf(p.ux*q.ux+p.uy*q.uy) < 0.9 {
			return false
		}
	}
	return true
}

// decide turns the faces into one answer.
func (rd *Reader) decide(faces []face) Result {
	if len(faces) == 0 {
		return Result{Answer: None, Confidence: 0.9}
	}
	// group faces into dice: faces closer than about a die apart
	n := len(faces)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			i = parent[i]
		}
		return i
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			rs := faces[i].d / faces[j].d
			if rs <= 0.5 || rs >= 2 {
				continue
			}
			if gap := dist(faces[i].c, faces[j].c) / (faces[i].r + faces[j].r); gap < 1.15 || gap < maxJoinGap && rd.oneBody(&faces[i], &faces[j]) {
				parent[find(i)] = find(j)
			}
		}
	}
	type die struct {
		faces   []int
		pips    int
		valid   int
		partial bool
	}
	dice := map[int]*die{}
	var order []int
	for i := range faces {
		r := find(i)
		d := dice[r]
		if d == nil {
			d = &die{}
			dice[r] = d
			order = append(order, r)
		}
		d.faces = append(d.faces, i)
		d.pips += len(faces[i].idx)
		if faces[i].ok && !faces[i].partial {
			d.valid++
		}
		if faces[i].partial {
			d.partial = true
		}
	}
	// dice worth counting: a valid face, or several pips not cut by the
	// border; a second die must look like the first (pip size and
	// contrast), so that clutter is not taken for a die. Its pips may be
	// of the other polarity (light pips on a dark die beside dark pips on
	// a light one: dice of two colours thrown together) only if it shows
	// a whole face of two or more pips: a lone light pip beside dark ones
	// is as often a glint.
	var real []*die
	var main *die
	mainScore := -1.0
	for _, r := range order {
		d := dice[r]
		for _, i := range d.faces {
			f := &faces[i]
			if sc := dieScore(f); sc > mainScore {
				mainScore, main = sc, d
			}
		}
	}
	mf := bestFace(faces, main.faces)
	for _, r := range order {
		d := dice[r]
		if d == main {
			real = append(real, d)
			continue
		}
		if d.valid == 0 && (d.pips < 2 || d.partial) {
			continue
		}
		f := bestFace(faces, d.faces)
		rs := f.d / mf.d
		if f.n == 1 || mf.n == 1 {
			if rs < 0.55 || rs > 1.9 {
				continue
			}
		} else if rs < 0.65 || rs > 1.55 {
			continue
		}
		if f.con < 0.5*mf.con || f.dark != mf.dark && (!f.ok || f.partial || f.n < 2) {
			continue
		}
		real = append(real, d)
	}
	if len(real) == 0 {
		return Result{Answer: Unsure, Confidence: 0.5}
	}
	if len(real) > 1 {
		var box image.Rectangle
		for _, d := range real {
			for _, i := range d.faces {
				box = box.Union(faceBox(&faces[i]))
			}
		}
		return Result{Answer: Multi, Confidence: 0.8, Box: box}
	}
	d := real[0]
	box := image.Rectangle{}
	for _, i := range d.faces {
		box = box.Union(faceBox(&faces[i]))
	}
	if rd.opts.Oblique {
		// a one whose blanks are darker than a face's may still be shown
		// alone by the pips seen around it; and a one whose face,
		// guessed from its pip as if seen square on, reaches past the
		// image border but, foreshortened as its pip is, does not, is
		// whole if they show it alone: a pip's size says little of its
		// face's (the one of some dice is much bigger than their other
		// pips), and a corner pip of another face whose other pips were
		// found at another foreshortening would pass for a whole one
		// but for the pips around it
		for _, i := range d.faces {
			f := &faces[i]
			if f.n != 1 || f.r < minObliqueFace || f.con < 40 {
				continue
			}
			if !f.ok && !f.partial && f.blank < maxLoneBlank {
				f.ok = rd.oneShown(f, faces)
			} else if f.ok && f.squareCut {
				f.partial = !rd.oneShown(f, faces)
			}
		}
	}
	// the top face: the best whole face; with an oblique camera, the least
	// tilted whole face of the same polarity
	best := -1
	lone := false // the top face is a one read for its side faces
	for _, i := range d.faces {
		f := &faces[i]
		if !f.ok || f.partial {
			continue
		}
		if best < 0 || dieScore(f) > dieScore(&faces[best]) {
			best = i
		}
	}
	if best >= 0 && rd.opts.Oblique {
		// seen from the side of an upright photo, the top face is the
		// highest face of the die; if something pip-like of the same kind
		// is above it (not cut by the image border, not parted from it by
		// the gap between two dice), the top face was not found
		for _, i := range d.faces {
			f := &faces[i]
			if !f.ok || f.partial || f.dark != faces[best].dark {
				continue
			}
			if f.c.y < faces[best].c.y {
				best = i
			}
		}
		// (measured as the learned reader's witness: without loneTop, one
		// die less of dice3_roboflow_v3 left out of the networks' training)
		if t := rd.loneTop(faces, d.faces, best); t >= 0 {
			best, lone = t, true
		}
		b := &faces[best]
		// a whole face above the one read, of its pips' size, is the top
		// face seen beyond a side face (as the learned reader's witness,
		// without it a wrong value more among awsvegas_dice's dice under
		// 40 px, left out of the networks' training)
		for _, i := range d.faces {
			o := &faces[i]
			if i == best || o.dark != b.dark {
				continue
			}
			if rs := o.d / b.d; rs < 0.5 || rs > 2 {
				continue
			}
			if !o.partial && o.c.y < b.c.y-0.25*b.r && absf(o.c.x-b.c.x) < 1.2*b.r && !rd.apart(b, o) {
				return Result{Answer: Unsure, Confidence: 0.5, Box: box}
			}
		}
		// and so is a face or a pair of pips above it that was not grouped
		// with this die for its pip size (a face seen from its edge, a
		// shadow taken for a pip): without it, one die less of
		// skovy_catan_webcam left out
		for i := range faces {
			o := &faces[i]
			if i == best || o.dark != b.dark || o.partial || (!o.ok && len(o.idx) < 2) {
				continue
			}
			if o.c.y < b.c.y-0.25*b.r && (absf(o.c.x-b.c.x) < 1.2*b.r || o.ok && absf(o.c.x-b.c.x) < b.r+o.r) && dist(o.c, b.c) < 1.15*(o.r+b.r) && !rd.apart(b, o) {
				return Result{Answer: Unsure, Confidence: 0.5, Box: box}
			}
		}
	}
	// the flattest pips of the die, valid or not
	if best < 0 {
		minRatio := 1.0
		for _, i := range d.faces {
			minRatio = minf(minRatio, faces[i].ratio)
		}
		maxRatio := 0.0
		for _, i := range d.faces {
			maxRatio = maxf(maxRatio, faces[i].ratio)
		}
		if !rd.opts.Oblique && acosDeg(maxRatio/0.97) > rd.opts.MaxTilt+5 {
			return Result{Answer: Edge, Confidence: 0.6, Box: box, Tilt: acosDeg(maxRatio / 0.97)}
		}
		return Result{Answer: Unsure, Confidence: 0.5, Box: box}
	}
	f := &faces[best]
	if f.tilt > rd.opts.MaxTilt && rd.opts.Oblique {
		// from the side, a steep face may be a side face: do not guess,
		// unless the die's outline says it is the top
		if f.tilt > maxSteepTilt {
			return Result{Answer: Unsure, Confidence: 0.5, Box: box, Tilt: f.tilt}
		}
		// (as a witness: without it, one die less of dice3_roboflow_v3
		// left out)
		rd.confirm = !rd.stacked(faces, d.faces, best)
	}
	// (as the learned reader's witness: without it, a wrong value more on
	// awsvegas_dice as trained on)
	if rd.opts.Oblique && rd.spread(faces, d.faces, f) > maxSpread {
		// pips beyond the die's reach: dice in a pile were taken as one,
		// and this face may be another die's side face
		return Result{Answer: Unsure, Confidence: 0.5, Box: box, Tilt: f.tilt}
	}
	if !rd.opts.Oblique && f.tilt > rd.opts.MaxTilt {
		return Result{Answer: Edge, Confidence: clamp01(0.5 + (f.tilt-rd.opts.MaxTilt)/30), Box: box, Tilt: f.tilt}
	}
	// another face of the same die as flat as this one: which is on top?
	for _, i := range d.faces {
		if i == best {
			continue
		}
		o := &faces[i]
		if o.dark != f.dark {
			continue // highlights on the face, or the face itself
		}
		if rs := o.d / f.d; rs < 0.6 || rs > 1.65 {
			continue
		}
		rc := o.con / f.con
		if rc < 0.5 {
			continue // faint clutter
		}
		if rc > 2 && len(o.idx) >= 2 {
			// the die's clearest pips are not the face being read
			if !rd.opts.Oblique && o.ratio < 0.85 {
				return Result{Answer: Edge, Confidence: 0.6, Box: box, Tilt: acosDeg(o.ratio)}
			}
			return Result{Answer: Unsure, Confidence: 0.5, Box: box}
		}
		if rc > 2 {
			continue
		}
		if !rd.opts.Oblique {
			// straight down, a flat die shows one face only: a second one
			// means the die leans (or two round faces: cannot tell)
			if o.ratio < 0.85 || f.tilt > 12 {
				return Result{Answer: Edge, Confidence: 0.6, Box: box, Tilt: maxf(f.tilt, acosDeg(o.ratio))}
			}
			return Result{Answer: Unsure, Confidence: 0.5, Box: box}
		}
	}
	if f.n == 1 {
		// a one's blanks are all its pattern says: judge them in colour
		// too, where print is told from a pip
		f.blank = rd.colourBlank(f)
	}
	shown := false
	if f.n == 1 && !lone && rd.opts.Oblique {
		shown = rd.oneShown(f, faces)
	}
	conf := 1.0
	if lone || shown {
		// the side faces leave one or six, or no other face's pips are
		// seen around the pip: the blanks need only tell a one from a
		// six
		conf -= f.blank / 2
	} else {
		conf -= 1.2 * f.blank
	}
	conf -= 1.5 * f.resid
	conf -= clamp01((40 - f.con) / 40)
	if rd.opts.Oblique {
		// from the side every top face is foreshortened: its tilt is the
		// camera's, not a doubt; but a face of one or two pips has little
		// pattern to check, and its blanks must be clear
		if f.n <= 2 && !lone && !shown {
			conf -= 2.4 * f.blank
		}
	} else if f.tilt > 0.6*rd.opts.MaxTilt {
		conf -= 0.3 * (f.tilt - 0.6*rd.opts.MaxTilt) / (0.4 * rd.opts.MaxTilt)
	}
	conf = clamp01(conf)
	if conf < rd.opts.MinConfidence {
		return Result{Answer: Unsure, Confidence: 1 - conf, Box: box, Tilt: f.tilt}
	}
	// kept as a witness's guards: without partSeen a wrong value more
	// on skovy_catan_webcam left out; without rowsGoOn on a crop of
	// banachowicz_rpgsets brightened by 15%
	if rd.partSeen(f) || rd.rowsGoOn(f) {
		return Result{Answer: Unsure, Confidence: 0.5, Box: box, Tilt: f.tilt}
	}
	rd.faceR, rd.faceC, rd.faceH = f.r, f.c, rd.halfHeight(f)
	return Result{Answer: Value, Value: f.value, Confidence: conf, Box: box, Tilt: f.tilt}
}

// halfHeight returns the half height of the face f as seen, from its
// pips' foreshortening and from the spread of their centres, whichever is
// more (the pips' shape may be blurred, and the pips of a two or three lie
// on one diagonal only), or 0 for a one (its pip says little of its face's
// size).
func (rd *Reader) halfHeight(f *face) float64 {
	if f.n < 2 {
		return 0
	}
	y0, y1 := math.Inf(1), math.Inf(-1)
	for _, i := range f.idx {
		y0, y1 = minf(y0, rd.s.pips[i].y), maxf(y1, rd.s.pips[i].y)
	}
	// the corner pips lie at q along each side from the centre, the
	// face's edges at r
	return maxf(f.r*f.ratio, (y1-y0)/2*f.r/f.q)
}

// loneTop looks, among the faces idx of a die whose highest whole face is
// best, for a single pip above every whole face, with two whole faces
// below it, one to each side (a cube seen from above shows its top face
// above two side faces, one to the left, one to the right), whose values
// leave only one or six for the top: two faces that meet at a corner are
// neither equal nor opposite (summing to seven), and the top is neither
// of them nor opposite to either. Such a pip is the top's one (a six
// shows no lone pip) even if its blanks are not clear: a logo, a
// highlight. It returns the pip's face, or -1.
func (rd *Reader) loneTop(faces []face, idx []int, best int) int {
	b := &faces[best]
	t := -1
	for _, i := range idx {
		f := &faces[i]
		if f.n != 1 || f.value != 1 || f.partial || f.dark != b.dark || f.blank >= maxLoneBlank || f.c.y > b.c.y-0.25*f.r {
			continue
		}
		if t < 0 || f.c.y < faces[t].c.y {
			t = i
		}
	}
	if t < 0 {
		return -1
	}
	top := &faces[t]
	left, right := 0, 0
	for _, i := range idx {
		f := &faces[i]
		if !f.ok || f.partial || f.dark != top.dark || i == t {
			continue
		}
		if f.c.y < top.c.y || f.value == 1 || f.value == 6 {
			return -1
		}
		switch {
		case f.c.x < top.c.x && left == 0:
			left = f.value
		case f.c.x > top.c.x && right == 0:
			right = f.value
		default:
			return -1
		}
	}
	if left == 0 || right == 0 || left == right || left+right == 7 {
		return -1
	}
	return t
}

// stacked reports whether the face best, of two or more pips, has a
// whole face of the same die below it: seen from the side of an upright
// photo, the side faces stand side by side below the top face, and no
// face shows below a side face, so a face with another below it is the
// top, however steep. A face of one pip, or a two that may be a part of
// a bigger top whose other pips were lost (see wholeTwo), is left to the
// die's outline.
func (rd *Reader) stacked(faces []face, idx []int, best int) bool {
	b := &faces[best]
	if b.n < 2 || b.n == 2 && !rd.wholeTwo(b) {
		return false
	}
	for _, i := range idx {
		o := &faces[i]
		if i == best || !o.ok || o.partial || o.dark != b.dark || o.n < 2 {
			continue
		}
		if o.c.y > b.c.y+0.5*b.r && absf(o.c.x-b.c.x) < b.r+o.r {
			return true
		}
	}
	return false
}

// wholeTwo reports whether the two f shows no shade of the pips of a
// bigger face it could be a part of: a four, five or six whose other pips
// were lost in the blur of a steep face. Such a pip still shades its place
// (a fifth of the way to a pip or more), which lies at the two's blanks
// when its pips are opposite corners of that face, or, in the face's
// plane, half the pips' distance across the line of its pips (a six's
// middle row and a row beside it), or all of it on the far side (the far
// side of a four or six whose near side's pips were found: the near pips,
// closest to the camera, are the clearest, and a side's length nearer
// lies on a side face).
func (rd *Reader) wholeTwo(f *face) bool {
	if f.blank > maxWholeTwoBlank {
		return false
	}
	p0, p1 := rd.s.pips[f.idx[0]].pos(), rd.s.pips[f.idx[1]].pos()
	across := faceFrame{u: f.u, r: maxf(f.ratio, 0.3)}.rotFace(p1.sub(p0))
	if across.y > 0 {
		across = across.mul(-1)
	}
	for _, p := range [2]vec{p0, p1} {
		for _, k := range [3]float64{-0.5, 0.5, 1} {
			if v, ok := rd.darkness(p.add(across.mul(k)), *f); !ok || v > maxWholeTwoBlank {
				return false
			}
		}
	}
	return true
}

// maxWholeTwoBlank is the darkest place (0: the face's colour, 1: a
// pip's) where a two that a face below confirms as the top may have a
// lost pip of a bigger face.
const maxWholeTwoBlank = 0.1

// maxLoneBlank is the darkest blank (0: the face's colour, 1: a pip's)
// around a lone pip that loneTop takes as a one: darker than halfway to a
// pip, it may be a six's pip.
const maxLoneBlank = 0.5

// maxSteepTilt is the largest tilt of a top face read from the side, when
// the die's outline confirms it (a camera about 20° above the table).
const maxSteepTilt = 70

// minObliqueFace is the smallest half side, in pixels, of a face read from
// the side (a die about 20 px wide).
const minObliqueFace = 8

// minTwoSpacing is the smallest offset of a two's pips from its centre,
// along a side and in pip diameters, read from the side.
const minTwoSpacing = 0.85

// spread returns how far, in half sides of the face f, the farthest pip
// of the same kind among the faces idx lies from f's centre.
func (rd *Reader) spread(faces []face, idx []int, f *face) float64 {
	s := 0.0
	for _, i := range idx {
		for _, j := range faces[i].idx {
			if p := &rd.s.pips[j]; p.dark == f.dark {
				s = maxf(s, dist(p.pos(), f.c)/f.r)
			}
		}
	}
	return s
}

// maxSpread is the farthest, in half sides of the top face, that a pip of
// the same die is looked for: seen from the side, the pips of the side
// faces lie within about 2.5 half sides of the top face's centre. Pips
// farther away belong to another die that the grouping joined to this one.
const maxSpread = 3.5

// apart reports whether every pip of o is cut off from the face f by
// something darker than f (for dark pips; lighter for light ones) that is
// no pip: the gap between two dice, or a die's outline and its shadow.
func (rd *Reader) apart(f, o *face) bool {
	ps := rd.s.pips
	var in, ring float64
	for _, i := range f.idx {
		in += ps[i].in
		ring += ps[i].ring
	}
	in /= float64(len(f.idx))
	ring /= float64(len(f.idx))
	if absf(ring-in) < 1 {
		return false
	}
	g := rd.g
	w, h := g.Rect.Dx(), g.Rect.Dy()
	half := int(maxf(1, 0.15*f.d))
	onPip := func(p vec) bool {
		for _, l := range [2]*face{f, o} {
			for _, i := range l.idx {
				q := &ps[i]
				if dist(p, q.pos()) < q.a+1 {
					return true
				}
			}
		}
		return false
	}
	for _, j := range o.idx {
		to := ps[j].pos()
		L := dist(f.c, to)
		steps := int(L / maxf(1, 0.25*f.d))
		cut := false
		for k := 1; k < steps && !cut; k++ {
			p := f.c.add(to.sub(f.c).mul(float64(k) / float64(steps)))
			if onPip(p) {
				continue
			}
			x0, y0 := int(p.x+0.5)-half, int(p.y+0.5)-half
			x1, y1 := x0+2*half+1, y0+2*half+1
			if x0 < 0 || y0 < 0 || x1 > w || y1 > h {
				continue
			}
			v := rd.meanRect(g, x0, y0, x1, y1)
			if (v-in)/(ring-in) < apartLevel {
				cut = true
			}
		}
		if !cut {
			return false
		}
	}
	return true
}

// oneBody reports whether the faces f and o, seen from the side a little
// farther apart than the faces of one die usually are, are still the faces
// of one die: both whole faces of two or more pips, of pips alike enough in
// size to pass for a second die (so that the question arises), with no gap
// between dice on the way from either to the other. A die seen from the
// side shows its top and a side face one above the other, and a big die's
// faces stand farther apart than their pips make them look; two dice are
// parted by the table between them unless they touch.
func (rd *Reader) oneBody(f, o *face) bool {
	if !rd.opts.Oblique {
		return false
	}
	if rs := f.d / o.d; rs < 0.65 || rs > 1.55 {
		return false
	}
	for _, x := range [2]*face{f, o} {
		if !x.ok || x.partial || x.n < 2 {
			return false
		}
	}
	return !rd.apart(f, o) && !rd.apart(o, f)
}

// maxJoinGap is the farthest, in the sum of their half sides, that two
// whole faces with no gap between them are taken for faces of one die (see
// oneBody).
const maxJoinGap = 1.4

// apartLevel is the level (0: pip, 1: face) under which the way between
// two faces is taken as a gap between dice.
const apartLevel = 0.55

func faceBox(f *face) image.Rectangle {
	r := f.r
	return image.Rect(int(math.Floor(f.c.x-r)), int(math.Floor(f.c.y-r)), int(math.Ceil(f.c.x+r)), int(math.Ceil(f.c.y+r)))
}

// dieScore ranks faces for picking the main die: valid whole faces first,
// then by pip count and contrast.
func dieScore(f *face) float64 {
	sc := float64(len(f.idx)) + f.con/100
	if f.ok && !f.partial {
		sc += 100
	}
	return sc
}

func bestFace(faces []face, idx []int) *face {
	var best *face
	for _, i := range idx {
		if best == nil || dieScore(&faces[i]) > dieScore(best) {
			best = &faces[i]
		}
	}
	return best
}

// nextCombination steps pick, the ascending indices of a k-subset of
// 0…n-1, to the next subset in lexicographic order, and reports false after
// the last.
func nextCombination(pick []int, n int) bool {
	k := len(pick)
	i := k - 1
	for i >= 0 && pick[i] == n-k+i {
		i--
	}
	if i < 0 {
		return false
	}
	pick[i]++
	for j := i + 1; j < k; j++ {
		pick[j] = pick[j-1] + 1
	}
	return true
}

// pastBorder reports whether the face f reaches past the border of the
// plane read (by more than a tenth of its half side): as a square of half
// side f.r, or, when foreshortened, as that square foreshortened as its
// pips are.
func (rd *Reader) pastBorder(f *face, foreshortened bool) bool {
	w, h := float64(rd.g.Rect.Dx()), float64(rd.g.Rect.Dy())
	m := 0.1 * f.r
	ex, ey := f.r, f.r
	if foreshortened {
		n := rot90(f.u)
		k := maxf(f.ratio, 0.3)
		ex = f.r * math.Hypot(f.u.x, k*n.x)
		ey = f.r * math.Hypot(f.u.y, k*n.y)
	}
	return f.c.x-ex < -m || f.c.y-ey < -m || f.c.x+ex > w+m || f.c.y+ey > h+m
}

// around returns the square of half side r around c (in the coordinates
// of rd.s.pips), in the image's coordinates, clipped to the region read.
func (rd *Reader) around(c vec, r float64) image.Rectangle {
	return image.Rect(int(c.x-r), int(c.y-r), int(c.x+r)+1, int(c.y+r)+1).Add(rd.g.Rect.Min).Intersect(rd.g.Rect)
}

// sightings returns the pip candidates found on every plane of the colour
// image being read (the grey, and those of colourPlane) within reach of
// the point c (in the coordinates of rd.s.pips, as they are), reach being
// a square of half side r clipped to the region read; nil when no colour
// image is being read. They are searched once for a square that holds
// every other asked for.
func (rd *Reader) sightings(c vec, r float64) []pip {
	if rd.img == nil || rd.grey == nil {
		return nil
	}
	o := rd.g.Rect.Min
	win := rd.around(c, r)
	if rd.sightDone && win.In(rd.sightWin) {
		return rd.sight
	}
	if rd.sightDone {
		win = win.Union(rd.sightWin)
	}
	rd.sightDone, rd.sightWin = true, win
	rd.sight = rd.sight[:0]
	minD, maxD := 0.0, 0.0
	if ds := rd.opts.DieSize; ds > 0 {
		minD, maxD = 0.08*ds, 0.35*ds
	}
	rd.ss.oblique, rd.ss.steep = rd.opts.Oblique, false
	add := func(ps []pip) {
		dx, dy := float64(win.Min.X-o.X), float64(win.Min.Y-o.Y)
		for _, p := range ps {
			p.x, p.y = p.x+dx, p.y+dy
			rd.sight = append(rd.sight, p)
		}
	}
	if sub, ok := rd.grey.SubImage(win).(*image.Gray); ok {
		rd.ss.kind = planeGrey
		add(rd.detect(&rd.ss, sub, minD, maxD))
	}
	// the colour planes are made in rd.pipPix, which may hold the plane
	// being read
	read := rd.pipPix
	for _, kind := range [...]planeKind{planeBody, planeWeak, planeValue} {
		rd.ss.kind = kind
		if f := rd.foundOn(&rd.ss, win); f != nil {
			// a plane read already: no need to make it again
			add(f.pips)
			continue
		}
		if g, ok := rd.colourPlaneMade(win, kind); ok {
			add(rd.detect(&rd.ss, g, minD, maxD))
			continue
		}
		rd.pipPix = rd.spix
		g, ok := rd.colourPlaneIn(rd.img, win, kind)
		rd.spix = rd.pipPix
		if ok {
			add(rd.detect(&rd.ss, g, minD, maxD))
		}
	}
	rd.pipPix = read
	return rd.sight
}

// foundPips are the pips that scratch.detectPips found on one region of a
// plane of the image being read, searched with the given settings.
type foundPips struct {
	kind  planeKind
	steep bool
	rect  image.Rectangle
	pips  []pip
}

// detect returns s.detectPips(g, minD, maxD), g being the part of a plane
// of the image being read that s.kind says. A colour image is searched on
// the same plane and region several times over (by sightings and
// readSteep), so what was found is kept until the next image, and found
// again from there: the pips are those detectPips would find, in s.pips.
func (rd *Reader) detect(s *scratch, g *image.Gray, minD, maxD float64) []pip {
	if rd.img == nil {
		return s.detectPips(g, minD, maxD)
	}
	if f := rd.foundOn(s, g.Rect); f != nil {
		s.pips = append(s.pips[:0], f.pips...)
		return s.pips
	}
	ps := s.detectPips(g, minD, maxD)
	if rd.nFound == len(rd.found) {
		rd.found = append(rd.found, foundPips{})
	}
	f := &rd.found[rd.nFound]
	rd.nFound++
	f.kind, f.steep, f.rect = s.kind, s.steep, g.Rect
	f.pips = append(f.pips[:0], ps...)
	return ps
}

// foundOn returns the pips found on the region r of the plane of s.kind of
// the image being read, searched as s would, or nil when that was not done.
func (rd *Reader) foundOn(s *scratch, r image.Rectangle) *foundPips {
	for i := range rd.found[:rd.nFound] {
		if f := &rd.found[i]; f.kind == s.kind && f.steep == s.steep && f.rect == r {
			return f
		}
	}
	return nil
}

// partSeen reports whether a face found on another plane of the colour
// image being read groups the pips of f otherwise than f does. A pip's
// contrast with its face differs from plane to plane (glare whitens some
// in grey, the body's colour bleeds into others in colour), so that:
//   - a plane may show two pips of a four as a face of their own while
//     another groups all four, though it could not read them: a face
//     holding two or more pips of f and another pip of their size beside
//     or above them (less than minBelow of their diameters below the
//     lowest, down the image: seen from the side, the pips of the side
//     faces below a face are grouped with its pips too), or anywhere when
//     f is a two (two pips, the common remainder of a bigger face, say
//     too little of their face to tell its side faces apart); and for a
//     two, whether or not the plane grouped them in one face (the pips
//     of a face whose strips of glare and pip differ in size are left
//     apart);
//   - a plane may read the top face's pip and a side face's as a two while
//     another groups the side face's pip with its own row: a face holding
//     one pip of f and another pip of their size anywhere.
//
// Only pips of the hue of f's pips count (see kinHue): a glint on a
// coloured die is its body's colour, lit. A lone pip, read as a one, is
// judged by oneShown.
func (rd *Reader) partSeen(f *face) bool {
	if rd.img == nil || len(rd.priorEnd) == 0 || f.n < 2 || len(f.blanks) == 0 {
		return false
	}
	ps := rd.s.pips
	low := math.Inf(-1)
	for _, i := range f.idx {
		low = maxf(low, ps[i].y)
	}
	// the colours of the face and of its pips, as the medians of its
	// blanks' and its pips'
	br := int(maxf(1, 0.3*f.d))
	cols := make([][3]float64, 0, 6)
	for _, b := range f.blanks {
		if c, ok := rd.rgbAt(b, br); ok {
			cols = append(cols, c)
		}
	}
	if len(cols) == 0 {
		return false
	}
	fc := medianRGB(cols)
	cols = cols[:0]
	for _, i := range f.idx {
		if c, ok := rd.rgbAt(ps[i].pos(), int(maxf(1, 0.5*ps[i].b))); ok {
			cols = append(cols, c)
		}
	}
	if len(cols) == 0 {
		return false
	}
	pc := medianRGB(cols)
	fc, pc = hue(fc), hue(pc)
	start := 0
	planeHeld, planeApart := 0, 0 // over the groups of one plane's read
	for g, end := range rd.priorEnd {
		group := rd.prior[start:end]
		start = end
		if g > 0 && rd.priorKind[g] != rd.priorKind[g-1] {
			planeHeld, planeApart = 0, 0
		}
		if rd.priorKind[g] == rd.s.kind {
			continue
		}
		held, more, apart := 0, 0, 0
		for k := range group {
			q := &group[k]
			own := false
			for _, i := range f.idx {
				if p := &ps[i]; dist(q.pos(), p.pos()) < maxf(q.a, p.a) {
					own = true
				}
			}
			if own {
				held++
			} else if rs := q.d() / f.d; rs >= minPartPip && rs <= maxPartPip {
				if c, ok := rd.rgbAt(q.pos(), int(maxf(1, 0.5*q.b))); ok && kinHue(c, fc, pc) {
					apart++
					if f.n == 2 || (q.y-low)/f.d < minBelow {
						more++
					}
				}
			}
		}
		planeHeld, planeApart = planeHeld+held, planeApart+apart
		if f.n == 2 && planeHeld >= 2 && planeApart > 0 {
			return true
		}
		if len(group) <= f.n {
			continue
		}
		if held == 1 && apart > 0 {
			// f's pips are split otherwise there
			return true
		}
		if held >= 2 && more > 0 {
			return true
		}
	}
	return false
}

// minPartPip and maxPartPip bound the diameter, over the mean of a face's
// pips, of a pip of the same face (as a face's pips may differ, see
// checkFace): smaller ones are specks.
const (
	minPartPip = 0.65
	maxPartPip = 1.55
)

// hue returns the colour c with its brightness left out: its red, green
// and blue over their sum. Glare and shade change how bright a die's
// body and its pips are much more than their hue.
func hue(c [3]float64) [3]float64 {
	s := c[0] + c[1] + c[2]
	if s <= 0 {
		return [3]float64{1.0 / 3, 1.0 / 3, 1.0 / 3}
	}
	return [3]float64{c[0] / s, c[1] / s, c[2] / s}
}

// kinHue reports whether the colour c may be a pip's on a face of hue fc
// whose pips are of hue pc: its hue lies at least halfway from the face's
// to the pips', straying off that way by little (see minKinColour), or
// the two hues are too alike (less than minHueStep apart, a white die
// with black pips) for hue to tell a pip from the face.
func kinHue(c, fc, pc [3]float64) bool {
	if dist3(fc, pc) < minHueStep {
		return true
	}
	a, o := pipness(hue(c), fc, pc)
	return a >= minKinColour && o <= maxKinStray
}

// minHueStep is the least difference of hue (see hue) between a face and
// its pips that tells them apart: a colourless die's face and pips
// differ by a few hundredths, as its white balance tints them.
const minHueStep = 0.05

func dist3(a, b [3]float64) float64 {
	return math.Sqrt(sq(a[0]-b[0]) + sq(a[1]-b[1]) + sq(a[2]-b[2]))
}

// rowsGoOn reports whether f, a face of four pips, has its rows continued
// by another pip found on the plane read, of their size and polarity and
// foreshortened as they are (within maxRatioStep of their axis ratio, its
// long axis along theirs within minAxisCos), one row beyond it in line
// with one of its pips: f is then four pips of a six whose third row was
// split off it. The pips of a side face, seen from the side, lie there
// too, but are foreshortened otherwise: rounder, or thinner for being
// narrower. A blob thinner for being longer, as wide as f's pips and of
// at least half their contrast (fainter, it is a shadow), is a pip of
// their kind merged with glare or a speck along its axis, and counts.
// The view of a face is affine, so the place is told in its own axes as
// seen.
func (rd *Reader) rowsGoOn(f *face) bool {
	if f.n != 4 {
		return false
	}
	a1, a2 := f.half[0], f.half[1]
	det := a1.x*a2.y - a1.y*a2.x
	if absf(det) < 1e-6 {
		return false
	}
	ps := rd.s.pips
	var a, b float64 // the mean semi-axes of f's pips
	for _, i := range f.idx {
		a += ps[i].a / float64(f.n)
		b += ps[i].b / float64(f.n)
	}
	for j := range ps {
		q := &ps[j]
		if !rd.alongFace(f, j) || q.b/q.a > f.ratio+maxRatioStep {
			continue // foreshortened otherwise: a side face's
		}
		if q.b/q.a < f.ratio-maxRatioStep && (q.b < minMergedWidth*b || q.a < a || q.contrast() < 0.5*f.con) {
			continue // narrower or no longer than f's pips: a side face's; fainter: a shadow
		}
		v := q.pos().sub(f.c)
		x, y := (v.x*a2.y-v.y*a2.x)/det, (a1.x*v.y-a1.y*v.x)/det
		for _, w := range [...]vec{{x, y}, {y, x}} {
			// in these axes the rows are 2 apart (see rowSlack)
			if absf(absf(w.x)-3) < 2*rowSlack && absf(absf(w.y)-1) < 2*rowSlack {
				return true
			}
		}
	}
	return false
}

// alongFace reports whether the pip j of the plane read, not one of f's,
// is of the polarity and size of f's pips (see minPartPip), with its long
// axis along theirs (see minAxisCos): a pip that may be of f's face, if
// foreshortened as they are.
func (rd *Reader) alongFace(f *face, j int) bool {
	q := &rd.s.pips[j]
	if q.dark != f.dark || slices.Contains(f.idx, j) {
		return false
	}
	if rs := q.d() / f.d; rs < minPartPip || rs > maxPartPip {
		return false
	}
	return absf(q.ux*f.u.x+q.uy*f.u.y) >= minAxisCos
}

// minMergedWidth is the least minor axis, over the mean of a face's pips',
// of a blob thinner than they are that is taken for one of their kind
// merged along its long axis with glare or a speck (see rowsGoOn).
const minMergedWidth = 0.9

// maxRatioStep and minAxisCos bound how differently from a face's pips a
// pip of the same face may be foreshortened: the difference of their axis
// ratios, and the cosine between their long axes.
const (
	maxRatioStep = 0.1
	minAxisCos   = 0.9
)
