package svd

import (
	"math"

	"golang.org/x/sys/cpu"
)

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

//go:noescape
func dot16(n int, x, y *float64) float64

// dotFMA is Σ x[i]·y[i] in dot16Go's order (see there), len(y) ≥ len(x).
func dotFMA(x, y []float64) float64 {
	n := len(x)
	n16 := n &^ 15
	var s float64
	if hasFMA3 && n16 > 0 {
		_ = y[n-1]
		s = dot16(n16, &x[0], &y[0])
	} else {
		s = dot16Go(x[:n16], y[:n16])
	}
	for i := n16; i < n; i++ {
		s = math.FMA(x[i], y[i], s)
	}
	return s
}

//go:noescape
func kern6x8s(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int)

//go:noescape
func kern6x8r(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int)

// microKernelTN is microKernel on unpacked a (a[p*lda+i]) and b
// (b[p*ldb+j]), adding to c.
func microKernelTN(k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	if hasFMA3 && k > 0 {
		_ = a[(k-1)*lda+5]
		_ = b[(k-1)*ldb+7]
		_ = c[5*ldc+7]
		kern6x8s(k, &a[0], lda, &b[0], ldb, &c[0], ldc)
		return
	}
	kern6x8sGo(k, a, lda, b, ldb, c, ldc)
}

// microKernelNNSub is microKernel on a read by rows (a[i*lda+p]) and
// unpacked b (b[p*ldb+j]), subtracting from c.
func microKernelNNSub(k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	if hasFMA3 && k > 0 {
		_ = a[5*lda+k-1]
		_ = b[(k-1)*ldb+7]
		_ = c[5*ldc+7]
		kern6x8r(k, &a[0], lda, &b[0], ldb, &c[0], ldc)
		return
	}
	kern6x8rGo(k, a, lda, b, ldb, c, ldc)
}
