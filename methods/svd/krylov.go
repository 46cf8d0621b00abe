package svd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"
)

// Krylov is a converged truncated SVD: thick-restart block Lanczos on AᵀA
// with locking, driven only through the operator's products (see the
// package documentation for the algorithm and its parameters).
type Krylov struct{}

// Name returns "krylov".
func (Krylov) Name() string { return "krylov" }

const (
	// krylovBlockMax is the widest Lanczos block. A narrower block
	// converges in fewer products (block Lanczos spends part of each
	// product on directions a single vector would not need), and the
	// register kernel of the sparse products makes a column cost about as
	// much in a block of 32 as of 64 on word tables (1.6–1.9 ms on one
	// core of a 2-core AMD EPYC, text8_prefix's tail-cut table). Below 32
	// a column costs more again and Gram–Schmidt streams the basis from
	// memory once per block, so 32 is the width that minimises the total
	// time there (at d = 1000: 7,336 products with 32, 6,952 with 24,
	// 6,600 with 16, the CPU time the same or higher).
	krylovBlockMax = 32
	// krylovActiveMax caps the active basis (the projected problem's size),
	// so that a large k is found a window at a time with the converged
	// vectors locked, not in one huge basis. The projected problem costs
	// about 0.1 s at 960; a larger window saves few products (7,272 at
	// 1,280 against 7,336 at d = 1000) for more Gram–Schmidt against it.
	krylovActiveMax = 960
	// krylovKeep is the most Ritz vectors a restart keeps, in percent of
	// the active basis: keeping more carries more of the converging
	// space into the next cycle but leaves fewer new directions to add
	// (at d = 1000: 8,040 products keeping 40%, 7,400 at 50%, 7,336 at
	// 60%, 7,400 at 70%).
	krylovKeep = 60
	// krylovCheckWant: once the triplets still missing after a restart are
	// at most this percentage of the columns the next cycle adds, the
	// Rayleigh–Ritz step also runs every krylovCheckEvery blocks within
	// the cycle, so that it ends when they have converged instead of when
	// the basis is full (it costs one projected eigenproblem, well under
	// a block step).
	krylovCheckWant  = 50
	krylovCheckEvery = 2
	// krylovNoise is the size, relative to the block's largest column
	// before orthogonalisation, under which what is left of a column after
	// Gram–Schmidt is rounding noise, not a new direction.
	krylovNoise = 1e-12
	// krylovStallCycles: a restart that locks nothing, after one that
	// locked nothing either, is a stall when the leading unconverged
	// residual, falling at the rate of the last cycle, would need more
	// than this many cycles to reach the tolerance. On word tables a
	// cycle that locks nothing predicts under one more; a cluster of
	// close singular values at the top predicts tens.
	krylovStallCycles = 8
	// krylovGrowMax caps the active basis when it grows on a stall (the
	// window doubles, up to this many columns and the operator's size):
	// a window wider than the cluster holds all of it, and the Ritz
	// vectors then converge at the rate of the gap below the cluster
	// instead of the gaps inside it.
	krylovGrowMax = 1920
	// krylovRateRestarts is how many restarts that lock nothing, at the
	// widest window, measure the rate on which the backend decides to
	// stop early.
	krylovRateRestarts = 6
	// krylovStopMargin: the rate of the first stalled restarts is a rough
	// guide (on the clustered test table it predicted 2,600 more products
	// at 450 where 7,260 were needed, and 12,652 over three restarts at
	// 330), so the backend stops early only when the prediction exceeds
	// twice the products or the time left.
	krylovStopMargin = 2
)

// stallPoint is the leading unconverged residual over its locking limit,
// q, at a restart that locked nothing, after n column-products.
type stallPoint struct {
	q float64
	n int
}

// stalled reports whether the rate from h[0] to q (the last restart)
// would need more than krylovStallCycles more cycles to reach the limit.
func stalled(h []stallPoint, q float64) bool {
	if q >= h[0].q {
		return true
	}
	return math.Log(q)/math.Log(h[0].q/q) > krylovStallCycles
}

// krylovPlan is a validated Krylov configuration.
type krylovPlan struct {
	k, b, mpd   int // rank, block size, active basis size
	mpdMax      int // the largest active basis a stall may grow it to
	tol         float64
	maxProducts int
	seed        uint64
	report      func(format string, args ...any) // Options.Progress
	observe     func(*NotConvergedError)         // Options.Observe
	maxBytes    int64                            // Options.MaxBytes: also bounds a grown window
	r           int                              // the operator's larger side, for the grown window's plan
}

// DefaultMaxProducts is the krylov backend's column-product budget when
// Options.MaxProducts is not set, for rank k on an operator whose smaller
// side is c: 100·(k + 64), which word tables stay far below (text8_prefix
// at k = 1000: 7,336), or 4·c when that is more — twice what unrestarted
// Lanczos would spend to span the whole space — so that a large operator
// with a clustered spectrum gets the products its size warrants. The
// budget is a ceiling, not a target: a run that stalls is stopped as soon
// as its observed rate shows it cannot finish within it.
func DefaultMaxProducts(k, c int) int {
	return max(100*(k+64), 4*c)
}

func newKrylovPlan(opt Options, c int) (krylovPlan, error) {
	if !(opt.Tol > 0 && opt.Tol < 1) {
		return krylovPlan{}, fmt.Errorf("tolerance %v: must be in (0, 1) (DefaultOptions sets %g)", opt.Tol, DefaultTol)
	}
	k := opt.Rank
	p := krylovPlan{k: k, tol: opt.Tol, maxProducts: opt.MaxProducts, seed: opt.Seed, report: opt.report, observe: opt.Observe, maxBytes: opt.MaxBytes}
	p.b = min(krylovBlockMax, max(8, k/2))
	p.mpd = min(krylovActiveMax, max(2*k+p.b, 4*p.b))
	// Locked, active and next block must fit in the c dimensions.
	p.mpd = min(p.mpd, c-k-2*p.b)
	p.mpdMax = max(p.mpd, min(krylovGrowMax, c-k-2*p.b))
	if p.maxProducts <= 0 {
		p.maxProducts = DefaultMaxProducts(k, c)
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
	p.r, _ = work.Dims()
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
// orthogonalises M·X against the basis (see orthogonalize), keeps the
// coefficients on the active basis as the projected matrix T = Vᵀ·M·V,
// and orthonormalises what is left into the next block (M·X_last = … +
// X_next·R). The Rayleigh–Ritz step (eigenvectors Y of T) gives Ritz pairs
// with residuals ‖M·V·y − θ·V·y‖ = ‖R·y_last‖ (y_last: y's entries on the
// last block). It runs when the active basis is full, and, once few
// triplets are missing, also every few blocks before that, so that the
// last cycle stops as soon as they have converged instead of filling the
// basis. Leading pairs whose singular-value residual ‖R·y_last‖/σ is
// within tol·σ_1 are locked; when the basis is full, the next Ritz vectors
// are kept (T becomes diagonal on them) and the block X_next continues
// the Krylov space: this is Wu & Simon's thick restart, whose kept vectors
// make M·V = V·T + X_next·R·Eᵀ hold again with T an arrow matrix that the
// next steps' coefficients fill in.
func lanczos(ctx context.Context, op *counter, p krylovPlan) (*Result, error) {
	r, c := op.Dims()
	k, b, mpd := p.k, p.b, p.mpd
	ld := k + mpd + 2*b
	tdim := mpd + b
	basis := make([]float64, c*ld)
	t := make([]float64, tdim*tdim)
	// cl is Lᵀ·M·V (locked × active, stride tdim): M·V = V·T + X_next·R·Eᵀ
	// + L·CL, the last term what Gram–Schmidt removes along the locked
	// vectors L.
	cl := make([]float64, k*tdim)
	x := mat.NewDense(c, b, nil)
	y := mat.NewDense(r, b, nil)
	w := mat.NewDense(c, b, nil)
	coef := make([]float64, ld*b)
	scratch := make([]float64, ld*b)
	rng := rand.New(rand.NewPCG(p.seed, pcgStream))
	ws := newKrylovWork(c, k, b, tdim)

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
	// The active basis is [nlock, nlock+next), the block being multiplied
	// [nlock+next, nlock+nb); first is where this cycle's blocks start
	// (after the kept Ritz vectors).
	nlock, next, nb, first := 0, 0, b, 0
	checkFrom := mpd // no early Rayleigh–Ritz until few triplets are missing
	// A stall (see krylovStallCycles) is judged on the leading unconverged
	// residual over consecutive restarts that lock nothing (hist).
	var hist []stallPoint
	start := time.Now()
	diag := &NotConvergedError{Rank: k, Tol: p.tol, Limit: p.maxProducts}
	// grow widens the active basis to m columns in place of a restart:
	// the basis, T and CL move to arrays of the new strides and the
	// cycle goes on.
	grow := func(m int) {
		nld, ntd := k+m+2*b, m+b
		nbasis := make([]float64, c*nld)
		copyColumns(nbasis, nld, 0, basis, ld, 0, nlock+nb, c)
		// T and CL hold the next = na columns multiplied so far.
		nt := make([]float64, ntd*ntd)
		for i := 0; i < next; i++ {
			copy(nt[i*ntd:i*ntd+next], t[i*tdim:i*tdim+next])
		}
		ncl := make([]float64, k*ntd)
		for l := 0; l < nlock; l++ {
			copy(ncl[l*ntd:l*ntd+next], cl[l*tdim:l*tdim+next])
		}
		basis, t, cl, ld, tdim, mpd = nbasis, nt, ncl, nld, ntd, m
		coef, scratch = make([]float64, ld*b), make([]float64, ld*b)
		ws = newKrylovWork(c, k, b, tdim)
	}
	for cycle := 0; ; {
		if err := ctx.Err(); err != nil {
			if errors.Is(err, context.DeadlineExceeded) && (diag.Residual > 0 || diag.Spread > 0) {
				// Out of time: say what was seen, as for the budget.
				diag.Converged, diag.Products, diag.Deadline = nlock, op.n, true
				return nil, diag
			}
			return nil, fmt.Errorf("cycle %d, %d of %d triplets converged: %w", cycle+1, nlock, k, err)
		}
		if op.n+2*b > p.maxProducts {
			diag.Converged, diag.Products = nlock, op.n
			return nil, diag
		}
		xd := x.RawMatrix().Data
		copyColumns(xd, b, 0, basis, ld, nlock+next, b, c)
		op.MulTo(y, x)
		op.MulTTo(w, y)
		scale := maxColumnNorm(wd, c, b)
		jcols := nlock + nb
		clear(coef[:jcols*b])
		// The first block of a cycle couples to every kept vector (the
		// arrow); later ones only to their predecessor and themselves.
		local := nlock + max(next-b, 0)
		if next == first {
			local = nlock
		}
		orthogonalize(wd, c, b, basis, ld, local, jcols, coef, scratch, ws.norms)
		// The coefficients on the locked vectors: Lᵀ·M·X (CL's new columns).
		for l := 0; l < nlock; l++ {
			copy(cl[l*tdim+next:l*tdim+nb], coef[l*b:(l+1)*b])
		}
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
		na := next
		full := na >= mpd
		if !full && (na < checkFrom || (na-checkFrom)%(krylovCheckEvery*b) != 0) {
			continue
		}

		// Rayleigh–Ritz on the active basis [0, na): all eigenvalues, and
		// the vectors that can be locked or kept.
		nvec := min(na, max(k-nlock, 0)+krylovKeep*mpd/100)
		theta, yv, err := symEigTop(t, tdim, na, nvec, ws.eig)
		if err != nil {
			return nil, err
		}
		if len(locked) > 0 {
			sigma1 = max(sigma1, math.Sqrt(max(locked[0], 0)))
		}
		sigma1 = max(sigma1, math.Sqrt(max(theta[0], 0)))
		// The residual of Ritz pair j is X_next·R·y_last + L·(CL·y_j): the
		// second part, along the locked vectors, is as small as their
		// residuals but not negligible against the tolerance of the
		// smaller singular values. And since a locked vector's residual
		// reaches every later Ritz vector that way, a pair is locked only
		// when its residual is within the tolerance of the smallest wanted
		// singular value (its current Ritz estimate, which is low), not
		// just its own: otherwise the last triplets of a small problem can
		// stall above their tolerance. On word tables that costs no
		// products.
		cand := min(nvec, k-nlock)
		cly := ws.cly[:nlock*cand]
		clear(cly)
		gemmAdd(nlock, cand, na, view{data: cl, rs: tdim, cs: 1}, view{data: yv, rs: nvec, cs: 1}, cly, cand, false)
		smallest := math.Sqrt(max(theta[min(k-nlock, na)-1], 0))
		limit := p.tol * sigma1 * max(smallest, 1e-8*sigma1)
		conv := 0
		for conv < cand {
			var lr float64
			for l := 0; l < nlock; l++ {
				lr += cly[l*cand+conv] * cly[l*cand+conv]
			}
			if math.Hypot(ritzResidual(lastR, b, yv, nvec, na, conv), math.Sqrt(lr)) > limit {
				break
			}
			conv++
		}
		var firstRes float64 // the leading unconverged pair's residual
		if conv < cand {
			var lr float64
			for l := 0; l < nlock; l++ {
				lr += cly[l*cand+conv] * cly[l*cand+conv]
			}
			firstRes = math.Hypot(ritzResidual(lastR, b, yv, nvec, na, conv), math.Sqrt(lr))
		}
		diag.observe(locked, theta[:na], k, firstRes, sigma1, conv)
		want := k - nlock - conv
		if want > 0 && !full {
			continue // an early check that did not finish: extend on
		}
		switch {
		case want > 0 && conv > 0:
			hist, diag.Need = hist[:0], 0
		case want > 0:
			// q over the restarts that lock nothing: a stall when the last
			// cycle's rate would take more than krylovStallCycles more.
			q := firstRes / limit
			hist = append(hist, stallPoint{q, op.n})
			if len(hist) < 2 || !stalled(hist[len(hist)-2:], q) {
				break
			}
			m := min(2*mpd, p.mpdMax)
			diag.Window, diag.Capped = mpd, m > mpd && !p.fits(c, ld, m)
			if m > mpd && !diag.Capped {
				p.report("restart %d: the leading residuals stall (a cluster of close singular values): the active basis grows from %d to %d columns", cycle+1, mpd, m)
				grow(m)
				hist = hist[:0]
				checkFrom = mpd
				continue
			}
			// At the widest window, after krylovRateRestarts restarts
			// that lock nothing: stop now when their rate says the budget
			// (products, or the context's deadline) cannot be enough. The
			// residual alternates between restarts, so the rate is that of
			// the smaller of the last two against the smaller of the first
			// two.
			if len(hist) < krylovRateRestarts {
				break
			}
			h := hist[len(hist)-krylovRateRestarts:]
			a, z := min(h[0].q, h[1].q), min(h[len(h)-2].q, q)
			need := math.Inf(1)
			if z < a {
				need = math.Log(z) / math.Log(a/z) * float64(op.n-h[1].n)
			}
			diag.Need = int(min(need, 1e15))
			if need > krylovStopMargin*float64(p.maxProducts-op.n) {
				diag.Converged, diag.Products, diag.Early = nlock, op.n, true
				return nil, diag
			}
			if dl, ok := ctx.Deadline(); ok {
				perProduct := time.Since(start).Seconds() / float64(op.n)
				if krylovStopMargin*time.Until(dl).Seconds() < need*perProduct {
					diag.Converged, diag.Products, diag.Deadline, diag.Early = nlock, op.n, true, true
					return nil, diag
				}
			}
		}
		keep := 0
		if want > 0 {
			keep = max(min(want+max(b, (mpd-want)/3), krylovKeep*mpd/100, na-conv-b, nvec-conv), 0)
		}
		// Rotate: the first conv+keep active columns become the Ritz
		// vectors V·Y; then the pending block moves up behind them.
		rotate(basis, ld, c, nlock, na, yv, nvec, conv+keep, ws.rot)
		locked = append(locked, theta[:conv]...)
		cycle++
		p.report("restart %d: %d of %d triplets converged, %d column-products", cycle, nlock+conv, k, op.n)
		if p.observe != nil {
			snap := *diag
			snap.Converged, snap.Products = nlock+conv, op.n
			p.observe(&snap)
		}
		if want == 0 {
			nlock += conv
			break
		}
		copyColumns(basis, ld, nlock+conv+keep, basis, ld, nlock+na, b, c)
		// The kept vectors' coupling to the locked ones: CL·Y for the old
		// locked vectors, zero for the new (they are Ritz vectors of the
		// same T, orthogonal to the kept ones and to X_next).
		if keep > 0 {
			tmp := ws.cly[:nlock*keep]
			clear(tmp)
			gemmAdd(nlock, keep, na, view{data: cl, rs: tdim, cs: 1}, view{data: yv[conv:], rs: nvec, cs: 1}, tmp, keep, false)
			for l := 0; l < nlock; l++ {
				copy(cl[l*tdim:l*tdim+keep], tmp[l*keep:(l+1)*keep])
			}
			for l := nlock; l < nlock+conv; l++ {
				clear(cl[l*tdim : l*tdim+keep])
			}
		}
		nlock += conv
		clear(t)
		for i := 0; i < keep; i++ {
			t[i*tdim+i] = theta[conv+i]
		}
		next, nb, first = keep, keep+b, keep
		// Early checks once the missing triplets would fit in what one
		// more cycle adds.
		checkFrom = mpd
		if want <= krylovCheckWant*(mpd-keep)/100 {
			checkFrom = keep + krylovCheckEvery*b
		}
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
		forChunks(r, copyRows, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				src := yr.Data[i*yr.Stride : i*yr.Stride+j1-j0]
				dst := ur.Data[i*ur.Stride+j0 : i*ur.Stride+j1]
				for j, val := range src {
					dst[j] = val * n[j]
				}
			}
		})
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
	copyColumns(basis, ld, col, w, b, 0, b, len(w)/b)
}

// copyColumns copies columns [from, from+b) of src (stride lds) into
// columns [to, to+b) of dst (stride ldd) for c rows, a block of rows per
// goroutine (copies, so the result does not depend on the split).
func copyColumns(dst []float64, ldd, to int, src []float64, lds, from, b, c int) {
	forChunks(c, copyRows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			copy(dst[i*ldd+to:i*ldd+to+b], src[i*lds+from:i*lds+from+b])
		}
	})
}

// copyRows is copyColumns' block of rows.
const copyRows = 4096

func maxColumnNorm(w []float64, c, b int) float64 {
	ss := make([]float64, b)
	for i := 0; i < c; i++ {
		for j, v := range w[i*b : (i+1)*b] {
			ss[j] += v * v
		}
	}
	return math.Sqrt(slices.Max(ss))
}

// orthogonalize removes from w (c×b, compact) its components along basis
// columns [0, jcols) and adds the coefficients into coef (jcols×b), by
// classical Gram–Schmidt on the GEMM kernel: a pass against the local
// columns [lo, jcols) (the newest block and those it couples to, which
// hold nearly all of w), then one against all columns, which takes out
// what rounding and the locked vectors' residuals left (M·X has only
// residual-sized components along the locked vectors L, as M·L = L·Θ + E
// and X ⟂ L). When that second pass removes more than half of a column,
// w was nearly in the basis' span and its rounding is no longer small
// against what remains, so a third pass against all columns follows
// (Daniel, Gragg, Kaufman & Stewart's criterion). In exact arithmetic the
// second pass removes nothing: the full passes cost one product with the
// basis each way instead of the two that Gram–Schmidt twice against
// everything would.
func orthogonalize(w []float64, c, b int, basis []float64, ld, lo, jcols int, coef, tmp, norms []float64) {
	if jcols == 0 {
		return
	}
	pass := func(from int) {
		n := jcols - from
		t := tmp[:n*b]
		clear(t)
		gemmTN(n, b, c, basis[from:], ld, w, b, t, b)
		gemmNNSub(c, b, n, basis[from:], ld, t, b, w, b)
		for i, v := range t {
			coef[from*b+i] += v
		}
	}
	pass(lo)
	before := norms[:b]
	columnNorms2(before, w, c, b)
	pass(0)
	after := norms[b : 2*b]
	columnNorms2(after, w, c, b)
	for j := range after {
		if after[j] < before[j]/4 { // the norm fell below half
			pass(0)
			return
		}
	}
}

// columnNorms2 sets out[j] to the squared norm of column j of w (c×b).
func columnNorms2(out, w []float64, c, b int) {
	clear(out)
	for i := 0; i < c; i++ {
		for j, v := range w[i*b : (i+1)*b] {
			out[j] += v * v
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
	qr, mgs, rot, norms, cly []float64
	eig                      *symEigWork
}

// rotateRows is the row block of rotate's scratch.
const rotateRows = 2048

func newKrylovWork(c, k, b, tdim int) *krylovWork {
	return &krylovWork{
		cly:   make([]float64, k*tdim),
		qr:    make([]float64, min(mulRightInPlaceRows, c)*b),
		mgs:   make([]float64, c*b),
		rot:   make([]float64, min(rotateRows, c)*tdim),
		norms: make([]float64, 2*b),
		eig:   newSymEigWork(tdim),
	}
}

// ritzResidual is ‖M·V·y_j − θ_j·V·y_j‖ = ‖R·y_last‖ for Ritz vector j,
// y_last being its entries on the last block of the na-dimensional
// active basis (yv is na×ldy).
func ritzResidual(rr []float64, b int, yv []float64, ldy, na, j int) float64 {
	var s float64
	for i := 0; i < b; i++ {
		var v float64
		for p := i; p < b; p++ {
			v += rr[i*b+p] * yv[(na-b+p)*ldy+j]
		}
		s += v * v
	}
	return math.Sqrt(s)
}

// rotate sets basis columns [nlock, nlock+m) to V·Y[:, :m], V being the
// na active columns and Y na×ldy, in place a block of rows at a time.
func rotate(basis []float64, ld, c, nlock, na int, yv []float64, ldy, m int, tmp []float64) {
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
		gemmAdd(hi-lo, m, na, view{data: tmp, rs: na, cs: 1}, view{data: yv, rs: ldy, cs: 1}, basis[lo*ld+nlock:], ld, false)
	}
}

// fits reports whether the backend's buffers with an active basis of m
// columns, and the old basis (ld columns) while it is copied, stay within
// Options.MaxBytes (always, when it is not set).
func (p krylovPlan) fits(c, ld, m int) bool {
	if p.maxBytes <= 0 {
		return true
	}
	pl := &planner{}
	planKrylovWindow(pl, p.r, c, p.k, p.b, m)
	return pl.total()+8*int64(c)*int64(ld) <= p.maxBytes
}

// NotConvergedError is the krylov backend's failure to bring every
// triplet within the tolerance: what it reached, what it saw of the
// spectrum and why it stopped. It wraps ErrNotConverged, and also
// context.DeadlineExceeded when time was the reason.
type NotConvergedError struct {
	Converged, Rank int     // triplets within the tolerance, of Rank
	Tol             float64 // Options.Tol
	Products, Limit int     // column-products made, and the budget
	// What the last Rayleigh–Ritz step saw (its estimates, zero before
	// the first): Spread = (σ_1 − σ_{k+1})/σ_1, Gap = (σ_k − σ_{k+1})/σ_1,
	// Within = how many singular values of the basis lie within 2·Spread
	// of σ_1, and Residual, the smallest residual relative to σ_1 that a
	// triplet not yet converged reached.
	Spread, Gap float64
	Within      int
	Residual    float64
	// Need is the column-products that the leading unconverged residual
	// would still need at the rate of the last cycles (0: not measured).
	Need int
	// Early is set when the run stopped on that estimate, before its
	// budget was spent: over twice the products left, or, with Deadline,
	// over twice the time left before the context's deadline.
	Early bool
	// Deadline is set when time was the reason: the deadline passed, or
	// (Early) the rate said it would first.
	Deadline bool
	// Window is the active basis' width at the end; Capped is set when
	// Options.MaxBytes kept it from growing wider.
	Window int
	Capped bool
}

func (e *NotConvergedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d triplets within tolerance %g after %d column-products (limit %d): %v",
		e.Converged, e.Rank, e.Tol, e.Products, e.Limit, ErrNotConverged)
	if e.Residual == 0 && e.Spread == 0 {
		return b.String()
	}
	if e.Spread < krylovClusterSpread {
		fmt.Fprintf(&b, "; the top of the spectrum is a cluster (Ritz estimates): σ_1..σ_%d lie within %.2g of σ_1 (relative), σ_%d − σ_%d = %.2g·σ_1, and %d singular values of the basis lie within %.2g",
			e.Rank+1, e.Spread, e.Rank, e.Rank+1, e.Gap, e.Within, 2*e.Spread)
	} else {
		fmt.Fprintf(&b, "; σ_%d − σ_%d = %.2g·σ_1", e.Rank, e.Rank+1, e.Gap)
	}
	if e.Residual > 0 {
		fmt.Fprintf(&b, "; the smallest residual of a triplet not converged reached %.2g·σ_1", e.Residual)
	}
	if e.Capped {
		fmt.Fprintf(&b, "; the memory budget kept the active basis at %d columns", e.Window)
	}
	if e.Need > 0 {
		fmt.Fprintf(&b, "; at the rate observed it needs about %d more column-products", e.Need)
	}
	switch {
	case e.Early && e.Deadline:
		b.WriteString(", far more than the time left allows: stopped early")
	case e.Early:
		b.WriteString(", far more than the budget allows: stopped early")
	case e.Deadline:
		b.WriteString("; out of time")
	}
	b.WriteString(". To converge: loosen the tolerance, take a rank that ends where the singular values part")
	if e.Spread < krylovClusterSpread {
		fmt.Fprintf(&b, " (at least %d, past the cluster)", e.Within)
	}
	b.WriteString(", or allow more column-products or time")
	if e.Capped {
		b.WriteString(", or more memory")
	}
	return b.String()
}

// Unwrap makes errors.Is see ErrNotConverged, and the deadline when that
// was the reason.
func (e *NotConvergedError) Unwrap() []error {
	if e.Deadline {
		return []error{ErrNotConverged, context.DeadlineExceeded}
	}
	return []error{ErrNotConverged}
}

// krylovClusterSpread: when σ_1..σ_{k+1} lie within this of σ_1
// (relative), a failure describes them as a cluster.
const krylovClusterSpread = 0.01

// observe records a Rayleigh–Ritz step for the failure's message: the
// locked values' and the window's θ (σ²), and the leading unconverged
// residual (in M's terms, 0 when every candidate converged).
func (e *NotConvergedError) observe(locked, theta []float64, k int, res, sigma1 float64, conv int) {
	if sigma1 <= 0 {
		return
	}
	sv := make([]float64, 0, len(locked)+len(theta))
	for _, th := range locked {
		sv = append(sv, math.Sqrt(max(th, 0)))
	}
	for _, th := range theta {
		sv = append(sv, math.Sqrt(max(th, 0)))
	}
	slices.SortFunc(sv, func(a, b float64) int { return cmp.Compare(b, a) })
	if len(sv) > k {
		e.Spread = (sv[0] - sv[k]) / sv[0]
		e.Gap = (sv[k-1] - sv[k]) / sv[0]
		e.Within = 0
		for _, v := range sv {
			if v >= sv[0]*(1-2*e.Spread) {
				e.Within++
			}
		}
	}
	if res > 0 && conv < len(theta) {
		// ‖M·v − θ·v‖ is σ times the triplet's residual.
		if s := math.Sqrt(max(theta[conv], 0)); s > 0 {
			rel := res / s / sigma1
			if e.Residual == 0 || rel < e.Residual {
				e.Residual = rel
			}
		}
	}
}
