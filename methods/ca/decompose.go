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
	// V (cols×k) and ColMass, the column weighting of the kernel's column
	// metric (the smoothed masses c for ca, ones for gini and plain), are
	// kept only when DecomposeOptions.KeepV asks: the context vectors
	// D(c)^β·V·Σ^α of a word table are made from them. nil otherwise.
	V       *mat.Dense
	ColMass []float64
}

// DecomposeOptions change what Decompose analyses and keeps. The zero value
// is Decompose's own behaviour, bit for bit.
type DecomposeOptions struct {
	// CDS is context distribution smoothing (Levy, Goldberg & Dagan 2015):
	// the ca and gini kernels use the column masses raised to CDS and
	// renormalised, c'_j = c_j^CDS / Σ_k c_k^CDS, in place of c, in the
	// centring and in the column metric (see SmoothMasses). 0 and 1 are off.
	// The plain kernel refuses it: its transform applies it (kca.SPPMI).
	CDS float64
	// KeepV keeps the right singular vectors and the column weights
	// (Decomposition.V, ColMass), for context vectors: one more cols×k
	// matrix.
	KeepV bool
}

// smoothing reports whether cds changes the column masses.
func smoothing(cds float64) bool { return cds != 0 && cds != 1 }

// SmoothMasses returns the masses raised to alpha and renormalised to sum
// to one: c'_j = c_j^α / Σ_k c_k^α, the smoothed context distribution of
// Levy, Goldberg & Dagan (2015) (0.75 in their experiments, after
// word2vec's unigram^0.75 negative sampling). A zero mass stays exactly
// zero whatever α (0^0 is not 1 here: a context never seen gets no
// weight). alpha must be finite and in [0, 1]; the masses non-negative
// with a positive sum. Counts work as well as masses (the result is
// normalised).
func SmoothMasses(masses []float64, alpha float64) ([]float64, error) {
	if math.IsNaN(alpha) || alpha < 0 || alpha > 1 {
		return nil, fmt.Errorf("ca: context distribution smoothing exponent %v: want 0 ≤ α ≤ 1 (0.75 is Levy et al.'s)", alpha)
	}
	out := make([]float64, len(masses))
	var sum float64
	for j, c := range masses {
		if c < 0 || math.IsNaN(c) || math.IsInf(c, 0) {
			return nil, fmt.Errorf("ca: context distribution smoothing: mass %d is %v: want finite and ≥ 0", j, c)
		}
		if c > 0 {
			out[j] = math.Pow(c, alpha)
			sum += out[j]
		}
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		return nil, fmt.Errorf("ca: context distribution smoothing: the masses sum to %v after smoothing: need a finite positive sum", sum)
	}
	for j := range out {
		out[j] /= sum
	}
	return out, nil
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
	return DecomposeWith(ctx, n, kernel, backend, opt, DecomposeOptions{})
}

// DecomposeWith is Decompose with context distribution smoothing and, on
// request, the right singular vectors kept (DecomposeOptions).
func DecomposeWith(ctx context.Context, n Table, kernel Kernel, backend svd.Backend, opt svd.Options, o DecomposeOptions) (*Decomposition, error) {
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
		if smoothing(o.CDS) {
			if m.col, err = SmoothMasses(m.col, o.CDS); err != nil {
				return nil, err
			}
		}
		if kernel == KernelGini {
			dec.ColMass = ones(c)
			op, err = newGini(n, m)
			dec.TotalInertia = giniTotalInertia(n, m)
			dec.RowMass = ones(r)
		} else {
			dec.Kernel = KernelCA
			op, err = newCA(n, m)
			dec.TotalInertia = caTotalInertia(n, m)
			dec.RowMass = m.row
			dec.ColMass = m.col
		}
		if err != nil {
			return nil, err
		}
	case KernelPlain:
		if smoothing(o.CDS) {
			return nil, fmt.Errorf("ca: context distribution smoothing %v with the plain kernel: smooth in the transform that made the matrix (kca.SPPMIWith)", o.CDS)
		}
		if err := checkPlain(n); err != nil {
			return nil, err
		}
		dec.ColMass = ones(c)
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
	if o.KeepV {
		dec.V = res.V
		zeroEmptyCols(dec.V, n)
	} else {
		dec.ColMass = nil
	}
	res.V = nil // c×k: not needed for word vectors unless kept; let it go
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

// zeroEmptyCols is zeroEmptyRows for V: the rows of v whose table column
// has no stored entry are set to exactly zero.
func zeroEmptyCols(v *mat.Dense, n Table) {
	_, c := n.Dims()
	seen := make([]bool, c)
	_ = n.EachRow(func(_ int, cols []int32, _ []float64) error {
		for _, j := range cols {
			seen[j] = true
		}
		return nil
	})
	for j, ok := range seen {
		if !ok {
			clear(v.RawRowView(j))
		}
	}
}
