package svd

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// DenseOperator is an Operator (and Materializer) for a matrix held densely.
// The randomized backend runs the shared algorithm on it.
type DenseOperator struct {
	A *mat.Dense
}

// Dims returns the shape of A.
func (o DenseOperator) Dims() (r, c int) { return o.A.Dims() }

// MulTo sets dst = A·x.
func (o DenseOperator) MulTo(dst, x *mat.Dense) { dst.Mul(o.A, x) }

// MulTTo sets dst = Aᵀ·x (no transposed copy of A is made).
func (o DenseOperator) MulTTo(dst, x *mat.Dense) { dst.Mul(o.A.T(), x) }

// Materialize returns a copy of A, which the caller may overwrite.
func (o DenseOperator) Materialize() *mat.Dense { return mat.DenseCopyOf(o.A) }

// thinSVD factorises the m×n matrix a = U·diag(s)·Vᵀ with p = min(m,n):
// U is m×p and vt (Vᵀ) is p×n. It overwrites a: LAPACK's Gesvd on a's own
// storage avoids the extra copy mat.SVD makes.
func thinSVD(a *mat.Dense) (s []float64, u, vt *mat.Dense, err error) {
	m, n := a.Dims()
	p := min(m, n)
	am := a.RawMatrix()
	ug := blas64.General{Rows: m, Cols: p, Stride: p, Data: make([]float64, m*p)}
	vg := blas64.General{Rows: p, Cols: n, Stride: n, Data: make([]float64, p*n)}
	s = make([]float64, p)
	work := []float64{0}
	lapack64.Gesvd(lapack.SVDStore, lapack.SVDStore, am, ug, vg, s, work, -1)
	work = make([]float64, int(work[0]))
	if !lapack64.Gesvd(lapack.SVDStore, lapack.SVDStore, am, ug, vg, s, work, len(work)) {
		return nil, nil, nil, fmt.Errorf("LAPACK SVD of a %d×%d matrix did not converge", m, n)
	}
	return s, mat.NewDense(m, p, ug.Data), mat.NewDense(p, n, vg.Data), nil
}

// keepColumns returns the first k columns of a, moved in place into a
// compact k-column layout: no new r×k allocation (the result keeps a's
// backing array). a must not be used afterwards.
func keepColumns(a *mat.Dense, k int) *mat.Dense {
	g := a.RawMatrix()
	if g.Stride == k {
		return a
	}
	// Row i moves from i·stride to i·k ≤ i·stride; going in increasing i
	// never overwrites a row not yet moved.
	for i := 0; i < g.Rows; i++ {
		copy(g.Data[i*k:i*k+k], g.Data[i*g.Stride:i*g.Stride+k])
	}
	return mat.NewDense(g.Rows, k, g.Data[:g.Rows*k])
}

// firstRowsT returns the transpose of the first k rows of a (p×n): n×k.
func firstRowsT(a *mat.Dense, k int) *mat.Dense {
	_, n := a.Dims()
	out := mat.NewDense(n, k, nil)
	out.Copy(a.Slice(0, k, 0, n).T())
	return out
}

// mulRowsInPlace sets the first k columns of each row y_i (y is r×l) to
// y_i·bᵀ for b k×l and returns them as a compact r×k matrix sharing y's
// storage. Rows go through a scratch block of rowBlock×l, so the product
// still runs on gonum's (parallel, deterministic) Dgemm.
func mulRowsInPlace(y, b *mat.Dense, k int) *mat.Dense {
	const rowBlock = 512
	r, l := y.Dims()
	bt := b.Slice(0, k, 0, l).T()
	tmp := mat.NewDense(min(rowBlock, r), l, nil)
	for lo := 0; lo < r; lo += rowBlock {
		hi := min(lo+rowBlock, r)
		in := tmp.Slice(0, hi-lo, 0, l).(*mat.Dense)
		in.Copy(y.Slice(lo, hi, 0, l))
		y.Slice(lo, hi, 0, k).(*mat.Dense).Mul(in, bt)
	}
	return keepColumns(y, k)
}

// orthonormalize replaces the columns of y (m×l, m ≥ l) by an orthonormal
// basis of their span: the Q of a thin QR factorisation.
func orthonormalize(y *mat.Dense) {
	g := y.RawMatrix()
	l := g.Cols
	tau := make([]float64, l)
	work := []float64{0}
	lapack64.Geqrf(g, tau, work, -1)
	n := int(work[0])
	lapack64.Orgqr(g, tau, work, -1)
	n = max(n, int(work[0]), l)
	work = make([]float64, n)
	lapack64.Geqrf(g, tau, work, n)
	lapack64.Orgqr(g, tau, work, n)
}

// luNormalize replaces y (m×l, m ≥ l) by P·L of its LU factorisation
// y = P·L·U with partial pivoting: the normaliser scikit-learn applies
// between power iterations (scipy's lu(permute_l=True)). It spans the same
// space as y, is well scaled, and is cheaper than a QR.
func luNormalize(y *mat.Dense) {
	g := y.RawMatrix()
	l := g.Cols
	ipiv := make([]int, l)
	// A singular factor is still a valid (rank-deficient) basis for the
	// sketch, so the "nonsingular" result is not an error here.
	lapack64.Getrf(g, ipiv)
	// Keep the unit lower trapezoid L.
	for i := 0; i < min(g.Rows, l); i++ {
		row := g.Data[i*g.Stride : i*g.Stride+l]
		clear(row[i+1:])
		row[i] = 1
	}
	// P·L: undo the row interchanges, last one first.
	for i := l - 1; i >= 0; i-- {
		if p := ipiv[i]; p != i {
			a := g.Data[i*g.Stride : i*g.Stride+l]
			b := g.Data[p*g.Stride : p*g.Stride+l]
			for j := range a {
				a[j], b[j] = b[j], a[j]
			}
		}
	}
}

// fixSigns makes each singular pair's sign deterministic: the component of
// largest magnitude in each column of U (the first such, on ties) is made
// positive, flipping the matching column of V with it.
func fixSigns(u, v *mat.Dense) {
	ur, k := u.Dims()
	vr, _ := v.Dims()
	for j := 0; j < k; j++ {
		best, bestAbs := 0, -1.0
		for i := 0; i < ur; i++ {
			if a := math.Abs(u.At(i, j)); a > bestAbs {
				best, bestAbs = i, a
			}
		}
		if u.At(best, j) < 0 {
			for i := 0; i < ur; i++ {
				u.Set(i, j, -u.At(i, j))
			}
			for i := 0; i < vr; i++ {
				v.Set(i, j, -v.At(i, j))
			}
		}
	}
}
