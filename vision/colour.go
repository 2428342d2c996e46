package vision

import (
	"image"
	"image/color"
)

// colourStep is the sampling step, in pixels, of the chroma plane.
const colourStep = 4

// minChroma is the chroma (0…255) over which a sample is taken as a
// coloured die's body: well above a grey or white table's and a white
// die's.
const minChroma = 48

// chromaPlane samples the chroma of img every colourStep pixels into
// rd.chroma (0 where img has no colour) and reports whether img has colour
// planes at all. An [*image.YCbCr] is read in place.
func (rd *Reader) chromaPlane(img image.Image) (w, h int, ok bool) {
	b := img.Bounds()
	w, h = b.Dx()/colourStep, b.Dy()/colourStep
	if w < 4 || h < 4 {
		return 0, 0, false
	}
	if cap(rd.chroma) < w*h {
		rd.chroma = make([]uint8, w*h)
	}
	c := rd.chroma[:w*h]
	switch m := img.(type) {
	case *image.YCbCr:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				i := m.COffset(b.Min.X+x*colourStep+colourStep/2, b.Min.Y+y*colourStep+colourStep/2)
				cb, cr := int(m.Cb[i])-128, int(m.Cr[i])-128
				c[y*w+x] = uint8(min(255, 2*max(abs(cb), abs(cr))))
			}
		}
	default:
		pix, stride, ok := rgbaPix(img)
		if !ok {
			return 0, 0, false
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				i := (y*colourStep+colourStep/2)*stride + 4*(x*colourStep+colourStep/2)
				c[y*w+x] = spread3(pix[i], pix[i+1], pix[i+2])
			}
		}
	}
	return w, h, true
}

// histMedian returns the median of the n levels counted in h, or 0 when
// n is 0.
func histMedian(h *[256]int, n int) int {
	s := 0
	for v := range h {
		s += h[v]
		if 2*s >= n {
			return v
		}
	}
	return 0
}

func spread3(r, g, b uint8) uint8 {
	return max(r, g, b) - min(r, g, b)
}

// colourDice counts, in the chroma plane, the compact coloured blobs of a
// die's size that the image border does not cut: coloured dice on a grey
// or white table. Big coloured areas (a board, a cloth) are not counted.
func (rd *Reader) colourDice(w, h int) int {
	c := rd.chroma[:w*h]
	if cap(rd.cmask) < w*h {
		rd.cmask = make([]uint8, w*h)
	}
	mask := rd.cmask[:w*h]
	for i, v := range c {
		mask[i] = 0
		if v >= minChroma {
			mask[i] = 1
		}
	}
	return rd.countBlobs(mask, w, h)
}

// countBlobs counts the compact blobs of class 1 in mask that are of a
// die's size and that the image border does not cut: big areas (a board, a
// cloth) are not counted, and of the rest only those of about the size of
// the biggest (dice of one throw are of one size).
func (rd *Reader) countBlobs(mask []uint8, w, h int) int {
	var areas []int
	for i := range mask {
		if mask[i] != 1 {
			continue
		}
		border := rd.s.flood(mask, w, h, i, 1)
		n := len(rd.s.blob)
		if border || n < max(minColourArea, rd.minBlob) {
			continue
		}
		x0, y0, x1, y1 := w, h, 0, 0
		for _, j := range rd.s.blob {
			x, y := int(j)%w, int(j)/w
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
		}
		bw, bh := x1-x0+1, y1-y0+1
		if bw > w/3 || bh > h/3 || bw > 2*bh || bh > 2*bw {
			continue
		}
		if fill := float64(n) / float64(bw*bh); fill < 0.5 {
			continue
		}
		areas = append(areas, n)
	}
	if len(areas) < 2 {
		return len(areas)
	}
	// dice of one throw are of one size: count those within a factor of
	// the biggest
	big := 0
	for _, a := range areas {
		big = max(big, a)
	}
	n := 0
	for _, a := range areas {
		if 3*a >= big {
			n++
		}
	}
	return n
}

// minColourArea is the smallest coloured blob, in chroma samples, taken
// as a die (about a 20 px die).
const minColourArea = 20

// bodyPlane samples img every colourStep pixels into rd.body as the
// distance of each sample's colour from the background's (the median
// colour of the samples along the image border): luma difference, and
// twice the chroma difference. It reports whether img has colour planes.
func (rd *Reader) bodyPlane(img image.Image) (w, h int, ok bool) {
	b := img.Bounds()
	w, h = b.Dx()/colourStep, b.Dy()/colourStep
	if w < 4 || h < 4 {
		return 0, 0, false
	}
	if cap(rd.ycc) < 3*w*h {
		rd.ycc = make([]uint8, 3*w*h)
	}
	p := rd.ycc[:3*w*h]
	at := func(x, y int) (int, int) {
		return b.Min.X + x*colourStep + colourStep/2, b.Min.Y + y*colourStep + colourStep/2
	}
	switch m := img.(type) {
	case *image.YCbCr:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				px, py := at(x, y)
				i, k := m.COffset(px, py), 3*(y*w+x)
				p[k], p[k+1], p[k+2] = m.Y[m.YOffset(px, py)], m.Cb[i], m.Cr[i]
			}
		}
	default:
		pix, stride, ok := rgbaPix(img)
		if !ok {
			return 0, 0, false
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				px, py := at(x, y)
				i, k := (py-b.Min.Y)*stride+4*(px-b.Min.X), 3*(y*w+x)
				p[k], p[k+1], p[k+2] = color.RGBToYCbCr(pix[i], pix[i+1], pix[i+2])
			}
		}
	}
	// the background: the median of the border samples, per channel
	var hist [3][256]int
	nb := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if x != 0 && y != 0 && x != w-1 && y != h-1 {
				continue
			}
			k := 3 * (y*w + x)
			for c := 0; c < 3; c++ {
				hist[c][p[k+c]]++
			}
			nb++
		}
	}
	var bg [3]int
	for c := range bg {
		bg[c] = histMedian(&hist[c], nb)
	}
	if cap(rd.body) < w*h {
		rd.body = make([]uint8, w*h)
	}
	d := rd.body[:w*h]
	for i := range d {
		k := 3 * i
		dy := int(p[k]) - bg[0]
		dc := 2 * max(abs(int(p[k+1])-bg[1]), abs(int(p[k+2])-bg[2]))
		switch {
		case dc >= minBody:
			d[i] = bodyColour
		case dy >= minBody:
			d[i] = bodyLight
		case -dy >= minBody:
			d[i] = bodyDark
		default:
			d[i] = 0
		}
	}
	return w, h, true
}

// The kinds of body sample: of another colour than the background,
// lighter or darker.
const (
	bodyColour = 1 + iota
	bodyLight
	bodyDark
)

// minBody is the distance from the background's colour (see bodyPlane)
// over which a sample is taken as part of a die's body.
const minBody = 48

// bodyDice counts, in rd.body, the compact blobs of a die's size that
// stand out from the background the same way (of another colour, lighter
// or darker: a die and its shadow are not two dice) and that the image
// border does not cut, after closing gaps of one sample (a die's faces and
// pips part its body). It returns the largest count of one kind.
func (rd *Reader) bodyDice(w, h int) int {
	if cap(rd.cmask) < 3*w*h {
		rd.cmask = make([]uint8, 3*w*h)
	}
	raw, mask, tmp := rd.cmask[:w*h], rd.cmask[w*h:2*w*h], rd.cmask[2*w*h:3*w*h]
	best := 0
	for kind := uint8(bodyColour); kind <= bodyDark; kind++ {
		for i, v := range rd.body[:w*h] {
			raw[i] = 0
			if v == kind {
				raw[i] = 1
			}
		}
		majority(mask, raw, tmp, w, h)
		closeMask(mask, raw, w, h)
		best = max(best, rd.countBlobs(mask, w, h))
	}
	return best
}

// majority sets dst to src with each sample replaced by the majority of
// its 3×3 neighbourhood (a median filter of the 0/1 mask): the speckle of
// a table's texture and of noise goes, a die's body stays. The
// neighbourhood's sum is taken along the rows into tmp, then down the
// columns (clipped at the border, where the neighbourhood is smaller).
func majority(dst, src, tmp []uint8, w, h int) {
	for y := 0; y < h; y++ {
		s, t := src[y*w:y*w+w], tmp[y*w:y*w+w]
		for x := range t {
			c := s[x]
			if x > 0 {
				c += s[x-1]
			}
			if x < w-1 {
				c += s[x+1]
			}
			t[x] = c
		}
	}
	for y := 0; y < h; y++ {
		y0, y1 := max(0, y-1), min(h-1, y+1)
		for x := 0; x < w; x++ {
			c := 0
			for yy := y0; yy <= y1; yy++ {
				c += int(tmp[yy*w+x])
			}
			n := (y1 - y0 + 1) * (min(w-1, x+1) - max(0, x-1) + 1)
			dst[y*w+x] = 0
			if 2*c > n {
				dst[y*w+x] = 1
			}
		}
	}
}

// closeMask closes the 0/1 mask m in place by one sample (dilate, then
// erode, 8-neighbourhood), using tmp. A 3×3 square is a row of three times
// a column of three, so each is done along the rows, then down the
// columns.
func closeMask(m, tmp []uint8, w, h int) {
	spread(tmp, m, w, h, 1, 1)
	spread(m, tmp, w, h, w, 1)
	spread(tmp, m, w, h, 1, 0)
	spread(m, tmp, w, h, w, 0)
}

// spread sets each sample of dst, a w×h 0/1 mask, to want where the
// sample of src at the same place or a step before or after it (step 1:
// along the row; step w: down the column) is want, else to 1-want.
func spread(dst, src []uint8, w, h, step int, want uint8) {
	// the lines the step runs along: n of them, m samples long, the
	// first sample of each next one next apart
	n, m, next := h, w, w
	if step != 1 {
		n, m, next = w, h, 1
	}
	for l := 0; l < n; l++ {
		i := l * next
		for j := 0; j < m; j, i = j+1, i+step {
			v := 1 - want
			if src[i] == want || j > 0 && src[i-step] == want || j < m-1 && src[i+step] == want {
				v = want
			}
			dst[i] = v
		}
	}
}

// colourPlane returns the plane of img of the given kind (planeBody,
// planeWeak or planeValue), or false when img has none.
//
// img is the image being read (rd.img): each plane is made once per image,
// in a buffer of its own, as it is read again and again (by otherValue,
// the colour retries, readSteep, and in part by sightings).
func (rd *Reader) colourPlane(img image.Image, kind planeKind) (*image.Gray, bool) {
	if rd.img == nil {
		return rd.colourPlaneIn(img, img.Bounds(), kind)
	}
	pl := &rd.planes[kind]
	if !pl.made {
		keep := rd.pipPix
		rd.pipPix = pl.pix
		g, ok := rd.colourPlaneIn(img, img.Bounds(), kind)
		pl.pix, rd.pipPix = rd.pipPix, keep
		pl.made, pl.ok = true, ok
		if ok {
			pl.g = *g
		}
	}
	if !pl.ok {
		return nil, false
	}
	return &pl.g, true
}

// colourPlaneMade returns the part r of the plane of the given kind of the
// image being read when the whole plane was made already (see
// colourPlane).
func (rd *Reader) colourPlaneMade(r image.Rectangle, kind planeKind) (*image.Gray, bool) {
	if pl := &rd.planes[kind]; pl.made && pl.ok {
		if g, ok := pl.g.SubImage(r).(*image.Gray); ok {
			return g, true
		}
	}
	return nil, false
}

// madePlane is a colour plane of the image being read: whether it was made
// yet, and whether the image has one.
type madePlane struct {
	made, ok bool
	pix      []uint8
	g        image.Gray
}

// colourPlaneIn returns the part r of the plane of img of the given kind:
// the body's colour is still that of all of img.
func (rd *Reader) colourPlaneIn(img image.Image, r image.Rectangle, kind planeKind) (*image.Gray, bool) {
	part := img
	if r != img.Bounds() {
		sub, ok := img.(interface {
			SubImage(image.Rectangle) image.Image
		})
		if !ok {
			return nil, false
		}
		part = sub.SubImage(r)
	}
	switch kind {
	case planeBody:
		return rd.bodyPipPlane(img, part)
	case planeWeak:
		return rd.weakPlane(img, part)
	}
	return rd.valuePlane(part)
}

// chromaOf returns the chroma (Cb, Cr, centred on 0, ITU-R 601) of an
// RGB colour.
func chromaOf(r, g, b uint8) (cb, cr int) {
	R, G, B := int(r), int(g), int(b)
	return (-43*R - 85*G + 128*B) >> 8, (128*R - 107*G - 21*B) >> 8
}

// minBodyShare is the share of an image's pixels (sampled) that must be
// of one strong colour for it to be taken as a coloured die's body.
const minBodyShare = 0.04

// bodyBin is the width of a chroma histogram bin in bodyChroma.
const bodyBin = 16

// bodyChroma returns the chroma of the commonest strong colour of img
// that is not the background's (the median chroma along the border: a
// coloured table or cloth is no die), sampled every colourStep pixels,
// and whether there is one: samples over minChroma and at least bodyBin
// from the background's chroma, at least minBodyShare of all, around one
// peak of the chroma histogram.
func bodyChroma(img image.Image) (cb, cr int, ok bool) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w < 4*colourStep || h < 4*colourStep {
		return 0, 0, false
	}
	var border [2][256]int
	nb := 0
	eachChroma(img, colourStep, func(x, y, cb, cr int) {
		if x == 0 || y == 0 || x+colourStep >= w || y+colourStep >= h {
			border[0][cb+128]++
			border[1][cr+128]++
			nb++
		}
	})
	var bg [2]int
	for c := range bg {
		bg[c] = histMedian(&border[c], nb) - 128
	}
	const nbin = 256 / bodyBin
	var hist [nbin][nbin]int
	var sum [nbin][nbin][2]int
	total := 0
	eachChroma(img, colourStep, func(_, _ int, b, r int) {
		total++
		if 2*max(abs(b), abs(r)) < minChroma || max(abs(b-bg[0]), abs(r-bg[1])) < bodyBin {
			return
		}
		i, j := (b+128)/bodyBin, (r+128)/bodyBin
		hist[i][j]++
		sum[i][j][0] += b
		sum[i][j][1] += r
	})
	best, bi, bj := 0, 0, 0
	for i := 0; i < nbin; i++ {
		for j := 0; j < nbin; j++ {
			n := 0
			for a := max(0, i-1); a <= min(nbin-1, i+1); a++ {
				for b := max(0, j-1); b <= min(nbin-1, j+1); b++ {
					n += hist[a][b]
				}
			}
			if n > best {
				best, bi, bj = n, i, j
			}
		}
	}
	if total == 0 || float64(best) < minBodyShare*float64(total) {
		return 0, 0, false
	}
	var sb, sr int
	for a := max(0, bi-1); a <= min(nbin-1, bi+1); a++ {
		for b := max(0, bj-1); b <= min(nbin-1, bj+1); b++ {
			sb += sum[a][b][0]
			sr += sum[a][b][1]
		}
	}
	return sb / best, sr / best, true
}

// bodyChromaOf returns bodyChroma(img), taken once per image being read
// (rd.img): both body planes of the whole image and of every window of it
// that sightings searches ask for it.
func (rd *Reader) bodyChromaOf(img image.Image) (cb, cr int, ok bool) {
	if rd.img == nil {
		return bodyChroma(img)
	}
	c := &rd.bodyC
	if !c.made {
		c.cb, c.cr, c.ok = bodyChroma(img)
		c.made = true
	}
	return c.cb, c.cr, c.ok
}

// madeChroma is bodyChroma of the image being read, once taken.
type madeChroma struct {
	made, ok bool
	cb, cr   int
}

// eachChroma calls f with the chroma of every step-th pixel of every
// step-th row of img (coordinates relative to its bounds). Only YCbCr and
// RGB images are read; others call f never.
func eachChroma(img image.Image, step int, f func(x, y, cb, cr int)) {
	b := img.Bounds()
	switch m := img.(type) {
	case *image.YCbCr:
		for y := 0; y < b.Dy(); y += step {
			for x := 0; x < b.Dx(); x += step {
				i := m.COffset(b.Min.X+x, b.Min.Y+y)
				f(x, y, int(m.Cb[i])-128, int(m.Cr[i])-128)
			}
		}
	default:
		pix, stride, ok := rgbaPix(img)
		if !ok {
			return
		}
		for y := 0; y < b.Dy(); y += step {
			p := pix[y*stride:]
			for x := 0; x < b.Dx(); x += step {
				cb, cr := chromaOf(p[4*x], p[4*x+1], p[4*x+2])
				f(x, y, cb, cr)
			}
		}
	}
}

// bodyGrey is the level, in the plane of bodyPipPlane, of a colourless
// pixel.
const bodyGrey = 192

// bodyFace is the highest level, in the plane of bodyPipPlane, of the
// face around a pip: halfway from the body's colour to grey.
const bodyFace = bodyGrey / 2

// minBodyContrast is the least contrast, in the plane of bodyPipPlane,
// of a pip with the face around it: a third of a white pip's.
const minBodyContrast = bodyGrey / 3

// bodyPipPlane returns part, a part of img, as the distance of each
// pixel's chroma from the chroma of img's coloured die's body (see
// bodyChroma), in rd.pipPix, or false when img shows no such body. On a red, brown or pink die with
// white or yellow pips, or a yellow die with red pips, the grey levels of
// pips and body are close (and a glossy top face's sheen makes them
// closer), while their colours are far apart: there the pips stand out as
// light pips on a dark face. The table, of another colour, is light too,
// but it is not around the pips.
func (rd *Reader) bodyPipPlane(img, part image.Image) (*image.Gray, bool) {
	cb0, cr0, ok := rd.bodyChromaOf(img)
	if !ok {
		return nil, false
	}
	b := part.Bounds()
	w, h := b.Dx(), b.Dy()
	if cap(rd.pipPix) < w*h {
		rd.pipPix = make([]uint8, w*h)
	}
	d := rd.pipPix[:w*h]
	// a pixel as far from the body's colour as grey is (a white pip) is
	// set at bodyGrey, however pale the body
	k := bodyGrey / max(abs(cb0), abs(cr0))
	eachChroma(part, 1, func(x, y, cb, cr int) {
		d[y*w+x] = uint8(min(255, k*max(abs(cb-cb0), abs(cr-cr0))))
	})
	return &image.Gray{Pix: d, Stride: w, Rect: b}, true
}

// minValueFace is the lowest level, in the plane of valuePlane, of
// the white face around a black pip.
const minValueFace = 160

// valuePlane returns img as the largest of each pixel's red, green and
// blue, in rd.pipPix, or false when img is not a colour image. There a
// black pip is as dark as in grey, but coloured print on a white die (a
// maker's logo beside a one) and a coloured die's body are as light as
// white: what is not black is no pip.
func (rd *Reader) valuePlane(img image.Image) (*image.Gray, bool) {
	return rd.rgbPlane(img, func(r, g, b uint8) uint8 { return max(r, g, b) })
}

// weakPlane returns part, a part of img, in rd.pipPix, as a weighted mean
// of its red, green and blue, each weighed by how much weaker img's
// coloured die's body (see bodyChroma) is in it than in its strongest: or
// false when img shows no such body. A white or yellow pip reflects all or most of the
// light, the body little of what it is weak in, so that pips stand out as
// light pips on a dark face at the camera's full resolution (its colour,
// which bodyPipPlane reads, is often kept at half of it or less).
func (rd *Reader) weakPlane(img, part image.Image) (*image.Gray, bool) {
	cb, cr, ok := rd.bodyChromaOf(img)
	if !ok {
		return nil, false
	}
	// each channel's excess over the luma for that chroma (ITU-R 601),
	// ×1000
	ex := [3]int{1402 * cr, -344*cb - 714*cr, 1772 * cb}
	top := max(ex[0], ex[1], ex[2])
	var wt [3]int
	sum := 0
	for c := range wt {
		wt[c] = top - ex[c]
		sum += wt[c]
	}
	if sum == 0 {
		return nil, false
	}
	// weights in 1/256ths
	for c := range wt {
		wt[c] = wt[c] * 256 / sum
	}
	return rd.rgbPlane(part, func(r, g, b uint8) uint8 {
		return uint8(min(255, (wt[0]*int(r)+wt[1]*int(g)+wt[2]*int(b))>>8))
	})
}

// rgbPlane returns img mapped pixel by pixel through f, in rd.pipPix, or
// false when img is not a colour image.
func (rd *Reader) rgbPlane(img image.Image, f func(r, g, b uint8) uint8) (*image.Gray, bool) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if cap(rd.pipPix) < w*h {
		rd.pipPix = make([]uint8, w*h)
	}
	d := rd.pipPix[:w*h]
	switch m := img.(type) {
	case *image.YCbCr:
		// a chroma sample's offset is a row's part plus a column's (see
		// image.YCbCr.COffset): the columns' parts are taken once
		rd.ccol = rd.ccol[:0]
		for x := 0; x < w; x++ {
			rd.ccol = append(rd.ccol, m.COffset(b.Min.X+x, b.Min.Y)-m.COffset(b.Min.X, b.Min.Y))
		}
		for y := 0; y < h; y++ {
			py := b.Min.Y + y
			lum := m.Y[m.YOffset(b.Min.X, py):]
			c0 := m.COffset(b.Min.X, py)
			for x, dc := range rd.ccol {
				i := c0 + dc
				d[y*w+x] = f(color.YCbCrToRGB(lum[x], m.Cb[i], m.Cr[i]))
			}
		}
	default:
		pix, stride, ok := rgbaPix(img)
		if !ok {
			return nil, false
		}
		for y := 0; y < h; y++ {
			p := pix[y*stride:]
			for x := 0; x < w; x++ {
				d[y*w+x] = f(p[4*x], p[4*x+1], p[4*x+2])
			}
		}
	}
	return &image.Gray{Pix: d, Stride: w, Rect: b}, true
}
