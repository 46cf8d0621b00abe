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
	Seed       uint64 // seeds the Gaussian test matrix
	// MaxDenseBytes, when > 0, makes a backend that materialises the r×c matrix
	// refuse before allocating when r·c·8 exceeds it (ErrOverBudget).
	MaxDenseBytes int64
}

// DefaultOptions returns the paper's settings for rank k. The harness's
// svd.* settings carry the same defaults in their tags (they fix trial ids);
// a harness test keeps the two equal.
func DefaultOptions(k int) Options {
	return Options{Rank: k, Oversample: 10, PowerIters: -1, Normalizer: "lu", Seed: 1}
}

// Result holds a truncated SVD A ≈ U·diag(S)·Vᵀ with S in decreasing order.
type Result struct {
	S []float64
	U *mat.Dense // r×k
	V *mat.Dense // c×k
}

// Backend computes truncated SVDs.
type Backend interface {
	Name() string
	Decompose(ctx context.Context, op Operator, opt Options) (*Result, error)
}

// ErrOverBudget reports that a backend refused to allocate beyond Options.MaxDenseBytes.
var ErrOverBudget = errors.New("over memory budget")

// Names lists the backends in the order reports show them.
var Names = []string{"dense", "randomized", "dssvd"}

// Get returns the backend with the given name.
func Get(name string) (Backend, error) {
	switch name {
	case "dense":
		return Dense{}, nil
	case "randomized":
		return Randomized{}, nil
	case "dssvd":
		return DSSVD{}, nil
	}
	return nil, fmt.Errorf("unknown SVD backend %q (allowed: dense, randomized, dssvd)", name)
}
