package svd

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Operator is a linear map A (r×c) known through its products with dense blocks.
// Implementations must be deterministic: the same inputs give the same bits
// whatever GOMAXPROCS is.
type Operator interface {
	Dims() (r, c int)
	// MulTo sets dst (r×k) = A·x, x is c×k.
	MulTo(dst, x *mat.Dense)
	// MulTTo sets dst (c×k) = Aᵀ·x, x is r×k.
	MulTTo(dst, x *mat.Dense)
}

// Materializer is an Operator that can build its dense matrix. The dense and
// randomized backends need it; DSSVD never calls it. Materialize returns a
// new matrix owned by the caller: the dense backend factorises it in place
// rather than holding a second r×c copy.
type Materializer interface {
	Operator
	Materialize() *mat.Dense
}

// Options configure a truncated SVD. Zero values are not defaults: callers
// (the harness) resolve defaults explicitly, see DefaultOptions.
type Options struct {
	Rank       int    // number of singular triplets wanted (k)
	Oversample int    // extra test vectors (p); paper: 10
	PowerIters int    // power iterations (q); -1 = paper's rule: 7 if k < 0.1·min(r,c) else 4
	Normalizer string // between power iterations: "lu", "qr" or "none"
	// Projected picks who solves the randomized and dssvd backends' projected
	// problem (the l×l Gram eigenproblem and the products that form U and
	// V): "" or "go" is pure Go; "lapack" is the system's LAPACK and BLAS
	// (dsyevd, dgemm on OpenBLAS: minutes instead of hours at l = 8,010),
	// only in a -tags lapack build (ErrNotBuilt otherwise). The two agree to
	// rounding, not bit for bit; lapack's bits are fixed for a machine and
	// OpenBLAS thread count.
	Projected string
	Seed      uint64 // seeds the Gaussian test matrix
	// MaxDenseBytes, when > 0, makes a backend that materialises the r×c matrix
	// refuse before allocating when r·c·8 exceeds it (ErrOverBudget).
	MaxDenseBytes int64
	// MaxBytes, when > 0, makes every backend refuse before allocating when
	// the peak of its MemoryPlan (see Plan) exceeds it (ErrOverBudget, with
	// the plan's sizes in the message).
	MaxBytes int64
	// Tol is the krylov backend's stopping tolerance: it stops when every
	// one of the Rank triplets has residual ≤ Tol·σ_1 (see Accuracy). It
	// must be in (0, 1); DefaultOptions sets DefaultTol. Other backends
	// ignore it.
	Tol float64
	// MaxProducts bounds the krylov backend's work in column-products (each
	// column of a block multiplied by A or Aᵀ counts one); when it is
	// reached before convergence the backend fails with ErrNotConverged.
	// ≤ 0 means 100·(Rank + 64). Other backends ignore it.
	MaxProducts int
	// Check makes every backend measure its result's residuals after
	// decomposing and store them in Result.Accuracy (see Check; it costs
	// Rank products with A and Rank with Aᵀ). The krylov backend always
	// does, at the cost of Rank products with Aᵀ.
	Check bool
	// Progress, when not nil, is told each step of a long decomposition
	// (the sketch's power iterations, krylov's restarts: "power iteration
	// 3 of 7", "412 of 1000 triplets converged, 6,144 products"), so that a
	// run of an hour shows where it is. It must return quickly; it never
	// changes the result.
	Progress func(step string)
	// Observe, when not nil, is told after each krylov restart what the
	// decomposition has reached so far, as the error it would fail with
	// then (a copy): a caller that stops waiting for it (a time budget
	// whose grace ran out inside a long product) can still say which
	// triplets converged, the spectrum it saw and the best residual. It
	// must return quickly; it never changes the result.
	Observe func(*NotConvergedError)
}

// report calls o.Progress when it is set.
func (o Options) report(format string, args ...any) {
	if o.Progress != nil {
		o.Progress(fmt.Sprintf(format, args...))
	}
}

// DefaultTol is the krylov backend's default tolerance. Residuals of
// 1e-8·σ_1 put the singular values of word tables within about 1e-12
// relative of the exact ones (the error of a singular value is of the
// order of the squared residual over the gap) and their vectors within
// about 1e-7, far below anything the evaluations see, and the last
// factor of 100 costs only part of one restart cycle.
const DefaultTol = 1e-8

// DefaultOptions returns the paper's settings for rank k. The harness's
// svd.* settings carry the same defaults in their tags (they fix trial ids);
// a harness test keeps the two equal.
func DefaultOptions(k int) Options {
	return Options{Rank: k, Oversample: 10, PowerIters: -1, Normalizer: "lu", Seed: 1, Tol: DefaultTol}
}

// Result holds a truncated SVD A ≈ U·diag(S)·Vᵀ with S in decreasing order.
type Result struct {
	S []float64
	U *mat.Dense // r×k
	V *mat.Dense // c×k
	// Products is the number of column-products the backend made: each
	// column of a block multiplied by A or by Aᵀ counts one (the dense
	// backends, which never multiply through the operator, report 0).
	Products int
	// Accuracy holds the measured residuals when Options.Check was set, and
	// always for the krylov backend; nil otherwise.
	Accuracy *Accuracy
}

// Backend computes truncated SVDs.
type Backend interface {
	Name() string
	Decompose(ctx context.Context, op Operator, opt Options) (*Result, error)
}

// ErrOverBudget reports that a backend refused to allocate beyond
// Options.MaxDenseBytes or Options.MaxBytes.
var ErrOverBudget = errors.New("over memory budget")

// ErrNotConverged reports that the krylov backend used up
// Options.MaxProducts before every triplet met Options.Tol.
var ErrNotConverged = errors.New("did not converge")

// Names lists the backends in the order reports show them.
var Names = []string{"dense", "lapack", "randomized", "dssvd", "krylov"}

// Built lists the backends this binary can run, in the order of Names:
// all but lapack unless it was built with -tags lapack.
func Built() []string {
	var out []string
	for _, n := range Names {
		if n != "lapack" || nativeSVD != nil {
			out = append(out, n)
		}
	}
	return out
}

// Get returns the backend with the given name.
func Get(name string) (Backend, error) {
	switch name {
	case "dense":
		return Dense{}, nil
	case "lapack":
		return LAPACK{}, nil
	case "randomized":
		return Randomized{}, nil
	case "dssvd":
		return DSSVD{}, nil
	case "krylov":
		return Krylov{}, nil
	}
	return nil, fmt.Errorf("unknown SVD backend %q (allowed: dense, lapack, randomized, dssvd, krylov)", name)
}
