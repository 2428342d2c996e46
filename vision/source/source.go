// Package source provides frames for the die recogniser: the Pi camera's
// raw YUV420 stream (rpicam-vid --codec yuv420 -o -), image files and
// folders, and rendered synthetic throws.
//
// Every source gives grey frames (for YUV420, the Y plane as is) with a
// timestamp; the timestamp comes from the source (frame number and rate),
// never from a clock read here.
package source

import (
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // decoders for image files
	_ "image/png"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/parchis-table/parchis/vision"
)

// Frame is one grey frame and when it was taken.
type Frame struct {
	Gray *image.Gray
	At   time.Duration // since the start of the stream
	Name string        // file name, or "frame N"
}

// Source gives frames one at a time. Next returns io.EOF after the last.
// A frame's pixels may be reused by the next call to Next.
type Source interface {
	Next() (Frame, error)
}

// YUV420 reads raw planar YUV 4:2:0 frames (I420) from a stream, such as
// the output of `rpicam-vid --codec yuv420 -o -`, and gives the Y plane of
// each as a grey frame without copying it.
type YUV420 struct {
	r             io.Reader
	width, height int
	stride        int
	rate          float64
	buf           []byte
	n             int
}

// YUV420Opts describe the frames of a YUV420 stream.
type YUV420Opts struct {
	Width, Height int // frame size in pixels; both even
	// Stride is the bytes per row of the Y plane; 0 means Width. The U
	// and V planes have half the stride and half the rows.
	Stride int
	// Rate is the frame rate used to timestamp frames; 0 means 30.
	Rate float64
}

// NewYUV420 returns a YUV420 reader of r. It checks the frame geometry.
func NewYUV420(r io.Reader, o YUV420Opts) (*YUV420, error) {
	if o.Width <= 0 || o.Height <= 0 {
		return nil, fmt.Errorf("yuv420: frame size %dx%d: both must be positive", o.Width, o.Height)
	}
	if o.Width%2 != 0 || o.Height%2 != 0 {
		return nil, fmt.Errorf("yuv420: frame size %dx%d: both must be even", o.Width, o.Height)
	}
	if o.Width > 1<<14 || o.Height > 1<<14 {
		return nil, fmt.Errorf("yuv420: frame size %dx%d: too large", o.Width, o.Height)
	}
	if o.Stride == 0 {
		o.Stride = o.Width
	}
	if o.Stride < o.Width || o.Stride%2 != 0 || o.Stride > 1<<15 {
		return nil, fmt.Errorf("yuv420: stride %d for width %d: must be even and at least the width", o.Stride, o.Width)
	}
	if o.Rate <= 0 {
		o.Rate = 30
	}
	return &YUV420{r: r, width: o.Width, height: o.Height, stride: o.Stride, rate: o.Rate}, nil
}

// FrameSize returns the bytes of one frame: the Y plane and the two
// chroma planes.
func (y *YUV420) FrameSize() int {
	return y.stride*y.height + 2*(y.stride/2)*(y.height/2)
}

// ErrShortFrame is returned (wrapped) when the stream ends inside a frame:
// usually a wrong frame size or stride.
var ErrShortFrame = errors.New("stream ended inside a frame")

// Next reads the next frame. The frame's pixels are valid until the next
// call. It returns io.EOF at the end of the stream between frames.
func (y *YUV420) Next() (Frame, error) {
	size := y.FrameSize()
	if cap(y.buf) < size {
		y.buf = make([]byte, size)
	}
	y.buf = y.buf[:size]
	n, err := io.ReadFull(y.r, y.buf)
	switch {
	case err == io.EOF:
		return Frame{}, io.EOF
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Frame{}, fmt.Errorf("yuv420 frame %d (%dx%d, stride %d): got %d of %d bytes: %w",
			y.n, y.width, y.height, y.stride, n, size, ErrShortFrame)
	case err != nil:
		return Frame{}, fmt.Errorf("yuv420 frame %d: %w", y.n, err)
	}
	f := Frame{
		Gray: &image.Gray{Pix: y.buf[:y.stride*y.height], Stride: y.stride, Rect: image.Rect(0, 0, y.width, y.height)},
		At:   time.Duration(float64(y.n) / y.rate * float64(time.Second)),
		Name: fmt.Sprintf("frame %d", y.n),
	}
	y.n++
	return f, nil
}

// Files gives image files (PNG, JPEG) one after another, timestamped at
// Rate frames a second.
type Files struct {
	paths []string
	rate  float64
	n     int
}

// NewFiles returns a source of the given image files, at rate frames a
// second (0 means 30).
func NewFiles(paths []string, rate float64) *Files {
	if rate <= 0 {
		rate = 30
	}
	return &Files{paths: paths, rate: rate}
}

// NewDir returns a source of the image files (.png, .jpg, .jpeg) in dir,
// in name order.
func NewDir(dir string, rate float64) (*Files, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("image folder: %w", err)
	}
	var paths []string
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".png", ".jpg", ".jpeg":
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(paths)
	return NewFiles(paths, rate), nil
}

// Next decodes the next file.
func (f *Files) Next() (Frame, error) {
	if f.n >= len(f.paths) {
		return Frame{}, io.EOF
	}
	p := f.paths[f.n]
	g, err := ReadImage(p)
	at := time.Duration(float64(f.n) / f.rate * float64(time.Second))
	f.n++
	if err != nil {
		return Frame{Name: p, At: at}, err
	}
	return Frame{Gray: g, At: at, Name: p}, nil
}

// ReadImage decodes an image file (PNG or JPEG) to grey.
func ReadImage(path string) (*image.Gray, error) {
	img, err := DecodeImage(path)
	if err != nil {
		return nil, err
	}
	return vision.Gray(img), nil
}

// DecodeImage decodes an image file (PNG or JPEG), keeping its colours
// for [vision.Reader.ReadImage].
func DecodeImage(path string) (image.Image, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("image: %w", err)
	}
	defer fh.Close()
	img, _, err := image.Decode(fh)
	if err != nil {
		return nil, fmt.Errorf("image %s: %w", path, err)
	}
	return img, nil
}
