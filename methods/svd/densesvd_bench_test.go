package svd

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkDenseSVD times the dense backend's full thin SVD (all singular
// vectors) of a Gaussian V×V matrix: gonum's pure-Go Dgesvd in the default
// build, LAPACKE dgesdd on OpenBLAS with -tags lapack. Run one size at a
// time with -benchtime=1x; V = 5000 takes minutes in pure Go.
func BenchmarkDenseSVD(b *testing.B) {
	for _, v := range []int{1000, 3000, 5000} {
		b.Run(fmt.Sprintf("V=%d", v), func(b *testing.B) {
			a := gaussian(1, v, v)
			b.Logf("%s", DenseImplementation())
			for b.Loop() {
				b.StopTimer()
				c := mat.DenseCopyOf(a)
				b.StartTimer()
				if _, _, _, err := denseSVD.svd(c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
