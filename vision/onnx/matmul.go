package onnx

// The networks spend nearly all their time in matrix products: a
// convolution by im2col is one (weights × columns), one by winograd is
// sixteen. On amd64 (AVX2 and FMA) and arm64 (NEON) an assembly kernel
// computes 8×8 blocks of the product with the block held in registers;
// elsewhere, and for what the blocks leave over, plain Go does it.

// kChunk bounds the rows of b that a leftover block of columns copies
// to a panel on the stack at once.
const kChunk = 256

// matmul adds a·b to c, all float32 and row-major: a is m×k with its rows
// lda apart, b is k×n with rows ldb apart, c is m×n with rows ldc apart.
// A slice too short for its matrix panics, as indexing it would.
func matmul(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	if m <= 0 || n <= 0 || k <= 0 {
		return
	}
	// the kernel reads through pointers: these three checks stand for
	// every index it uses
	_ = a[(m-1)*lda+k-1]
	_ = b[(k-1)*ldb+n-1]
	_ = c[(m-1)*ldc+n-1]
	if !haveKernel {
		matmulGo(m, n, k, a, lda, b, ldb, c, ldc)
		return
	}
	m8, n8 := m&^7, n&^7
	for i := 0; i < m8; i += 8 {
		for j := 0; j < n8; j += 8 {
			kernel8x8(k, &a[i*lda], lda, &b[j], ldb, &c[i*ldc+j], ldc)
		}
	}
	if n8 < n && m8 > 0 {
		matmulCols(m8, n, n8, k, a, lda, b, ldb, c, ldc)
	}
	if m8 < m {
		matmulGo(m-m8, n, k, a[m8*lda:], lda, b, ldb, c[m8*ldc:], ldc)
	}
}

// matmulCols does columns j… of c (fewer than 8) for its first m8 rows (a
// multiple of 8) with the kernel: those columns of b are copied to an
// 8-wide panel padded with zeros, and c's to a tile, and back.
func matmulCols(m8, n, j, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	var panel [kChunk * 8]float32
	var tile [64]float32
	w := n - j
	for p0 := 0; p0 < k; p0 += kChunk {
		kc := min(kChunk, k-p0)
		for p := 0; p < kc; p++ {
			// columns w…7 of the panel are never written: they stay 0
			copy(panel[p*8:p*8+w], b[(p0+p)*ldb+j:(p0+p)*ldb+n])
		}
		for i := 0; i < m8; i += 8 {
			for r := 0; r < 8; r++ {
				copy(tile[r*8:r*8+w], c[(i+r)*ldc+j:(i+r)*ldc+n])
			}
			kernel8x8(kc, &a[i*lda+p0], lda, &panel[0], 8, &tile[0], 8)
			for r := 0; r < 8; r++ {
				copy(c[(i+r)*ldc+j:(i+r)*ldc+n], tile[r*8:r*8+w])
			}
		}
	}
}

// matmulGo is matmul in plain Go: each row of c gains rows of b scaled by
// a's weights, four at a time.
func matmulGo(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	for i := 0; i < m; i++ {
		o := c[i*ldc : i*ldc+n]
		wr := a[i*lda : i*lda+k]
		p := 0
		for ; p+4 <= k; p += 4 {
			axpy4(o, b[p*ldb:p*ldb+n], b[(p+1)*ldb:(p+1)*ldb+n], b[(p+2)*ldb:(p+2)*ldb+n], b[(p+3)*ldb:(p+3)*ldb+n],
				wr[p], wr[p+1], wr[p+2], wr[p+3])
		}
		for ; p < k; p++ {
			wp, row := wr[p], b[p*ldb:p*ldb+n]
			for q := range o {
				o[q] += wp * row[q]
			}
		}
	}
}

func axpy4(o, c0, c1, c2, c3 []float32, w0, w1, w2, w3 float32) {
	c0, c1, c2, c3 = c0[:len(o)], c1[:len(o)], c2[:len(o)], c3[:len(o)]
	for i := range o {
		o[i] += w0*c0[i] + w1*c1[i] + w2*c2[i] + w3*c3[i]
	}
}
