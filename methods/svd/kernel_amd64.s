#include "textflag.h"

// func kern6x8(k int, a, b, c *float64, ldc int)
//
// c[i*ldc+j] += Σ_p a[p*6+i]·b[p*8+j] for i < 6, j < 8: the sum is
// accumulated from zero with one fused multiply-add per p, in order, then
// added to c (kern6x8Go does the same, so both give the same bits).
TEXT ·kern6x8(SB), NOSPLIT, $0-40
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $3, R8
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14
	VXORPD Y15, Y15, Y15
	TESTQ CX, CX
	JE    store

loop:
	VMOVUPD      (DI), Y0
	VMOVUPD      32(DI), Y1
	VBROADCASTSD (SI), Y2
	VFMADD231PD  Y0, Y2, Y4
	VFMADD231PD  Y1, Y2, Y5
	VBROADCASTSD 8(SI), Y3
	VFMADD231PD  Y0, Y3, Y6
	VFMADD231PD  Y1, Y3, Y7
	VBROADCASTSD 16(SI), Y2
	VFMADD231PD  Y0, Y2, Y8
	VFMADD231PD  Y1, Y2, Y9
	VBROADCASTSD 24(SI), Y3
	VFMADD231PD  Y0, Y3, Y10
	VFMADD231PD  Y1, Y3, Y11
	VBROADCASTSD 32(SI), Y2
	VFMADD231PD  Y0, Y2, Y12
	VFMADD231PD  Y1, Y2, Y13
	VBROADCASTSD 40(SI), Y3
	VFMADD231PD  Y0, Y3, Y14
	VFMADD231PD  Y1, Y3, Y15
	ADDQ         $48, SI
	ADDQ         $64, DI
	DECQ         CX
	JNZ          loop

store:
	VADDPD  (DX), Y4, Y4
	VMOVUPD Y4, (DX)
	VADDPD  32(DX), Y5, Y5
	VMOVUPD Y5, 32(DX)
	ADDQ    R8, DX
	VADDPD  (DX), Y6, Y6
	VMOVUPD Y6, (DX)
	VADDPD  32(DX), Y7, Y7
	VMOVUPD Y7, 32(DX)
	ADDQ    R8, DX
	VADDPD  (DX), Y8, Y8
	VMOVUPD Y8, (DX)
	VADDPD  32(DX), Y9, Y9
	VMOVUPD Y9, 32(DX)
	ADDQ    R8, DX
	VADDPD  (DX), Y10, Y10
	VMOVUPD Y10, (DX)
	VADDPD  32(DX), Y11, Y11
	VMOVUPD Y11, 32(DX)
	ADDQ    R8, DX
	VADDPD  (DX), Y12, Y12
	VMOVUPD Y12, (DX)
	VADDPD  32(DX), Y13, Y13
	VMOVUPD Y13, 32(DX)
	ADDQ    R8, DX
	VADDPD  (DX), Y14, Y14
	VMOVUPD Y14, (DX)
	VADDPD  32(DX), Y15, Y15
	VMOVUPD Y15, 32(DX)
	VZEROUPPER
	RET

// func dot16(n int, x, y *float64) float64
//
// Σ x[i]·y[i] for i < n − n%16 in sixteen partial sums, s_l over i ≡ l
// (mod 16) in increasing i by fused multiply-adds from zero, combined as
// ((s_l + s_{l+4}) + (s_{l+8} + s_{l+12})) for l < 4 and then
// (t_0 + t_2) + (t_1 + t_3); the caller adds the rest (dotGo does all of
// it the same way, so both give the same bits).
TEXT ·dot16(SB), NOSPLIT, $0-32
	MOVQ   n+0(FP), CX
	MOVQ   x+8(FP), SI
	MOVQ   y+16(FP), DI
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	SHRQ   $4, CX
	JE     sum

dloop:
	VMOVUPD     (SI), Y4
	VMOVUPD     32(SI), Y5
	VMOVUPD     64(SI), Y6
	VMOVUPD     96(SI), Y7
	VFMADD231PD (DI), Y4, Y0
	VFMADD231PD 32(DI), Y5, Y1
	VFMADD231PD 64(DI), Y6, Y2
	VFMADD231PD 96(DI), Y7, Y3
	ADDQ        $128, SI
	ADDQ        $128, DI
	DECQ        CX
	JNZ         dloop

sum:
	VADDPD       Y1, Y0, Y0
	VADDPD       Y3, Y2, Y2
	VADDPD       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VPERMILPD    $1, X0, X1
	VADDSD       X1, X0, X0
	VMOVSD       X0, ret+24(FP)
	VZEROUPPER
	RET

// func kern6x8s(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int)
//
// kern6x8 on unpacked operands: a[p*lda+i] (i < 6) and b[p*ldb+j]
// (j < 8), so that Bᵀ·W products read the basis and the block where they
// lie; the same sums in the same order, so the same bits.
TEXT ·kern6x8s(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R9
	MOVQ b+24(FP), DI
	MOVQ ldb+32(FP), R10
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R8
	SHLQ $3, R8
	SHLQ $3, R9
	SHLQ $3, R10
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14
	VXORPD Y15, Y15, Y15
	TESTQ CX, CX
	JE    sstore

sloop:
	VMOVUPD      (DI), Y0
	VMOVUPD      32(DI), Y1
	VBROADCASTSD (SI), Y2
	VFMADD231PD  Y0, Y2, Y4
	VFMADD231PD  Y1, Y2, Y5
	VBROADCASTSD 8(SI), Y3
	VFMADD231PD  Y0, Y3, Y6
	VFMADD231PD  Y1, Y3, Y7
	VBROADCASTSD 16(SI), Y2
	VFMADD231PD  Y0, Y2, Y8
	VFMADD231PD  Y1, Y2, Y9
	VBROADCASTSD 24(SI), Y3
	VFMADD231PD  Y0, Y3, Y10
	VFMADD231PD  Y1, Y3, Y11
	VBROADCASTSD 32(SI), Y2
	VFMADD231PD  Y0, Y2, Y12
	VFMADD231PD  Y1, Y2, Y13
	VBROADCASTSD 40(SI), Y3
	VFMADD231PD  Y0, Y3, Y14
	VFMADD231PD  Y1, Y3, Y15
	ADDQ         R9, SI
	ADDQ         R10, DI
	DECQ         CX
	JNZ          sloop

sstore:
	VADDPD  (DX), Y4, Y4
	VMOVUPD Y4, (DX)
	VADDPD  32(DX), Y5, Y5
	VMOVUPD Y5, 32(DX)
	ADDQ    R8, DX
	VADDPD  (DX), Y6, Y6
	VMOVUPD Y6, (DX)
	VADDPD  32(DX), Y7, Y7
	VMOVUPD Y7, 32(DX)
	ADDQ    R8, DX
	VADDPD  (DX), Y8, Y8
	VMOVUPD Y8, (DX)
	VADDPD  32(DX), Y9, Y9
	VMOVUPD Y9, 32(DX)
	ADDQ    R8, DX
	VADDPD  (DX), Y10, Y10
	VMOVUPD Y10, (DX)
	VADDPD  32(DX), Y11, Y11
	VMOVUPD Y11, 32(DX)
	ADDQ    R8, DX
	VADDPD  (DX), Y12, Y12
	VMOVUPD Y12, (DX)
	VADDPD  32(DX), Y13, Y13
	VMOVUPD Y13, 32(DX)
	ADDQ    R8, DX
	VADDPD  (DX), Y14, Y14
	VMOVUPD Y14, (DX)
	VADDPD  32(DX), Y15, Y15
	VMOVUPD Y15, 32(DX)
	VZEROUPPER
	RET

// func kern6x8r(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int)
//
// c[i*ldc+j] −= Σ_p a[i*lda+p]·b[p*ldb+j] for i < 6, j < 8: kern6x8 with
// A read by rows where it lies (six rows, each contiguous in p) and the
// sum, accumulated from zero by fused multiply-adds in order, subtracted
// from c: the bits of kern6x8 on −A packed.
TEXT ·kern6x8r(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R9
	MOVQ b+24(FP), DI
	MOVQ ldb+32(FP), R10
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R8
	SHLQ $3, R8
	SHLQ $3, R9
	SHLQ $3, R10
	LEAQ (SI)(R9*2), R11
	ADDQ R9, R11          // R11 = a + 3 rows
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14
	VXORPD Y15, Y15, Y15
	TESTQ CX, CX
	JE    rstore

rloop:
	VMOVUPD      (DI), Y0
	VMOVUPD      32(DI), Y1
	VBROADCASTSD (SI), Y2
	VFMADD231PD  Y0, Y2, Y4
	VFMADD231PD  Y1, Y2, Y5
	VBROADCASTSD (SI)(R9*1), Y3
	VFMADD231PD  Y0, Y3, Y6
	VFMADD231PD  Y1, Y3, Y7
	VBROADCASTSD (SI)(R9*2), Y2
	VFMADD231PD  Y0, Y2, Y8
	VFMADD231PD  Y1, Y2, Y9
	VBROADCASTSD (R11), Y3
	VFMADD231PD  Y0, Y3, Y10
	VFMADD231PD  Y1, Y3, Y11
	VBROADCASTSD (R11)(R9*1), Y2
	VFMADD231PD  Y0, Y2, Y12
	VFMADD231PD  Y1, Y2, Y13
	VBROADCASTSD (R11)(R9*2), Y3
	VFMADD231PD  Y0, Y3, Y14
	VFMADD231PD  Y1, Y3, Y15
	ADDQ         $8, SI
	ADDQ         $8, R11
	ADDQ         R10, DI
	DECQ         CX
	JNZ          rloop

rstore:
	VMOVUPD (DX), Y0
	VSUBPD  Y4, Y0, Y0
	VMOVUPD Y0, (DX)
	VMOVUPD 32(DX), Y1
	VSUBPD  Y5, Y1, Y1
	VMOVUPD Y1, 32(DX)
	ADDQ    R8, DX
	VMOVUPD (DX), Y0
	VSUBPD  Y6, Y0, Y0
	VMOVUPD Y0, (DX)
	VMOVUPD 32(DX), Y1
	VSUBPD  Y7, Y1, Y1
	VMOVUPD Y1, 32(DX)
	ADDQ    R8, DX
	VMOVUPD (DX), Y0
	VSUBPD  Y8, Y0, Y0
	VMOVUPD Y0, (DX)
	VMOVUPD 32(DX), Y1
	VSUBPD  Y9, Y1, Y1
	VMOVUPD Y1, 32(DX)
	ADDQ    R8, DX
	VMOVUPD (DX), Y0
	VSUBPD  Y10, Y0, Y0
	VMOVUPD Y0, (DX)
	VMOVUPD 32(DX), Y1
	VSUBPD  Y11, Y1, Y1
	VMOVUPD Y1, 32(DX)
	ADDQ    R8, DX
	VMOVUPD (DX), Y0
	VSUBPD  Y12, Y0, Y0
	VMOVUPD Y0, (DX)
	VMOVUPD 32(DX), Y1
	VSUBPD  Y13, Y1, Y1
	VMOVUPD Y1, 32(DX)
	ADDQ    R8, DX
	VMOVUPD (DX), Y0
	VSUBPD  Y14, Y0, Y0
	VMOVUPD Y0, (DX)
	VMOVUPD 32(DX), Y1
	VSUBPD  Y15, Y1, Y1
	VMOVUPD Y1, 32(DX)
	VZEROUPPER
	RET
