#include "textflag.h"

// func dot8(n int, x, y *float32) float32
// Σ x[i]·y[i] over n (a multiple of 8) elements: four 8-lane FMA
// accumulators over 32-element blocks, then one over 8-element blocks,
// reduced in a fixed order so the bits depend on n alone.
TEXT ·dot8(SB), NOSPLIT, $0-28
	MOVQ   n+0(FP), CX
	MOVQ   x+8(FP), SI
	MOVQ   y+16(FP), DI
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

loop32:
	CMPQ        CX, $32
	JL          loop8
	VMOVUPS     (SI), Y4
	VMOVUPS     32(SI), Y5
	VMOVUPS     64(SI), Y6
	VMOVUPS     96(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $32, CX
	JMP         loop32

loop8:
	CMPQ        CX, $8
	JL          reduce
	VMOVUPS     (SI), Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $8, CX
	JMP         loop8

reduce:
	VADDPS       Y1, Y0, Y0
	VADDPS       Y3, Y2, Y2
	VADDPS       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0
	VZEROUPPER
	MOVSS        X0, ret+24(FP)
	RET

// func update8(n int, s float32, u, h, e *float32)
// In one pass over n (a multiple of 8) elements: e += s·u with the old u,
// then u += s·h — the two axpys of a negative-sampling step, fused so u is
// loaded once.
TEXT ·update8(SB), NOSPLIT, $0-40
	MOVQ         n+0(FP), CX
	VBROADCASTSS s+8(FP), Y0
	MOVQ         u+16(FP), SI
	MOVQ         h+24(FP), DI
	MOVQ         e+32(FP), DX

loop:
	CMPQ        CX, $8
	JL          done
	VMOVUPS     (SI), Y1
	VMOVUPS     (DX), Y2
	VFMADD231PS Y1, Y0, Y2
	VMOVUPS     Y2, (DX)
	VFMADD231PS (DI), Y0, Y1
	VMOVUPS     Y1, (SI)
	ADDQ        $32, SI
	ADDQ        $32, DI
	ADDQ        $32, DX
	SUBQ        $8, CX
	JMP         loop

done:
	VZEROUPPER
	RET

// func add8(n int, x, y *float32)
// y += x over n (a multiple of 8) elements, 32 at a time while it can:
// each element one float32 add, so the bits are those of any other order.
TEXT ·add8(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DI

add32:
	CMPQ    CX, $32
	JL      add8loop
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VADDPS  (DI), Y0, Y0
	VADDPS  32(DI), Y1, Y1
	VADDPS  64(DI), Y2, Y2
	VADDPS  96(DI), Y3, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ    $128, SI
	ADDQ    $128, DI
	SUBQ    $32, CX
	JMP     add32

add8loop:
	CMPQ    CX, $8
	JL      adddone
	VMOVUPS (SI), Y0
	VADDPS  (DI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JMP     add8loop

adddone:
	VZEROUPPER
	RET
