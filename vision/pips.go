package vision

import (
	"fmt"
	"image"
	"math"
	"sort"
)

// pip is one pip candidate, in full-resolution coordinates relative to the
// image's Rect.Min.
type pip struct {
	x, y     float64 // centre
	a, b     float64 // semi-axes of the pip's ellipse, a ≥ b
	ux       float64 // unit vector of the major axis (ux, uy)
	uy       float64
	dark     bool    // a dark pip on a lighter face
	in       float64 // mean grey inside the pip
	ring     float64 // mean grey of the face around it
	level    int     // pyramid level it was found at
	crescent bool    // it fills its ellipse as little as a dimple lit from one side (see minFill)
}

// d returns the pip's diameter, unforeshortened.
func (p *pip) d() float64 { return 2 * p.a }

// ratio returns the ratio of p's minor axis to its major axis that its
// face's tilt is judged by. A blob is cut at a threshold above the face's
// local mean, which a blurred pip's flanks fall short of: a rim about
// rimLoss pixels wide (of the pip's level) is lost all around it, and a
// pip a few pixels tall looks thinner, so its face steeper and, undone,
// longer than it is (its blanks looked for too far out). The rim is given
// back on the thin pips of a steep face (s.steep); the limits on the tilt
// of the faces read first were set with their pips as measured.
func (s *scratch) ratio(p *pip) float64 {
	if !s.steep {
		return p.b / p.a
	}
	r := rimLoss * float64(int(1)<<p.level)
	return (p.b + r) / (p.a + r)
}

// rimLoss is the width, in pixels of a pip's level, of its rim that falls
// below the threshold that cut it.
const rimLoss = 0.3

// contrast returns |ring - in|.
func (p *pip) contrast() float64 { return math.Abs(p.ring - p.in) }

// plane is one level of the image pyramid.
type plane struct {
	pix    []uint8
	w, h   int
	stride int
}

func (p plane) at(x, y int) uint8 { return p.pix[y*p.stride+x] }

// scratch holds the buffers reused between reads.
type scratch struct {
	levels [4][]uint8
	integ  []uint32
	mask   []uint8
	stack  []int32
	blob   []int32
	cores  []int32
	pips   []pip
	byLvl  []pip
	// slivers are the blobs that stand out from their face as a pip does
	// but are too thin to be read as pips (see dedupe)
	slivers []pip

	oblique bool      // the camera sees the dice from the side
	steep   bool      // pips foreshortened down to steepRatio are looked for too
	kind    planeKind // what the plane searched holds
}

const (
	boxR       = 10   // half-side of the local-mean window, in level pixels
	minPipD    = 3.0  // smallest pip diameter at level 0
	maxPipD    = 13.0 // largest pip diameter at any level
	minPipDUp  = 5.0
	maxLevels  = 4
	minLevelWH = 24
)

// detectPips finds pip candidates in g, at up to four pyramid levels so
// that pips from 3 to about 150 px wide are found with one local window.
// minD and maxD (full-resolution diameters, 0 for no limit) restrict the
// levels searched; a pip's axes are no further apart than s.minRatio says.
func (s *scratch) detectPips(g *image.Gray, minD, maxD float64) []pip {
	s.pips, s.slivers = s.pips[:0], s.slivers[:0]
	w, h := g.Rect.Dx(), g.Rect.Dy()
	if w <= 0 || h <= 0 {
		return s.pips
	}
	pl := plane{pix: g.Pix[g.PixOffset(g.Rect.Min.X, g.Rect.Min.Y):], w: w, h: h, stride: g.Stride}
	for lvl := 0; lvl < maxLevels; lvl++ {
		if pl.w < minLevelWH || pl.h < minLevelWH {
			break
		}
		f := float64(int(1) << lvl)
		lo, hi := minPipDUp*f, maxPipD*f
		if lvl == 0 {
			lo = minPipD
		}
		if (maxD <= 0 || lo <= maxD) && hi >= minD {
			s.scanLevel(pl, lvl)
		}
		if maxD > 0 && hi >= maxD {
			break
		}
		if lvl+1 < maxLevels {
			pl = s.downsample(pl, lvl+1)
		}
	}
	s.dedupe()
	out := s.pips[:0]
	for _, p := range s.pips {
		if p.b >= s.minRatio()*p.a {
			out = append(out, p)
		}
	}
	s.pips = out
	return s.pips
}

// downsample halves pl into the buffer of level lvl.
func (s *scratch) downsample(pl plane, lvl int) plane {
	w, h := pl.w/2, pl.h/2
	if cap(s.levels[lvl]) < w*h {
		s.levels[lvl] = make([]uint8, w*h)
	}
	buf := s.levels[lvl][:w*h]
	for y := 0; y < h; y++ {
		r0 := pl.pix[2*y*pl.stride:]
		r1 := pl.pix[(2*y+1)*pl.stride:]
		d := buf[y*w : y*w+w]
		for x := range d {
			d[x] = uint8((uint32(r0[2*x]) + uint32(r0[2*x+1]) + uint32(r1[2*x]) + uint32(r1[2*x+1]) + 2) >> 2)
		}
	}
	return plane{pix: buf, w: w, h: h, stride: w}
}

// scanLevel thresholds pl against its local mean, labels the connected
// blobs and keeps those shaped like pips.
func (s *scratch) scanLevel(pl plane, lvl int) {
	w, h := pl.w, pl.h
	iw := w + 1
	if cap(s.integ) < iw*(h+1) {
		s.integ = make([]uint32, iw*(h+1))
	}
	in := s.integ[:iw*(h+1)]
	for x := 0; x < iw; x++ {
		in[x] = 0
	}
	for y := 0; y < h; y++ {
		row := pl.pix[y*pl.stride : y*pl.stride+w]
		in[(y+1)*iw] = 0
		// the sums of columns 1…w of this row and the one above, sliced
		// to the row's length so that the loop needs no bounds checks
		prev := in[y*iw+1 : y*iw+iw][:len(row)]
		cur := in[(y+1)*iw+1 : (y+1)*iw+iw][:len(row)]
		var run uint32
		for x, v := range row {
			run += uint32(v)
			cur[x] = prev[x] + run
		}
	}
	if cap(s.mask) < w*h {
		s.mask = make([]uint8, w*h)
	}
	mask := s.mask[:w*h]
	for y := 0; y < h; y++ {
		y0, y1 := y-boxR, y+boxR+1
		if y0 < 0 {
			y0 = 0
		}
		if y1 > h {
			y1 = h
		}
		top := in[y0*iw : y0*iw+iw]
		bot := in[y1*iw : y1*iw+iw]
		row := pl.pix[y*pl.stride : y*pl.stride+w]
		mrow := mask[y*w : y*w+w]
		dy := int32(y1 - y0)
		// near the left and right borders the window is clipped; the
		// columns between (most of them) have the whole window, whose
		// size is the same all along the row
		clipped := func(x int) {
			x0, x1 := max(x-boxR, 0), min(x+boxR+1, w)
			sum := int32(bot[x1] - bot[x0] - top[x1] + top[x0])
			mrow[x] = windowOf(dy*int32(x1-x0)).class(int32(row[x]), sum)
		}
		x := 0
		for ; x < w && x < boxR; x++ {
			clipped(x)
		}
		whole := windowOf(dy * (2*boxR + 1))
		for ; x+boxR+1 <= w; x++ {
			sum := int32(bot[x+boxR+1] - bot[x-boxR] - top[x+boxR+1] + top[x-boxR])
			mrow[x] = whole.class(int32(row[x]), sum)
		}
		for ; x < w; x++ {
			clipped(x)
		}
	}
	s.label(pl, mask, lvl)
}

// window holds the thresholds of a local window of cnt samples: a sample
// v, with the window's sum and mean m = sum/cnt, is part of a dark pip
// when darker than m by more than 10 + 0.15 m, of a light pip when
// lighter by more than 10 + 0.15 (255 - m). Both are told times 100 cnt,
// in integers: 100 cnt v < 85 sum - 1000 cnt, and 100 cnt v > 85 sum +
// 4825 cnt.
type window struct{ k, dark, light int32 }

func windowOf(cnt int32) window { return window{100 * cnt, 1000 * cnt, 4825 * cnt} }

// class returns 1 for a sample v of a dark pip, 2 of a light one, else 0.
func (wd window) class(v, sum int32) uint8 {
	t, s := wd.k*v, 85*sum
	if t < s-wd.dark {
		return 1
	}
	if t > s+wd.light {
		return 2
	}
	return 0
}

// label floods each blob of mask, measures it and keeps the pip-like ones.
// A blob too big or too odd to be a pip (two pips that touch, say) is
// thresholded again at its own mean and its darker (or lighter) cores are
// tried as pips.
func (s *scratch) label(pl plane, mask []uint8, lvl int) {
	for start := range mask {
		cls := mask[start]
		if cls == 0 || cls > 2 {
			continue
		}
		border := s.flood(mask, pl.w, pl.h, start, cls)
		if border || len(s.blob) < 4 {
			continue
		}
		if s.consider(pl, lvl, cls == 1, false) {
			continue
		}
		// split: mark the blob's cores and flood them
		n := len(s.blob)
		if n > 4*s.maxArea(lvl) {
			continue
		}
		var sum int
		for _, i := range s.blob {
			sum += int(pl.pix[(int(i)/pl.w)*pl.stride+int(i)%pl.w])
		}
		thr := sum / n
		s.cores = append(s.cores[:0], s.blob...)
		for _, i := range s.cores {
			v := int(pl.pix[(int(i)/pl.w)*pl.stride+int(i)%pl.w])
			if (cls == 1 && v < thr) || (cls == 2 && v > thr) {
				mask[i] = cls + 4
			}
		}
		for _, i := range s.cores {
			if mask[i] != cls+4 {
				continue
			}
			s.flood(mask, pl.w, pl.h, int(i), cls+4)
			if len(s.blob) >= 4 {
				s.consider(pl, lvl, cls == 1, true)
			}
		}
	}
}

func (s *scratch) maxArea(lvl int) int { return maxArea }

// minRatio is the smallest ratio of a pip's minor axis to its major axis
// looked for: minPipRatio, or steepRatio when s.steep.
func (s *scratch) minRatio() float64 {
	if s.steep {
		return steepRatio
	}
	return minPipRatio
}

// minFill is the least fill of its ellipse a blob needs to be a pip:
// minPipFill, or crescentFill when s.steep.
func (s *scratch) minFill() float64 {
	if s.steep {
		return crescentFill
	}
	return minPipFill
}

// minPipFill is the least share of its fitted ellipse a pip fills. On a
// steep glossy face a pip is often a crescent, the lit half of a dimple
// lit from one side, whose ellipse it fills less: crescentFill is the
// least fill looked for on a steep face.
const (
	minPipFill   = 0.8
	crescentFill = 0.7
)

// minPipRatio is the most a pip is foreshortened on the faces read (a face
// tilted 66 degrees from the camera): thinner blobs are mostly glints, the
// rims of rounded edges and fragments of pips. steepRatio is the most a
// pip is foreshortened on a steep face looked for when nothing else is
// read (72 degrees, where a pip a few pixels tall is measured rounder than
// it is; thinner still, the blobs are mostly glints and edges).
const (
	minPipRatio = 0.4
	steepRatio  = 0.3
)

// minSliverRatio is the thinnest blob kept as a sliver (see dedupe): a
// pip of a face seen nearly edge on (80 degrees).
const minSliverRatio = 0.2

const maxArea = 214

// flood collects the 4-connected blob of class cls at start into s.blob,
// clearing it from mask, and reports whether it touches the border.
func (s *scratch) flood(mask []uint8, w, h, start int, cls uint8) bool {
	mask[start] = 0
	st := append(s.stack[:0], int32(start))
	s.blob = s.blob[:0]
	border := false
	for len(st) > 0 {
		i := int(st[len(st)-1])
		st = st[:len(st)-1]
		s.blob = append(s.blob, int32(i))
		x, y := i%w, i/w
		if x == 0 || y == 0 || x == w-1 || y == h-1 {
			border = true
		}
		if x > 0 && mask[i-1] == cls {
			mask[i-1] = 0
			st = append(st, int32(i-1))
		}
		if x < w-1 && mask[i+1] == cls {
			mask[i+1] = 0
			st = append(st, int32(i+1))
		}
		if y > 0 && mask[i-w] == cls {
			mask[i-w] = 0
			st = append(st, int32(i-w))
		}
		if y < h-1 && mask[i+w] == cls {
			mask[i+w] = 0
			st = append(st, int32(i+w))
		}
	}
	s.stack = st
	return border
}

// consider measures the blob in s.blob and keeps it if it looks like a
// pip. A core (from a split blob) is measured the same way.
func (s *scratch) consider(pl plane, lvl int, dark, core bool) bool {
	n := len(s.blob)
	if n > s.maxArea(lvl) {
		return false
	}
	f := float64(int(1) << lvl)
	loD, hiD := minPipDUp, maxPipD
	if lvl == 0 {
		loD = minPipD
	}
	if core {
		loD *= 0.8
	}
	var sx, sy, sxx, syy, sxy, sv int
	w := pl.w
	for _, i := range s.blob {
		x, y := int(i)%w, int(i)/w
		sx += x
		sy += y
		sxx += x * x
		syy += y * y
		sxy += x * y
		sv += int(pl.pix[y*pl.stride+x])
	}
	fn := float64(n)
	d := 2 * math.Sqrt(fn/math.Pi)
	if d < loD || d > hiD {
		return false
	}
	mx, my := float64(sx)/fn, float64(sy)/fn
	cxx := float64(sxx)/fn - mx*mx + 1.0/12
	cyy := float64(syy)/fn - my*my + 1.0/12
	cxy := float64(sxy)/fn - mx*my
	tr, det := cxx+cyy, cxx*cyy-cxy*cxy
	disc := math.Sqrt(math.Max(tr*tr/4-det, 0))
	l1, l2 := tr/2+disc, tr/2-disc
	if l2 <= 0 {
		return false
	}
	A, B := 2*math.Sqrt(l1), 2*math.Sqrt(l2)
	fill := fn / (math.Pi * A * B)
	if debugPips {
		fmt.Printf("lvl %d blob n %d at %.0f,%.0f d %.1f fill %.2f ratio %.2f core %v\n", lvl, n, mx, my, d, fill, B/A, core)
	}
	sliver := B/A < s.minRatio()
	if fill < s.minFill() || fill > 1.2 || sliver && (s.steep || B/A < minSliverRatio) {
		return false
	}
	ux, uy := 1.0, 0.0
	if math.Abs(cxy) > 1e-9 || cyy > cxx {
		ux, uy = cxy, l1-cxx
		if math.Abs(cxy) <= 1e-9 {
			ux, uy = 0, 1
		}
		n := math.Hypot(ux, uy)
		ux, uy = ux/n, uy/n
	}
	inMean := float64(sv) / fn
	ring, ok := ringCheck(pl, mx, my, A, B, ux, uy, inMean, dark)
	if debugPips {
		fmt.Printf("   ring %v %.0f in %.0f\n", ok, ring, inMean)
	}
	if ok && sliver {
		// whatever the polarity the plane's pips have: a die's pips
		// are of the other polarity than its body
		s.slivers = append(s.slivers, pip{x: (mx+0.5)*f - 0.5, y: (my+0.5)*f - 0.5, a: A * f, b: B * f, dark: dark})
		return false
	}
	if !ok || !s.kind.pipLike(dark, inMean, ring) {
		return false
	}
	if core {
		// a core is smaller than its pip: give it the pip's size back
		// roughly, so it matches the pips that were not split
		A *= 1.15
		B *= 1.15
	}
	s.pips = append(s.pips, pip{
		x: (mx+0.5)*f - 0.5, y: (my+0.5)*f - 0.5,
		a: A * f, b: B * f, ux: ux, uy: uy,
		dark: dark, in: inMean, ring: ring, level: lvl, crescent: fill < minPipFill,
	})
	return true
}

// planeKind is what a plane searched for pips holds.
type planeKind int

const (
	planeGrey  planeKind = iota // grey levels
	planeBody                   // distances from a coloured die's body colour (see bodyPipPlane)
	planeValue                  // the largest of red, green and blue (see valuePlane)
	planeWeak                   // the channels a coloured die's body is weak in (see weakPlane)
)

// pipLike reports whether a candidate of polarity dark, mean level in and
// face level ring, that stands out from its face all around, can be a pip
// on a plane of kind k.
func (k planeKind) pipLike(dark bool, in, ring float64) bool {
	switch k {
	case planeBody:
		// a pip is farther from the body's colour than the face around
		// it, which is the body; and, the colour being coarser than the
		// grey (cameras keep less of it), a pip must stand out clearly
		return !dark && ring <= bodyFace && in-ring >= minBodyContrast
	case planeValue:
		// only black pips on a white face are looked for there: a
		// coloured die on a lighter table is one dark blot too, but it
		// reflects more than half of what the table does
		return dark && ring >= minValueFace && 2*in <= ring
	case planeWeak:
		// a white or yellow pip reflects much of what the body does
		// not: at least twice as much as the face around it, and by as
		// much as a pip must stand out on the body-colour plane
		return !dark && in-ring >= minBodyContrast && in >= 2*ring
	}
	return true
}

// ringCheck samples a ring around a blob and reports its mean, and whether
// the blob stands out from an even face all around it.
func ringCheck(pl plane, mx, my, A, B, ux, uy, in float64, dark bool) (float64, bool) {
	const n = 16
	var vals [n]float64
	sum := 0.0
	for k := 0; k < n; k++ {
		c, s := cosSin16[k][0], cosSin16[k][1]
		px := mx + (1.2*A+1)*c*ux - (1.2*B+1)*s*uy
		py := my + (1.2*A+1)*c*uy + (1.2*B+1)*s*ux
		ix, iy := int(px+0.5), int(py+0.5)
		if ix < 0 || iy < 0 || ix >= pl.w || iy >= pl.h {
			return 0, false
		}
		v := float64(pl.at(ix, iy))
		vals[k] = v
		sum += v
	}
	// the face around the pip: the three quarters of the samples nearest
	// the pip's level (the darker ones for a dark pip), which leaves out
	// a glint or a lit rim beside it, so that the contrast asked of the
	// pip is the one it has with the face's less lit part
	sort.Float64s(vals[:])
	lo, hi := 0, n*3/4
	if !dark {
		lo, hi = n/4, n
	}
	sum = 0
	for _, v := range vals[lo:hi] {
		sum += v
	}
	ring := sum / float64(hi-lo)
	con := ring - in
	if !dark {
		con = -con
	}
	if con < 20 {
		return ring, false
	}
	bad := 0
	for _, v := range vals {
		c := v - in
		if !dark {
			c = -c
		}
		if c < 0.45*con {
			bad++
		}
	}
	return ring, bad <= 5
}

var cosSin16 = func() (t [16][2]float64) {
	for k := range t {
		a := 2 * math.Pi * float64(k) / 16
		t[k] = [2]float64{math.Cos(a), math.Sin(a)}
	}
	return t
}()

// dedupe drops the weaker of two candidates found at the same place on
// neighbouring levels.
func (s *scratch) dedupe() {
	p := s.pips
	s.byLvl = append(s.byLvl[:0], p...)
	q := s.byLvl
	out := p[:0]
	for i := range q {
		keep := true
		for j := range q {
			if i == j {
				continue
			}
			if q[i].dark != q[j].dark {
				// a blob holding pips of the other polarity is a die, not a pip
				if q[i].holds(&q[j]) {
					keep = false
					break
				}
				continue
			}
			dx, dy := q[i].x-q[j].x, q[i].y-q[j].y
			r := math.Max(q[i].a, q[j].a)
			if dx*dx+dy*dy < r*r {
				if s.wins(&q[j], &q[i], j < i) {
					keep = false
					break
				}
			}
		}
		if keep && s.sliversIn(&q[i]) >= 2 {
			// nor is a blob holding two or more slivers of the other
			// polarity: the pips of a die's steep face, too thin to be
			// read, show the blob to be the die's body (a dark die on a
			// light table); a pip's glint is one
			keep = false
		}
		if keep {
			out = append(out, q[i])
		}
	}
	s.pips = out
}

// holds reports whether q, smaller than p, lies within p.
func (p *pip) holds(q *pip) bool {
	dx, dy := p.x-q.x, p.y-q.y
	return q.a < 0.6*p.a && dx*dx+dy*dy < p.a*p.a
}

// sliversIn counts the slivers of the other polarity than p's within p.
func (s *scratch) sliversIn(p *pip) int {
	n := 0
	for k := range s.slivers {
		if q := &s.slivers[k]; q.dark != p.dark && p.holds(q) {
			n++
		}
	}
	return n
}

// wins reports whether candidate p is kept over q, found at the same place:
// the one from the finer level, or of the same level the clearer. Seen from
// the side (s.oblique), of two candidates of very different sizes on
// different levels the one whose size more of its neighbours share is kept
// (one pip at one size); of two of very different shapes, the one whose
// shape its neighbours share when none shares the other's (the pips of one
// face are foreshortened alike, but a pip whose rim a glint or the
// threshold cut is measured thinner on one level only). Failing that, a pip
// found on a coarser level with far more contrast is kept over its fragment
// found on a finer one (a big pip's shaded half, say).
func (s *scratch) wins(p, q *pip, first bool) bool {
	if s.oblique && p.level != q.level {
		if np, nq := s.kinOf(p, q, pipSize); np != nq {
			return np > nq
		}
		if np, nq := s.kinOf(p, q, pipShape); (np == 0) != (nq == 0) {
			return np > 0
		}
		if p.level > q.level && p.contrast() > obliqueFragment*q.contrast() {
			return true
		}
		if p.level < q.level && q.contrast() > obliqueFragment*p.contrast() {
			return false
		}
	}
	return p.level < q.level || (p.level == q.level && (p.contrast() > q.contrast() || first))
}

// obliqueFragment is how many times clearer a pip found on a coarser level
// must be than one found at the same place on a finer level to be kept over
// it, seen from the side.
const obliqueFragment = 1.5

var debugPips = false

// kinSize is how many times bigger (or rounder) one of two candidates of
// one place must be for kinOf to compare them; kinMatch is how close (as a
// ratio) a neighbour's measure must be to count as the same; kinReach is
// how far, in the bigger candidate's semi-axes, neighbours are looked for.
const (
	kinSize  = 1.4
	kinMatch = 1.25
	kinReach = 6.0
)

// pipSize and pipShape are the measures kinOf compares candidates by: the
// major axis, and the ratio of the minor axis to it.
func pipSize(p *pip) float64  { return p.a }
func pipShape(p *pip) float64 { return p.b / p.a }

// kinOf counts, seen from the side, the candidates of the same kind nearby
// that share the measure of p and of q, two candidates of one pip found on
// different levels that measure very differently (a fragment and its whole
// pip, or a pip and the blot around it). It returns 0, 0 when p and q
// measure alike.
func (s *scratch) kinOf(p, q *pip, measure func(*pip) float64) (np, nq int) {
	mp, mq := measure(p), measure(q)
	if mp < kinSize*mq && mq < kinSize*mp {
		return 0, 0
	}
	big := p
	if q.a > p.a {
		big = q
	}
	for i := range s.byLvl {
		o := &s.byLvl[i]
		if o.dark != p.dark || o == p || o == q {
			continue
		}
		dx, dy := o.x-big.x, o.y-big.y
		if dx*dx+dy*dy < big.a*big.a {
			continue // another candidate of the same place
		}
		if dx*dx+dy*dy > sq(kinReach*big.a) {
			continue
		}
		if r := measure(o) / mp; r < kinMatch && r > 1/kinMatch {
			np++
		}
		if r := measure(o) / mq; r < kinMatch && r > 1/kinMatch {
			nq++
		}
	}
	return np, nq
}
