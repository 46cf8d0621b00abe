#include "textflag.h"

// func rowMul(k int, d *float64, n int, idx *int32, v *float64, t *float64, tstride int, x *float64, ldx int)
//
// d[c] = Σ_p (v[p]·t[idx[p]·tstride])·x[idx[p]·ldx + c] for c < k, the sum
// over p = 0..n−1 taken in order from zero with every product and sum
// rounded separately (VMULPD then VADDPD, never fused): the same bits as
// n axpys in turn with the scaled weights (mulRowGo). tstride is 1 for a
// column scaling t, 0 with t pointing at a 1 for none. The output columns
// are done 32, 16, 8, 4, then 1 at a time, each group's partial sums held
// in registers for the whole row, so d is written once; the x row of the
// stored value 16 ahead is prefetched.
TEXT ·rowMul(SB), NOSPLIT, $0-72
	MOVQ k+0(FP), CX
	MOVQ d+8(FP), DI
	MOVQ n+16(FP), DX
	MOVQ idx+24(FP), SI
	MOVQ v+32(FP), R8
	MOVQ t+40(FP), R11
	MOVQ tstride+48(FP), R14
	MOVQ x+56(FP), R9
	MOVQ ldx+64(FP), R10
	SHLQ $3, R10
	SHLQ $3, R14
	MOVQ DX, R13
	SUBQ $16, R13

g32:
	CMPQ   CX, $32
	JLT    g16
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORQ   R12, R12

l32:
	CMPQ         R12, R13
	JGE          l32t
	MOVLQSX      64(SI)(R12*4), BX
	IMULQ        R10, BX
	ADDQ         R9, BX
	PREFETCHT0   (BX)
	PREFETCHT0   64(BX)
	JMP          l32b

l32t:
	CMPQ         R12, DX
	JGE          s32

l32b:
	MOVLQSX      (SI)(R12*4), AX
	MOVQ         AX, BX
	IMULQ        R14, BX
	VMOVSD       (R8)(R12*8), X14
	VMULSD       (R11)(BX*1), X14, X14
	VMOVDDUP     X14, X14
	VINSERTF128  $1, X14, Y14, Y15
	IMULQ        R10, AX
	ADDQ         R9, AX
	VMULPD       (AX), Y15, Y8
	VADDPD       Y8, Y0, Y0
	VMULPD       32(AX), Y15, Y9
	VADDPD       Y9, Y1, Y1
	VMULPD       64(AX), Y15, Y10
	VADDPD       Y10, Y2, Y2
	VMULPD       96(AX), Y15, Y11
	VADDPD       Y11, Y3, Y3
	VMULPD       128(AX), Y15, Y12
	VADDPD       Y12, Y4, Y4
	VMULPD       160(AX), Y15, Y13
	VADDPD       Y13, Y5, Y5
	VMULPD       192(AX), Y15, Y14
	VADDPD       Y14, Y6, Y6
	VMULPD       224(AX), Y15, Y8
	VADDPD       Y8, Y7, Y7
	INCQ         R12
	JMP          l32

s32:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	ADDQ    $256, DI
	ADDQ    $256, R9
	SUBQ    $32, CX
	JMP     g32

g16:
	CMPQ   CX, $16
	JLT    g8
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORQ   R12, R12

l16:
	CMPQ         R12, R13
	JGE          l16t
	MOVLQSX      64(SI)(R12*4), BX
	IMULQ        R10, BX
	ADDQ         R9, BX
	PREFETCHT0   (BX)
	PREFETCHT0   64(BX)
	JMP          l16b

l16t:
	CMPQ         R12, DX
	JGE          s16

l16b:
	MOVLQSX      (SI)(R12*4), AX
	MOVQ         AX, BX
	IMULQ        R14, BX
	VMOVSD       (R8)(R12*8), X14
	VMULSD       (R11)(BX*1), X14, X14
	VMOVDDUP     X14, X14
	VINSERTF128  $1, X14, Y14, Y15
	IMULQ        R10, AX
	ADDQ         R9, AX
	VMULPD       (AX), Y15, Y8
	VADDPD       Y8, Y0, Y0
	VMULPD       32(AX), Y15, Y9
	VADDPD       Y9, Y1, Y1
	VMULPD       64(AX), Y15, Y10
	VADDPD       Y10, Y2, Y2
	VMULPD       96(AX), Y15, Y11
	VADDPD       Y11, Y3, Y3
	INCQ         R12
	JMP          l16

s16:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	ADDQ    $128, DI
	ADDQ    $128, R9
	SUBQ    $16, CX

g8:
	CMPQ   CX, $8
	JLT    g4
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	XORQ   R12, R12

l8:
	CMPQ         R12, DX
	JGE          s8
	MOVLQSX      (SI)(R12*4), AX
	MOVQ         AX, BX
	IMULQ        R14, BX
	VMOVSD       (R8)(R12*8), X14
	VMULSD       (R11)(BX*1), X14, X14
	VMOVDDUP     X14, X14
	VINSERTF128  $1, X14, Y14, Y15
	IMULQ        R10, AX
	ADDQ         R9, AX
	VMULPD       (AX), Y15, Y8
	VADDPD       Y8, Y0, Y0
	VMULPD       32(AX), Y15, Y9
	VADDPD       Y9, Y1, Y1
	INCQ         R12
	JMP          l8

s8:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	ADDQ    $64, DI
	ADDQ    $64, R9
	SUBQ    $8, CX

g4:
	CMPQ   CX, $4
	JLT    g1
	VXORPD Y0, Y0, Y0
	XORQ   R12, R12

l4:
	CMPQ         R12, DX
	JGE          s4
	MOVLQSX      (SI)(R12*4), AX
	MOVQ         AX, BX
	IMULQ        R14, BX
	VMOVSD       (R8)(R12*8), X14
	VMULSD       (R11)(BX*1), X14, X14
	VMOVDDUP     X14, X14
	VINSERTF128  $1, X14, Y14, Y15
	IMULQ        R10, AX
	ADDQ         R9, AX
	VMULPD       (AX), Y15, Y8
	VADDPD       Y8, Y0, Y0
	INCQ         R12
	JMP          l4

s4:
	VMOVUPD Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, R9
	SUBQ    $4, CX

g1:
	CMPQ   CX, $1
	JLT    done
	VXORPD X0, X0, X0
	XORQ   R12, R12

l1:
	CMPQ    R12, DX
	JGE     s1
	MOVLQSX (SI)(R12*4), AX
	MOVQ    AX, BX
	IMULQ   R14, BX
	VMOVSD  (R8)(R12*8), X15
	VMULSD  (R11)(BX*1), X15, X15
	IMULQ   R10, AX
	ADDQ    R9, AX
	VMULSD  (AX), X15, X8
	VADDSD  X8, X0, X0
	INCQ    R12
	JMP     l1

s1:
	VMOVSD X0, (DI)
	ADDQ   $8, DI
	ADDQ   $8, R9
	DECQ   CX
	JMP    g1

done:
	VZEROUPPER
	RET
