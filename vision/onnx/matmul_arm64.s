//go:build !purego

#include "textflag.h"

// func kernel8x8(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int)
//
// V0…V15 hold the 8 rows of c's block, two registers of 4 a row; each
// step p loads row p of b (V16, V17) and adds it times a[r][p],
// replicated, to row r. R7…R14 walk a's 8 rows.
TEXT ·kernel8x8(SB), NOSPLIT, $0-56
	MOVD k+0(FP), R0
	MOVD a+8(FP), R7
	MOVD lda+16(FP), R2
	MOVD b+24(FP), R3
	MOVD ldb+32(FP), R4
	MOVD c+40(FP), R5
	MOVD ldc+48(FP), R6
	LSL  $2, R2
	LSL  $2, R4
	LSL  $2, R6
	ADD  R2, R7, R8
	ADD  R2, R8, R9
	ADD  R2, R9, R10
	ADD  R2, R10, R11
	ADD  R2, R11, R12
	ADD  R2, R12, R13
	ADD  R2, R13, R14

	MOVD R5, R15
	VLD1 (R15), [V0.S4, V1.S4]
	ADD  R6, R15
	VLD1 (R15), [V2.S4, V3.S4]
	ADD  R6, R15
	VLD1 (R15), [V4.S4, V5.S4]
	ADD  R6, R15
	VLD1 (R15), [V6.S4, V7.S4]
	ADD  R6, R15
	VLD1 (R15), [V8.S4, V9.S4]
	ADD  R6, R15
	VLD1 (R15), [V10.S4, V11.S4]
	ADD  R6, R15
	VLD1 (R15), [V12.S4, V13.S4]
	ADD  R6, R15
	VLD1 (R15), [V14.S4, V15.S4]
	CMP  $0, R0
	BLE  done

loop:
	VLD1    (R3), [V16.S4, V17.S4]
	ADD     R4, R3
	VLD1R.P 4(R7), [V18.S4]
	VLD1R.P 4(R8), [V19.S4]
	VLD1R.P 4(R9), [V20.S4]
	VLD1R.P 4(R10), [V21.S4]
	VFMLA   V16.S4, V18.S4, V0.S4
	VFMLA   V17.S4, V18.S4, V1.S4
	VFMLA   V16.S4, V19.S4, V2.S4
	VFMLA   V17.S4, V19.S4, V3.S4
	VFMLA   V16.S4, V20.S4, V4.S4
	VFMLA   V17.S4, V20.S4, V5.S4
	VFMLA   V16.S4, V21.S4, V6.S4
	VFMLA   V17.S4, V21.S4, V7.S4
	VLD1R.P 4(R11), [V22.S4]
	VLD1R.P 4(R12), [V23.S4]
	VLD1R.P 4(R13), [V24.S4]
	VLD1R.P 4(R14), [V25.S4]
	VFMLA   V16.S4, V22.S4, V8.S4
	VFMLA   V17.S4, V22.S4, V9.S4
	VFMLA   V16.S4, V23.S4, V10.S4
	VFMLA   V17.S4, V23.S4, V11.S4
	VFMLA   V16.S4, V24.S4, V12.S4
	VFMLA   V17.S4, V24.S4, V13.S4
	VFMLA   V16.S4, V25.S4, V14.S4
	VFMLA   V17.S4, V25.S4, V15.S4
	SUB     $1, R0
	CBNZ    R0, loop

done:
	MOVD R5, R15
	VST1 [V0.S4, V1.S4], (R15)
	ADD  R6, R15
	VST1 [V2.S4, V3.S4], (R15)
	ADD  R6, R15
	VST1 [V4.S4, V5.S4], (R15)
	ADD  R6, R15
	VST1 [V6.S4, V7.S4], (R15)
	ADD  R6, R15
	VST1 [V8.S4, V9.S4], (R15)
	ADD  R6, R15
	VST1 [V10.S4, V11.S4], (R15)
	ADD  R6, R15
	VST1 [V12.S4, V13.S4], (R15)
	ADD  R6, R15
	VST1 [V14.S4, V15.S4], (R15)
	RET
