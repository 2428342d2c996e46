package learned

import (
	"cmp"
	"image"
	"math"
	"slices"
)

// witnessPx is the side of the grid the box witness samples a die on,
// and witnessMargin that grid's side over the die's box's. With 1.15, a
// die seen from the side whose box left out its top face's pips had its
// front face taken for the top (a 2 read as a 3, awsvegas_dice, by the
// model trained without skovy_catan_webcam); with 1.3, rendered dice
// had 12 faces not on top found of 1,657 asked against 16, and their top
// face read 264 times of 343 against 259 (TestWitness_RenderedDice,
// before the pips' areas were held within 1.8 of one another).
//
// witnessMinPx is the smallest box looked at: under it, a die's pips are
// a few pixels, where blur and JPEG's blocks make blobs as big. Each
// source left out of the networks' training, without it the witness gave
// a wrong value on a die of 30 px (awsvegas_dice: 0.62% of its crops
// against 0.55%); with it none, and the crops of dice ≥40 px read as
// before but for one of banachowicz_rpgsets.
const (
	witnessPx     = 64
	witnessMargin = 1.3
	witnessMinPx  = 32
)

// boxWitnessProb is the probability of the face the classifier leans to
// from which the box witness's count of that face settles an unsure die
// the pip rules do not read (see [Reader.ReadImage]). With it, on the
// crops of dice ≥40 px, trained on: skovy_catan_webcam 72.8% read against
// 65.6%, awsvegas_dice 82.4% against 81.9%, no wrong value more, the
// others as before; each left out of the networks' training (a venue
// never seen, vision/train/REPORT.md), its threshold as before:
// skovy_catan_webcam 67.5% against 63.6%, banachowicz_rpgsets 82.9%
// against 81.4%, awsvegas_dice 76.5% against 75.3%, matteop65_wood
// 94.6% against 94.3%, no wrong value more (smaller dice included). At
// 0.8 it read 0.1 to 0.7 points more of three sources trained on, and
// gave a wrong value more (awsvegas_dice, a die under 40 px), and left
// out, dice3_roboflow_v3 one on a die of 62 px; under 0.8 it finds the
// face of few more dice.
const boxWitnessProb = 0.9

// witness is the third witness of a die the classifier is unsure of, for
// dice the pip rules of package vision do not read: it looks only inside
// the die's box, and counts its top face's pips by their geometry alone.
// Pips are blobs darker or lighter than the face around them (a top-hat
// of the grey). A face is a set of them of one size and one slant, on
// the 3×3 grid of a square seen turned and flattened (see isFace), alone
// on its square, with none above it (a die seen from the side shows its
// top face above the faces that front the camera), its centre in the
// box's middle or upper half. A single pip is no pattern: a 1 is left to
// the network and the pip rules (on rendered dice, a third of the pips
// it took for a 1, alone in the box's middle, were another face's). It
// reports whether it finds the face the classifier leans to. Its
// buffers are kept between reads.
//
// Each rule of isFace was measured by leaving it out alone, on the dice
// ≥40 px of awsvegas_dice, banachowicz_rpgsets and skovy_catan_webcam
// that the models trained without each leave unsure (leaning ≥0.9) and
// the pip rules do not read, and on TestWitness_RenderedDice's 1,657
// questions: with every rule, 25 of those dice read and 12 faces not on
// top found; without the centre's place, 26 read and one wrong, 23
// found; without one slant, 27 and 20; without the spacing, 28 and 85;
// without the sides beside or in line, 31 and 196; without the square,
// 27 and 234; without nothing above, 29 read and one wrong, 24 found.
type witness struct {
	rgb                []float32
	xs                 []int
	grey, bg, tmp, hat []float64
	label, stack       []int32
	blobs              []blob
	idx                []int
}

// blob is a pip candidate on the witness's grid: its centre, its area in
// cells, and its second moments about its centre.
type blob struct {
	x, y, area    float64
	sxx, syy, sxy float64
}

// reads reports whether the die in box (of px) shows face on top. A box
// under witnessMinPx on a side is not looked at.
func (w *witness) reads(px pixels, box image.Rectangle, face int) bool {
	const n = witnessPx
	if min(box.Dx(), box.Dy()) < witnessMinPx {
		return false
	}
	// the detector boxes a die smaller than it is (see classify): the
	// grid takes in the whole die and a little around it
	side := float64(max(box.Dx(), box.Dy())) * witnessMargin
	cx, cy := float64(box.Min.X+box.Max.X)/2, float64(box.Min.Y+box.Max.Y)/2
	w.rgb = slices.Grow(w.rgb[:0], 3*n*n)[:3*n*n]
	w.xs = px.resample(w.rgb, w.xs, cx-side/2, cy-side/2, side, side, n, n)
	w.grey = slices.Grow(w.grey[:0], n*n)[:n*n]
	w.bg = slices.Grow(w.bg[:0], n*n)[:n*n]
	w.tmp = slices.Grow(w.tmp[:0], n*n)[:n*n]
	w.hat = slices.Grow(w.hat[:0], n*n)[:n*n]
	for i := range w.grey {
		w.grey[i] = 255 * (0.5 + greyR*float64(w.rgb[i]) + greyG*float64(w.rgb[n*n+i]) + greyB*float64(w.rgb[2*n*n+i]))
	}
	w.findBlobs(-1)
	if w.findFace(w.blobs, face) {
		return true
	}
	w.findBlobs(1)
	return w.findFace(w.blobs, face)
}

// findBlobs finds the pips of one sign (-1 dark, 1 light): the cells
// that stand out of the face around them, the face being the grey with
// such pips taken away (a closing for dark pips, an opening for light,
// wider than a pip), by at least 45% of how far the most outstanding
// ones do, joined 4-connected, and kept when of a pip's size and shape.
func (w *witness) findBlobs(sign float64) {
	const n, r = witnessPx, witnessPx / 6
	extreme(w.tmp, w.grey, w.hat, n, r, -sign)
	extreme(w.bg, w.tmp, w.hat, n, r, sign)
	for i := range w.hat {
		w.hat[i] = sign * (w.grey[i] - w.bg[i])
	}
	top := percentile99(w.hat)
	t := max(12, 0.45*top)
	w.label = slices.Grow(w.label[:0], n*n)[:n*n]
	for i := range w.label {
		w.label[i] = 0
		if w.hat[i] > t {
			w.label[i] = -1
		}
	}
	w.blobs = w.blobs[:0]
	for i := range w.label {
		if w.label[i] != -1 {
			continue
		}
		w.label[i] = 1
		w.stack = append(w.stack[:0], int32(i))
		var sx, sy, sxx, syy, sxy, a, peak float64
		edge := false
		for len(w.stack) > 0 {
			p := int(w.stack[len(w.stack)-1])
			w.stack = w.stack[:len(w.stack)-1]
			x, y := p%n, p/n
			fx, fy := float64(x), float64(y)
			sx, sy, sxx, syy, sxy, a = sx+fx, sy+fy, sxx+fx*fx, syy+fy*fy, sxy+fx*fy, a+1
			peak = max(peak, w.hat[p])
			edge = edge || x == 0 || y == 0 || x == n-1 || y == n-1
			for _, q := range [4]int{p - 1, p + 1, p - n, p + n} {
				if q >= 0 && q < n*n && (q/n == y || q%n == x) && w.label[q] == -1 {
					w.label[q] = 1
					w.stack = append(w.stack, int32(q))
				}
			}
		}
		mx, my := sx/a, sy/a
		b := blob{x: mx, y: my, area: a, sxx: sxx/a - mx*mx + 1.0/12, syy: syy/a - my*my + 1.0/12, sxy: sxy/a - mx*my}
		// a pip is a disc, seen up to about 75° aside: 4 to 600 cells
		// (a diameter of 3% to 40% of the grid), filling most of its
		// ellipse, not thinner than 1:4, not cut by the grid's edge, and
		// standing out as the pips do, not as noise that passed the
		// threshold
		l1, l2 := b.axes()
		ellipse := 4 * math.Pi * math.Sqrt(l1*l2)
		if !edge && a >= 4 && a <= 600 && a >= 0.6*ellipse && l1 <= 16*l2 && peak >= 0.7*top {
			w.blobs = append(w.blobs, b)
		}
	}
}

// alike reports whether two blobs have one shape: their second moments,
// each scaled to unit determinant, differ by under 0.6 (a disc against
// one flattened to 1:1.4 differs by 0.5, and to 1:1.8 by 0.8).
func alike(a, b blob) bool {
	na := math.Sqrt(max(a.sxx*a.syy-a.sxy*a.sxy, 1e-9))
	nb := math.Sqrt(max(b.sxx*b.syy-b.sxy*b.sxy, 1e-9))
	dxx, dyy, dxy := a.sxx/na-b.sxx/nb, a.syy/na-b.syy/nb, a.sxy/na-b.sxy/nb
	return math.Sqrt(dxx*dxx+dyy*dyy+2*dxy*dxy) < 0.6
}

// percentile99 returns the 99th percentile of the hat's cells, to the
// grey level (a count of the levels, where a sort costs more than all
// the rest).
func percentile99(hat []float64) float64 {
	var hist [256]int
	for _, v := range hat {
		hist[min(255, max(0, int(v)))]++
	}
	for i, left := 255, len(hat)/100; ; i-- {
		if left -= hist[i]; left < 0 || i == 0 {
			return float64(i)
		}
	}
}

// axes returns the variances of the blob along its major and minor axes.
func (b blob) axes() (float64, float64) {
	m := (b.sxx + b.syy) / 2
	d := math.Sqrt(max(0, (b.sxx-b.syy)*(b.sxx-b.syy)/4+b.sxy*b.sxy))
	return m + d, max(m-d, 1e-9)
}

// extreme sets dst to the maximum (sign 1) or minimum (sign -1) of src
// over the (2r+1)² window of each cell of the n×n grid; tmp is scratch.
// It filters rows, then columns, each line in time independent of r.
func extreme(dst, src, tmp []float64, n, r int, sign float64) {
	for y := 0; y < n; y++ {
		lineMax(tmp[y*n:], src[y*n:], 1, n, r, sign)
	}
	for x := 0; x < n; x++ {
		lineMax(dst[x:], tmp[x:], n, n, r, sign)
	}
}

// lineMax sets dst[i*step] to the maximum of sign·src over the window of
// radius r around i (of n samples, step apart), times sign, in blocks of
// the window's width: the maximum of a window is that of the end of one
// block and the start of the next (van Herk, Gil and Werman).
func lineMax(dst, src []float64, step, n, r int, sign float64) {
	var fwd, bwd [2 * witnessPx]float64 // n + 2r, r under n/2
	k := 2*r + 1
	m := n + 2*r // the line, padded with r samples that never win
	at := func(i int) float64 {
		if i < r || i >= n+r {
			return math.Inf(-1)
		}
		return sign * src[(i-r)*step]
	}
	for i := 0; i < m; i++ {
		if v := at(i); i%k == 0 {
			fwd[i] = v
		} else {
			fwd[i] = max(fwd[i-1], v)
		}
	}
	for i := m - 1; i >= 0; i-- {
		if v := at(i); i == m-1 || (i+1)%k == 0 {
			bwd[i] = v
		} else {
			bwd[i] = max(bwd[i+1], v)
		}
	}
	for i := 0; i < n; i++ {
		dst[i*step] = sign * max(bwd[i], fwd[i+2*r])
	}
}

// maxBlobs bounds the blobs a face is looked for among, the biggest
// kept: at most C(14, 6) = 3003 sets to try.
const maxBlobs = 14

// findFace reports whether face (2…6) pips among the blobs bs, which it
// sorts, are a top face (see isFace). Sets are tried from the biggest
// blobs down, of blobs within 1.8 times one another's area: one face's
// pips are of one size, but for the threshold's ragged edge (with 2.5, a
// 1 on top and a pip of the 2 that fronted the camera, 85 and 45 cells,
// were taken for a 2 of awsvegas_dice by the model trained without
// skovy_catan_webcam; rendered dice read as before).
func (w *witness) findFace(bs []blob, face int) bool {
	if face < 2 || face > 6 || len(bs) < face {
		return false
	}
	slices.SortFunc(bs, func(a, b blob) int { return cmp.Compare(b.area, a.area) })
	bs = bs[:min(len(bs), maxBlobs)]
	w.idx = slices.Grow(w.idx[:0], face)[:face]
	var try func(k, from int) bool
	try = func(k, from int) bool {
		if k == face {
			return isFace(bs, w.idx)
		}
		for i := from; i <= len(bs)-(face-k); i++ {
			if k > 0 && bs[w.idx[0]].area > 1.8*bs[i].area {
				return false // and all the smaller ones after
			}
			w.idx[k] = i
			if try(k+1, i+1) {
				return true
			}
		}
		return false
	}
	return try(0, 0)
}

// isFace reports whether the blobs bs[idx] are the pips of a die's top
// face. A face's pips lie on a 3×3 grid of the face's square, which the
// camera sees as a parallelogram (turned, and flattened when seen aside):
// corners at c±u and c±v, the centre c, the sides' middles at
// c±(u+v)/2 or c±(u−v)/2. The pips must be where the face's count puts
// them on the parallelogram their corners span (a diagonal of two or
// three pips spans none: its square is taken unflattened), flattened
// alike, apart as a face's pips are for their size; no other blob of
// their size may lie on it (a diagonal's, nor beside it or in line with
// it, where the rest of a bigger face would be), and none over a fifth of
// their size above it (a die seen aside shows its top face above the
// faces that front the camera); its centre is in the grid's middle across
// and not in its lower part, where a face that fronts the camera is.
func isFace(bs []blob, idx []int) bool {
	const n = witnessPx
	var c vec
	var ma float64
	for _, i := range idx {
		c, ma = c.add(vec{bs[i].x, bs[i].y}), ma+bs[i].area
	}
	k := float64(len(idx))
	c, ma = c.scale(1/k), ma/k
	if math.Abs(c.x-n/2) > 0.2*n || c.y > 0.6*n {
		return false
	}
	diam := 2 * math.Sqrt(ma/math.Pi)
	tol := max(1.5, 0.45*diam)
	// the pips as seen from the centre, the farthest first: the corners
	var buf [6]vec
	ps := buf[:0]
	for _, i := range idx {
		ps = append(ps, vec{bs[i].x, bs[i].y}.sub(c))
	}
	slices.SortFunc(ps, func(a, b vec) int { return cmp.Compare(b.len(), a.len()) })
	var u, v vec
	var want []vec // where the pips must be
	switch len(idx) {
	case 2, 3:
		u = ps[0]
		v = vec{-u.y, u.x}
		want = []vec{u, u.scale(-1), {}}[:len(idx)]
	default:
		u = ps[0]
		for _, p := range ps[1:4] {
			if math.Abs(cross(u, p)) > math.Abs(cross(u, v)) {
				v = p
			}
		}
		want = []vec{u, u.scale(-1), v, v.scale(-1)}
		switch len(idx) {
		case 5:
			want = append(want, vec{})
		case 6:
			m := u.add(v).scale(0.5)
			if !ps[4].near(m, tol) && !ps[4].near(m.scale(-1), tol) {
				m = u.sub(v).scale(0.5)
			}
			want = append(want, m, m.scale(-1))
		}
	}
	for _, w := range want {
		if !slices.ContainsFunc(ps, func(p vec) bool { return p.near(w, tol) }) {
			return false
		}
	}
	// one face is seen at one slant: its pips are flattened alike
	for _, i := range idx[1:] {
		if !alike(bs[i], bs[idx[0]]) {
			return false
		}
	}
	// the square's halves: from its centre to the middles of two sides
	e1, e2 := u.add(v).scale(0.5), u.sub(v).scale(0.5)
	if l1, l2 := e1.len(), e2.len(); min(l1, l2) < 0.8*diam || max(l1, l2) > 4*diam || max(l1, l2) > 2.2*min(l1, l2) || math.Abs(e1.dot(e2)) > 0.7*l1*l2 {
		return false
	}
	det := cross(e1, e2)
	top, left, right := math.Inf(1), math.Inf(1), math.Inf(-1)
	for _, p := range ps {
		top, left, right = min(top, p.y), min(left, p.x), max(right, p.x)
	}
	for j, b := range bs {
		if slices.Contains(idx, j) {
			continue
		}
		p := vec{b.x, b.y}.sub(c)
		// a diagonal may be one side of a bigger face: the pips of the
		// side across it would lie beside it
		if len(idx) <= 3 && b.area >= ma/2.5 && b.area <= 2.5*ma {
			along, across := math.Abs(p.dot(u)/u.dot(u)), math.Abs(p.dot(v)/v.dot(v))
			if along <= 1.4 && across >= 0.9 && across <= 2.6 || along >= 1.4 && along <= 3.5 && across <= 0.5 {
				return false
			}
		}
		// on the square (four fifths wider): its place in the face's frame
		s, t := cross(p, e2)/det, cross(e1, p)/det
		if b.area >= ma/2.5 && math.Abs(s) < 1.8 && math.Abs(t) < 1.8 {
			return false
		}
		// above: a face seen aside flattens its pips, smaller ones count
		if p.y < top-diam && p.x > left-2*diam && p.x < right+2*diam && b.area >= ma/5 && b.area <= 2.5*ma {
			return false
		}
	}
	return true
}

// vec is a point or a displacement on the witness's grid.
type vec struct{ x, y float64 }

func (a vec) add(b vec) vec              { return vec{a.x + b.x, a.y + b.y} }
func (a vec) sub(b vec) vec              { return vec{a.x - b.x, a.y - b.y} }
func (a vec) scale(f float64) vec        { return vec{a.x * f, a.y * f} }
func (a vec) len() float64               { return math.Hypot(a.x, a.y) }
func (a vec) near(b vec, d float64) bool { return a.sub(b).len() <= d }
func (a vec) dot(b vec) float64          { return a.x*b.x + a.y*b.y }
func cross(a, b vec) float64             { return a.x*b.y - a.y*b.x }
