package vision

import (
	"image"
	"image/color"
)

// colourStep is the step, in pixels, at which bodyChroma samples an
// image's chroma.
const colourStep = 4

// minChroma is the chroma (0…255) over which a sample is taken as a
// coloured die's body: well above a grey or white table's and a white
// die's.
const minChroma = 48

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

// minBody is the distance from the background's colour (see outline)
// over which a sample is taken as part of a die's body.
const minBody = 48

// colourPlane returns the plane of img of the given kind (planeBody,
// planeWeak or planeValue), or false when img has none.
//
// img is the image being read (rd.img): each plane is made once per image,
// in a buffer of its own, as it is read again and again (by the colour
// retries, readSteep, and in part by sightings).
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
