package vision

import "image"

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
	case *image.RGBA:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				i := m.PixOffset(b.Min.X+x*colourStep+colourStep/2, b.Min.Y+y*colourStep+colourStep/2)
				c[y*w+x] = spread3(m.Pix[i], m.Pix[i+1], m.Pix[i+2])
			}
		}
	case *image.NRGBA:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				i := m.PixOffset(b.Min.X+x*colourStep+colourStep/2, b.Min.Y+y*colourStep+colourStep/2)
				c[y*w+x] = spread3(m.Pix[i], m.Pix[i+1], m.Pix[i+2])
			}
		}
	default:
		return 0, 0, false
	}
	return w, h, true
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
	var areas []int
	for i := range mask {
		if mask[i] != 1 {
			continue
		}
		border := rd.s.flood(mask, w, h, i, 1)
		n := len(rd.s.blob)
		if border || n < minColourArea {
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
