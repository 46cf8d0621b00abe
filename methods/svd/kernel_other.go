//go:build !amd64

package svd

import "math"

func microKernel(k int, a, b, c []float64, ldc int) { kern6x8Go(k, a, b, c, ldc) }

// dotFMA is Σ x[i]·y[i] in dot16Go's order (see there), len(y) ≥ len(x).
func dotFMA(x, y []float64) float64 {
	n := len(x)
	n16 := n &^ 15
	s := dot16Go(x[:n16], y[:n16])
	for i := n16; i < n; i++ {
		s = math.FMA(x[i], y[i], s)
	}
	return s
}

func microKernelTN(k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	kern6x8sGo(k, a, lda, b, ldb, c, ldc)
}

func microKernelNNSub(k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	kern6x8rGo(k, a, lda, b, ldb, c, ldc)
}
