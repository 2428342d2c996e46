package onnx

// A convolution of stride 1 by taps: for each of the kernel's kh×kw
// positions, one matrix product of that tap's weights (cout×cin) with the
// input shifted by the tap, read in place from a zero-padded copy of the
// input. im2col instead copies the input once per tap (9 times for 3×3),
// which took 29% of a crop's reading once the products had the kernel:
// by taps a 128×128 crop reads in 1.84 ms against 2.1 (BenchmarkRead_128x128,
// one core). Each row of a product runs over the padded width, so a few
// columns a row are computed and dropped. Used where matmul has its
// kernel (tapsOK); without it winograd does the 3×3 layers.

// tapsOK reports whether a Conv of weights w can be done by taps: a 1×1
// kernel of stride 1 is one product already, without a padded copy.
func tapsOK(w *Tensor, stride [2]int) bool {
	return haveKernel && stride == [2]int{1, 1} && w.Shape[2]*w.Shape[3] > 1
}

// tapsWeights returns w (cout×cin×kh×kw) laid out as kh·kw matrices of
// cout×cin, one per tap.
func tapsWeights(w *Tensor) []float32 {
	cout, cin, kh, kw := w.Shape[0], w.Shape[1], w.Shape[2], w.Shape[3]
	out := make([]float32, len(w.Data))
	for m := 0; m < cout; m++ {
		for c := 0; c < cin; c++ {
			for t := 0; t < kh*kw; t++ {
				out[(t*cout+m)*cin+c] = w.Data[(m*cin+c)*kh*kw+t]
			}
		}
	}
	return out
}

// taps computes one image's convolution: x is cin×h×w, out cout×oh×ow,
// u from tapsWeights; pad and acc are scratch, returned grown for the
// next call.
func taps(out, x, u, bias []float32, cin, h, w, cout, kh, kw, oh, ow int, dil [2]int, pads [4]int, relu bool, pad, acc []float32) ([]float32, []float32) {
	hp, wp := h+pads[0]+pads[2], w+pads[1]+pads[3]
	// a tap's shifted plane reads up to (kw-1)·dil past the padded one
	plane := hp*wp + (kw-1)*dil[1]
	pad = sized(pad, cin*plane)
	clear(pad)
	for c := 0; c < cin; c++ {
		for y := 0; y < h; y++ {
			copy(pad[c*plane+(y+pads[0])*wp+pads[1]:], x[(c*h+y)*w:(c*h+y+1)*w])
		}
	}
	n := oh * wp
	acc = sized(acc, cout*n)
	clear(acc)
	for ki := 0; ki < kh; ki++ {
		for kj := 0; kj < kw; kj++ {
			t := ki*kw + kj
			off := ki*dil[0]*wp + kj*dil[1]
			matmul(cout, n, cin, u[t*cout*cin:(t+1)*cout*cin], cin, pad[off:], plane, acc, n)
		}
	}
	for m := 0; m < cout; m++ {
		b := float32(0)
		if bias != nil {
			b = bias[m]
		}
		for y := 0; y < oh; y++ {
			src := acc[m*n+y*wp : m*n+y*wp+ow]
			dst := out[(m*oh+y)*ow : (m*oh+y+1)*ow]
			for i, v := range src {
				v += b
				if relu {
					v = max(v, 0)
				}
				dst[i] = v
			}
		}
	}
	return pad, acc
}
