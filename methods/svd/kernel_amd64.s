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

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET
