package vision

import (
	"image"
	"image/color"
)

// Gray returns img as a grey image. An [*image.Gray] is returned as is and
// the Y plane of an [*image.YCbCr] is shared, not copied; any other image
// is converted once (ITU-R 601 luma).
func Gray(img image.Image) *image.Gray {
	g, _ := grayIn(img, nil)
	return g
}

// grayIn returns img as a grey image, as Gray does, converting it into
// buf when buf is large enough (else into a new buffer), and the buffer
// converted into, for the next call: a Reader reads image after image of
// one size.
func grayIn(img image.Image, buf []uint8) (*image.Gray, []uint8) {
	switch m := img.(type) {
	case *image.Gray:
		return m, buf
	case *image.YCbCr:
		r := m.Rect
		return &image.Gray{
			Pix:    m.Y[m.YOffset(r.Min.X, r.Min.Y):],
			Stride: m.YStride,
			Rect:   r,
		}, buf
	}
	b := img.Bounds()
	if cap(buf) < b.Dx()*b.Dy() {
		buf = make([]uint8, b.Dx()*b.Dy())
	}
	g := &image.Gray{Pix: buf[:b.Dx()*b.Dy()], Stride: b.Dx(), Rect: b}
	if pix, stride, ok := rgbaPix(img); ok {
		for y := 0; y < b.Dy(); y++ {
			s := pix[y*stride:]
			d := g.Pix[y*g.Stride:]
			for x := 0; x < b.Dx(); x++ {
				d[x] = luma(s[4*x], s[4*x+1], s[4*x+2])
			}
		}
	} else {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				g.Pix[g.PixOffset(x, y)] = color.GrayModel.Convert(img.At(x, y)).(color.Gray).Y
			}
		}
	}
	return g, buf
}

// rgbaPix returns the pixels of img, from the top-left corner of its
// bounds, and their row stride, when img holds 8-bit red, green, blue and
// alpha per pixel: an [*image.RGBA] or an [*image.NRGBA] (photos are
// opaque, and store both alike).
func rgbaPix(img image.Image) (pix []uint8, stride int, ok bool) {
	switch m := img.(type) {
	case *image.RGBA:
		return m.Pix[m.PixOffset(m.Rect.Min.X, m.Rect.Min.Y):], m.Stride, true
	case *image.NRGBA:
		return m.Pix[m.PixOffset(m.Rect.Min.X, m.Rect.Min.Y):], m.Stride, true
	}
	return nil, 0, false
}

func luma(r, g, b uint8) uint8 {
	return uint8((19595*uint32(r) + 38470*uint32(g) + 7471*uint32(b) + 1<<15) >> 16)
}
