package vision

import (
	"image"
	"image/color"
)

// outline finds, in img, the body of a coloured die around its face
// centred at c (half side r, in img's coordinates): the samples whose
// colour stands out from the colour around the die (the median along the
// border of a window of a few dice around the face) and that are not
// clearly of another hue than the die's around the face (the table may be
// of two colours, one of them touching the die), after a 5×5 majority
// vote that removes the table's speckle and noise. The samples are taken
// from the full image, not the chroma plane, about outlineSamples to the
// face's half side: every pixel of a small die. It returns the bounds of
// the body's part that holds the face, and false when there is no such
// body (a white or grey die, a coloured table) or it is cut by the window
// or the image border or narrower than the face.
func (rd *Reader) outline(img image.Image, c vec, r float64) (image.Rectangle, bool) {
	step := max(1, int(r/outlineSamples))
	win := image.Rect(int(c.x-outlineReach*r), int(c.y-outlineReach*r), int(c.x+outlineReach*r)+1, int(c.y+outlineReach*r)+1).Intersect(img.Bounds())
	w, h := win.Dx()/step, win.Dy()/step
	if w < 8 || h < 8 {
		return image.Rectangle{}, false
	}
	if cap(rd.ochroma) < 2*w*h {
		rd.ochroma = make([]uint8, 2*w*h)
	}
	p := rd.ochroma[:2*w*h]
	switch m := img.(type) {
	case *image.YCbCr:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				i, k := m.COffset(win.Min.X+x*step, win.Min.Y+y*step), 2*(y*w+x)
				p[k], p[k+1] = m.Cb[i], m.Cr[i]
			}
		}
	default:
		pix, stride, ok := rgbaPix(img)
		if !ok {
			return image.Rectangle{}, false
		}
		b := img.Bounds()
		for y := 0; y < h; y++ {
			s := pix[(win.Min.Y+y*step-b.Min.Y)*stride+4*(win.Min.X-b.Min.X):]
			for x := 0; x < w; x++ {
				k, q := 2*(y*w+x), 4*x*step
				_, p[k], p[k+1] = color.RGBToYCbCr(s[q], s[q+1], s[q+2])
			}
		}
	}
	// the colour around the die: the median along the window's border
	var hist [2][256]int
	nb := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if x != 0 && y != 0 && x != w-1 && y != h-1 {
				continue
			}
			k := 2 * (y*w + x)
			hist[0][p[k]]++
			hist[1][p[k+1]]++
			nb++
		}
	}
	var bg [2]int
	for ch := range bg {
		bg[ch] = histMedian(&hist[ch], nb)
	}
	// the die's hue: the median chroma, off the table's, around the face
	// (its pips are few); a sample of a clearly other hue is not the die
	// but the table around it (a coloured cloth beside a grey one), even
	// where it stands out from the table's median and touches the die
	cx, cy := (int(c.x)-win.Min.X)/step, (int(c.y)-win.Min.Y)/step
	hist = [2][256]int{}
	nf, rs := 0, int(r)/step
	for y := max(0, cy-rs); y <= min(h-1, cy+rs); y++ {
		for x := max(0, cx-rs); x <= min(w-1, cx+rs); x++ {
			k := 2 * (y*w + x)
			if 2*max(abs(int(p[k])-bg[0]), abs(int(p[k+1])-bg[1])) >= minBody {
				hist[0][p[k]]++
				hist[1][p[k+1]]++
				nf++
			}
		}
	}
	var hue [2]int
	for ch := range hue {
		hue[ch] = histMedian(&hist[ch], nf) - 128
	}
	coloured := nf > 0 && 4*(hue[0]*hue[0]+hue[1]*hue[1]) >= minBody*minBody
	// the integral of the body mask, for the majority vote
	if cap(rd.osum) < (w+1)*(h+1) {
		rd.osum = make([]int32, (w+1)*(h+1))
	}
	sum := rd.osum[:(w+1)*(h+1)]
	for x := 0; x <= w; x++ {
		sum[x] = 0
	}
	for y := 0; y < h; y++ {
		row := int32(0)
		sum[(y+1)*(w+1)] = 0
		for x := 0; x < w; x++ {
			k := 2 * (y*w + x)
			if 2*max(abs(int(p[k])-bg[0]), abs(int(p[k+1])-bg[1])) >= minBody && !(coloured && otherHue(int(p[k])-128, int(p[k+1])-128, hue)) {
				row++
			}
			sum[(y+1)*(w+1)+x+1] = sum[y*(w+1)+x+1] + row
		}
	}
	if cap(rd.omask) < w*h {
		rd.omask = make([]uint8, w*h)
	}
	mask := rd.omask[:w*h]
	for y := 0; y < h; y++ {
		y0, y1 := max(0, y-2), min(h, y+3)
		for x := 0; x < w; x++ {
			x0, x1 := max(0, x-2), min(w, x+3)
			n := int32((y1 - y0) * (x1 - x0))
			s := sum[y1*(w+1)+x1] - sum[y0*(w+1)+x1] - sum[y1*(w+1)+x0] + sum[y0*(w+1)+x0]
			mask[y*w+x] = 0
			if 2*s > n {
				mask[y*w+x] = 1
			}
		}
	}
	// the body's part nearest the face's centre (a pip of another colour
	// may cover the centre itself)
	start := -1
	for d := 0; d <= int(r)/step && start < 0; d++ {
		for y := max(0, cy-d); y <= min(h-1, cy+d) && start < 0; y++ {
			for x := max(0, cx-d); x <= min(w-1, cx+d); x++ {
				if mask[y*w+x] == 1 {
					start = y*w + x
					break
				}
			}
		}
	}
	if start < 0 {
		return image.Rectangle{}, false
	}
	x0, y0, x1, y1 := w, h, 0, 0
	stack := append(rd.ostack[:0], int32(start))
	mask[start] = 2
	for len(stack) > 0 {
		i := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		x, y := i%w, i/w
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
		for _, j := range [4]int{i - 1, i + 1, i - w, i + w} {
			if (j == i-1 && x == 0) || (j == i+1 && x == w-1) || j < 0 || j >= w*h {
				continue
			}
			if mask[j] == 1 {
				mask[j] = 2
				stack = append(stack, int32(j))
			}
		}
	}
	rd.ostack = stack
	box := image.Rect(x0*step, y0*step, (x1+1)*step, (y1+1)*step).Add(win.Min)
	if x0 == 0 || y0 == 0 || x1 == w-1 || y1 == h-1 || float64(box.Dx()) < minOutlineWidth*r {
		return box, false
	}
	return box, true
}

// otherHue reports whether the chroma (u, v), off grey, is clearly
// coloured (as far from grey as a die's body from the table at least) and
// more than 60° off the hue h: shade keeps a hue, only nearer grey.
func otherHue(u, v int, h [2]int) bool {
	sn, hn, dot := u*u+v*v, h[0]*h[0]+h[1]*h[1], u*h[0]+v*h[1]
	return 4*sn >= minBody*minBody && (dot < 0 || 4*dot*dot < sn*hn)
}

// outlineSamples is the number of samples to the face's half side that
// outline takes at most: enough to place the face on the die.
const outlineSamples = 8

// outlineReach is the half width, in half sides of the face, of the window
// in which the die's body is looked for: a die seen from the side is at
// most about three half sides of its top face wide.
const outlineReach = 4

// minOutlineWidth is the narrowest body, in half sides of the face, taken
// as the die's: the body holds the whole face.
const minOutlineWidth = 1.5

// maxTopDepth is the deepest, in half sides of the face times its
// foreshortening, that the centre of a face of two or more pips lies
// below the top of its die's outline: 1.41 for a sharp cube seen corner
// on, with a margin for blur and a highlight or a shadow above the die.
const maxTopDepth = 2

// onTop reports whether the face read last lies where the top face of a
// die with the outline box lies, seen from the side in an upright photo:
// a cube's outline is centred on the cube's centre, and its top face is
// the upper part of it, above the side faces; so the top face's centre
// lies about halfway across the outline, in its upper part, and below the
// outline's top by about half the face's depth as foreshortened (between
// once and 1.41 times the half side times the foreshortening, from a side
// seen face on to a corner seen face on). The margins allow for rounded
// corners, perspective and a shadow or a highlight taken in or left out.
// The half side of a one is a guess from its pip's size: only its place
// across the outline is checked.
func (rd *Reader) onTop(box image.Rectangle) bool {
	c := rd.faceC
	fx := (c.x - float64(box.Min.X)) / float64(box.Dx())
	fy := (c.y - float64(box.Min.Y)) / float64(box.Dy())
	if absf(fx-0.5) > 0.2 || fy > 0.6 {
		return false
	}
	return rd.faceH == 0 || c.y-float64(box.Min.Y) <= maxTopDepth*rd.faceH
}
