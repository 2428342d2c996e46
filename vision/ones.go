package vision

import (
	"image"
	"math"
)

// oneShown reports whether the lone pip of f, the face being read from
// the side in a colour image, is shown to be a one by what is seen around
// it rather than by how dark its blanks are: glare, noise and low contrast
// darken the blanks of glossy coloured dice as much as a blurred pip does.
//
// A one is the only face whose would-be pips are seen on no plane the
// reader searches (the grey, and the colour planes of ReadImage). Every pip
// candidate within reach, on every plane, of the pip's colour and of its
// size or bigger, is taken as evidence against the one where a face that
// holds the pip, or is centred on it, would want a pip, whatever the face's
// turn in its plane:
//
//   - any such pip near the lone one (a corner of a three or a five, a pip
//     of a two, four or six centred there, a six's neighbour pip);
//   - any beside or above it (the rest of a top face of which the lone pip
//     is a bottom or side corner; seen from the side, a one's side faces lie
//     below it);
//   - two, farther below, that continue it as the pips of one face do: in a
//     row, or as the corners of a square (the rest of a top face of which
//     the lone pip is the top corner), both foreshortened as it is;
//   - a much bigger pip near it, lighter or darker than its face as the
//     lone pip is (the lone pip is a speck beside a real one; a die's pips
//     all stand out the same way, and a blot of the other kind is a
//     shadow or the table).
//
// Glare (white on a coloured die with coloured pips) and print are not of
// the pip's colour and are no evidence, nor is a pip of a whole face of
// four or more pips among faces (those found on the plane read) that lies
// wholly below the lone pip and does not reach it: a side face seen whole. No
// face of four or more pips, less one pip, is another face, so the lone
// pip cannot be the rest of that face, and a pip cannot be on two faces. The face around the pip must also
// be the die body's colour (or colourless on a colourless die), and its
// blanks must not be of the pip's colour: there a pip may be too blurred to
// be found. A blank or a candidate past the face's edge below the pip,
// where a shaded side face begins (see pastEdge), is on another face and
// no evidence.
// As the learned reader's witness it reads 3.0 points of dice3_roboflow_v3
// left out of the networks' training.
func (rd *Reader) oneShown(f *face, faces []face) bool {
	if !rd.opts.Oblique || rd.img == nil || f.n != 1 {
		return false
	}
	p := &rd.s.pips[f.idx[0]]
	fr := faceFrame{u: f.u, r: maxf(f.ratio, 0.3)}
	pc, ok := rd.rgbAt(p.pos(), int(maxf(1, 0.5*p.b)))
	if !ok {
		return false
	}
	// the face's colour: the median of the blanks'
	blanks := oneBlanks(f.c, fr, f.d)
	cols := make([][3]float64, len(blanks))
	br := int(maxf(1, 0.3*f.d))
	for k, b := range blanks {
		if cols[k], ok = rd.rgbAt(b, br); !ok {
			return false
		}
	}
	fc := medianRGB(cols)
	// the body's colour, as it stands out from the table around the die
	var near image.Image = rd.img
	if sub, ok := rd.img.(interface {
		SubImage(image.Rectangle) image.Image
	}); ok {
		near = sub.SubImage(rd.around(p.pos(), bodyReach*p.d()))
	}
	if cb, cr, ok := bodyChroma(near); ok {
		fb, fr := chromaOf(uint8(fc[0]), uint8(fc[1]), uint8(fc[2]))
		if max(abs(fb-cb), abs(fr-cr)) > maxFaceShift {
			return false
		}
	} else if greySpread(fc) > maxGreySpread {
		return false
	}
	for k, col := range cols {
		if a, o := pipness(col, fc, pc); a-offColour*o > maxOneBlankColour && !rd.pastEdge(p, blanks[k], fc, pc) {
			return false
		}
	}
	// the candidates: not the pip itself, no speck, of a colour
	type cand struct {
		s      *pip
		rs     float64 // its semi-axis over the pip's
		w      vec     // its offset from the pip in the face's plane
		nd     float64 // the offset's length over the larger pip's diameter
		kin    bool    // of the pip's colour and size
		aslant bool    // foreshortened as the pip is
	}
	var cs []cand
	sight := rd.sightings(p.pos(), sightReach*p.d())
	for i := range sight {
		s := &sight[i]
		rs := s.a / p.a
		if dist(s.pos(), p.pos()) < maxf(s.a, p.a) || rs < minKinSize || rd.onSideFace(s, p, faces) {
			continue
		}
		sc, ok := rd.rgbAt(s.pos(), int(maxf(1, 0.5*s.b)))
		if !ok {
			continue
		}
		a, o := pipness(sc, fc, pc)
		w := fr.unproj(s.pos().sub(p.pos()))
		c := cand{s: s, rs: rs, w: w, nd: w.len() / (2 * maxf(s.a, p.a))}
		c.kin = a >= minKinColour && o <= maxKinStray && rs <= maxKinSize
		rp, rq := p.b/p.a, s.b/s.a
		c.aslant = absf(rp-rq) <= 0.2 && (rp >= roundPip || rq >= roundPip || absf(p.ux*s.ux+p.uy*s.uy) >= 0.9)
		if rs > maxKinSize && s.dark == p.dark && dist(s.pos(), p.pos()) < bigReach*s.d() {
			return false
		}
		if !c.kin || rd.pastEdge(p, s.pos(), fc, pc) {
			continue
		}
		if c.nd < nearReach {
			return false
		}
		if (s.y-p.y)/p.d() < minBelow && c.nd < sideReach {
			return false
		}
		cs = append(cs, c)
	}
	for i := range cs {
		c := &cs[i]
		if !c.aslant || c.nd > rowReach {
			continue
		}
		w, r := c.w, rot90(c.w)
		for _, x := range [...]vec{w.mul(2), w.mul(-1), w.add(r), w.sub(r), r, r.mul(-1), w.add(r).mul(0.5), w.sub(r).mul(0.5)} {
			for j := range cs {
				if j != i && cs[j].aslant && cs[j].w.sub(x).len() < rowSlack*w.len() {
					return false
				}
			}
		}
	}
	return true
}

// pastEdge reports whether the point x, below the lone pip p, lies on
// another face than the pip's, past the straight edge of the pip's face
// below it: seen from the side, a one's farthest blanks and the pips of
// its side faces lie there, and a shaded side face takes the pip's colour
// on a colourless die. Rays from beside the pip, parallel to the way from
// the pip to x and spread edgeSpan of the pip's diameters across it, must
// each leave the face's colour (fc) for the pip's (pc) for good (at least
// up to x, and for edgeDepth of the pip's diameters), no farther than
// edgeReach of them past x (x may be on the shaded rim before the edge),
// at points in a straight line, from the middle ray out to either end of
// the spread: the pips of the face are parted by its colour, and none is
// so wide (half the spread, the pip's diameter) and deep; the rays on the
// other side may pass the face's corner, where its edge bends away (or
// run along a shallow side face onto the table beyond).
func (rd *Reader) pastEdge(p *pip, x vec, fc, pc [3]float64) bool {
	v := x.sub(p.pos())
	l := v.len()
	if v.y <= 0 || l == 0 {
		return false
	}
	v = v.mul(1 / l)
	e, d := rot90(v), p.d()
	var ts, at [edgeRays]float64
	for k := range at {
		ts[k] = (float64(k)/(edgeRays-1) - 0.5) * edgeSpan * d
		at[k] = rd.edgeAlong(p.pos().add(e.mul(ts[k])), v, p.a+1, l, d, fc, pc)
	}
	// the rays from the middle one out to either end of the spread
	m := edgeRays / 2
	return found(at[:m+1]) && onLine(ts[:m+1], at[:m+1], d) || found(at[m:]) && onLine(ts[m:], at[m:], d)
}

// found reports whether every ray of at found the edge.
func found(at []float64) bool {
	for _, a := range at {
		if a < 0 {
			return false
		}
	}
	return true
}

// edgeAlong returns how far from o, along v, the ray from o leaves the
// face's colour fc for the pip's pc for good (for edgeDepth of the pip's
// diameters d, and up to l at least), searching from s0 to edgeReach of d
// past l; or -1.
func (rd *Reader) edgeAlong(o, v vec, s0, l, d float64, fc, pc [3]float64) float64 {
	at, r := -1.0, int(maxf(1, 0.1*d))
	for s := s0; at < 0 && s <= l+edgeReach*d || s <= maxf(l, at+edgeDepth*d); s += maxf(1, 0.1*d) {
		col, ok := rd.rgbAt(o.add(v.mul(s)), r)
		if !ok {
			return -1
		}
		if a, off := pipness(col, fc, pc); a-offColour*off < edgeLevel {
			if at >= 0 {
				return -1
			}
		} else if at < 0 {
			at = s
		}
	}
	return at
}

// onLine reports whether the points (ts[k], at[k]) lie within edgeSlack
// of the pip's diameter d of their least-squares line.
func onLine(ts, at []float64, d float64) bool {
	n := float64(len(ts))
	var mt, ma float64
	for k := range at {
		mt += ts[k] / n
		ma += at[k] / n
	}
	var stt, sta float64
	for k := range at {
		stt += sq(ts[k] - mt)
		sta += (ts[k] - mt) * (at[k] - ma)
	}
	c := sta / stt
	for k := range at {
		if absf(at[k]-ma-c*(ts[k]-mt)) > edgeSlack*d {
			return false
		}
	}
	return true
}

// The edge of a one's face below its pip (see pastEdge) is told by
// edgeRays rays spread over edgeSpan of the pip's diameters, leaving the
// face's colour at edgeLevel of the way to the pip's (see pipness, less
// offColour times its stray: print is no edge) within edgeReach of its
// diameters past the point, in a line within edgeSlack of them, and
// keeping the pip's colour for edgeDepth of them.
const (
	edgeRays  = 7
	edgeSpan  = 2
	edgeLevel = 0.25
	edgeSlack = 0.15
	edgeDepth = 0.5
	edgeReach = 1
)

// onSideFace reports whether the pip candidate s is a pip of a whole face
// of four or more pips among faces that does not reach the lone pip p and
// whose every pip lies below it (by minBelow of its diameters at least).
func (rd *Reader) onSideFace(s, p *pip, faces []face) bool {
	for i := range faces {
		o := &faces[i]
		if !o.ok || o.partial || o.n < 4 || !rd.outside(*o, p.pos()) {
			continue
		}
		below, holds := true, false
		for _, j := range o.idx {
			q := &rd.s.pips[j]
			below = below && (q.y-p.y)/p.d() >= minBelow
			holds = holds || dist(q.pos(), s.pos()) < maxf(q.b, s.b)
		}
		if below && holds {
			return true
		}
	}
	return false
}

// bodyReach is the half side, in the lone pip's diameters, of the square
// around it in which its die's body colour is told from the table's: a
// die seen from the side is about six of a one's pips wide.
const bodyReach = 6

// sightReach is the half side, in the lone pip's diameters, of the square
// around it searched for the pips of another face.
const sightReach = 16

// minKinSize and maxKinSize bound the semi-axis, over the lone pip's, of
// a candidate that may be a pip of a face holding it: smaller ones are
// specks, bigger ones no pips of the same face (see bigReach).
const (
	minKinSize = 0.45
	maxKinSize = 1.7
)

// minKinColour and maxKinStray bound the colour of a candidate that may be
// a pip of a face holding the lone pip: along the way from the face's colour
// to the pip's (see pipness), at least halfway, and straying off it by at
// most that much (glare on a coloured die, print on a white one stray
// more).
const (
	minKinColour = 0.5
	maxKinStray  = 0.3
)

// Where, in the larger pip's diameters and in the face's plane, a
// candidate shows that the lone pip is no one: nearer than nearReach
// around it (the would-be pips of a face centred on it, or a six's
// neighbour pip), nearer than sideReach beside or above it (less than
// minBelow of the lone pip's diameters below it, down the image), a much
// bigger candidate nearer than bigReach of its own diameters in the image
// (whatever the lone pip's foreshortening), and two foreshortened as the
// pip is, nearer than rowReach, that continue it as a face's pips do
// (within rowSlack of their spacing).
const (
	nearReach = 2.2
	sideReach = 6
	minBelow  = 0.4
	bigReach  = 3
	rowReach  = 5
	rowSlack  = 0.3
)

// roundPip is the axis ratio from which a pip's long axis says nothing
// of the direction its face is foreshortened in: a pip seen nearly square
// on, or blurred, is round but for noise, and its axis may lie any way.
// Two candidates are foreshortened alike when their ratios agree and,
// unless one of them is that round, their long axes do too.
const roundPip = 0.7

// maxFaceShift is the farthest, in chroma levels, that the colour around a
// one may lie from its coloured die's body colour.
const maxFaceShift = 24

// maxOneBlankColour is the most that a one's blank may be of the pip's
// colour (see pipness, less offColour times its stray).
const maxOneBlankColour = 0.1

// rgbAt returns the mean red, green and blue of the colour image being
// read over the square of half side r around p (in the coordinates of
// rd.s.pips), and false when it is not inside the image.
func (rd *Reader) rgbAt(p vec, r int) ([3]float64, bool) {
	x, y := int(p.x+0.5)+rd.g.Rect.Min.X, int(p.y+0.5)+rd.g.Rect.Min.Y
	return meanRGB(rd.img, image.Rect(x-r, y-r, x+r+1, y+r+1))
}

// pipness returns how far the colour x lies along the way from the face's
// colour fc to the pip's pc (0 at the face's, 1 at the pip's), and how far,
// in the same unit, it strays off that way.
func pipness(x, fc, pc [3]float64) (along, off float64) {
	var pf [3]float64
	n2 := 0.0
	for c := range pf {
		pf[c] = pc[c] - fc[c]
		n2 += pf[c] * pf[c]
	}
	if n2 == 0 {
		return 0, 0
	}
	for c := range x {
		along += (x[c] - fc[c]) * pf[c] / n2
	}
	for c := range x {
		off += sq(x[c] - fc[c] - along*pf[c])
	}
	return along, math.Sqrt(off / n2)
}
