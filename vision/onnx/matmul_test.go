package onnx

import (
	"fmt"
	"math"
	"testing"
)

// TestMatmul compares matmul, with the assembly kernel where there is one
// and in plain Go, with a product in float64: on shapes that fill the
// kernel's 8×8 blocks, leave rows or columns over, or run past kChunk,
// with strides wider than the rows; and checks that nothing outside c's
// m×n is written.
func TestMatmul(t *testing.T) {
	kernels := []bool{false}
	if haveKernel {
		kernels = append(kernels, true)
	} else {
		t.Log("no assembly kernel on this machine: plain Go only")
	}
	defer func(h bool) { haveKernel = h }(haveKernel)
	seed := uint32(7)
	rnd := func(n int) []float32 { return randoms(n, &seed) }
	for _, tc := range []struct{ m, n, k, pad int }{
		{8, 8, 1, 0}, {8, 8, 9, 3}, {16, 24, 32, 0}, {1, 1, 1, 0}, {7, 7, 7, 1},
		{9, 9, 128, 0}, {128, 9, 128, 0}, {64, 36, 64, 5}, {24, 13, 300, 2},
		{17, 3, 257, 0}, {8, 5, 513, 4}, {4, 100, 40, 0}, {32, 576, 27, 0},
	} {
		for _, kern := range kernels {
			haveKernel = kern
			t.Run(fmt.Sprintf("%dx%dx%d+%d/kernel=%v", tc.m, tc.n, tc.k, tc.pad, kern), func(t *testing.T) {
				lda, ldb, ldc := tc.k+tc.pad, tc.n+2*tc.pad, tc.n+tc.pad
				a, b, c := rnd(tc.m*lda), rnd(tc.k*ldb), rnd(tc.m*ldc)
				want := make([]float64, len(c))
				for i := range c {
					want[i] = float64(c[i])
				}
				for i := 0; i < tc.m; i++ {
					for j := 0; j < tc.n; j++ {
						for p := 0; p < tc.k; p++ {
							want[i*ldc+j] += float64(a[i*lda+p]) * float64(b[p*ldb+j])
						}
					}
				}
				matmul(tc.m, tc.n, tc.k, a, lda, b, ldb, c, ldc)
				for i := range c {
					if d := math.Abs(float64(c[i]) - want[i]); d > 1e-4*math.Sqrt(float64(tc.k)) {
						t.Fatalf("c[%d] (row %d, column %d) = %g, want %g", i, i/ldc, i%ldc, c[i], want[i])
					}
				}
			})
		}
	}
}

// TestMatmul_ShortSlicePanics: the kernel reads through pointers, so a
// slice too short for its matrix must stop matmul before it reads past it.
func TestMatmul_ShortSlicePanics(t *testing.T) {
	for _, tc := range []struct {
		name    string
		a, b, c int
	}{
		{"a", 8*16 - 1, 16 * 8, 8 * 8},
		{"b", 8 * 16, 16*8 - 1, 8 * 8},
		{"c", 8 * 16, 16 * 8, 8*8 - 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("matmul with %s one element short did not panic", tc.name)
				}
			}()
			matmul(8, 8, 16, make([]float32, tc.a), 16, make([]float32, tc.b), 8, make([]float32, tc.c), 8)
		})
	}
}

// BenchmarkMatmul is the classifier's last winograd layer's product per
// tile position (128×128 weights × 9 tiles) and its im2col layer before
// (128 × 576 weights × 36 pixels).
func BenchmarkMatmul(b *testing.B) {
	for _, sz := range []struct{ m, n, k int }{{128, 9, 128}, {128, 36, 576}, {32, 576, 27}} {
		b.Run(fmt.Sprintf("%dx%dx%d", sz.m, sz.n, sz.k), func(b *testing.B) {
			a, x, c := make([]float32, sz.m*sz.k), make([]float32, sz.k*sz.n), make([]float32, sz.m*sz.n)
			b.ReportAllocs()
			for b.Loop() {
				matmul(sz.m, sz.n, sz.k, a, sz.k, x, sz.n, c, sz.n)
			}
			b.ReportMetric(float64(sz.m*sz.n*sz.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
		})
	}
}

// TestTaps_MatchesIm2col compares the two ways of convolving at stride 1
// on odd sizes, kernels of 3×3, 5×5 and 1×3, dilation, every padding,
// with and without bias and relu, channels that fill the kernel's blocks
// and that do not.
func TestTaps_MatchesIm2col(t *testing.T) {
	seed := uint32(11)
	rnd := func(n int) []float32 { return randoms(n, &seed) }
	for _, tc := range []struct {
		cin, cout, h, w, kh, kw, dil int
		pads                         [4]int
	}{
		{3, 5, 9, 11, 3, 3, 1, [4]int{1, 1, 1, 1}},
		{9, 16, 10, 7, 3, 3, 1, [4]int{1, 1, 1, 1}},
		{32, 32, 12, 12, 3, 3, 2, [4]int{2, 2, 2, 2}},
		{4, 8, 8, 8, 3, 3, 1, [4]int{0, 0, 0, 0}},
		{2, 11, 7, 5, 3, 3, 1, [4]int{1, 0, 0, 1}},
		{6, 8, 9, 8, 5, 5, 1, [4]int{0, 2, 1, 0}},
		{5, 24, 6, 9, 1, 3, 1, [4]int{0, 1, 0, 1}},
	} {
		w := &Tensor{Shape: []int{tc.cout, tc.cin, tc.kh, tc.kw}, Data: rnd(tc.cout * tc.cin * tc.kh * tc.kw)}
		x := &Tensor{Shape: []int{2, tc.cin, tc.h, tc.w}, Data: rnd(2 * tc.cin * tc.h * tc.w)}
		b := &Tensor{Shape: []int{tc.cout}, Data: rnd(tc.cout)}
		d := int64(tc.dil)
		n := &node{op: "Conv", ints: map[string][]int64{
			"pads":      {int64(tc.pads[0]), int64(tc.pads[1]), int64(tc.pads[2]), int64(tc.pads[3])},
			"dilations": {d, d}}}
		sameAsIm2col(t, "taps", &Model{taps: map[*node][]float32{n: tapsWeights(w)}}, n, x, w, b)
	}
}
