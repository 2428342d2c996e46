package vision

import (
	"image"
	"image/color"
	"math"
	"slices"
	"sort"
)

type vec struct{ x, y float64 }

func (a vec) add(b vec) vec     { return vec{a.x + b.x, a.y + b.y} }
func (a vec) sub(b vec) vec     { return vec{a.x - b.x, a.y - b.y} }
func (a vec) mul(k float64) vec { return vec{a.x * k, a.y * k} }
func (a vec) dot(b vec) float64 { return a.x*b.x + a.y*b.y }
func (a vec) len() float64      { return math.Hypot(a.x, a.y) }
func (p *pip) pos() vec         { return vec{p.x, p.y} }
func dist(a, b vec) float64     { return a.sub(b).len() }
func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }
func deg(rad float64) float64   { return rad * 180 / math.Pi }
func acosDeg(c float64) float64 { return deg(math.Acos(math.Max(-1, math.Min(1, c)))) }
func sq(v float64) float64      { return v * v }
func absf(v float64) float64    { return math.Abs(v) }
func minf(a, b float64) float64 { return math.Min(a, b) }
func maxf(a, b float64) float64 { return math.Max(a, b) }
func rot90(a vec) vec           { return vec{-a.y, a.x} }
func mid(a, b vec) vec          { return vec{(a.x + b.x) / 2, (a.y + b.y) / 2} }
func sigma2x2(c1, c2 vec) (s1, s2 float64) {
	// singular values of the matrix with columns c1, c2
	a, b, c, d := c1.x, c2.x, c1.y, c2.y
	s := a*a + b*b + c*c + d*d
	det := absf(a*d - b*c)
	disc := math.Sqrt(maxf(s*s/4-det*det, 0))
	return math.Sqrt(s/2 + disc), math.Sqrt(maxf(s/2-disc, 0))
}

// face is one group of pips checked against the pip patterns.
type face struct {
	idx     []int   // pips, indices into the candidate list
	n       int     // pip count
	value   int     // 1…6 when ok
	ok      bool    // the pips form the pattern of value
	c       vec     // centre of the face
	q       float64 // offset of a corner pip from the centre, along a side, unforeshortened px
	r       float64 // half side of the face, px
	tilt    float64 // estimated tilt from flat, degrees
	ratio   float64 // mean minor/major axis ratio of its pips
	dark    bool
	partial bool    // the face reaches past the image border
	blank   float64 // worst darkness (0…1) where the pattern wants no pip
	resid   float64 // pattern residual, relative
	con     float64 // mean pip contrast
	d       float64 // mean pip diameter
	u       vec     // major axis of its pips (the face's unforeshortened direction)
	shape   float64 // 4…6 pips: the pattern's aspect (≥ 1) once the pips' foreshortening is undone
	blanks  []vec   // where its pattern wants no pip
	half    [2]vec  // 4 or 5 pips: from its centre to the middles of two sides, as seen

	// squareCut: partial, a one seen from the side whose face reaches
	// past the border only as guessed square on, not foreshortened
	squareCut bool
}

// faceFrame maps face-plane offsets to image offsets using the mean
// foreshortening of the pips: u is the major axis, r the axis ratio.
type faceFrame struct {
	u vec
	r float64
}

func (f faceFrame) unproj(v vec) vec {
	n := rot90(f.u)
	return vec{v.dot(f.u), v.dot(n) / f.r}
}
func (f faceFrame) proj(a vec) vec {
	n := rot90(f.u)
	return f.u.mul(a.x).add(n.mul(a.y * f.r))
}

// rotFace rotates v by 90° in the plane of the face.
func (f faceFrame) rotFace(v vec) vec { return f.proj(rot90(f.unproj(v))) }

// checkFace tests the pips idx against the pattern of their count.
func (rd *Reader) checkFace(idx []int) face {
	ps := rd.s.pips
	f := face{idx: idx, n: len(idx), dark: ps[idx[0]].dark}
	if f.n < 1 || f.n > 6 {
		return f
	}
	// size consistency and mean shape
	as := make([]float64, 0, 6)
	var sumR, sumCon, sumD float64
	var u vec
	for k, i := range idx {
		p := &ps[i]
		as = append(as, p.a)
		sumR += rd.s.ratio(p)
		sumCon += p.contrast()
		sumD += p.d()
		v := vec{p.ux, p.uy}
		if k > 0 && v.dot(u) < 0 {
			v = v.mul(-1)
		}
		u = u.add(v.mul(1 - p.b/p.a + 1e-3))
	}
	sort.Float64s(as)
	med := as[len(as)/2]
	if as[0] < 0.65*med || as[len(as)-1] > 1.55*med {
		return f
	}
	fn := float64(f.n)
	f.ratio, f.con, f.d = sumR/fn, sumCon/fn, sumD/fn
	if u.len() < 1e-6 {
		u = vec{1, 0}
	}
	fr := faceFrame{u: u.mul(1 / u.len()), r: maxf(f.ratio, 0.3)}
	f.u = fr.u
	pipTilt := acosDeg(f.ratio / 0.97)
	var c vec
	for _, i := range idx {
		c = c.add(ps[i].pos())
	}
	c = c.mul(1 / fn)
	f.c = c
	pos := func(k int) vec { return ps[idx[k]].pos() }
	var blanks []vec // where the pattern wants no pip
	var row vec      // a three's corner pips, one from the other
	patTilt := 0.0
	switch f.n {
	case 1:
		f.q = 1.25 * f.d
		f.r = 2.1 * f.d
		// a one is alone on its face: nothing pip-like around it
		blanks = oneBlanks(c, fr, f.d)
	case 2:
		v := pos(1).sub(pos(0))
		f.q = v.len() / 2 / math.Sqrt2 // unforeshortened if along the major axis; refined below
		w := fr.unproj(v)
		f.q = w.len() / 2 / math.Sqrt2
		h := fr.rotFace(v).mul(0.5)
		blanks = append(blanks, c, c.add(h), c.sub(h))
	case 3:
		m, e1, e2 := 0, 1, 2
		best := math.Inf(1)
		for k := 0; k < 3; k++ {
			if dd := dist(pos(k), c); dd < best {
				best, m = dd, k
			}
		}
		e1, e2 = (m+1)%3, (m+2)%3
		v := pos(e2).sub(pos(e1))
		L := v.len()
		res := dist(pos(m), mid(pos(e1), pos(e2))) / (L / 2)
		f.resid = res
		if res > 0.2 {
			return f
		}
		f.c = pos(m)
		f.q = fr.unproj(v).len() / 2 / math.Sqrt2
		h := fr.rotFace(v).mul(0.5)
		blanks = append(blanks, f.c.add(h), f.c.sub(h))
		row = v
	case 4, 5:
		pts := [4]vec{}
		k := 0
		var centre vec
		if f.n == 5 {
			m := 0
			best := math.Inf(1)
			for j := 0; j < 5; j++ {
				if dd := dist(pos(j), c); dd < best {
					best, m = dd, j
				}
			}
			centre = pos(m)
			for j := 0; j < 5; j++ {
				if j != m {
					pts[k] = pos(j)
					k++
				}
			}
		} else {
			for j := 0; j < 4; j++ {
				pts[j] = pos(j)
			}
		}
		pairs := [3][4]int{{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}}
		best, bi := math.Inf(1), 0
		for i, pr := range pairs {
			m1 := mid(pts[pr[0]], pts[pr[1]])
			m2 := mid(pts[pr[2]], pts[pr[3]])
			l := (dist(pts[pr[0]], pts[pr[1]]) + dist(pts[pr[2]], pts[pr[3]])) / 2
			if r := dist(m1, m2) / l; r < best {
				best, bi = r, i
			}
		}
		pr := pairs[bi]
		D1 := pts[pr[1]].sub(pts[pr[0]])
		D2 := pts[pr[3]].sub(pts[pr[2]])
		if D1.dot(rot90(D2)) < 0 {
			D2 = D2.mul(-1)
		}
		cc := mid(mid(pts[pr[0]], pts[pr[1]]), mid(pts[pr[2]], pts[pr[3]]))
		a1 := D1.sub(D2).mul(0.25)
		a2 := D1.add(D2).mul(0.25)
		s1, s2 := sigma2x2(a1, a2)
		f.resid = best
		if f.n == 5 {
			f.resid = maxf(best, dist(centre, cc)/s1/2)
		}
		if f.resid > 0.12 {
			return f
		}
		f.c = cc
		f.q = s1
		f.half = [2]vec{a1, a2}
		patTilt = acosDeg(s2 / s1 / 0.97)
		f.shape = aspect(fr.unproj(a1).len(), fr.unproj(a2).len())
		blanks = append(blanks, cc.add(a1), cc.sub(a1), cc.add(a2), cc.sub(a2))
		if f.n == 4 {
			blanks = append(blanks, cc)
		}
	case 6:
		var pts [6]vec
		for j := range pts {
			pts[j] = pos(j)
		}
		res, bc, ba1, ba2 := sixFit(pts)
		if res > 0.15 {
			return f
		}
		f.resid = res
		f.c = bc
		// the rows of a six are spaced differently on different
		// dice: the pattern says nothing of tilt, the pips do
		f.q, _ = sigma2x2(ba1, ba2)
		f.shape = aspect(fr.unproj(ba1).len(), fr.unproj(ba2).len())
		if rd.s.steep && f.shape > maxShape {
			f.shape = minf(f.shape, latticeShape(ba1, ba2, fr.r))
		}
		blanks = append(blanks, f.c)
	}
	if f.n >= 2 {
		f.r = 1.75 * f.q
		if k := f.q / f.d; k < 0.7 || k > 3.3 {
			return f
		}
	}
	if rd.opts.Oblique && f.shape > maxShape {
		// a square face would not look so long once its pips' tilt is
		// undone: the pips lie on two faces of the die
		return f
	}
	f.tilt = maxf(pipTilt, patTilt)
	f.value = f.n
	f.blanks = blanks
	// blank check
	for _, b := range blanks {
		v, ok := rd.darkness(b, f)
		if !ok {
			f.partial = true
		}
		f.blank = maxf(f.blank, v)
	}
	if rd.s.steep && f.blank > 0 && row != (vec{}) {
		// the foreshortening that clears the blanks is the face's: its
		// size follows (its tilt stays the pips', so that a steep face
		// still needs the die's outline to be read)
		if b, g := rd.blanksAcross(&f, fr, row); b < f.blank {
			f.blank = b
			f.q = g.unproj(row).len() / 2 / math.Sqrt2
			f.r = 1.75 * f.q
			if f.q < 0.7*f.d {
				return f
			}
		}
	}
	if f.n >= 2 && rd.pipFoundAt(blanks, &f) {
		// a pip found near a blank is no blank, however little of it
		// darkens the blank's few pixels: a faint pip found small, or a
		// blank put a little off by the pips' foreshortening
		f.blank = 1
	}
	f.ok = f.blank < 0.35
	return f
}

// pipFoundAt reports whether a pip of f's kind and size, not of f, was
// found at one of ps.
func (rd *Reader) pipFoundAt(ps []vec, f *face) bool {
	for j := range rd.s.pips {
		q := &rd.s.pips[j]
		if slices.Contains(f.idx, j) || q.dark != f.dark {
			continue
		}
		if rs := q.d() / f.d; rs < 0.5 || rs > 2 {
			continue
		}
		for _, p := range ps {
			if dist(p, q.pos()) < 0.5*f.d {
				return true
			}
		}
	}
	return false
}

// blanksAcross returns the worst blank of f, a three whose corner pips lie
// row apart, as clear as the face's foreshortening allows between its
// pips' (fr) and steepLeeway times less, and the face's frame at that
// foreshortening. A steep face's pips are dimples whose near wall hides
// their floor: they look thinner than their face is foreshortened. The
// corners across the pips' row lie the farther out the thinner the face is
// taken to be, and a face taken too thin puts them on its rounded edge,
// pale or shaded as a pip is. The pips stay where they are, so a pip at a
// corner (a five's) would still darken the corner placed nearer the
// centre. Only a three is given this leeway: its middle pip, halfway along
// the row, vouches for the pattern, while the two slivers of a two may be
// a one's pip and a glint.
func (rd *Reader) blanksAcross(f *face, fr faceFrame, row vec) (float64, faceFrame) {
	best, bestFr := f.blank, fr
	for _, k := range steepLeeway {
		g := faceFrame{u: fr.u, r: minf(k*fr.r, 1)}
		h := g.rotFace(row).mul(0.5)
		worst := 0.0
		for _, b := range [...]vec{f.c.add(h), f.c.sub(h)} {
			v, ok := rd.darkness(b, *f)
			if !ok {
				v = 1
			}
			worst = maxf(worst, v)
		}
		if worst < best {
			best, bestFr = worst, g
		}
	}
	return best, bestFr
}

// steepLeeway is how much less foreshortened than its pips a steep face
// may be, in the steps at which its blanks are looked for.
var steepLeeway = [...]float64{1.1, 1.2, 1.3}

// colourBlank returns the worst blank around the lone pip of f, the face
// being read, once its blanks are also judged in the colour image being
// read: on a colourless die (a white face with black pips, or the
// reverse), a pip of the same die is as colourless as the pip of f, so a
// blank is as pip-like as its colour lies on the way from the face's
// colour (the median of the blanks', most of which are bare face) to the
// pip's, less how far it strays off that way, and no more than its
// darkness in the plane read says. Coloured print beside a black one (a
// maker's logo) darkens every plane but strays off the way; the blurred
// or half-seen pip of a six or a three stays on it. On a coloured die the
// die's own shading, its glare and the table beyond its edge stray as far
// as print does: there the plane's darkness stands.
func (rd *Reader) colourBlank(f *face) float64 {
	if rd.img == nil || f.blank == 0 {
		return f.blank
	}
	blanks := oneBlanks(f.c, faceFrame{u: f.u, r: maxf(f.ratio, 0.3)}, f.d)
	r := int(maxf(1, 0.3*f.d))
	at := func(b vec) ([3]float64, bool) {
		x, y := int(b.x+0.5)+rd.g.Rect.Min.X, int(b.y+0.5)+rd.g.Rect.Min.Y
		return meanRGB(rd.img, image.Rect(x-r, y-r, x+r+1, y+r+1))
	}
	pc, ok := at(f.c)
	if !ok || greySpread(pc) > maxGreySpread {
		return f.blank
	}
	cols := make([][3]float64, len(blanks))
	for k, b := range blanks {
		if cols[k], ok = at(b); !ok {
			return f.blank
		}
	}
	fc := medianRGB(cols)
	var pf [3]float64
	for c := range pf {
		pf[c] = pc[c] - fc[c]
	}
	n2 := pf[0]*pf[0] + pf[1]*pf[1] + pf[2]*pf[2]
	if n2 < sq(minPipColour) || greySpread(fc) > maxGreySpread {
		return f.blank
	}
	worst := 0.0
	for k, col := range cols {
		along := 0.0
		for c := range col {
			along += (col[c] - fc[c]) * pf[c] / n2
		}
		off := 0.0
		for c := range col {
			off += sq(col[c] - fc[c] - along*pf[c])
		}
		dark, _ := rd.darkness(blanks[k], *f)
		worst = maxf(worst, minf(dark, along-offColour*math.Sqrt(off/n2)))
	}
	return clamp01(worst)
}

// maxGreySpread is the largest spread, in RGB levels, between the
// strongest and the weakest of a colour's red, green and blue for it to be
// taken as colourless (white, grey or black).
const maxGreySpread = 40

// greySpread returns the spread between the strongest and the weakest of
// c's red, green and blue.
func greySpread(c [3]float64) float64 {
	return max(c[0], c[1], c[2]) - min(c[0], c[1], c[2])
}

// minPipColour is the least distance, in RGB levels, of a pip's colour
// from its face's for the blanks to be judged by colour.
const minPipColour = 40

// offColour weighs, in colourBlank, how far a blank's colour strays off
// the way from the face's colour to the pip's against how far along it it
// lies: a pip's blur or a shadow keeps within a few percent of the way,
// coloured print strays a good quarter as far as it goes along.
const offColour = 4

// meanRGB returns the mean red, green and blue of img over r, and false
// when r is not inside img or img is not an RGB or YCbCr image.
func meanRGB(img image.Image, r image.Rectangle) ([3]float64, bool) {
	var s [3]int
	if !r.In(img.Bounds()) {
		return [3]float64{}, false
	}
	switch m := img.(type) {
	case *image.YCbCr:
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				R, G, B := color.YCbCrToRGB(m.Y[m.YOffset(x, y)], m.Cb[m.COffset(x, y)], m.Cr[m.COffset(x, y)])
				s[0], s[1], s[2] = s[0]+int(R), s[1]+int(G), s[2]+int(B)
			}
		}
	default:
		pix, stride, ok := rgbaPix(img)
		if !ok {
			return [3]float64{}, false
		}
		b := img.Bounds()
		for i, y := (r.Min.Y-b.Min.Y)*stride+4*(r.Min.X-b.Min.X), r.Min.Y; y < r.Max.Y; i, y = i+stride, y+1 {
			for q := i; q < i+4*r.Dx(); q += 4 {
				s[0], s[1], s[2] = s[0]+int(pix[q]), s[1]+int(pix[q+1]), s[2]+int(pix[q+2])
			}
		}
	}
	n := float64(r.Dx() * r.Dy())
	return [3]float64{float64(s[0]) / n, float64(s[1]) / n, float64(s[2]) / n}, true
}

// darkness reports how much the image at b looks like a pip of f (0: the
// face's colour, 1: the pips' colour).
func (rd *Reader) darkness(b vec, f face) (float64, bool) {
	g := rd.g
	w, h := g.Rect.Dx(), g.Rect.Dy()
	r := int(maxf(1, 0.3*f.d))
	x0, y0 := int(b.x+0.5)-r, int(b.y+0.5)-r
	x1, y1 := x0+2*r+1, y0+2*r+1
	if x0 < 0 || y0 < 0 || x1 > w || y1 > h {
		return 0, false
	}
	var in, ring float64
	for _, i := range f.idx {
		in += rd.s.pips[i].in
		ring += rd.s.pips[i].ring
	}
	in /= float64(len(f.idx))
	ring /= float64(len(f.idx))
	v := rd.meanRect(g, x0, y0, x1, y1)
	return clamp01((ring - v) / (ring - in)), true
}

// meanRect returns the mean grey of the rectangle [x0,x1)×[y0,y1) of g,
// in the reader's frame coordinates.
func (rd *Reader) meanRect(g *image.Gray, x0, y0, x1, y1 int) float64 {
	sum := 0
	for y := y0; y < y1; y++ {
		row := g.Pix[rd.off+y*g.Stride:]
		for x := x0; x < x1; x++ {
			sum += int(row[x])
		}
	}
	return float64(sum) / float64((x1-x0)*(y1-y0))
}

// bits6 counts the set bits of m (m < 64).
func bits6(m int) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// maxShape is the largest aspect of a face of four to six pips read from
// the side, once its pips' foreshortening is undone (the columns of a six
// are closer on some dice).
const maxShape = 1.7

// aspect returns the larger of a and b over the smaller.
func aspect(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if b <= 0 {
		return math.Inf(1)
	}
	return a / b
}

// oneBlanks returns where a one, whose pip of diameter d is centred at c
// on a face seen as fr, wants no pip: rings around it, nothing pip-like
// there.
func oneBlanks(c vec, fr faceFrame, d float64) []vec {
	radii := [...]float64{1.0, 1.3, 1.6}
	blanks := make([]vec, 0, len(radii)*len(cosSin16))
	for _, k := range radii {
		for j := 0; j < 16; j++ {
			cs := cosSin16[j]
			blanks = append(blanks, c.add(fr.proj(vec{cs[0], cs[1]}.mul(k*d))))
		}
	}
	return blanks
}

// medianRGB returns the median of cols, channel by channel: the colour of a
// face from samples of it, of which a few may fall on print or glare.
func medianRGB(cols [][3]float64) [3]float64 {
	var m [3]float64
	ch := make([]float64, len(cols))
	for c := range m {
		for k, col := range cols {
			ch[k] = col[c]
		}
		sort.Float64s(ch)
		m[c] = ch[len(ch)/2]
	}
	return m
}

// latticeShape returns the aspect of the face whose pattern spans a1 and
// a2 (a six's half row and half column), unforeshortened by r, its pips'
// axis ratio, along the pattern's own shortest direction instead of their
// minor axis; or +Inf when the pattern is much less foreshortened than its
// pips. On a steep glossy face the blur and the sheen smear the pips across
// their foreshortening, so that their major axis strays from the face's
// while their thinness still tells how steep it is: the pattern then shows
// the face's axis, if it is foreshortened as its pips are, give or take
// the leeway of a steep face's pips (see blanksAcross). A pattern that is
// much rounder than its pips is not one face seen at their tilt: pips of
// two faces that happen to line up (a four and two pips of a side face).
func latticeShape(a1, a2 vec, r float64) float64 {
	s1, s2 := sigma2x2(a1, a2)
	if s2 > steepLeeway[len(steepLeeway)-1]*r*s1 {
		return math.Inf(1)
	}
	// the direction in which the pattern is longest: the eigenvector of
	// a1·a1ᵀ + a2·a2ᵀ of the larger eigenvalue
	xx := a1.x*a1.x + a2.x*a2.x
	yy := a1.y*a1.y + a2.y*a2.y
	xy := a1.x*a1.y + a2.x*a2.y
	th := 0.5 * math.Atan2(2*xy, xx-yy)
	lf := faceFrame{u: vec{math.Cos(th), math.Sin(th)}, r: r}
	return aspect(lf.unproj(a1).len(), lf.unproj(a2).len())
}

// sixFit matches pts to a six's pattern: two parallel columns of three,
// each with its middle pip halfway. It tries every way to split the pips
// into two triples, so that a skewed (affine) view is matched as well as a
// square one, and returns the best match's residual (relative; +Inf when
// none stands side by side), its centre, its half row (from one column's
// middle pip to the centre) and its half column.
func sixFit(pts [6]vec) (bestRes float64, bc, ba1, ba2 vec) {
	bestRes = math.Inf(1)
	for m := 0; m < 1<<6; m++ {
		if m&1 == 0 || bits6(m) != 3 {
			continue // pip 0 is always in the first column
		}
		var cols [2][3]vec
		var nc [2]int
		for j := 0; j < 6; j++ {
			g := 1
			if m&(1<<j) != 0 {
				g = 0
			}
			cols[g][nc[g]] = pts[j]
			nc[g]++
		}
		var ctr, half [2]vec
		res := 0.0
		for g := 0; g < 2; g++ {
			col := &cols[g]
			// the middle pip is the one nearest the column's centre
			cc := col[0].add(col[1]).add(col[2]).mul(1.0 / 3)
			mi := 0
			for j := 1; j < 3; j++ {
				if dist(col[j], cc) < dist(col[mi], cc) {
					mi = j
				}
			}
			e1, e2 := col[(mi+1)%3], col[(mi+2)%3]
			v := e2.sub(e1)
			if v.len() == 0 {
				res = math.Inf(1)
				break
			}
			res = maxf(res, dist(col[mi], mid(e1, e2))/(v.len()/2))
			ctr[g] = col[mi]
			half[g] = v.mul(0.5)
		}
		if math.IsInf(res, 1) {
			continue
		}
		if half[0].dot(half[1]) < 0 {
			half[1] = half[1].mul(-1)
		}
		par := half[0].dot(half[1]) / half[0].len() / half[1].len()
		lr := half[0].len() / half[1].len()
		res = maxf(res, maxf(1-par, absf(1-lr)))
		a2 := half[0].add(half[1]).mul(0.5)
		a1 := ctr[1].sub(ctr[0]).mul(0.5)
		if a1.len() == 0 {
			continue
		}
		// the columns stand side by side, not one after the other
		if sin := absf(a1.x*a2.y-a1.y*a2.x) / a1.len() / a2.len(); sin < 0.5 {
			continue
		}
		if res < bestRes {
			bestRes, bc, ba1, ba2 = res, mid(ctr[0], ctr[1]), a1, a2
		}
	}
	return bestRes, bc, ba1, ba2
}
