package svd

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Accuracy is how far a truncated SVD is from converged, measured through
// the operator's products.
type Accuracy struct {
	// S is σ_1..σ_k (the Result's own slice).
	S []float64
	// Residuals[i] = sqrt(‖A·v_i − σ_i·u_i‖² + ‖Aᵀ·u_i − σ_i·v_i‖²): zero
	// exactly when (σ_i, u_i, v_i) is a singular triplet of A. Both sides
	// count because a Rayleigh–Ritz result satisfies one of them by
	// construction (the sketches make Aᵀ·u_i = σ_i·v_i, krylov makes
	// A·v_i = σ_i·u_i), so either alone would read zero.
	Residuals []float64
	// MaxResidual is the largest of Residuals; RelResidual is
	// MaxResidual/σ_1, the quantity Options.Tol bounds.
	MaxResidual, RelResidual float64
	// Products is the decomposition's Result.Products; CheckProducts is the
	// column-products spent measuring the residuals (not included in it).
	Products, CheckProducts int
}

// checkChunk is the number of columns multiplied at a time when measuring
// residuals: enough for the sparse products to run near their best speed
// per column (about 64 on word tables) while the scratch stays at a few
// r×64 blocks instead of r×k.
const checkChunk = 64

// Check measures res's residuals against op: one product of A with V and
// one of Aᵀ with U, k columns each, taken checkChunk columns at a time.
// res must hold V (ca.Decompose drops it: set Options.Check instead).
func Check(ctx context.Context, op Operator, res *Result) (*Accuracy, error) {
	if res == nil || res.U == nil || res.V == nil {
		return nil, fmt.Errorf("svd: check: result without U or V")
	}
	r, c := op.Dims()
	ur, k := res.U.Dims()
	vr, vk := res.V.Dims()
	if ur != r || vr != c || vk != k || len(res.S) != k {
		return nil, fmt.Errorf("svd: check: a %d×%d operator with U %d×%d, V %d×%d and %d values", r, c, ur, k, vr, vk, len(res.S))
	}
	fwd := make([]float64, k)
	ch := newChunks(c, r, k)
	for j0 := 0; j0 < k; j0 += checkChunk {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("svd: check: %w", err)
		}
		j1 := min(k, j0+checkChunk)
		x, y := ch.load(res.V, j0, j1)
		op.MulTo(y, x)
		sideNorms(fwd[j0:j1], y, res.U, res.S, j0)
	}
	acc, err := checkTransposed(ctx, op, res, fwd)
	if err != nil {
		return nil, err
	}
	acc.CheckProducts = 2 * k
	return acc, nil
}

// checkTransposed completes an Accuracy whose ‖A·v_i − σ_i·u_i‖ are
// already in fwd with the k products Aᵀ·U. CheckProducts counts only
// these.
func checkTransposed(ctx context.Context, op Operator, res *Result, fwd []float64) (*Accuracy, error) {
	r, c := op.Dims()
	k := len(res.S)
	acc := &Accuracy{S: res.S, Residuals: make([]float64, k), Products: res.Products, CheckProducts: k}
	back := make([]float64, k)
	ch := newChunks(r, c, k)
	for j0 := 0; j0 < k; j0 += checkChunk {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("svd: check: %w", err)
		}
		j1 := min(k, j0+checkChunk)
		x, y := ch.load(res.U, j0, j1)
		op.MulTTo(y, x)
		sideNorms(back[j0:j1], y, res.V, res.S, j0)
	}
	for i := range acc.Residuals {
		acc.Residuals[i] = math.Hypot(fwd[i], back[i])
		acc.MaxResidual = max(acc.MaxResidual, acc.Residuals[i])
	}
	if k > 0 && res.S[0] > 0 {
		acc.RelResidual = acc.MaxResidual / res.S[0]
	}
	return acc, nil
}

// sideNorms sets out[j] = ‖y_j − σ_{j0+j}·w_{j0+j}‖ for the columns of the
// chunk y (rows × len(out)) against columns j0.. of w.
func sideNorms(out []float64, y, w *mat.Dense, s []float64, j0 int) {
	rows, n := y.Dims()
	yr, wr := y.RawMatrix(), w.RawMatrix()
	clear(out)
	for i := 0; i < rows; i++ {
		yrow := yr.Data[i*yr.Stride : i*yr.Stride+n]
		wrow := wr.Data[i*wr.Stride+j0 : i*wr.Stride+j0+n]
		for j, v := range yrow {
			d := v - s[j0+j]*wrow[j]
			out[j] += d * d
		}
	}
	for j := range out {
		out[j] = math.Sqrt(out[j])
	}
}

// chunks are the reused in- and output blocks of chunked products: fresh
// ones per chunk would leave k/64 pairs of blocks (0.4 GB at k = 1000 on
// a word table) to the garbage collector.
type chunks struct {
	in, out []float64
	rin     int
	rout    int
}

func newChunks(rin, rout, k int) *chunks {
	w := min(k, checkChunk)
	return &chunks{in: make([]float64, rin*w), out: make([]float64, rout*w), rin: rin, rout: rout}
}

// load copies columns [j0, j1) of m into the input block and returns it
// with the output block, both (j1−j0) columns wide.
func (ch *chunks) load(m *mat.Dense, j0, j1 int) (in, out *mat.Dense) {
	w := j1 - j0
	in = mat.NewDense(ch.rin, w, ch.in[:ch.rin*w])
	in.Copy(m.Slice(0, ch.rin, j0, j1))
	return in, mat.NewDense(ch.rout, w, ch.out[:ch.rout*w])
}

// counter counts the column-products made through an operator.
type counter struct {
	Operator
	n int
}

func (c *counter) MulTo(dst, x *mat.Dense) {
	_, k := x.Dims()
	c.n += k
	c.Operator.MulTo(dst, x)
}

func (c *counter) MulTTo(dst, x *mat.Dense) {
	_, k := x.Dims()
	c.n += k
	c.Operator.MulTTo(dst, x)
}

// finish records the products and, when opt.Check asks, the accuracy.
func finish(ctx context.Context, name string, op Operator, res *Result, products int, opt Options) (*Result, error) {
	res.Products = products
	if opt.Check && res.Accuracy == nil {
		acc, err := Check(ctx, op, res)
		if err != nil {
			return nil, fmt.Errorf("%s SVD: %w", name, err)
		}
		res.Accuracy = acc
	}
	return res, nil
}
