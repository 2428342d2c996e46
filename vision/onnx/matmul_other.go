//go:build (!amd64 && !arm64) || purego

package onnx

// haveKernel is false: there is no assembly kernel for this architecture
// (or the purego tag asked for none), and matmul runs in plain Go.
var haveKernel = false

func kernel8x8(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int) {
	panic("onnx: no matmul kernel on this architecture")
}
