package learned

import (
	"image"
	"image/color"
	"math"
)

// pixels reads the red, green and blue of an image's pixels, with fast
// paths for the layouts cameras and decoders give.
type pixels struct {
	rect image.Rectangle
	at   func(x, y int) (r, g, b uint8)
	// grey is the image when it is *image.Gray, the table camera's
	// frames, which resample reads without a call a sample
	grey *image.Gray
}

func pixelsOf(img image.Image) pixels {
	p := pixels{rect: img.Bounds()}
	switch m := img.(type) {
	case *image.Gray:
		p.grey = m
		p.at = func(x, y int) (uint8, uint8, uint8) {
			v := m.Pix[(y-m.Rect.Min.Y)*m.Stride+x-m.Rect.Min.X]
			return v, v, v
		}
	case *image.RGBA:
		p.at = func(x, y int) (uint8, uint8, uint8) {
			i := (y-m.Rect.Min.Y)*m.Stride + 4*(x-m.Rect.Min.X)
			s := m.Pix[i : i+3 : i+3]
			return s[0], s[1], s[2]
		}
	case *image.NRGBA:
		p.at = func(x, y int) (uint8, uint8, uint8) {
			i := (y-m.Rect.Min.Y)*m.Stride + 4*(x-m.Rect.Min.X)
			s := m.Pix[i : i+3 : i+3]
			return s[0], s[1], s[2]
		}
	case *image.YCbCr:
		p.at = func(x, y int) (uint8, uint8, uint8) {
			yi, ci := m.YOffset(x, y), m.COffset(x, y)
			return color.YCbCrToRGB(m.Y[yi], m.Cb[ci], m.Cr[ci])
		}
	default:
		p.at = func(x, y int) (uint8, uint8, uint8) {
			r, g, b, _ := img.At(x, y).RGBA()
			return uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)
		}
	}
	return p
}

// resample fills dst, three planes of w×h (red, green, blue, scaled to
// -0.5…0.5 as the networks were trained), with the square-pixel region of
// side sx×sy at (x0, y0) resampled: each output pixel is the mean of an
// n×n grid of samples over its footprint (n enough that no source pixel
// is skipped), and samples outside the image repeat its edge, as the
// training crops were padded. xs is scratch, returned for the next call.
func (p pixels) resample(dst []float32, xs []int, x0, y0, sx, sy float64, w, h int) []int {
	fx, fy := sx/float64(w), sy/float64(h)
	n := max(1, int(math.Ceil(max(fx, fy))))
	inv := 1 / (255 * float32(n*n))
	plane := w * h
	r := p.rect
	if cap(xs) < w*n {
		xs = make([]int, w*n)
	}
	xs = xs[:w*n]
	for ox := 0; ox < w; ox++ {
		for j := 0; j < n; j++ {
			x := int(math.Floor(x0 + (float64(ox)+(float64(j)+0.5)/float64(n))*fx))
			xs[ox*n+j] = min(max(x, r.Min.X), r.Max.X-1)
		}
	}
	if p.grey != nil {
		p.resampleGrey(dst, xs, y0, fy, n, inv, w, h)
		return xs
	}
	for oy := 0; oy < h; oy++ {
		for ox := 0; ox < w; ox++ {
			var sr, sg, sb int
			for i := 0; i < n; i++ {
				y := int(math.Floor(y0 + (float64(oy)+(float64(i)+0.5)/float64(n))*fy))
				y = min(max(y, r.Min.Y), r.Max.Y-1)
				for _, x := range xs[ox*n : ox*n+n] {
					cr, cg, cb := p.at(x, y)
					sr += int(cr)
					sg += int(cg)
					sb += int(cb)
				}
			}
			o := oy*w + ox
			dst[o] = float32(sr)*inv - 0.5
			dst[plane+o] = float32(sg)*inv - 0.5
			dst[2*plane+o] = float32(sb)*inv - 0.5
		}
	}
	return xs
}

// resampleGrey is resample's loop for a grey image, the sample rows and
// columns given: the same sums, a third of the work and no call a sample
// (a tray frame's resampling took a third of its reading before).
func (p pixels) resampleGrey(dst []float32, xs []int, y0, fy float64, n int, inv float32, w, h int) {
	m, r := p.grey, p.rect
	plane := w * h
	for oy := 0; oy < h; oy++ {
		for ox := 0; ox < w; ox++ {
			dst[oy*w+ox] = 0
		}
		for i := 0; i < n; i++ {
			y := int(math.Floor(y0 + (float64(oy)+(float64(i)+0.5)/float64(n))*fy))
			y = min(max(y, r.Min.Y), r.Max.Y-1)
			base := (y-m.Rect.Min.Y)*m.Stride - m.Rect.Min.X
			for ox := 0; ox < w; ox++ {
				s := 0
				for _, x := range xs[ox*n : ox*n+n] {
					s += int(m.Pix[base+x])
				}
				dst[oy*w+ox] += float32(s)
			}
		}
		for ox := 0; ox < w; ox++ {
			o := oy*w + ox
			v := dst[o]*inv - 0.5
			dst[o], dst[plane+o], dst[2*plane+o] = v, v, v
		}
	}
}

// The grey conversion (ITU-R BT.601), the floor of a crop's spread and the
// spread it is scaled to, as vision/train/train.py's standardise.
const (
	greyR, greyG, greyB = 0.299, 0.587, 0.114
	stdFloor            = 0.02
	stdTo               = 0.25
)

// standardise turns three planes of plane pixels (red, green, blue, as
// resample fills them) into the classifier's input: grey, less its mean,
// its spread (the sample standard deviation, at least stdFloor) scaled to
// stdTo, on all three planes. A die's colour and the light's level then
// say nothing, and the network was trained on both polarities of pips.
func standardise(p []float32, plane int) {
	r, g, b := p[:plane], p[plane:2*plane], p[2*plane:3*plane]
	sum := 0.0
	for i := range r {
		v := greyR*float64(r[i]) + greyG*float64(g[i]) + greyB*float64(b[i])
		r[i] = float32(v)
		sum += v
	}
	mean := sum / float64(plane)
	ss := 0.0
	for _, v := range r {
		d := float64(v) - mean
		ss += d * d
	}
	sd := max(math.Sqrt(ss/float64(max(1, plane-1))), stdFloor)
	k := stdTo / sd
	for i, v := range r {
		r[i] = float32((float64(v) - mean) * k)
	}
	copy(g, r)
	copy(b, r)
}
