//go:build lapack

// The cgo directive links the libraries into every binary that uses this
// package, so no CGO_LDFLAGS are needed.

package nativelapack

/*
#cgo LDFLAGS: -llapacke -lopenblas
#include <lapacke.h>
*/
import "C"

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/netlib/blas/netlib"
	"gonum.org/v1/netlib/lapack/lapacke"
)

// Name names the implementation in reports.
const Name = "LAPACKE dgesdd (OpenBLAS)"

// SVD factorises the row-major m×n matrix a (row stride lda) as
// U·diag(s)·Vᵀ with U m×p and Vᵀ p×n row-major, p = min(m, n), by
// LAPACK's divide-and-conquer dgesdd (what numpy and scipy call), much
// faster than dgesvd when all vectors are wanted. a is overwritten.
//
// A row-major matrix is its transpose in column-major storage, and
// Aᵀ = V·Σ·Uᵀ; so dgesdd runs column-major on Aᵀ in place, its left
// vectors (n×p column-major) are Vᵀ row-major and its right ones (p×m
// column-major) are U row-major. LAPACKE then copies nothing, unlike its
// row-major interface (which transposes A, U and Vᵀ: 3p² more doubles,
// enough to push a V = 5,626 table over svd-scaling's budget).
func SVD(m, n int, a []float64, lda int) (s, u, vt []float64, err error) {
	p := min(m, n)
	if m == 0 || n == 0 {
		return nil, nil, nil, fmt.Errorf("LAPACKE dgesdd of an empty %d×%d matrix", m, n)
	}
	if lda < n || len(a) < (m-1)*lda+n {
		return nil, nil, nil, fmt.Errorf("LAPACKE dgesdd: a %d×%d matrix with row stride %d in %d values", m, n, lda, len(a))
	}
	u = make([]float64, m*p)
	vt = make([]float64, p*n)
	s = make([]float64, p)
	iwork := make([]C.lapack_int, 8*p)
	call := func(work []float64, lwork int) C.lapack_int {
		return C.LAPACKE_dgesdd_work(C.LAPACK_COL_MAJOR, 'S', C.lapack_int(n), C.lapack_int(m),
			(*C.double)(&a[0]), C.lapack_int(lda), (*C.double)(&s[0]),
			(*C.double)(&vt[0]), C.lapack_int(n), // Aᵀ's left vectors: Vᵀ
			(*C.double)(&u[0]), C.lapack_int(p), // Aᵀ's right vectors: U
			(*C.double)(&work[0]), C.lapack_int(lwork), &iwork[0])
	}
	query := []float64{0}
	if info := call(query, -1); info != 0 { // lwork = -1: the optimal size
		return nil, nil, nil, fmt.Errorf("LAPACKE dgesdd workspace query for a %d×%d matrix failed (info %d)", m, n, int(info))
	}
	work := make([]float64, int(query[0]))
	if info := call(work, len(work)); info != 0 {
		return nil, nil, nil, fmt.Errorf("LAPACKE dgesdd of a %d×%d matrix did not converge (info %d)", m, n, int(info))
	}
	return s, u, vt, nil
}

// ExtraBytes is dgesdd's memory beyond A, U, Vᵀ and s: the workspace for
// jobz = 'S' (at most 3p² + max(max(m,n), 4p² + 4p) doubles, p = min(m,n),
// LAPACK's documented bound) and 8p ints.
func ExtraBytes(m, n int) int64 {
	p := int64(min(m, n))
	mm, nn := int64(m), int64(n)
	work := 3*p*p + max(max(mm, nn), 4*p*p+4*p)
	return 8*work + 4*8*p
}

// SymEig overwrites the row-major n×n symmetric matrix a (its upper
// triangle is read) with its eigenvectors, column j for the j-th eigenvalue
// in ascending order, and returns the eigenvalues, by LAPACK's
// divide-and-conquer dsyevd (numpy's eigh). SymEigExtraBytes counts its
// memory beyond a.
func SymEig(n int, a []float64, lda int) ([]float64, error) {
	w := make([]float64, n)
	work := []float64{0}
	iwork := []int32{0}
	if !lapacke.Dsyevd('V', 'U', n, a, lda, w, work, -1, iwork, -1) {
		return nil, fmt.Errorf("LAPACKE dsyevd workspace query for a %d×%d matrix failed", n, n)
	}
	work = make([]float64, int(work[0]))
	iwork = make([]int32, int(iwork[0]))
	if !lapacke.Dsyevd('V', 'U', n, a, lda, w, work, len(work), iwork, len(iwork)) {
		return nil, fmt.Errorf("LAPACKE dsyevd of a %d×%d matrix did not converge", n, n)
	}
	return w, nil
}

// SymEigExtraBytes is dsyevd's memory beyond the matrix: the eigenvalues,
// LAPACKE's column-major copy of the matrix and the workspace
// (1 + 6n + 2n² doubles, 3 + 5n ints).
func SymEigExtraBytes(n int) int64 {
	nn := int64(n)
	return 8*(nn+nn*nn+1+6*nn+2*nn*nn) + 4*(3+5*nn)
}

// Gemm sets the row-major m×n matrix c to op(a)·b, with op(a) = aᵀ when
// transA (a is then k×m) and a (m×k) otherwise, and b k×n, by the system
// BLAS's dgemm (OpenBLAS, on all its threads).
func Gemm(transA bool, m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	t := blas.NoTrans
	if transA {
		t = blas.Trans
	}
	netlib.Implementation{}.Dgemm(t, blas.NoTrans, m, n, k, 1, a, lda, b, ldb, 0, c, ldc)
}
