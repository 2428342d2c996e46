package onnx

// Winograd's F(2×2, 3×3): a 3×3 convolution of stride 1 computed on 4×4
// tiles of the input, each giving 2×2 outputs with 16 multiplications per
// pair of channels instead of 36. It is used only where matmul has no
// assembly kernel (GOARM=6, purego): there it makes a 3×3 layer 1.4 times
// faster than taps or im2col (BenchmarkConv3x3_32to64_24x24 with -tags
// purego on amd64: 1.46 ms against 2.17 and 2.10), while with the kernel
// its transforms, in plain Go, take twice as long as the whole of taps
// (0.66 ms against 0.33).

// winogradOK reports whether a Conv can be done by winograd.
func winogradOK(w *Tensor, stride, dil [2]int) bool {
	return w.Shape[2] == 3 && w.Shape[3] == 3 && stride == [2]int{1, 1} && dil == [2]int{1, 1}
}

// winogradWeights returns the transformed kernels, U = G·g·Gᵀ, laid out as
// 16 matrices (one per tile position) of cout×cin.
func winogradWeights(w *Tensor) []float32 {
	cout, cin := w.Shape[0], w.Shape[1]
	u := make([]float32, 16*cout*cin)
	for m := 0; m < cout; m++ {
		for c := 0; c < cin; c++ {
			g := w.Data[(m*cin+c)*9 : (m*cin+c)*9+9]
			// t = G·g (4×3)
			var t [4][3]float32
			for j := 0; j < 3; j++ {
				g0, g1, g2 := g[j], g[3+j], g[6+j]
				t[0][j] = g0
				t[1][j] = (g0 + g1 + g2) / 2
				t[2][j] = (g0 - g1 + g2) / 2
				t[3][j] = g2
			}
			// U = t·Gᵀ (4×4)
			for i := 0; i < 4; i++ {
				a, b, d := t[i][0], t[i][1], t[i][2]
				r := [4]float32{a, (a + b + d) / 2, (a - b + d) / 2, d}
				for j := 0; j < 4; j++ {
					u[((i*4+j)*cout+m)*cin+c] = r[j]
				}
			}
		}
	}
	return u
}

// winograd computes one image's convolution: x is cin×h×w, out is
// cout×oh×ow, u from winogradWeights; v and mm are scratch, returned
// grown for the next call.
func winograd(out, x, u, bias []float32, cin, h, w, cout, oh, ow int, pads [4]int, relu bool, v, mm []float32) ([]float32, []float32) {
	th, tw := (oh+1)/2, (ow+1)/2
	nt := th * tw
	v = sized(v, 16*cin*nt)
	mm = sized(mm, 16*cout*nt)
	// V = Bᵀ·d·B for every tile of every channel
	for c := 0; c < cin; c++ {
		plane := x[c*h*w : (c+1)*h*w]
		for ty := 0; ty < th; ty++ {
			for tx := 0; tx < tw; tx++ {
				var d [4][4]float32
				y0, x0 := 2*ty-pads[0], 2*tx-pads[1]
				for i := 0; i < 4; i++ {
					yy := y0 + i
					if yy < 0 || yy >= h {
						continue
					}
					row := plane[yy*w : (yy+1)*w]
					for j := 0; j < 4; j++ {
						if xx := x0 + j; xx >= 0 && xx < w {
							d[i][j] = row[xx]
						}
					}
				}
				// t = Bᵀ·d
				var t [4][4]float32
				for j := 0; j < 4; j++ {
					t[0][j] = d[0][j] - d[2][j]
					t[1][j] = d[1][j] + d[2][j]
					t[2][j] = d[2][j] - d[1][j]
					t[3][j] = d[1][j] - d[3][j]
				}
				k := ty*tw + tx
				for i := 0; i < 4; i++ {
					r := [4]float32{t[i][0] - t[i][2], t[i][1] + t[i][2], t[i][2] - t[i][1], t[i][1] - t[i][3]}
					for j := 0; j < 4; j++ {
						v[((i*4+j)*cin+c)*nt+k] = r[j]
					}
				}
			}
		}
	}
	// M = U·V, one product per tile position
	clear(mm)
	for p := 0; p < 16; p++ {
		matmul(cout, nt, cin, u[p*cout*cin:(p+1)*cout*cin], cin, v[p*cin*nt:(p+1)*cin*nt], nt, mm[p*cout*nt:(p+1)*cout*nt], nt)
	}
	// Y = Aᵀ·M·A, 2×2 outputs a tile
	for m := 0; m < cout; m++ {
		b := float32(0)
		if bias != nil {
			b = bias[m]
		}
		dst := out[m*oh*ow : (m+1)*oh*ow]
		for ty := 0; ty < th; ty++ {
			for tx := 0; tx < tw; tx++ {
				k := ty*tw + tx
				var q [4][4]float32
				for p := 0; p < 16; p++ {
					q[p/4][p%4] = mm[(p*cout+m)*nt+k]
				}
				// s = Aᵀ·q (2×4)
				var s [2][4]float32
				for j := 0; j < 4; j++ {
					s[0][j] = q[0][j] + q[1][j] + q[2][j]
					s[1][j] = q[1][j] - q[2][j] - q[3][j]
				}
				for i := 0; i < 2; i++ {
					yy := 2*ty + i
					if yy >= oh {
						break
					}
					y0 := s[i][0] + s[i][1] + s[i][2] + b
					y1 := s[i][1] - s[i][2] - s[i][3] + b
					if relu {
						y0, y1 = max(y0, 0), max(y1, 0)
					}
					dst[yy*ow+2*tx] = y0
					if 2*tx+1 < ow {
						dst[yy*ow+2*tx+1] = y1
					}
				}
			}
		}
	}
	return v, mm
}
