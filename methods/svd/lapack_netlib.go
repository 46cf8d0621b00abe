//go:build lapack

package svd

// With -tags lapack the lapack backend exists: the dense SVD on the
// system's LAPACK (internal/nativelapack: gonum's netlib LAPACKE bindings
// on Debian's libopenblas-dev and liblapacke-dev), so that dense baselines
// are timed against an optimised LAPACK as numpy's are, in the same run as
// the pure-Go dense backend; the default build stays pure Go. The binding lives in its own package because a package that
// uses cgo cannot hold this one's Go assembly kernels.

import (
	"gonum.org/v1/gonum/mat"

	"kcalab/methods/svd/internal/nativelapack"
)

func init() {
	nativeSVD = &denseImpl{
		name: nativelapack.Name,
		svd: func(a *mat.Dense) (s []float64, u, vt *mat.Dense, err error) {
			m, n := a.Dims()
			am := a.RawMatrix()
			s, ud, vd, err := nativelapack.SVD(m, n, am.Data, am.Stride)
			if err != nil {
				return nil, nil, nil, err
			}
			p := min(m, n)
			return s, mat.NewDense(m, p, ud), mat.NewDense(p, n, vd), nil
		},
		extra: nativelapack.ExtraBytes,
	}
}

func init() {
	nativeProjected = &projectedImpl{
		name:     "LAPACKE dsyevd and dgemm (OpenBLAS)",
		symEig:   nativelapack.SymEig,
		eigExtra: nativelapack.SymEigExtraBytes,
		gemm:     nativelapack.Gemm,
	}
}
