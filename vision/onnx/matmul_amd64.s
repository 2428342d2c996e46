//go:build !purego

#include "textflag.h"

// func kernel8x8(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int)
//
// Y0…Y7 hold the 8 rows of c's block; each step p loads row p of b (Y8)
// and adds it times a[r][p], broadcast, to row r.
TEXT ·kernel8x8(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R8
	MOVQ b+24(FP), DI
	MOVQ ldb+32(FP), R9
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R10
	SHLQ $2, R8
	SHLQ $2, R9
	SHLQ $2, R10
	LEAQ (R8)(R8*2), R12  // 3 rows of a, in bytes
	LEAQ (SI)(R8*4), R11  // a's row 4
	LEAQ (R10)(R10*2), R13 // 3 rows of c
	LEAQ (DX)(R10*4), BX  // c's row 4
	VMOVUPS (DX), Y0
	VMOVUPS (DX)(R10*1), Y1
	VMOVUPS (DX)(R10*2), Y2
	VMOVUPS (DX)(R13*1), Y3
	VMOVUPS (BX), Y4
	VMOVUPS (BX)(R10*1), Y5
	VMOVUPS (BX)(R10*2), Y6
	VMOVUPS (BX)(R13*1), Y7
	TESTQ CX, CX
	JLE   done

loop:
	VMOVUPS      (DI), Y8
	VBROADCASTSS (SI), Y9
	VFMADD231PS  Y8, Y9, Y0
	VBROADCASTSS (SI)(R8*1), Y10
	VFMADD231PS  Y8, Y10, Y1
	VBROADCASTSS (SI)(R8*2), Y11
	VFMADD231PS  Y8, Y11, Y2
	VBROADCASTSS (SI)(R12*1), Y12
	VFMADD231PS  Y8, Y12, Y3
	VBROADCASTSS (R11), Y9
	VFMADD231PS  Y8, Y9, Y4
	VBROADCASTSS (R11)(R8*1), Y10
	VFMADD231PS  Y8, Y10, Y5
	VBROADCASTSS (R11)(R8*2), Y11
	VFMADD231PS  Y8, Y11, Y6
	VBROADCASTSS (R11)(R12*1), Y12
	VFMADD231PS  Y8, Y12, Y7
	ADDQ         $4, SI
	ADDQ         $4, R11
	ADDQ         R9, DI
	DECQ         CX
	JNZ          loop

done:
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, (DX)(R10*1)
	VMOVUPS Y2, (DX)(R10*2)
	VMOVUPS Y3, (DX)(R13*1)
	VMOVUPS Y4, (BX)
	VMOVUPS Y5, (BX)(R10*1)
	VMOVUPS Y6, (BX)(R10*2)
	VMOVUPS Y7, (BX)(R13*1)
	VZEROUPPER
	RET
