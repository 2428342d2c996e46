package onnx

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type ioTensor struct {
	Shape []int     `json:"shape"`
	Data  []float32 `json:"data"`
}

func readIO(t *testing.T, path string) map[string]ioTensor {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]ioTensor
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

func near(t *testing.T, what string, got *Tensor, want ioTensor, tol float64) {
	t.Helper()
	if len(got.Shape) != len(want.Shape) {
		t.Fatalf("%s: shape %v, want %v", what, got.Shape, want.Shape)
	}
	for i := range got.Shape {
		if got.Shape[i] != want.Shape[i] {
			t.Fatalf("%s: shape %v, want %v", what, got.Shape, want.Shape)
		}
	}
	worst := 0.0
	for i, w := range want.Data {
		d := math.Abs(float64(got.Data[i] - w))
		worst = max(worst, d/(1+math.Abs(float64(w))))
	}
	if worst > tol {
		t.Errorf("%s: differs from the training framework by %.2g (relative), over %.0g", what, worst, tol)
	}
}

// TestOperators runs each operator case exported by the training
// framework (vision/train/optests.py) and compares with its output.
func TestOperators(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.onnx")
	if len(files) < 10 {
		t.Fatalf("only %d operator cases in testdata", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".onnx")
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(b)
			if err != nil {
				t.Fatal(err)
			}
			io := readIO(t, strings.TrimSuffix(f, ".onnx")+".json")
			x := io["x"]
			s := m.NewSession()
			for run := 0; run < 2; run++ { // the second run reuses the buffers
				out, err := s.Run(map[string]*Tensor{m.Inputs[0]: {Shape: x.Shape, Data: x.Data}})
				if err != nil {
					t.Fatal(err)
				}
				near(t, name, out[0], io["y"], 1e-4)
			}
		})
	}
}

func TestRefusesWhatItCannotRun(t *testing.T) {
	b, err := os.ReadFile("testdata/conv3x3.onnx")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(m *Model)
		want string
	}{
		{"unknown operator", func(m *Model) { m.nodes[0].op = "Softmax" }, `operator "Softmax" is not supported`},
		{"grouped conv", func(m *Model) { m.nodes[0].ints["group"] = []int64{3} }, "group 3"},
		{"auto_pad", func(m *Model) { m.nodes[0].ints["auto_pad"] = []int64{1} }, "auto_pad"},
		{"missing input", func(m *Model) { m.nodes[0].in[0] = "nowhere" }, `input "nowhere" is not computed`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := *m
			c.nodes = []node{m.nodes[0]}
			n := &c.nodes[0]
			n.in = append([]string(nil), n.in...)
			n.ints = map[string][]int64{}
			for k, v := range m.nodes[0].ints {
				n.ints[k] = v
			}
			tc.edit(&c)
			err := c.check()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("check: %v, want an error naming %q", err, tc.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	b, err := os.ReadFile("testdata/conv3x3.onnx")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"truncated", b[:len(b)/2]},
		{"garbage", []byte("not a model at all")},
	} {
		if _, err := Parse(tc.data); err == nil {
			t.Errorf("%s: parsed", tc.name)
		} else if !strings.HasPrefix(err.Error(), "onnx: ") {
			t.Errorf("%s: error %q does not say it is the model", tc.name, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.onnx")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Parse(b)
		if err != nil {
			return
		}
		// a model that parses runs, or fails with an error, on a small input
		in := map[string]*Tensor{}
		for _, name := range m.Inputs {
			in[name] = &Tensor{Shape: []int{1, 3, 8, 8}, Data: make([]float32, 192)}
		}
		_, _ = m.NewSession().Run(in)
	})
}

// randoms returns n numbers in -0.5…0.5 from a linear congruential
// generator whose state is *seed: the same every run.
func randoms(n int, seed *uint32) []float32 {
	out := make([]float32, n)
	for i := range out {
		*seed = *seed*1664525 + 1013904223
		out[i] = float32(*seed>>8)/float32(1<<24) - 0.5
	}
	return out
}

// TestWinograd_MatchesIm2col compares the two ways of convolving on odd
// sizes and every padding, with and without bias and relu.
func TestWinograd_MatchesIm2col(t *testing.T) {
	rnd := func(n int, seed uint32) []float32 { return randoms(n, &seed) }
	for _, tc := range []struct {
		cin, cout, h, w int
		pads            [4]int
	}{
		{3, 5, 9, 11, [4]int{1, 1, 1, 1}},
		{4, 6, 8, 8, [4]int{0, 0, 0, 0}},
		{2, 3, 7, 5, [4]int{1, 0, 0, 1}},
		{6, 4, 3, 3, [4]int{2, 2, 2, 2}},
		{1, 1, 5, 4, [4]int{1, 1, 1, 1}},
		{9, 16, 10, 7, [4]int{1, 1, 1, 1}}, // the products in 8×8 blocks
	} {
		w := &Tensor{Shape: []int{tc.cout, tc.cin, 3, 3}, Data: rnd(tc.cout*tc.cin*9, 1)}
		x := &Tensor{Shape: []int{1, tc.cin, tc.h, tc.w}, Data: rnd(tc.cin*tc.h*tc.w, 2)}
		b := &Tensor{Shape: []int{tc.cout}, Data: rnd(tc.cout, 3)}
		n := &node{op: "Conv", ints: map[string][]int64{"pads": {int64(tc.pads[0]), int64(tc.pads[1]), int64(tc.pads[2]), int64(tc.pads[3])}}}
		sameAsIm2col(t, "winograd", &Model{wino: map[*node][]float32{n: winogradWeights(w)}}, n, x, w, b)
	}
}

// sameAsIm2col checks that fast, a model that convolves n another way,
// gives what im2col gives, without and with the fused relu.
func sameAsIm2col(t *testing.T, way string, fast *Model, n *node, x, w, b *Tensor) {
	t.Helper()
	for _, relu := range []bool{false, true} {
		var want, got Tensor
		if err := (&Model{}).NewSession().conv(&want, x, w, b, n, relu); err != nil {
			t.Fatal(err)
		}
		if err := fast.NewSession().conv(&got, x, w, b, n, relu); err != nil {
			t.Fatal(err)
		}
		near(t, way, &got, ioTensor{Shape: want.Shape, Data: want.Data}, 1e-5)
	}
}

func BenchmarkConv3x3_32to64_24x24(b *testing.B) {
	benchConv(b, 32, 64, 24, 24, "winograd")
}

func BenchmarkConv3x3_32to64_24x24_Im2col(b *testing.B) {
	benchConv(b, 32, 64, 24, 24, "im2col")
}

func BenchmarkConv3x3_32to64_24x24_Taps(b *testing.B) {
	benchConv(b, 32, 64, 24, 24, "taps")
}

func benchConv(b *testing.B, cin, cout, h, w int, way string) {
	wt := &Tensor{Shape: []int{cout, cin, 3, 3}, Data: make([]float32, cout*cin*9)}
	x := &Tensor{Shape: []int{1, cin, h, w}, Data: make([]float32, cin*h*w)}
	n := &node{op: "Conv", ints: map[string][]int64{"pads": {1, 1, 1, 1}}}
	m := &Model{wino: map[*node][]float32{}, taps: map[*node][]float32{}}
	switch way {
	case "winograd":
		m.wino[n] = winogradWeights(wt)
	case "taps":
		m.taps[n] = tapsWeights(wt)
	}
	s := m.NewSession()
	var out Tensor
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s.conv(&out, x, wt, nil, n, true)
	}
	b.ReportMetric(float64(cin*cout*9*h*w)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
}
