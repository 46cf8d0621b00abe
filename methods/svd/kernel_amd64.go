package svd

import "golang.org/x/sys/cpu"

//go:noescape
func kern6x8(k int, a, b, c *float64, ldc int)

// hasFMA3 reports AVX2 and FMA with the OS saving the YMM registers: what
// kern6x8 needs.
var hasFMA3 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// microKernel runs the 6×8 kernel on packed slivers a (k×6) and b (k×8).
func microKernel(k int, a, b, c []float64, ldc int) {
	if hasFMA3 && k > 0 {
		_ = a[6*k-1]
		_ = b[8*k-1]
		_ = c[5*ldc+7]
		kern6x8(k, &a[0], &b[0], &c[0], ldc)
		return
	}
	kern6x8Go(k, a, b, c, ldc)
}
