package svd

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Dense computes the exact thin SVD of the materialised matrix with LAPACK
// (gonum's Gesvd) and keeps the leading Rank triplets. Only Options.Rank
// and MaxDenseBytes matter to it.
type Dense struct{}

// Randomized is the randomized SVD of Halko, Martinsson & Tropp (2011), as
// in scikit-learn, run on the materialised dense matrix.
type Randomized struct{}

// DSSVD is the paper's delayed sparse randomized SVD: the same algorithm as
// Randomized driven only through the operator's products, so it never
// builds anything r×c.
type DSSVD struct{}

// LAPACK is Dense on the system's LAPACK (dgesdd on OpenBLAS), the fair
// dense baseline: it needs a binary built with -tags lapack and returns
// ErrNotBuilt otherwise.
type LAPACK struct{}

// Name returns "dense".
func (Dense) Name() string { return "dense" }

// Name returns "lapack".
func (LAPACK) Name() string { return "lapack" }

// Name returns "randomized".
func (Randomized) Name() string { return "randomized" }

// Name returns "dssvd".
func (DSSVD) Name() string { return "dssvd" }

// Decompose returns the leading opt.Rank singular triplets of op, which must
// be a Materializer.
func (b Dense) Decompose(ctx context.Context, op Operator, opt Options) (*Result, error) {
	return denseDecompose(ctx, b.Name(), denseSVD, op, opt)
}

// Decompose is Dense.Decompose on the system's LAPACK.
func (b LAPACK) Decompose(ctx context.Context, op Operator, opt Options) (*Result, error) {
	if nativeSVD == nil {
		return nil, fmt.Errorf("%s SVD: %w: build with -tags lapack (cgo; Debian: apt install libopenblas-dev liblapacke-dev)", b.Name(), ErrNotBuilt)
	}
	return denseDecompose(ctx, b.Name(), *nativeSVD, op, opt)
}

func denseDecompose(ctx context.Context, name string, impl denseImpl, op Operator, opt Options) (*Result, error) {
	r, c := op.Dims()
	if err := checkRank(opt.Rank, r, c); err != nil {
		return nil, fmt.Errorf("%s SVD: %w", name, err)
	}
	if err := checkPlan(name, r, c, opt); err != nil {
		return nil, err
	}
	a, err := materialize(ctx, name, op, opt)
	if err != nil {
		return nil, err
	}
	s, u, vt, err := thinSVDCtx(ctx, impl, a) // overwrites a
	if err != nil {
		return nil, fmt.Errorf("%s SVD: %w", name, err)
	}
	k := opt.Rank
	res := &Result{S: s[:k:k], U: keepColumns(u, k), V: firstRowsT(vt, k)}
	fixSigns(res.U, res.V)
	return finish(ctx, name, op, res, 0, opt)
}

// Decompose materialises op (a Materializer) and runs the randomized SVD on
// the dense matrix.
func (b Randomized) Decompose(ctx context.Context, op Operator, opt Options) (*Result, error) {
	r, c := op.Dims()
	p, err := newPlan(opt, r, c)
	if err != nil {
		return nil, fmt.Errorf("%s SVD: %w", b.Name(), err)
	}
	if err := checkPlan(b.Name(), r, c, opt); err != nil {
		return nil, err
	}
	a, err := materialize(ctx, b.Name(), op, opt)
	if err != nil {
		return nil, err
	}
	cnt := &counter{Operator: DenseOperator{A: a}}
	res, err := randomizedSVD(ctx, cnt, p)
	if err != nil {
		return nil, fmt.Errorf("%s SVD: %w", b.Name(), err)
	}
	return finish(ctx, b.Name(), op, res, cnt.n, opt)
}

// Decompose runs the randomized SVD through op's products alone.
func (b DSSVD) Decompose(ctx context.Context, op Operator, opt Options) (*Result, error) {
	r, c := op.Dims()
	p, err := newPlan(opt, r, c)
	if err != nil {
		return nil, fmt.Errorf("%s SVD: %w", b.Name(), err)
	}
	if err := checkPlan(b.Name(), r, c, opt); err != nil {
		return nil, err
	}
	cnt := &counter{Operator: op}
	res, err := randomizedSVD(ctx, cnt, p)
	if err != nil {
		return nil, fmt.Errorf("%s SVD: %w", b.Name(), err)
	}
	return finish(ctx, b.Name(), op, res, cnt.n, opt)
}

func checkRank(k, r, c int) error {
	if k < 1 {
		return fmt.Errorf("rank %d: must be at least 1", k)
	}
	if k > min(r, c) {
		return fmt.Errorf("rank %d exceeds min(rows, cols) = %d of the %d×%d matrix", k, min(r, c), r, c)
	}
	return nil
}

// materialize builds op's dense matrix after checking the memory budget, so
// an over-budget run fails before allocating anything.
func materialize(ctx context.Context, name string, op Operator, opt Options) (*mat.Dense, error) {
	m, ok := op.(Materializer)
	if !ok {
		return nil, fmt.Errorf("%s SVD needs the dense matrix, but the operator %T cannot materialise it (use the dssvd backend)", name, op)
	}
	r, c := op.Dims()
	need := int64(r) * int64(c) * 8
	if opt.MaxDenseBytes > 0 && need > opt.MaxDenseBytes {
		return nil, fmt.Errorf("%s SVD: the dense %d×%d matrix needs %d bytes, more than the budget of %d bytes: %w",
			name, r, c, need, opt.MaxDenseBytes, ErrOverBudget)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s SVD: %w", name, err)
	}
	a := m.Materialize()
	if ar, ac := a.Dims(); ar != r || ac != c {
		return nil, fmt.Errorf("%s SVD: operator %T materialised a %d×%d matrix but has dimensions %d×%d", name, op, ar, ac, r, c)
	}
	return a, nil
}

// plan is a validated randomized-SVD configuration.
type plan struct {
	k, l, q   int // rank, sketch size, power iterations
	normalize func(*mat.Dense)
	seed      uint64
	report    func(format string, args ...any) // Options.Progress
	native    *projectedImpl                   // Options.Projected = "lapack"
}

// newPlan checks opt against an r×c operator and resolves the paper's rule
// for PowerIters = -1. The sketch size k+p is clamped to min(r, c): a larger
// sketch cannot hold more independent columns (and at min(r, c) the sketch
// spans the whole range, so the result is exact).
func newPlan(opt Options, r, c int) (plan, error) {
	if err := checkRank(opt.Rank, r, c); err != nil {
		return plan{}, err
	}
	if opt.Oversample < 0 {
		return plan{}, fmt.Errorf("oversample %d: must be ≥ 0", opt.Oversample)
	}
	p := plan{k: opt.Rank, l: min(opt.Rank+opt.Oversample, min(r, c)), q: opt.PowerIters, seed: opt.Seed, report: opt.report}
	switch {
	case opt.PowerIters == -1:
		// scikit-learn's "auto" rule, which the paper's runs used.
		p.q = 4
		if float64(opt.Rank) < 0.1*float64(min(r, c)) {
			p.q = 7
		}
	case opt.PowerIters < -1:
		return plan{}, fmt.Errorf("power iterations %d: must be ≥ 0, or -1 for the paper's rule", opt.PowerIters)
	}
	switch opt.Projected {
	case "", "go":
	case "lapack":
		if nativeProjected == nil {
			return plan{}, fmt.Errorf("projected problem on lapack: %w: build with -tags lapack (cgo; Debian: apt install libopenblas-dev liblapacke-dev)", ErrNotBuilt)
		}
		p.native = nativeProjected
	default:
		return plan{}, fmt.Errorf("unknown projected-problem implementation %q (allowed: go, lapack)", opt.Projected)
	}
	switch opt.Normalizer {
	case "lu":
		p.normalize = luNormalize
	case "qr":
		p.normalize = orthonormalize
	case "none":
		p.normalize = func(*mat.Dense) {}
	default:
		return plan{}, fmt.Errorf("unknown power-iteration normalizer %q (allowed: lu, qr, none)", opt.Normalizer)
	}
	return p, nil
}

// pcgStream fixes the second PCG word, so Options.Seed alone picks the
// random stream.
const pcgStream = 0x6b63616c6162 // "kcalab"

// randomizedSVD is Halko et al.'s Algorithms 4.4 + 5.1 with scikit-learn's
// choices: a Gaussian c×l test matrix Ω, Y = A·Ω, q power iterations
// Y ← A·norm(Aᵀ·norm(Y)), Q = qr(Y), then the exact SVD of the small
// B = Qᵀ·A (computed as its transpose Aᵀ·Q, c×l) gives
// A ≈ (Q·V_B)·Σ·U_Bᵀ. Every touch of A is an op.MulTo or op.MulTTo on
// r×l or c×l blocks.
func randomizedSVD(ctx context.Context, op Operator, p plan) (*Result, error) {
	r, c := op.Dims()
	rng := rand.New(rand.NewPCG(p.seed, pcgStream))
	z := mat.NewDense(c, p.l, nil)
	zd := z.RawMatrix().Data
	for i := range zd {
		zd[i] = rng.NormFloat64()
	}
	y := mat.NewDense(r, p.l, nil)
	p.report("sketch Y = A·Ω, %d×%d", r, p.l)
	op.MulTo(y, z)
	for it := 0; it < p.q; it++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("power iteration %d of %d: %w", it+1, p.q, err)
		}
		p.report("power iteration %d of %d", it+1, p.q)
		p.normalize(y)
		op.MulTTo(z, y)
		p.normalize(z)
		op.MulTo(y, z)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.report("QR of the %d×%d sketch", r, p.l)
	orthonormalizeGram(y) // Q, r×l
	op.MulTTo(z, y)       // Bᵀ = Aᵀ·Q, c×l
	p.report("SVD of the %d×%d projected matrix", p.l, c)
	s, ub, vb, err := sketchSVD(z, p.k, p.native)
	if err != nil {
		return nil, err
	}
	// B = Qᵀ·A = vb·Σ·ubᵀ, so A ≈ (Q·vb)·Σ·ubᵀ. Both factors are formed in
	// the storage of Q and Bᵀ, so the peak stays at two blocks (Q, Bᵀ) and
	// an l×l one even when k is in the thousands.
	vr := vb.RawMatrix()
	res := &Result{S: s[:p.k:p.k], U: mulRight(y, vr.Data, vr.Stride, p.k, p.native), V: ub}
	fixSigns(res.U, res.V)
	return res, nil
}

// thinSVDCtx is thinSVD that returns as soon as ctx is done. LAPACK's dense
// SVD cannot be interrupted, so it runs on its own goroutine and, on
// cancel, is left to finish unobserved (its result is dropped): Ctrl-C or a
// time budget then takes effect at once instead of after minutes.
func thinSVDCtx(ctx context.Context, impl denseImpl, a *mat.Dense) (s []float64, u, vt *mat.Dense, err error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	type out struct {
		s     []float64
		u, vt *mat.Dense
		err   error
	}
	done := make(chan out, 1)
	go func() {
		var o out
		o.s, o.u, o.vt, o.err = impl.svd(a)
		done <- o
	}()
	select {
	case o := <-done:
		return o.s, o.u, o.vt, o.err
	case <-ctx.Done():
		return nil, nil, nil, ctx.Err()
	}
}
