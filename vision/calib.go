package vision

import (
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"

	"gopkg.in/yaml.v3"
)

// Calibration is what the recogniser learns of the tray camera from two
// frames: where the tray is and how big a die looks. It is saved in the
// table's configuration under the key "dice_camera".
type Calibration struct {
	Frame   Rect    `yaml:"frame"`       // size of the calibrated frames (X, Y are 0)
	Tray    Rect    `yaml:"tray"`        // the tray within the frame
	DieSize float64 `yaml:"die_size_px"` // width of the die's top face, px
	// Background is the empty tray's frame (a PNG written by parchisd
	// calibrate -o), relative to the calibration's folder; empty when
	// there is none.
	Background string `yaml:"background,omitempty"`
}

// Rect is a rectangle as stored in the configuration.
type Rect struct {
	X int `yaml:"x"`
	Y int `yaml:"y"`
	W int `yaml:"w"`
	H int `yaml:"h"`
}

// Rectangle returns r as an image.Rectangle.
func (r Rect) Rectangle() image.Rectangle { return image.Rect(r.X, r.Y, r.X+r.W, r.Y+r.H) }

// RectOf returns the Rect of an image.Rectangle.
func RectOf(r image.Rectangle) Rect { return Rect{r.Min.X, r.Min.Y, r.Dx(), r.Dy()} }

// WriteYAML writes c as the "dice_camera" section of the configuration.
func (c Calibration) WriteYAML(w io.Writer) error {
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(map[string]Calibration{"dice_camera": c}); err != nil {
		return fmt.Errorf("calibration: %w", err)
	}
	return enc.Close()
}

// ReadCalibrationYAML reads the "dice_camera" section written by
// [Calibration.WriteYAML].
func ReadCalibrationYAML(r io.Reader) (Calibration, error) {
	var doc struct {
		C *Calibration `yaml:"dice_camera"`
	}
	if err := yaml.NewDecoder(r).Decode(&doc); err != nil {
		return Calibration{}, fmt.Errorf("calibration: %w", err)
	}
	if doc.C == nil {
		return Calibration{}, errors.New("calibration: no dice_camera section")
	}
	return *doc.C, nil
}

// LoadCalibration reads a calibration file. Its Background, written
// relative to the file's folder, is returned as a path from the working
// directory.
func LoadCalibration(path string) (Calibration, error) {
	f, err := os.Open(path)
	if err != nil {
		return Calibration{}, err
	}
	defer f.Close()
	c, err := ReadCalibrationYAML(f)
	if err != nil {
		return Calibration{}, err
	}
	if c.Background != "" && !filepath.IsAbs(c.Background) {
		c.Background = filepath.Join(filepath.Dir(path), c.Background)
	}
	return c, nil
}

// Calibration errors.
var (
	ErrFrameSize = errors.New("the two frames differ in size")
	ErrNoDie     = errors.New("no die found: nothing differs between the empty tray and the frame with the die")
	ErrDieRead   = errors.New("the die is not readable: make it lie flat in the middle of the tray, under even light")
)

// Calibrate finds the tray and the die size from a frame of the empty tray
// and a frame with one die lying flat in it. The die is where the frames
// differ; its size is the width of its read top face; the tray is the area
// around the die that looks like the tray where the die lies.
func Calibrate(empty, withDie *image.Gray) (Calibration, error) {
	if empty.Rect.Size() != withDie.Rect.Size() {
		return Calibration{}, fmt.Errorf("calibrate: %v and %v: %w", empty.Rect.Size(), withDie.Rect.Size(), ErrFrameSize)
	}
	w, h := empty.Rect.Dx(), empty.Rect.Dy()
	eo := empty.PixOffset(empty.Rect.Min.X, empty.Rect.Min.Y)
	do := withDie.PixOffset(withDie.Rect.Min.X, withDie.Rect.Min.Y)
	// the die: pixels that changed by more than 40 levels
	box := image.Rectangle{}
	n := 0
	for y := 0; y < h; y++ {
		re := empty.Pix[eo+y*empty.Stride:]
		rd := withDie.Pix[do+y*withDie.Stride:]
		for x := 0; x < w; x++ {
			d := int(re[x]) - int(rd[x])
			if d > 40 || d < -40 {
				box = box.Union(image.Rect(x, y, x+1, y+1))
				n++
			}
		}
	}
	if n < 50 {
		return Calibration{}, fmt.Errorf("calibrate: %w", ErrNoDie)
	}
	rd := NewReader(nil)
	sub := withDie.SubImage(box.Add(withDie.Rect.Min).Inset(-box.Dx() / 3)).(*image.Gray)
	res := rd.Read(sub)
	if res.Answer != Value {
		return Calibration{}, fmt.Errorf("calibrate: die read as %s: %w", res, ErrDieRead)
	}
	size := float64(res.Box.Dx()+res.Box.Dy()) / 2
	// the tray: flood from around the die over cells like the tray there
	tray := trayAround(empty, box)
	return Calibration{
		Frame:   Rect{0, 0, w, h},
		Tray:    RectOf(tray),
		DieSize: size,
	}, nil
}

// trayAround grows, over 8×8 cells of the empty frame, the region around
// die whose mean grey is close to the tray's next to the die.
func trayAround(g *image.Gray, die image.Rectangle) image.Rectangle {
	const c = 8
	cw, ch := g.Rect.Dx()/c, g.Rect.Dy()/c
	if cw == 0 || ch == 0 {
		return image.Rect(0, 0, g.Rect.Dx(), g.Rect.Dy())
	}
	mean := make([]int, cw*ch)
	o := g.PixOffset(g.Rect.Min.X, g.Rect.Min.Y)
	for y := 0; y < ch*c; y++ {
		row := g.Pix[o+y*g.Stride:]
		for x := 0; x < cw*c; x++ {
			mean[(y/c)*cw+x/c] += int(row[x])
		}
	}
	for i := range mean {
		mean[i] /= c * c
	}
	cx, cy := (die.Min.X+die.Max.X)/2/c, (die.Min.Y+die.Max.Y)/2/c
	cx, cy = min(cx, cw-1), min(cy, ch-1)
	ref := mean[cy*cw+cx]
	seen := make([]bool, cw*ch)
	stack := []int{cy*cw + cx}
	seen[cy*cw+cx] = true
	r := image.Rectangle{}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := i%cw, i/cw
		r = r.Union(image.Rect(x*c, y*c, x*c+c, y*c+c))
		for _, nb := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			nx, ny := x+nb[0], y+nb[1]
			if nx < 0 || ny < 0 || nx >= cw || ny >= ch {
				continue
			}
			j := ny*cw + nx
			if seen[j] {
				continue
			}
			if d := mean[j] - ref; d > 25 || d < -25 {
				continue
			}
			seen[j] = true
			stack = append(stack, j)
		}
	}
	return r.Union(die)
}
