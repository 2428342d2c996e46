// Package synth renders synthetic frames of the dice tray: dice of any
// face, rotation, size, colour and tilt (flat, on an edge, leaning on the
// wall) on a tray background, with uneven light, blur and noise. Frames are
// deterministic from the scene and its seed. Tests and the simulated table
// use them.
package synth

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
)

// Die is one die in a scene.
type Die struct {
	Face  int     // the face pointing up (before tilting), 1…6
	X, Y  float64 // centre of the die in the image, px
	Size  float64 // side of the die, px
	Angle float64 // rotation about the vertical, radians
	// Tilt is the die's tilt from flat, degrees: 0 lies flat, 45 stands
	// on an edge, values between lean (against the tray's wall, say).
	Tilt float64
	// TiltDir is the horizontal direction the die tilts towards, radians.
	TiltDir float64
	Body    color.RGBA // colour of the die
	Pip     color.RGBA // colour of the pips
}

// Scene is one frame to render.
type Scene struct {
	W, H  int
	Dice  []Die
	Tray  color.RGBA // the tray's colour
	Light struct {
		// Gradient darkens the frame linearly across it, 0…1 at the far side.
		Gradient float64
		// Dir is the direction of the gradient, radians.
		Dir float64
		// Sun is the horizontal direction the light comes from, radians;
		// its elevation is fixed at 60°.
		Sun float64
	}
	// View is the camera's tilt from looking straight down, degrees
	// (orthographic): 0 is the tray camera, up to about 50 a photo taken
	// from the side. ViewDir is the direction it tilts towards, radians.
	View, ViewDir float64
	// Gloss is the strength of the dice's specular highlight, 0…1.
	Gloss float64
	// Texture is the amplitude, in grey levels, of a smooth pattern over
	// the tray (wood, felt, a printed board); Cup draws the tray as a
	// round cup, a rim of light and shade around the dice.
	Texture float64
	Cup     bool
	Noise   float64 // standard deviation of Gaussian noise, grey levels
	Blur    int     // box-blur radius, px
	Seed    uint64  // seed of the noise
}

// rot is a 3×3 rotation matrix.
type rot [3][3]float64

func (r rot) mul(v [3]float64) [3]float64 {
	return [3]float64{
		r[0][0]*v[0] + r[0][1]*v[1] + r[0][2]*v[2],
		r[1][0]*v[0] + r[1][1]*v[1] + r[1][2]*v[2],
		r[2][0]*v[0] + r[2][1]*v[1] + r[2][2]*v[2],
	}
}

func (r rot) t() rot {
	var o rot
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			o[i][j] = r[j][i]
		}
	}
	return o
}

func (r rot) then(s rot) rot { // s·r
	var o rot
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				o[i][j] += s[i][k] * r[k][j]
			}
		}
	}
	return o
}

func rotZ(a float64) rot {
	c, s := math.Cos(a), math.Sin(a)
	return rot{{c, -s, 0}, {s, c, 0}, {0, 0, 1}}
}

// rotAxis rotates by a about the horizontal axis at angle dir+90°.
func rotAxis(dir, a float64) rot {
	ax := [3]float64{-math.Sin(dir), math.Cos(dir), 0}
	c, s := math.Cos(a), math.Sin(a)
	x, y, z := ax[0], ax[1], ax[2]
	return rot{
		{c + x*x*(1-c), x*y*(1-c) - z*s, x*z*(1-c) + y*s},
		{y*x*(1-c) + z*s, c + y*y*(1-c), y*z*(1-c) - x*s},
		{z*x*(1-c) - y*s, z*y*(1-c) + x*s, c + z*z*(1-c)},
	}
}

// pips on a face, in face units (the face spans -1…1).
var pipPos = [7][][2]float64{
	1: {{0, 0}},
	2: {{-1, -1}, {1, 1}},
	3: {{-1, -1}, {0, 0}, {1, 1}},
	4: {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}},
	5: {{-1, -1}, {1, -1}, {0, 0}, {-1, 1}, {1, 1}},
	6: {{-1, -1}, {-1, 0}, {-1, 1}, {1, -1}, {1, 0}, {1, 1}},
}

const (
	pipQ = 0.52 // pip offset from the centre, of the half side
	pipR = 0.19 // pip radius, of the half side
)

// faces of the die's local axes: +z, -z, +x, -x, +y, -y.
func faceValues(top int) [6]int {
	var rest []int
	for v := 1; v <= 6; v++ {
		if v != top && v != 7-top {
			rest = append(rest, v)
		}
	}
	a := rest[0]
	b := 0
	for _, v := range rest {
		if v != a && v != 7-a {
			b = v
			break
		}
	}
	return [6]int{top, 7 - top, a, 7 - a, b, 7 - b}
}

// hit returns the colour of die d seen straight down at (px, py), and
// whether the ray hits it.
func (d *Die) hit(px, py float64, sun [3]float64, R, Rt rot, vals [6]int, gloss float64, V rot) (r, g, b float64, ok bool) {
	h := d.Size / 2
	o := Rt.mul([3]float64{px - d.X, py - d.Y, 10 * d.Size})
	dir := Rt.mul([3]float64{0, 0, -1})
	tmin, tmax := math.Inf(-1), math.Inf(1)
	axis, sign := -1, 0.0
	for i := 0; i < 3; i++ {
		if math.Abs(dir[i]) < 1e-12 {
			if o[i] < -h || o[i] > h {
				return 0, 0, 0, false
			}
			continue
		}
		t1, t2 := (-h-o[i])/dir[i], (h-o[i])/dir[i]
		s := -1.0
		if t1 > t2 {
			t1, t2 = t2, t1
			s = 1
		}
		if t1 > tmin {
			tmin, axis, sign = t1, i, s
		}
		tmax = math.Min(tmax, t2)
	}
	if tmin > tmax || axis < 0 {
		return 0, 0, 0, false
	}
	p := [3]float64{o[0] + tmin*dir[0], o[1] + tmin*dir[1], o[2] + tmin*dir[2]}
	var u, v float64
	var fi int
	switch axis {
	case 2:
		u, v = p[0]/h, p[1]/h
		fi = 0
		if sign < 0 {
			fi = 1
		}
	case 0:
		u, v = p[1]/h, p[2]/h
		fi = 2
		if sign < 0 {
			fi = 3
		}
	case 1:
		u, v = p[0]/h, p[2]/h
		fi = 4
		if sign < 0 {
			fi = 5
		}
	}
	n := [3]float64{}
	n[axis] = sign
	// light is the world's: R is the die's pose seen by the camera, V
	// the camera's tilt, so V⁻¹·R is the pose on the table
	nc := R.mul(n)
	nw := V.t().mul(nc)
	lam := 0.45 + 0.55*math.Max(0, nw[0]*sun[0]+nw[1]*sun[1]+nw[2]*sun[2])
	spec := 0.0
	if gloss > 0 {
		// Blinn-Phong: the half-way vector between the light (in the
		// camera's frame) and the camera looking down
		sc := V.mul(sun)
		hv := [3]float64{sc[0], sc[1], sc[2] + 1}
		hn := math.Sqrt(hv[0]*hv[0] + hv[1]*hv[1] + hv[2]*hv[2])
		c := math.Max(0, (nc[0]*hv[0]+nc[1]*hv[1]+nc[2]*hv[2])/hn)
		spec = gloss * 255 * math.Pow(c, 40)
	}
	// rounded edges: a little darker near the face's border
	e := math.Max(math.Abs(u), math.Abs(v))
	if e > 0.9 {
		lam *= 1 - 2.5*(e-0.9)
	}
	col := d.Body
	for _, pp := range pipPos[vals[fi]] {
		du, dv := u-pp[0]*pipQ, v-pp[1]*pipQ
		if du*du+dv*dv < pipR*pipR {
			col = d.Pip
			break
		}
	}
	return float64(col.R)*lam + spec, float64(col.G)*lam + spec, float64(col.B)*lam + spec, true
}

// Render draws the scene.
func Render(s Scene) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, s.W, s.H))
	rng := rand.New(rand.NewPCG(s.Seed, 0x9e3779b97f4a7c15))
	sunEl := 60 * math.Pi / 180
	sun := [3]float64{math.Cos(s.Light.Sun) * math.Cos(sunEl), math.Sin(s.Light.Sun) * math.Cos(sunEl), math.Sin(sunEl)}
	type prep struct {
		R, Rt rot
		vals  [6]int
		box   image.Rectangle
	}
	preps := make([]prep, len(s.Dice))
	V := s.view()
	for i := range s.Dice {
		d := &s.Dice[i]
		R := s.pose(d)
		r := d.Size
		preps[i] = prep{R: R, Rt: R.t(), vals: faceValues(d.Face),
			box: image.Rect(int(d.X-r), int(d.Y-r), int(d.X+r)+1, int(d.Y+r)+1)}
	}
	bg := s.background()
	gx, gy := math.Cos(s.Light.Dir), math.Sin(s.Light.Dir)
	diag := math.Hypot(float64(s.W), float64(s.H))
	for y := 0; y < s.H; y++ {
		for x := 0; x < s.W; x++ {
			// light falls off across the frame
			t := ((float64(x)-float64(s.W)/2)*gx + (float64(y)-float64(s.H)/2)*gy) / diag
			light := 1 - s.Light.Gradient*(t+0.5)
			var r, g, b float64
			found := false
			for i := range s.Dice {
				if !image.Pt(x, y).In(preps[i].box) {
					continue
				}
				// 2×2 supersampling
				var sr, sg, sb float64
				hits := 0
				for k := 0; k < 4; k++ {
					px := float64(x) + 0.25 + 0.5*float64(k%2)
					py := float64(y) + 0.25 + 0.5*float64(k/2)
					if cr, cg, cb, ok := s.Dice[i].hit(px, py, sun, preps[i].R, preps[i].Rt, preps[i].vals, s.Gloss, V); ok {
						sr += cr
						sg += cg
						sb += cb
						hits++
					} else {
						t := bg(x, y) * 0.8
						sr += float64(s.Tray.R) * t
						sg += float64(s.Tray.G) * t
						sb += float64(s.Tray.B) * t
					}
				}
				if hits > 0 {
					r, g, b = sr/4, sg/4, sb/4
					found = true
					break
				}
			}
			if !found {
				t := bg(x, y)
				r, g, b = float64(s.Tray.R)*t, float64(s.Tray.G)*t, float64(s.Tray.B)*t
			}
			o := img.PixOffset(x, y)
			img.Pix[o] = clamp(r * light)
			img.Pix[o+1] = clamp(g * light)
			img.Pix[o+2] = clamp(b * light)
			img.Pix[o+3] = 255
		}
	}
	if s.Blur > 0 {
		boxBlur(img, s.Blur)
	}
	if s.Noise > 0 {
		for i := 0; i < len(img.Pix); i += 4 {
			n := rng.NormFloat64() * s.Noise
			for c := 0; c < 3; c++ {
				img.Pix[i+c] = clamp(float64(img.Pix[i+c]) + n)
			}
		}
	}
	return img
}

// view is the camera's tilt as a rotation of what it sees.
func (s *Scene) view() rot {
	if s.View == 0 {
		return rotZ(0)
	}
	return rotAxis(s.ViewDir, s.View*math.Pi/180)
}

// pose is the die's orientation as the camera sees it.
func (s *Scene) pose(d *Die) rot {
	return rotZ(d.Angle).then(rotAxis(d.TiltDir, d.Tilt*math.Pi/180)).then(s.view())
}

// Boxes returns each die's outline box in the image: the bounds of its
// corners as the camera sees them.
func (s Scene) Boxes() []image.Rectangle {
	out := make([]image.Rectangle, len(s.Dice))
	for i := range s.Dice {
		d := &s.Dice[i]
		R := s.pose(d)
		h := d.Size / 2
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for c := 0; c < 8; c++ {
			v := R.mul([3]float64{h * float64(2*(c&1)-1), h * float64(2*(c>>1&1)-1), h * float64(2*(c>>2&1)-1)})
			x0, x1 = math.Min(x0, v[0]), math.Max(x1, v[0])
			y0, y1 = math.Min(y0, v[1]), math.Max(y1, v[1])
		}
		out[i] = image.Rect(int(math.Floor(d.X+x0)), int(math.Floor(d.Y+y0)), int(math.Ceil(d.X+x1)), int(math.Ceil(d.Y+y1)))
	}
	return out
}

// background returns the tray's brightness factor at a pixel: its
// texture and, for a cup, the rim.
func (s *Scene) background() func(x, y int) float64 {
	if s.Texture == 0 && !s.Cup {
		return func(int, int) float64 { return 1 }
	}
	rng := rand.New(rand.NewPCG(s.Seed, 0x5eed))
	type wave struct{ fx, fy, ph, a float64 }
	var ws [6]wave
	for i := range ws {
		f := 0.01 + 0.15*rng.Float64()*rng.Float64()
		a := rng.Float64() * 2 * math.Pi
		ws[i] = wave{f * math.Cos(a), f * math.Sin(a), rng.Float64() * 2 * math.Pi, s.Texture / 255 / 3}
	}
	cx, cy := float64(s.W)/2, float64(s.H)/2
	rim := 0.45 * math.Min(float64(s.W), float64(s.H)) * (1 + 0.3*rng.Float64())
	return func(x, y int) float64 {
		t := 1.0
		for _, w := range ws {
			t += w.a * math.Sin(w.fx*float64(x)+w.fy*float64(y)+w.ph)
		}
		if s.Cup {
			d := math.Hypot(float64(x)-cx, float64(y)-cy) / rim
			switch {
			case d > 1.08:
				t *= 0.55
			case d > 1:
				t *= 1.35
			case d > 0.9:
				t *= 0.8 + 2*(d-0.9)
			}
		}
		return t
	}
}

func clamp(v float64) uint8 {
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return uint8(v + 0.5)
}

func boxBlur(img *image.RGBA, r int) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	tmp := make([]uint8, len(img.Pix))
	// horizontal then vertical running sums, edges clamped
	line := func(src, dst []uint8, n, off, step int) {
		for c := 0; c < 3; c++ {
			sum := 0
			at := func(i int) int {
				i = max(0, min(n-1, i))
				return int(src[off+i*step+c])
			}
			for k := -r; k <= r; k++ {
				sum += at(k)
			}
			for i := 0; i < n; i++ {
				dst[off+i*step+c] = uint8(sum / (2*r + 1))
				sum += at(i+r+1) - at(i-r)
			}
		}
		for i := 0; i < n; i++ {
			dst[off+i*step+3] = 255
		}
	}
	for y := 0; y < h; y++ {
		line(img.Pix, tmp, w, y*img.Stride, 4)
	}
	for x := 0; x < w; x++ {
		line(tmp, img.Pix, h, 4*x, img.Stride)
	}
}

// Palette is a pair of body and pip colours of a common die.
type Palette struct{ Body, Pip color.RGBA }

// Palettes are common dice: white with black pips, ivory with black, black
// with white, red with white, green with white, blue with white, yellow
// with red.
var Palettes = []Palette{
	{color.RGBA{240, 240, 235, 255}, color.RGBA{20, 20, 20, 255}},
	{color.RGBA{235, 225, 200, 255}, color.RGBA{30, 25, 20, 255}},
	{color.RGBA{30, 30, 30, 255}, color.RGBA{240, 240, 240, 255}},
	{color.RGBA{190, 25, 30, 255}, color.RGBA{245, 245, 245, 255}},
	{color.RGBA{20, 130, 60, 255}, color.RGBA{245, 245, 245, 255}},
	{color.RGBA{30, 60, 170, 255}, color.RGBA{245, 245, 245, 255}},
	{color.RGBA{240, 210, 40, 255}, color.RGBA{180, 20, 20, 255}},
}

// Trays are tray colours: green felt, grey, dark blue felt, light wood.
var Trays = []color.RGBA{
	{40, 110, 60, 255}, {120, 120, 120, 255}, {30, 40, 90, 255}, {190, 160, 120, 255},
}

// Kind is what a random die does.
type Kind int

// The kinds of random dice.
const (
	Flat    Kind = iota // lying flat
	OnEdge              // standing on an edge, tilt 40…50°
	Leaning             // leaning, tilt 35…60°
)

// RandomScene returns a scene of w×h with one die of the given kind, with
// a random face, position, rotation, size (between minSize and maxSize
// px), colours, light and noise drawn from seed. It returns the scene and
// the die's top face (for a flat die).
func RandomScene(seed uint64, w, h int, kind Kind, minSize, maxSize float64) Scene {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := Scene{W: w, H: h, Seed: seed}
	s.Tray = Trays[rng.IntN(len(Trays))]
	s.Light.Gradient = rng.Float64() * 0.4
	s.Light.Dir = rng.Float64() * 2 * math.Pi
	s.Light.Sun = rng.Float64() * 2 * math.Pi
	s.Noise = rng.Float64() * 6
	if rng.IntN(3) == 0 {
		s.Blur = 1
	}
	p := Palettes[rng.IntN(len(Palettes))]
	for similar(p.Body, s.Tray) {
		p = Palettes[rng.IntN(len(Palettes))]
	}
	d := placeDie(rng, w, h, minSize, maxSize)
	d.Body, d.Pip = p.Body, p.Pip
	switch kind {
	case OnEdge:
		d.Tilt = 40 + rng.Float64()*10
	case Leaning:
		d.Tilt = 35 + rng.Float64()*25
	}
	s.Dice = []Die{d}
	return s
}

// placeDie draws a die's face, size (minSize…maxSize), place within w×h
// and rotation, in that order: the scenes of a seed stay the same.
func placeDie(rng *rand.Rand, w, h int, minSize, maxSize float64) Die {
	size := minSize + rng.Float64()*(maxSize-minSize)
	m := size * 0.9
	return Die{
		Face:  1 + rng.IntN(6),
		Size:  size,
		X:     m + rng.Float64()*math.Max(0, float64(w)-2*m),
		Y:     m + rng.Float64()*math.Max(0, float64(h)-2*m),
		Angle: rng.Float64() * 2 * math.Pi, TiltDir: rng.Float64() * 2 * math.Pi,
	}
}

func similar(a, b color.RGBA) bool {
	la := 0.3*float64(a.R) + 0.59*float64(a.G) + 0.11*float64(a.B)
	lb := 0.3*float64(b.R) + 0.59*float64(b.G) + 0.11*float64(b.B)
	return math.Abs(la-lb) < 40
}

// WideScene returns a scene of w×h drawn from seed over the whole range a
// recogniser must learn: n dice of the given kind (none when n is 0), with
// bodies and pips of any colour (dark pips on light dice and light on
// dark), gloss, the camera up to 50° from straight down for flat dice
// (dice on an edge or leaning 35…55° are seen from at most 5°, as by the
// tray camera: seen from the side they look like flat dice), the camera
// held upright (it looks from the image's bottom, give or take 30°),
// textured trays and cups,
// uneven light, blur and noise. Dice are sized minSize…maxSize px and do
// not overlap.
func WideScene(seed uint64, w, h int, kind Kind, n int, minSize, maxSize float64) Scene {
	rng := rand.New(rand.NewPCG(seed, 2))
	s := Scene{W: w, H: h, Seed: seed}
	s.Tray = randomColour(rng, 0.15+0.7*rng.Float64())
	s.Texture = rng.Float64() * 60
	s.Cup = rng.IntN(4) == 0
	s.Light.Gradient = rng.Float64() * 0.5
	s.Light.Dir = rng.Float64() * 2 * math.Pi
	s.Light.Sun = rng.Float64() * 2 * math.Pi
	s.Noise = rng.Float64() * 8
	s.Blur = rng.IntN(3) * rng.IntN(2)
	s.Gloss = rng.Float64() * rng.Float64()
	if kind == Flat {
		s.View = 50 * rng.Float64()
	} else {
		s.View = 5 * rng.Float64()
	}
	// a photo taken from the side is held upright: the camera looks from
	// the image's bottom, so the side faces show below the top face
	s.ViewDir = 3*math.Pi/2 + (rng.Float64()-0.5)*math.Pi/3
	for tries := 0; len(s.Dice) < n && tries < 50*n; tries++ {
		d := placeDie(rng, w, h, minSize, maxSize)
		switch kind {
		case OnEdge:
			d.Tilt = 40 + rng.Float64()*10
		case Leaning:
			d.Tilt = 35 + rng.Float64()*20
		}
		light := rng.IntN(2) == 0
		if light {
			d.Body = randomColour(rng, 0.7+0.3*rng.Float64())
			d.Pip = randomColour(rng, 0.25*rng.Float64())
		} else {
			d.Body = randomColour(rng, 0.1+0.45*rng.Float64())
			d.Pip = randomColour(rng, 0.8+0.2*rng.Float64())
		}
		ok := true
		for _, o := range s.Dice {
			if math.Hypot(o.X-d.X, o.Y-d.Y) < 0.8*(o.Size+d.Size) {
				ok = false
				break
			}
		}
		if ok {
			s.Dice = append(s.Dice, d)
		}
	}
	return s
}

// randomColour returns a colour of about the given lightness (0…1) and a
// random hue, saturated or not.
func randomColour(rng *rand.Rand, light float64) color.RGBA {
	hue := rng.Float64() * 6
	sat := rng.Float64()
	if rng.IntN(2) == 0 {
		sat *= 0.2
	}
	var c [3]float64
	i := int(hue)
	f := hue - float64(i)
	switch i {
	case 0:
		c = [3]float64{1, f, 0}
	case 1:
		c = [3]float64{1 - f, 1, 0}
	case 2:
		c = [3]float64{0, 1, f}
	case 3:
		c = [3]float64{0, 1 - f, 1}
	case 4:
		c = [3]float64{f, 0, 1}
	default:
		c = [3]float64{1, 0, 1 - f}
	}
	var o [3]uint8
	for k := range c {
		v := light * (1 - sat + sat*c[k]) * 255 * 1.2
		o[k] = clamp(math.Min(255, v))
	}
	return color.RGBA{o[0], o[1], o[2], 255}
}
