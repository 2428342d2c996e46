package source

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/parchis-table/parchis/vision"
)

func yuvFrames(w, h, stride, n int) []byte {
	var b bytes.Buffer
	for k := 0; k < n; k++ {
		for y := 0; y < h; y++ {
			for x := 0; x < stride; x++ {
				b.WriteByte(byte(x + y + k))
			}
		}
		b.Write(make([]byte, 2*(stride/2)*(h/2)))
	}
	return b.Bytes()
}

func TestYUV420_ReadsYPlane(t *testing.T) {
	data := yuvFrames(64, 48, 80, 3)
	y, err := NewYUV420(bytes.NewReader(data), YUV420Opts{Width: 64, Height: 48, Stride: 80, Rate: 10})
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 3; k++ {
		f, err := y.Next()
		if err != nil {
			t.Fatal(err)
		}
		if f.Gray.Rect.Dx() != 64 || f.Gray.Rect.Dy() != 48 || f.Gray.Stride != 80 {
			t.Fatalf("frame %d: rect %v stride %d", k, f.Gray.Rect, f.Gray.Stride)
		}
		if got, want := f.Gray.GrayAt(5, 7).Y, byte(5+7+k); got != want {
			t.Fatalf("frame %d: pixel %d, want %d", k, got, want)
		}
		if want := int64(k) * 100e6; int64(f.At) != want {
			t.Fatalf("frame %d at %v", k, f.At)
		}
	}
	if _, err := y.Next(); err != io.EOF {
		t.Fatalf("after last frame: %v, want EOF", err)
	}
}

func TestYUV420_ShortFrame_Error(t *testing.T) {
	data := yuvFrames(64, 48, 64, 2)
	y, _ := NewYUV420(bytes.NewReader(data[:len(data)-10]), YUV420Opts{Width: 64, Height: 48})
	if _, err := y.Next(); err != nil {
		t.Fatal(err)
	}
	if _, err := y.Next(); !errors.Is(err, ErrShortFrame) {
		t.Fatalf("got %v, want ErrShortFrame", err)
	}
}

func TestNewYUV420_BadGeometry(t *testing.T) {
	for _, o := range []YUV420Opts{
		{Width: 0, Height: 48}, {Width: 63, Height: 48}, {Width: 64, Height: 47},
		{Width: 64, Height: 48, Stride: 32}, {Width: 64, Height: 48, Stride: 65}, {Width: 1 << 15, Height: 2},
	} {
		if _, err := NewYUV420(bytes.NewReader(nil), o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

func FuzzYUV420(f *testing.F) {
	f.Add(uint16(4), uint16(4), uint16(0), []byte("0123456789abcdefghijklmnopqrstuvwxyz"))
	f.Add(uint16(2), uint16(2), uint16(4), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Fuzz(func(t *testing.T, w, h, stride uint16, data []byte) {
		y, err := NewYUV420(bytes.NewReader(data), YUV420Opts{Width: int(w % 64), Height: int(h % 64), Stride: int(stride % 128)})
		if err != nil {
			return
		}
		n := 0
		for {
			f, err := y.Next()
			if err != nil {
				if err != io.EOF && !errors.Is(err, ErrShortFrame) {
					t.Fatal(err)
				}
				break
			}
			n++
			_ = f.Gray.GrayAt(f.Gray.Rect.Dx()-1, f.Gray.Rect.Dy()-1)
		}
		if n != len(data)/y.FrameSize() {
			t.Fatalf("%d frames from %d bytes of %d-byte frames", n, len(data), y.FrameSize())
		}
	})
}

func TestSynth_WatcherSeesEachThrowOnce(t *testing.T) {
	src := NewSynth(240, 180, 60, 30, 1, []Throw{
		{Face: 3, Tumble: 6, Rest: 15}, {Face: 6, Tumble: 5, Rest: 15}, {Face: 2, Tilt: 45, Tumble: 6, Rest: 15},
	})
	w := vision.NewWatcher(nil, nil)
	var got []string
	for {
		f, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range w.Feed(f.Gray, f.At) {
			got = append(got, e.Kind.String()+":"+e.Result.String())
		}
	}
	want := []string{"throw:3", "throw:6", "rethrow:edge"}
	if len(got) != len(want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("events %v, want %v", got, want)
		}
	}
}
