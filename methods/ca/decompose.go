package ca

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"kcalab/methods/svd"
)

// KernelPlain decomposes the given matrix as it is (K = I, ⊖ already
// applied by a transform such as kca.SPPMI). Only Decompose accepts it.
const KernelPlain Kernel = "plain"

// Decomposition is the memory-lean result of Decompose: what word vectors
// need and nothing of size columns×k.
type Decomposition struct {
	Kernel Kernel    // "ca" ("lca" is reported as "ca"), "gini", "plain", or "sca-paper" (sca.DecomposePaper)
	S      []float64 // σ_1 ≥ … ≥ σ_k
	U      *mat.Dense
	// RowMass is the row weighting w of the kernel's row metric K^r = D(w)^-1,
	// so that vectors.Coordinates(U, S, RowMass, α) = (K^r)^½·U·Σ^α gives the
	// rows' coordinates as Analyze does: the masses r for ca, all ones for
	// gini and plain (K = I). A row with no stored entry has an exactly zero
	// row of U, so its vector is zero in every kernel.
	RowMass []float64
	// TotalInertia is the sum of all squared singular values of the full
	// kernel matrix, from the table: χ²/n for ca, ‖P − r·cᵀ‖_F² for gini,
	// ‖N‖_F² for plain.
	TotalInertia float64
	// Products is the backend's column-products with the kernel matrix or
	// its transpose (svd.Result.Products).
	Products int
	// Accuracy is the backend's measured residuals: always for krylov, for
	// the others when svd.Options.Check is set (it needs V, which
	// Decompose then drops); nil otherwise.
	Accuracy *svd.Accuracy
}

// Decompose computes the leading opt.Rank singular values and left singular
// vectors of the kernel matrix of n, with backend. For ca, lca and gini it
// decomposes the same delayed operator as Analyze (n must be a count
// table; rank at most min(rows, cols) − 1). For plain the operator is n
// itself through sparse products, with no rank-one term (any finite
// entries; rank at most min(rows, cols)).
//
// Unlike Analyze it builds no coordinate matrices: it keeps S, U (rows×k)
// and the row weights, and drops the backend's V, so a word table of V
// words costs one V×k matrix beyond the backend's working memory.
func Decompose(ctx context.Context, n Table, kernel Kernel, backend svd.Backend, opt svd.Options) (*Decomposition, error) {
	if backend == nil {
		return nil, fmt.Errorf("ca: nil SVD backend")
	}
	if isNil(n) {
		return nil, fmt.Errorf("ca: nil table")
	}
	r, c := n.Dims()
	dec := &Decomposition{Kernel: kernel}
	var op svd.Operator
	limit := min(r, c) - 1
	switch kernel {
	case KernelCA, KernelLCA, KernelGini:
		m, err := marginsOf(n)
		if err != nil {
			return nil, err
		}
		if kernel == KernelGini {
			op, err = newGini(n, m)
			dec.TotalInertia = giniTotalInertia(n, m)
			dec.RowMass = ones(r)
		} else {
			dec.Kernel = KernelCA
			op, err = newCA(n, m)
			dec.TotalInertia = caTotalInertia(n, m)
			dec.RowMass = m.row
		}
		if err != nil {
			return nil, err
		}
	case KernelPlain:
		if err := checkPlain(n); err != nil {
			return nil, err
		}
		op = plainOperator{n}
		dec.TotalInertia = frobenius2(n)
		dec.RowMass = ones(r)
		limit = min(r, c)
	default:
		return nil, fmt.Errorf("ca: unknown kernel %q (allowed: ca, lca, gini, plain)", kernel)
	}
	if opt.Rank < 1 || opt.Rank > limit {
		return nil, fmt.Errorf("ca: rank %d out of range: the %s kernel of a %d×%d table has %d dimensions, so the rank must be in 1..%d",
			opt.Rank, dec.Kernel, r, c, limit, limit)
	}
	res, err := backend.Decompose(ctx, op, opt)
	if err == nil {
		err = tableErr(n) // a file-backed table's read error zeroes a product
	}
	if err != nil {
		return nil, fmt.Errorf("ca: %s of a %d×%d table: %w", dec.Kernel, r, c, err)
	}
	dec.S, dec.U = res.S, res.U
	dec.Products, dec.Accuracy = res.Products, res.Accuracy
	res.V = nil // c×k: not needed for word vectors; let it go
	zeroEmptyRows(dec.U, n)
	if err := tableErr(n); err != nil {
		return nil, fmt.Errorf("ca: %s of a %d×%d table: %w", dec.Kernel, r, c, err)
	}
	return dec, nil
}

// plainOperator is a sparse matrix as an svd.Operator.
type plainOperator struct{ n Table }

var _ svd.Materializer = plainOperator{}

func (p plainOperator) Dims() (r, c int)         { return p.n.Dims() }
func (p plainOperator) MulTo(dst, x *mat.Dense)  { p.n.MulDenseScaled(dst, x, nil, nil) }
func (p plainOperator) MulTTo(dst, x *mat.Dense) { p.n.MulTDenseScaled(dst, x, nil, nil) }
func (p plainOperator) Materialize() *mat.Dense {
	r, c := p.n.Dims()
	out := mat.NewDense(r, c, nil)
	_ = p.n.EachRow(func(i int, cols []int32, vals []float64) error {
		for q, j := range cols {
			out.Set(i, int(j), vals[q])
		}
		return nil
	})
	return out
}

// checkPlain accepts any non-empty matrix of finite values with at least
// one stored entry (an all-zero matrix has no singular vectors to speak of).
func checkPlain(n Table) error {
	r, c := n.Dims()
	if r == 0 || c == 0 {
		return fmt.Errorf("ca: empty %d×%d matrix", r, c)
	}
	stored := false
	err := n.EachRow(func(i int, cols []int32, vals []float64) error {
		for p, x := range vals {
			if math.IsInf(x, 0) || math.IsNaN(x) {
				return fmt.Errorf("ca: matrix entry (%d, %d) = %v: entries must be finite", i, cols[p], x)
			}
		}
		stored = stored || len(vals) > 0
		return nil
	})
	if err != nil {
		return err
	}
	if !stored {
		return fmt.Errorf("ca: the %d×%d matrix is all zero", r, c)
	}
	return nil
}

func frobenius2(n Table) float64 {
	var s float64
	_ = n.EachRow(func(_ int, _ []int32, vals []float64) error {
		for _, x := range vals {
			s += x * x
		}
		return nil
	})
	return s
}

func ones(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

// zeroEmptyRows sets to exactly zero the rows of u whose table row has no
// stored entry. The kernel's row is zero there (ca, gini: zero mass; plain:
// a zero row), so the exact U row is zero; the backends can leave rounding
// noise, which the identity metric of gini and plain would not remove.
func zeroEmptyRows(u *mat.Dense, n Table) {
	_ = n.EachRow(func(i int, cols []int32, _ []float64) error {
		if len(cols) == 0 {
			clear(u.RawRowView(i))
		}
		return nil
	})
}
