package sparse

import "golang.org/x/sys/cpu"

//go:noescape
func axpy4(n int, d *float64, v *[4]float64, x0, x1, x2, x3 *float64)

// hasAVX reports AVX with the OS saving the YMM registers: what axpy4 needs.
var hasAVX = cpu.X86.HasAVX

// addScaled4 sets d += v[0]·x0 + … + v[3]·x3 term by term, rounding like
// four axpys in turn. All slices have len(d) elements.
func addScaled4(d []float64, v *[4]float64, x0, x1, x2, x3 []float64) {
	if hasAVX && len(d) > 0 {
		n := len(d)
		_, _, _, _ = x0[n-1], x1[n-1], x2[n-1], x3[n-1]
		axpy4(n, &d[0], v, &x0[0], &x1[0], &x2[0], &x3[0])
		return
	}
	addScaled4Go(d, v, x0, x1, x2, x3)
}
