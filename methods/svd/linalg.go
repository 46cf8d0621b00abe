package svd

import (
	"errors"
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

// denseImpl is a full dense SVD: gonum's pure-Go Gesvd for the dense
// backend, the system's LAPACK for the lapack backend when a build tag
// installs one (lapack_netlib.go, -tags lapack).
type denseImpl struct {
	name string
	svd  func(a *mat.Dense) (s []float64, u, vt *mat.Dense, err error)
	// extra is the memory the implementation adds to thinSVD's U, Vᵀ and
	// workspace for an m×n matrix (LAPACKE's row-major copies, say).
	extra func(m, n int) int64
}

var denseSVD = denseImpl{name: "gonum Dgesvd (pure Go)", svd: thinSVD, extra: func(int, int) int64 { return 0 }}

// nativeSVD is the lapack backend's SVD; nil unless built with -tags lapack.
var nativeSVD *denseImpl

// DenseImplementation names the LAPACK the dense backend runs on.
func DenseImplementation() string { return denseSVD.name }

// NativeImplementation names the system LAPACK the lapack backend runs on,
// or "" when this binary was built without one (-tags lapack).
func NativeImplementation() string {
	if nativeSVD == nil {
		return ""
	}
	return nativeSVD.name
}

// projectedImpl is the system's eigensolver and GEMM for the projected
// problem of the sketches (Options.Projected = "lapack"): the l×l Gram
// eigenproblem and the two products that turn its vectors into U and V.
// At the paper's d = 8000 (l = 8,010, 78,485 rows) gonum's serial Dsyev
// and the pure-Go GEMM take over an hour there; dsyevd and OpenBLAS a
// few minutes.
type projectedImpl struct {
	name     string
	symEig   func(n int, a []float64, lda int) ([]float64, error)
	eigExtra func(n int) int64
	gemm     func(transA bool, m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int)
}

// nativeProjected is nil unless built with -tags lapack.
var nativeProjected *projectedImpl

// ErrNotBuilt reports a backend this binary was built without.
var ErrNotBuilt = errors.New("not built into this binary")

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

// cholQRMaxCond is the largest estimated condition number of the Gram
// matrix yᵀy (cond(y)²) for which orthonormalizeGram trusts CholeskyQR:
// cond(y) ≤ 1e6 keeps CholeskyQR2's loss of orthogonality at rounding
// level (Yamamoto et al. 2015 need cond(y) ≲ u^−1/2 ≈ 7e7).
const cholQRMaxCond = 1e12

// orthonormalizeGram replaces y (m×l, m ≥ l, stored compactly) by an
// orthonormal basis of its column space, like orthonormalize, by
// CholeskyQR2: twice, G = yᵀy = RᵀR and y ← y·R⁻¹. Both products run on
// gemmAdd, so for the tall sketches of word tables (22,542×1,010) it is
// several times faster than Householder QR through gonum's LAPACK. When
// y is too ill-conditioned for its Gram matrix it falls back to
// orthonormalize. The columns differ from Householder's Q only by an
// orthogonal l×l factor: the same basis for the SVD that follows.
func orthonormalizeGram(y *mat.Dense) {
	g := y.RawMatrix()
	if g.Stride != g.Cols || g.Rows < g.Cols {
		orthonormalize(y)
		return
	}
	for range 2 {
		if cholQRStep(g, nil) == nil {
			orthonormalize(y)
			return
		}
	}
}

// cholQRStep does y ← y·R⁻¹ with yᵀy = RᵀR and returns R (l×l, upper
// triangular, row-major), unless the Cholesky factorisation fails or is too
// ill-conditioned; then it leaves y as it was and returns nil. The Krylov
// backend needs R: it is the coupling of a Lanczos block to the next one.
//
// tmp, when long enough (min(4096, m)·l), is the row scratch of the
// product, so that repeated calls (one a Lanczos block) make no garbage.
func cholQRStep(g blas64.General, tmp []float64) []float64 {
	m, l := g.Rows, g.Cols
	gram := gramOf(g)
	var chol mat.Cholesky
	if !chol.Factorize(mat.NewSymDense(l, gram)) || chol.Cond() > cholQRMaxCond {
		return nil
	}
	var r, rinv mat.TriDense
	chol.UTo(&r)
	if err := rinv.InverseTri(&r); err != nil {
		return nil
	}
	w := mat.DenseCopyOf(&rinv).RawMatrix()
	mulRightInPlaceTmp(mat.NewDense(m, l, g.Data[:m*l]), w.Data, w.Stride, l, tmp, nil)
	return mat.DenseCopyOf(&r).RawMatrix().Data
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
	// sketch, so a zero pivot is not an error here.
	luFactor(g, ipiv)
	// Keep the unit lower trapezoid L.
	for i := 0; i < min(g.Rows, l); i++ {
		row := g.Data[i*g.Stride : i*g.Stride+l]
		clear(row[i+1:])
		row[i] = 1
	}
	// P·L: undo the row interchanges, last one first.
	for i := min(g.Rows, l) - 1; i >= 0; i-- {
		if p := ipiv[i]; p != i {
			a := g.Data[i*g.Stride : i*g.Stride+l]
			b := g.Data[p*g.Stride : p*g.Stride+l]
			for j := range a {
				a[j], b[j] = b[j], a[j]
			}
		}
	}
}

// luPanelCols is the width below which luRecursive factors column by column.
const luPanelCols = 16

// luFactor computes the LU factorisation with partial pivoting of g in
// place, as LAPACK's Dgetrf does (L below the diagonal, U on and above it,
// ipiv[j] the row swapped with row j; the same pivots up to rounding), but
// recursively (Toledo 1997), so that nearly all the work is a few large
// products for gemmAdd: gonum's Dgetrf spends most of its time in
// single-threaded rank-one updates on these tall matrices.
func luFactor(g blas64.General, ipiv []int) {
	luRecursive(g, 0, min(g.Rows, g.Cols), ipiv, make([]float64, g.Rows*luPanelCols))
	// Columns right of a wide matrix's last pivot get U's last rows.
	if g.Cols > g.Rows {
		m := g.Rows
		for i := 1; i < m; i++ {
			ri := g.Data[i*g.Stride+m : i*g.Stride+g.Cols]
			for p := 0; p < i; p++ {
				if lip := g.Data[i*g.Stride+p]; lip != 0 {
					rp := g.Data[p*g.Stride+m : p*g.Stride+g.Cols]
					for j := range ri {
						ri[j] -= lip * rp[j]
					}
				}
			}
		}
	}
}

// luRecursive factors columns c0..c0+n of rows c0..m of g, whose earlier
// columns are already factored and applied. Row interchanges are applied
// to whole rows at once, which is what Dgetrf's final state holds.
func luRecursive(g blas64.General, c0, n int, ipiv []int, buf []float64) {
	if n <= luPanelCols {
		luPanel(g, c0, n, ipiv, buf)
		return
	}
	n1 := n / 2
	n2 := n - n1
	luRecursive(g, c0, n1, ipiv, buf)
	st := g.Stride
	// A12 ← L11⁻¹·A12.
	for i := 1; i < n1; i++ {
		ri := g.Data[(c0+i)*st+c0+n1 : (c0+i)*st+c0+n]
		for p := 0; p < i; p++ {
			if lip := g.Data[(c0+i)*st+c0+p]; lip != 0 {
				rp := g.Data[(c0+p)*st+c0+n1 : (c0+p)*st+c0+n]
				for j := range ri {
					ri[j] -= lip * rp[j]
				}
			}
		}
	}
	// A22 ← A22 − A21·A12.
	if r := g.Rows - (c0 + n1); r > 0 {
		a21 := view{data: g.Data[(c0+n1)*st+c0:], rs: st, cs: 1}
		a12 := view{data: g.Data[c0*st+c0+n1:], rs: st, cs: 1}
		gemmAdd(r, n2, n1, a21, a12, g.Data[(c0+n1)*st+c0+n1:], st, true)
	}
	luRecursive(g, c0+n1, n2, ipiv, buf)
}

// luPanel factors columns c0..c0+n (n ≤ luPanelCols) column by column,
// like LAPACK's Dgetf2. The panel is copied to buf, a compact m×n block:
// in place its rows would be a stride apart, one cache line and often one
// page each. One sweep over the rows per column scales the multipliers,
// updates the rest of the panel and finds the next pivot. The panel's row
// interchanges are applied to the rest of the rows afterwards.
func luPanel(g blas64.General, c0, n int, ipiv []int, buf []float64) {
	st, m := g.Stride, g.Rows
	end := min(c0+n, m)
	if c0 >= end {
		return
	}
	rows := m - c0
	p := buf[:rows*n]
	for i := 0; i < rows; i++ {
		copy(p[i*n:(i+1)*n], g.Data[(c0+i)*st+c0:(c0+i)*st+c0+n])
	}
	const sfmin = 0x1p-1022 // LAPACK's dlamch('S')
	piv, best := 0, -1.0
	for i := 0; i < rows; i++ {
		if a := math.Abs(p[i*n]); a > best {
			piv, best = i, a
		}
	}
	for j := 0; j < end-c0; j++ {
		ipiv[c0+j] = c0 + piv
		if piv != j {
			a, b := p[j*n:(j+1)*n], p[piv*n:(piv+1)*n]
			for t := range a {
				a[t], b[t] = b[t], a[t]
			}
		}
		rj := p[j*n+j+1 : (j+1)*n]
		d := p[j*n+j]
		next, nbest := j+1, -1.0
		for i := j + 1; i < rows; i++ {
			ri := p[i*n+j : (i+1)*n]
			lij := ri[0]
			if d != 0 {
				if math.Abs(d) >= sfmin {
					lij *= 1 / d
				} else {
					lij /= d
				}
				ri[0] = lij
			}
			if lij != 0 {
				rest := ri[1:]
				for t := range rest {
					rest[t] -= lij * rj[t]
				}
			}
			if len(ri) > 1 {
				if a := math.Abs(ri[1]); a > nbest {
					next, nbest = i, a
				}
			}
		}
		piv = next
	}
	for i := 0; i < rows; i++ {
		copy(g.Data[(c0+i)*st+c0:(c0+i)*st+c0+n], p[i*n:(i+1)*n])
	}
	for j := c0; j < end; j++ {
		if q := ipiv[j]; q != j {
			for _, cols := range [][2]int{{0, c0}, {c0 + n, g.Cols}} {
				a := g.Data[j*st+cols[0] : j*st+cols[1]]
				b := g.Data[q*st+cols[0] : q*st+cols[1]]
				for t := range a {
					a[t], b[t] = b[t], a[t]
				}
			}
		}
	}
}

// mulRightInPlace sets the first k columns of each row y_i (y is r×l) to
// y_i·w for w l×k (row-major, stride ws) and returns them as a compact r×k
// matrix sharing y's storage. Rows go through a scratch block.
func mulRightInPlace(y *mat.Dense, w []float64, ws, k int) *mat.Dense {
	return mulRightInPlaceTmp(y, w, ws, k, nil, nil)
}

// mulRightInPlaceRows is the row block of mulRightInPlace's scratch.
const mulRightInPlaceRows = 4096

// mulRightInPlaceTmp is mulRightInPlace with the scratch tmp (allocated
// when shorter than min(mulRightInPlaceRows, r)·l), on nat's GEMM when nat
// is set.
func mulRightInPlaceTmp(y *mat.Dense, w []float64, ws, k int, tmp []float64, nat *projectedImpl) *mat.Dense {
	const rowBlock = mulRightInPlaceRows
	g := y.RawMatrix()
	r, l := g.Rows, g.Cols
	if len(tmp) < min(rowBlock, r)*l {
		tmp = make([]float64, min(rowBlock, r)*l)
	}
	wv := view{data: w, rs: ws, cs: 1}
	for lo := 0; lo < r; lo += rowBlock {
		hi := min(lo+rowBlock, r)
		for i := lo; i < hi; i++ {
			copy(tmp[(i-lo)*l:(i-lo+1)*l], g.Data[i*g.Stride:i*g.Stride+l])
			if nat == nil {
				clear(g.Data[i*g.Stride : i*g.Stride+k])
			}
		}
		if nat != nil {
			nat.gemm(false, hi-lo, k, l, tmp, l, w, ws, g.Data[lo*g.Stride:], g.Stride)
			continue
		}
		gemmAdd(hi-lo, k, l, view{data: tmp, rs: l, cs: 1}, wv, g.Data[lo*g.Stride:], g.Stride, false)
	}
	return keepColumns(y, k)
}

// gramOf returns the l×l Gram matrix gᵀg (row-major) of g (m×l),
// symmetrised exactly: the product's two triangles may differ in the last
// bit.
func gramOf(g blas64.General) []float64 {
	m, l := g.Rows, g.Cols
	gram := make([]float64, l*l)
	gemmAdd(l, l, m, view{data: g.Data, rs: 1, cs: g.Stride}, view{data: g.Data, rs: g.Stride, cs: 1}, gram, l, false)
	for i := 0; i < l; i++ {
		for j := 0; j < i; j++ {
			gram[j*l+i] = gram[i*l+j]
		}
	}
	return gram
}

// gramCond is the smallest σ_k/σ_1 for which the Gram route of
// smallSVD is used: its singular values then have relative errors below
// about ε·(σ_1/σ_k)² ≈ 1e-8, and beyond it the exact route is taken.
const gramCond = 1e-4

// sketchSVD returns the leading k singular triplets of bt (c×l, c ≥ l):
// bt = V·Σ·Wᵀ with V c×k (formed in bt's storage) and W l×l of which the
// first k columns are the right singular vectors. It goes through the l×l
// Gram matrix btᵀ·bt = W·Σ²·Wᵀ (one product and a small symmetric
// eigenproblem, then V = bt·W·Σ⁻¹), which is several times cheaper than an
// SVD of the tall bt; when σ_k < gramCond·σ_1 that would lose accuracy, and
// it falls back to the exact thin SVD.
func sketchSVD(bt *mat.Dense, k int, nat *projectedImpl) (s []float64, v, w *mat.Dense, err error) {
	c, l := bt.Dims()
	vals, vecs, err := gramEig(bt.RawMatrix(), nat)
	if err != nil {
		return nil, nil, nil, err
	}
	if vals != nil {
		if top, kth := vals[l-1], vals[l-k]; top > 0 && kth > 0 && math.Sqrt(kth/top) >= gramCond {
			w = mat.NewDense(l, l, nil)
			s = make([]float64, l)
			for j := 0; j < l; j++ {
				s[j] = math.Sqrt(max(vals[l-1-j], 0))
				for i := 0; i < l; i++ {
					w.Set(i, j, vecs[i*l+l-1-j])
				}
			}
			wr := w.RawMatrix()
			v = mulRight(bt, wr.Data, wr.Stride, k, nat)
			vr := v.RawMatrix()
			for i := 0; i < c; i++ {
				row := vr.Data[i*vr.Stride : i*vr.Stride+k]
				for j := range row {
					row[j] /= s[j]
				}
			}
			return s, v, w, nil
		}
	}
	impl := denseSVD
	if nat != nil && nativeSVD != nil {
		impl = *nativeSVD
	}
	s, u, wt, err := impl.svd(bt)
	if err != nil {
		return nil, nil, nil, err
	}
	return s, keepColumns(u, k), mat.DenseCopyOf(wt.T()), nil
}

// gramEig returns the eigenvalues (ascending) and eigenvectors (columns of
// a row-major l×l matrix) of gᵀg for g m×l, on nat when it is set and in
// pure Go otherwise; nil values when the eigensolver did not converge.
func gramEig(g blas64.General, nat *projectedImpl) (vals, vecs []float64, err error) {
	l := g.Cols
	if nat == nil {
		var eig mat.EigenSym
		if !eig.Factorize(mat.NewSymDense(l, gramOf(g)), true) {
			return nil, nil, nil
		}
		var ev mat.Dense
		eig.VectorsTo(&ev)
		return eig.Values(nil), ev.RawMatrix().Data, nil
	}
	gram := make([]float64, l*l)
	nat.gemm(true, l, l, g.Rows, g.Data, g.Stride, g.Data, g.Stride, gram, l)
	vals, err = nat.symEig(l, gram, l) // reads the upper triangle
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", nat.name, err)
	}
	return vals, gram, nil
}

// mulRight is mulRightInPlace, on nat's GEMM when nat is set.
func mulRight(y *mat.Dense, w []float64, ws, k int, nat *projectedImpl) *mat.Dense {
	return mulRightInPlaceTmp(y, w, ws, k, nil, nat)
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
