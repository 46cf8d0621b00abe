package svd

import (
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkDenseSVD times the full thin SVD (all singular vectors) of a
// Gaussian V×V matrix by gonum's pure-Go Dgesvd (the dense backend) and,
// with -tags lapack, by LAPACKE dgesdd on OpenBLAS (the lapack backend).
// Run one size at a time with -benchtime=1x; V = 5000 takes minutes in
// pure Go.
func BenchmarkDenseSVD(b *testing.B) {
	impls := []denseImpl{denseSVD}
	if nativeSVD != nil {
		impls = append(impls, *nativeSVD)
	}
	for _, impl := range impls {
		for _, v := range []int{1000, 3000, 5000} {
			b.Run(fmt.Sprintf("%s/V=%d", strings.Fields(impl.name)[0], v), func(b *testing.B) {
				a := gaussian(1, v, v)
				b.Logf("%s", impl.name)
				for b.Loop() {
					b.StopTimer()
					c := mat.DenseCopyOf(a)
					b.StartTimer()
					if _, _, _, err := impl.svd(c); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
