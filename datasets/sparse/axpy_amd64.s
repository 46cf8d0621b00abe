#include "textflag.h"

// func axpy4(n int, d *float64, v *[4]float64, x0, x1, x2, x3 *float64)
//
// d[i] = (((d[i] + v0·x0[i]) + v1·x1[i]) + v2·x2[i]) + v3·x3[i] for i < n,
// every product and sum rounded separately: the same bits as four axpys in
// turn (axpy4Go).
TEXT ·axpy4(SB), NOSPLIT, $0-56
	MOVQ         n+0(FP), CX
	MOVQ         d+8(FP), DI
	MOVQ         v+16(FP), AX
	MOVQ         x0+24(FP), R8
	MOVQ         x1+32(FP), R9
	MOVQ         x2+40(FP), R10
	MOVQ         x3+48(FP), R11
	VBROADCASTSD (AX), Y0
	VBROADCASTSD 8(AX), Y1
	VBROADCASTSD 16(AX), Y2
	VBROADCASTSD 24(AX), Y3
	XORQ         SI, SI
	MOVQ         CX, BX
	ANDQ         $-8, BX

loop8:
	CMPQ    SI, BX
	JGE     loop4
	VMULPD  (R8)(SI*8), Y0, Y4
	VMULPD  32(R8)(SI*8), Y0, Y6
	VADDPD  (DI)(SI*8), Y4, Y4
	VADDPD  32(DI)(SI*8), Y6, Y6
	VMULPD  (R9)(SI*8), Y1, Y5
	VMULPD  32(R9)(SI*8), Y1, Y7
	VADDPD  Y5, Y4, Y4
	VADDPD  Y7, Y6, Y6
	VMULPD  (R10)(SI*8), Y2, Y5
	VMULPD  32(R10)(SI*8), Y2, Y7
	VADDPD  Y5, Y4, Y4
	VADDPD  Y7, Y6, Y6
	VMULPD  (R11)(SI*8), Y3, Y5
	VMULPD  32(R11)(SI*8), Y3, Y7
	VADDPD  Y5, Y4, Y4
	VADDPD  Y7, Y6, Y6
	VMOVUPD Y4, (DI)(SI*8)
	VMOVUPD Y6, 32(DI)(SI*8)
	ADDQ    $8, SI
	JMP     loop8

loop4:
	MOVQ    CX, BX
	ANDQ    $-4, BX
	CMPQ    SI, BX
	JGE     tail
	VMULPD  (R8)(SI*8), Y0, Y4
	VADDPD  (DI)(SI*8), Y4, Y4
	VMULPD  (R9)(SI*8), Y1, Y5
	VADDPD  Y5, Y4, Y4
	VMULPD  (R10)(SI*8), Y2, Y5
	VADDPD  Y5, Y4, Y4
	VMULPD  (R11)(SI*8), Y3, Y5
	VADDPD  Y5, Y4, Y4
	VMOVUPD Y4, (DI)(SI*8)
	ADDQ    $4, SI

tail:
	CMPQ   SI, CX
	JGE    done
	VMULSD (R8)(SI*8), X0, X4
	VADDSD (DI)(SI*8), X4, X4
	VMULSD (R9)(SI*8), X1, X5
	VADDSD X5, X4, X4
	VMULSD (R10)(SI*8), X2, X5
	VADDSD X5, X4, X4
	VMULSD (R11)(SI*8), X3, X5
	VADDSD X5, X4, X4
	VMOVSD X4, (DI)(SI*8)
	INCQ   SI
	JMP    tail

done:
	VZEROUPPER
	RET
