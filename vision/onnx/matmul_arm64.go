//go:build !purego

package onnx

// haveKernel is whether kernel8x8 can run here (NEON is part of every
// arm64 core); a variable so that the tests can compare the kernel with
// plain Go.
var haveKernel = true

// kernel8x8 adds a·b to c for an 8×8 block of c: a is 8×k (rows lda
// apart), b is k×8 (rows ldb apart), c's rows are ldc apart; strides in
// elements.
//
//go:noescape
func kernel8x8(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int)
