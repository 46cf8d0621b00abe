package svd

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Krylov is a converged truncated SVD: thick-restart block Lanczos on AᵀA
// with locking, driven only through the operator's products (see the
// package documentation for the algorithm and its parameters).
type Krylov struct{}

// Name returns "krylov".
func (Krylov) Name() string { return "krylov" }

const (
	// krylovBlockMax is the widest Lanczos block. Sparse products on word
	// tables cost least per column at about 64 columns (2.3 ms against
	// 32 ms for one vector and 4 ms for 1000 on text8_prefix's tail-cut
	// table), and 64 columns keep the Gram–Schmidt products GEMM-shaped.
	krylovBlockMax = 64
	// krylovActiveMax caps the active basis (the projected problem's size),
	// so that a large k is found a window at a time with the converged
	// vectors locked, not in one huge basis.
	krylovActiveMax = 640
	// krylovNoise is the size, relative to the block's largest column
	// before orthogonalisation, under which what is left of a column after
	// Gram–Schmidt is rounding noise, not a new direction.
	krylovNoise = 1e-12
)

// krylovPlan is a validated Krylov configuration.
type krylovPlan struct {
	k, b, mpd   int // rank, block size, active basis size
	tol         float64
	maxProducts int
	seed        uint64
	report      func(format string, args ...any) // Options.Progress
}

func newKrylovPlan(opt Options, c int) (krylovPlan, error) {
	if !(opt.Tol > 0 && opt.Tol < 1) {
		return krylovPlan{}, fmt.Errorf("tolerance %v: must be in (0, 1) (DefaultOptions sets %g)", opt.Tol, DefaultTol)
	}
	k := opt.Rank
	p := krylovPlan{k: k, tol: opt.Tol, maxProducts: opt.MaxProducts, seed: opt.Seed, report: opt.report}
	p.b = min(krylovBlockMax, max(8, k/2))
	p.mpd = min(krylovActiveMax, max(2*k+p.b, 4*p.b))
	// Locked, active and next block must fit in the c dimensions.
	p.mpd = min(p.mpd, c-k-2*p.b)
	if p.maxProducts <= 0 {
		p.maxProducts = 100 * (k + krylovBlockMax)
	}
	return p, nil
}

// Decompose returns the leading opt.Rank singular triplets of op to
// opt.Tol. It never materialises op, except that an operator with at most
// k + 5 blocks of dimensions on its smaller side (too few for a Krylov basis)
// is built from products with the identity and decomposed densely.
func (b Krylov) Decompose(ctx context.Context, op Operator, opt Options) (*Result, error) {
	r, c := op.Dims()
	if err := checkRank(opt.Rank, r, c); err != nil {
		return nil, fmt.Errorf("%s SVD: %w", b.Name(), err)
	}
	if err := checkPlan(b.Name(), r, c, opt); err != nil {
		return nil, err
	}
	// The basis lives on the smaller side: AᵀA is then the smaller matrix.
	work, flip := op, r < c
	if flip {
		work = transposed{op}
	}
	_, wc := work.Dims()
	p, err := newKrylovPlan(opt, wc)
	if err != nil {
		return nil, fmt.Errorf("%s SVD: %w", b.Name(), err)
	}
	cnt := &counter{Operator: work}
	var res *Result
	if p.mpd < 3*p.b {
		res, err = denseByProducts(ctx, cnt, p.k)
	} else {
		res, err = lanczos(ctx, cnt, p)
	}
	if err != nil {
		return nil, fmt.Errorf("%s SVD: %w", b.Name(), err)
	}
	if flip {
		res.U, res.V = res.V, res.U
	}
	fixSigns(res.U, res.V)
	if res.Accuracy == nil {
		// The dense route: measure, as krylov always reports its accuracy.
		res.Products = cnt.n
		acc, err := Check(ctx, op, res)
		if err != nil {
			return nil, fmt.Errorf("%s SVD: %w", b.Name(), err)
		}
		res.Accuracy = acc
		return res, nil
	}
	res.Products = cnt.n - res.Accuracy.CheckProducts
	res.Accuracy.Products = res.Products
	return res, nil
}

// transposed is Aᵀ as an operator.
type transposed struct{ Operator }

func (t transposed) Dims() (r, c int) {
	r, c = t.Operator.Dims()
	return c, r
}
func (t transposed) MulTo(dst, x *mat.Dense)  { t.Operator.MulTTo(dst, x) }
func (t transposed) MulTTo(dst, x *mat.Dense) { t.Operator.MulTo(dst, x) }

// denseByProducts builds A (r×c, c small) as A·I, c columns at a time of
// checkChunk, and takes its exact thin SVD.
func denseByProducts(ctx context.Context, op Operator, k int) (*Result, error) {
	r, c := op.Dims()
	a := mat.NewDense(r, c, nil)
	for j0 := 0; j0 < c; j0 += checkChunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		j1 := min(c, j0+checkChunk)
		e := mat.NewDense(c, j1-j0, nil)
		for j := j0; j < j1; j++ {
			e.Set(j, j-j0, 1)
		}
		y := mat.NewDense(r, j1-j0, nil)
		op.MulTo(y, e)
		a.Slice(0, r, j0, j1).(*mat.Dense).Copy(y)
	}
	s, u, vt, err := thinSVD(a)
	if err != nil {
		return nil, err
	}
	return &Result{S: s[:k:k], U: keepColumns(u, k), V: firstRowsT(vt, k)}, nil
}

// lanczos runs thick-restart block Lanczos with locking on M = AᵀA for op
// (r×c). The basis is one c×ld row-major array: locked vectors in columns
// [0, nlock), the active basis after them, then room for the next block.
//
// Within a cycle, each block step multiplies the newest block X by M,
// orthogonalises M·X against the whole basis (locked and active) by
// classical Gram–Schmidt twice on the GEMM kernel (see project), keeps the coefficients
// on the active basis as the projected matrix T = Vᵀ·M·V, and
// orthonormalises what is left into the next block (M·X_last = … +
// X_next·R). When the active basis is full, the Rayleigh–Ritz step
// (eigenvectors Y of T) gives Ritz pairs with residuals ‖M·V·y − θ·V·y‖ =
// ‖R·y_last‖ (y_last: y's entries on the last block). Leading pairs whose
// singular-value residual ‖R·y_last‖/σ is within tol·σ_1 are locked; the
// next Ritz vectors are kept (T becomes diagonal on them) and the block
// X_next continues the Krylov space: this is Wu & Simon's thick restart,
// whose kept vectors make M·V = V·T + X_next·R·Eᵀ hold again with T an
// arrow matrix that the next steps' coefficients fill in.
func lanczos(ctx context.Context, op *counter, p krylovPlan) (*Result, error) {
	r, c := op.Dims()
	k, b, mpd := p.k, p.b, p.mpd
	ld := k + mpd + 2*b
	tdim := mpd + b
	basis := make([]float64, c*ld)
	t := make([]float64, tdim*tdim)
	x := mat.NewDense(c, b, nil)
	y := mat.NewDense(r, b, nil)
	w := mat.NewDense(c, b, nil)
	coef := make([]float64, ld*b)
	scratch := make([]float64, ld*b)
	rng := rand.New(rand.NewPCG(p.seed, pcgStream))
	ws := newKrylovWork(c, b, tdim)

	// Start: a Gaussian block, orthonormalised.
	wd := w.RawMatrix().Data
	for i := range wd {
		wd[i] = rng.NormFloat64()
	}
	blockQR(wd, c, b, basis, ld, 0, 1, rng, ws)
	setColumns(basis, ld, 0, wd, b)

	var locked []float64 // θ of the locked vectors, in their column order
	var lastR []float64  // R of the newest block: M·X_last = … + X_next·R
	sigma1 := 0.0
	nlock, next, nb := 0, 0, b
	for cycle := 0; ; cycle++ {
		// Extend the active basis to mpd columns, a block at a time.
		for next < mpd {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("cycle %d, %d of %d triplets converged: %w", cycle+1, nlock, k, err)
			}
			if op.n+2*b > p.maxProducts {
				return nil, fmt.Errorf("%d of %d triplets within tolerance %g after %d column-products (limit %d): %w",
					nlock, k, p.tol, op.n, p.maxProducts, ErrNotConverged)
			}
			xd := x.RawMatrix().Data
			for i := 0; i < c; i++ {
				copy(xd[i*b:(i+1)*b], basis[i*ld+nlock+next:i*ld+nlock+nb])
			}
			op.MulTo(y, x)
			op.MulTTo(w, y)
			scale := maxColumnNorm(wd, c, b)
			jcols := nlock + nb
			clear(coef[:jcols*b])
			project(wd, c, b, basis, ld, nlock, jcols, coef, scratch)
			// The coefficients on the active basis are T's new columns
			// (upper triangle; the diagonal block is symmetrised).
			for i := 0; i < nb; i++ {
				for j := 0; j < b; j++ {
					col := next + j
					v := coef[(nlock+i)*b+j]
					switch {
					case i < next:
						t[i*tdim+col] = v
					case i-next < j:
						t[i*tdim+col] = (v + coef[(nlock+next+j)*b+(i-next)]) / 2
					case i-next == j:
						t[i*tdim+col] = v
					}
				}
			}
			lastR = blockQR(wd, c, b, basis, ld, jcols, scale, rng, ws)
			setColumns(basis, ld, nlock+nb, wd, b)
			next, nb = nb, nb+b
		}

		// Rayleigh–Ritz on the active basis [0, na).
		na := next
		theta, yv, err := symEigTop(t, tdim, na, na, ws.eig)
		if err != nil {
			return nil, err
		}
		if len(locked) > 0 {
			sigma1 = max(sigma1, math.Sqrt(max(locked[0], 0)))
		}
		sigma1 = max(sigma1, math.Sqrt(max(theta[0], 0)))
		conv := 0
		for conv < min(na, k-nlock) {
			s := math.Sqrt(max(theta[conv], 0))
			res := ritzResidual(lastR, b, yv, na, conv)
			if res > p.tol*sigma1*max(s, 1e-8*sigma1) {
				break
			}
			conv++
		}
		want := k - nlock - conv
		keep := 0
		if want > 0 {
			keep = min(want+max(b, (mpd-want)/3), mpd/2, na-conv-b)
			keep = max(keep, 0)
		}
		// Rotate: the first conv+keep active columns become the Ritz
		// vectors V·Y; then the pending block moves up behind them.
		rotate(basis, ld, c, nlock, na, yv, conv+keep, ws.rot)
		locked = append(locked, theta[:conv]...)
		p.report("restart %d: %d of %d triplets converged, %d column-products", cycle+1, nlock+conv, k, op.n)
		if want == 0 {
			nlock += conv
			break
		}
		for i := 0; i < c; i++ {
			row := basis[i*ld:]
			copy(row[nlock+conv+keep:nlock+conv+keep+b], row[nlock+na:nlock+na+b])
		}
		nlock += conv
		clear(t)
		for i := 0; i < keep; i++ {
			t[i*tdim+i] = theta[conv+i]
		}
		next, nb = keep, keep+b
	}
	return finishLanczos(ctx, op, basis, ld, c, k, locked)
}

// finishLanczos orders the k locked vectors by decreasing Ritz value and
// forms U = A·V·Σ⁻¹ with σ_i = ‖A·v_i‖ (the Rayleigh quotient makes that
// √θ_i, computed without squaring), so A·v_i = σ_i·u_i to rounding; then
// it measures the residuals with the k products Aᵀ·U.
func finishLanczos(ctx context.Context, op *counter, basis []float64, ld, c, k int, locked []float64) (*Result, error) {
	r, _ := op.Dims()
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case locked[a] > locked[b]:
			return -1
		case locked[a] < locked[b]:
			return 1
		}
		return 0
	})
	// Permute and compact the first k columns in place (row i moves to
	// i·k ≤ i·ld, so increasing i never overwrites a row not yet moved).
	tmp := make([]float64, k)
	for i := 0; i < c; i++ {
		row := basis[i*ld : i*ld+k]
		for j, o := range order {
			tmp[j] = row[o]
		}
		copy(basis[i*k:(i+1)*k], tmp)
	}
	v := mat.NewDense(c, k, basis[:c*k])
	u := mat.NewDense(r, k, nil)
	s := make([]float64, k)
	fwd := make([]float64, k)
	ch := newChunks(c, r, k)
	for j0 := 0; j0 < k; j0 += checkChunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		j1 := min(k, j0+checkChunk)
		xc, yc := ch.load(v, j0, j1)
		op.MulTo(yc, xc)
		n := make([]float64, j1-j0)
		for j := range n {
			n[j] = mat.Norm(yc.ColView(j), 2)
			s[j0+j] = n[j]
			if n[j] > 0 {
				n[j] = 1 / n[j]
			}
		}
		yr := yc.RawMatrix()
		ur := u.RawMatrix()
		for i := 0; i < r; i++ {
			src := yr.Data[i*yr.Stride : i*yr.Stride+j1-j0]
			dst := ur.Data[i*ur.Stride+j0 : i*ur.Stride+j1]
			for j, val := range src {
				dst[j] = val * n[j]
			}
		}
		// ‖A·v − σ·u‖ is rounding only, but measured, not assumed.
		sideNorms(fwd[j0:j1], yc, u, s, j0)
	}
	res := &Result{S: s, U: u, V: v}
	acc, err := checkTransposed(ctx, op, res, fwd)
	if err != nil {
		return nil, err
	}
	res.Accuracy = acc
	return res, nil
}

// setColumns copies the compact c×b block w into columns [col, col+b) of
// the basis.
func setColumns(basis []float64, ld, col int, w []float64, b int) {
	c := len(w) / b
	for i := 0; i < c; i++ {
		copy(basis[i*ld+col:i*ld+col+b], w[i*b:(i+1)*b])
	}
}

func maxColumnNorm(w []float64, c, b int) float64 {
	ss := make([]float64, b)
	for i := 0; i < c; i++ {
		for j, v := range w[i*b : (i+1)*b] {
			ss[j] += v * v
		}
	}
	return math.Sqrt(slices.Max(ss))
}

// project removes from w (c×b, compact) its components along basis
// columns [0, jcols) and adds the coefficients into coef (jcols×b): a first
// classical Gram–Schmidt pass against columns [lo, jcols) and a second
// against all of them ("twice is enough": Giraud, Langou & Rozložník
// 2005). Columns before lo are the locked vectors: M·X has only
// residual-sized components along them (M·L = L·Θ + residuals and X ⟂ L),
// so the second pass alone takes those out to rounding, and the first pass
// skips them, a third to a half of the work once many are locked. Each
// pass is two products with the basis where it lies (gemmTN, gemmNNSub).
func project(w []float64, c, b int, basis []float64, ld, lo, jcols int, coef, tmp []float64) {
	if jcols == 0 {
		return
	}
	for _, from := range []int{lo, 0} {
		n := jcols - from
		if n == 0 {
			continue
		}
		t := tmp[:n*b]
		clear(t)
		gemmTN(n, b, c, basis[from:], ld, w, b, t, b)
		gemmNNSub(c, b, n, basis[from:], ld, t, b, w, b)
		for i, v := range t {
			coef[from*b+i] += v
		}
	}
}

// blockQR orthonormalises w (c×b, compact, already orthogonal to basis
// columns [0, jcols)) in place and returns R (b×b, upper, row-major) with
// w_before = w_after·R. CholeskyQR2 on the GEMM kernel does it unless w is
// too ill-conditioned; then Gram–Schmidt column by column takes over, and
// a column that is only rounding noise (below krylovNoise·scale) is
// replaced by a random direction orthogonal to the basis and the block,
// with a zero row in R: the Krylov space has (nearly) closed, as it does
// on an invariant subspace, and the basis grows on in a fresh direction.
func blockQR(w []float64, c, b int, basis []float64, ld, jcols int, scale float64, rng *rand.Rand, ws *krylovWork) []float64 {
	g := mat.NewDense(c, b, w).RawMatrix()
	rt := identity(b)
	for pass := range 2 {
		r1 := cholQRStep(g, ws.qr)
		if r1 == nil {
			if pass == 1 {
				scale = 1 // w is already orthonormal up to the failure
			}
			r1 = mgsQR(w, c, b, basis, ld, jcols, scale, rng, ws.mgs)
			return mulUpper(r1, rt, b)
		}
		rt = mulUpper(r1, rt, b)
	}
	return rt
}

func identity(b int) []float64 {
	out := make([]float64, b*b)
	for i := 0; i < b; i++ {
		out[i*b+i] = 1
	}
	return out
}

// mulUpper returns x·y for upper triangular b×b x and y.
func mulUpper(x, y []float64, b int) []float64 {
	out := make([]float64, b*b)
	for i := 0; i < b; i++ {
		for p := i; p < b; p++ {
			if xv := x[i*b+p]; xv != 0 {
				for j := p; j < b; j++ {
					out[i*b+j] += xv * y[p*b+j]
				}
			}
		}
	}
	return out
}

// mgsQR is blockQR's fallback: modified Gram–Schmidt twice per column on a
// transposed copy, with random replacement of noise columns.
func mgsQR(w []float64, c, b int, basis []float64, ld, jcols int, scale float64, rng *rand.Rand, buf []float64) []float64 {
	cols := make([][]float64, b)
	for j := range cols {
		cols[j] = buf[j*c : (j+1)*c]
		for i := 0; i < c; i++ {
			cols[j][i] = w[i*b+j]
		}
	}
	rr := make([]float64, b*b)
	coef := make([]float64, max(jcols, 1))
	for j, v := range cols {
		for range 2 {
			for p := 0; p < j; p++ {
				d := dot(cols[p], v)
				rr[p*b+j] += d
				axpy(-d, cols[p], v)
			}
		}
		nrm := math.Sqrt(dot(v, v))
		if nrm > krylovNoise*scale && nrm > 0 {
			rr[j*b+j] = nrm
			scal(1/nrm, v)
			continue
		}
		// A new direction: random, projected off the basis and the block.
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		for range 2 {
			if jcols > 0 {
				clear(coef)
				gemmAdd(jcols, 1, c, view{data: basis, rs: 1, cs: ld}, view{data: v, rs: 1, cs: 1}, coef, 1, false)
				gemmAdd(c, 1, jcols, view{data: basis, rs: ld, cs: 1}, view{data: coef, rs: 1, cs: 1}, v, 1, true)
			}
			for p := 0; p < j; p++ {
				axpy(-dot(cols[p], v), cols[p], v)
			}
		}
		for p := 0; p < j; p++ {
			rr[p*b+j] = 0 // the noise had no real coupling to keep
		}
		scal(1/math.Sqrt(dot(v, v)), v)
	}
	for j, v := range cols {
		for i := 0; i < c; i++ {
			w[i*b+j] = v[i]
		}
	}
	return rr
}

func dot(x, y []float64) float64 {
	var s float64
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

func axpy(a float64, x, y []float64) {
	for i, v := range x {
		y[i] += a * v
	}
}

func scal(a float64, x []float64) {
	for i := range x {
		x[i] *= a
	}
}

// krylovWork holds the scratch buffers that the Lanczos loop reuses, so
// that its garbage (and, through the collector's pacing, its peak memory)
// stays small: a k = 1000 run would otherwise throw away about 1 GB.
type krylovWork struct {
	qr, mgs, rot []float64
	eig          *symEigWork
}

// rotateRows is the row block of rotate's scratch.
const rotateRows = 2048

func newKrylovWork(c, b, tdim int) *krylovWork {
	return &krylovWork{
		qr:  make([]float64, min(mulRightInPlaceRows, c)*b),
		mgs: make([]float64, c*b),
		rot: make([]float64, min(rotateRows, c)*tdim),
		eig: newSymEigWork(tdim),
	}
}

// ritzResidual is ‖M·V·y_j − θ_j·V·y_j‖ = ‖R·y_last‖ for Ritz vector j,
// y_last being its entries on the last block of the na×na basis.
func ritzResidual(rr []float64, b int, yv []float64, na, j int) float64 {
	var s float64
	for i := 0; i < b; i++ {
		var v float64
		for p := i; p < b; p++ {
			v += rr[i*b+p] * yv[(na-b+p)*na+j]
		}
		s += v * v
	}
	return math.Sqrt(s)
}

// rotate sets basis columns [nlock, nlock+m) to V·Y[:, :m], V being the
// na active columns, in place a block of rows at a time.
func rotate(basis []float64, ld, c, nlock, na int, yv []float64, m int, tmp []float64) {
	if m == 0 {
		return
	}
	const rowBlock = rotateRows
	for lo := 0; lo < c; lo += rowBlock {
		hi := min(lo+rowBlock, c)
		for i := lo; i < hi; i++ {
			copy(tmp[(i-lo)*na:(i-lo+1)*na], basis[i*ld+nlock:i*ld+nlock+na])
			clear(basis[i*ld+nlock : i*ld+nlock+m])
		}
		gemmAdd(hi-lo, m, na, view{data: tmp, rs: na, cs: 1}, view{data: yv, rs: na, cs: 1}, basis[lo*ld+nlock:], ld, false)
	}
}
