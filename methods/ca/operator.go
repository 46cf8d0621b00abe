package ca

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"kcalab/methods/svd"
)

// Delayed is the paper's delayed sparse matrix
//
//	A = D(a)·N·D(b) − u·vᵀ
//
// for a sparse r×c table N, scalings a (r) and b (c), and a rank-one term
// u·vᵀ. The dense matrix is never formed: products with A are products with
// N (scaled on the fly) plus O((r+c)·k) work for the rank-one term. Beyond
// N it holds four vectors, and N's cached transpose once MulTTo has run.
// It implements svd.Materializer.
type Delayed struct {
	n          Table
	a, b, u, v []float64
}

var _ svd.Materializer = (*Delayed)(nil)

// NewDelayed returns the operator D(a)·N·D(b) − u·vᵀ. It keeps (does not
// copy) n and the vectors, which must not change afterwards.
func NewDelayed(n Table, a, b, u, v []float64) (*Delayed, error) {
	if isNil(n) {
		return nil, fmt.Errorf("ca: nil table")
	}
	r, c := n.Dims()
	for _, x := range []struct {
		name string
		vec  []float64
		want int
	}{{"a", a, r}, {"b", b, c}, {"u", u, r}, {"v", v, c}} {
		if len(x.vec) != x.want {
			return nil, fmt.Errorf("ca: delayed operator for a %d×%d table: vector %s has length %d, want %d", r, c, x.name, len(x.vec), x.want)
		}
	}
	return &Delayed{n: n, a: a, b: b, u: u, v: v}, nil
}

// NewCAOperator returns the CA matrix S = D(r)^-1/2·P·D(c)^-1/2 − √r·√cᵀ of
// the count table n, with P = n/Σn and r, c the row and column masses of P.
// A zero margin gives a zero row or column (1/√0 is taken as 0).
func NewCAOperator(n Table) (*Delayed, error) {
	m, err := marginsOf(n)
	if err != nil {
		return nil, err
	}
	return newCA(n, m)
}

func newCA(n Table, m margins) (*Delayed, error) {
	r, c := n.Dims()
	a, b := make([]float64, r), make([]float64, c)
	u, v := make([]float64, r), make([]float64, c)
	for i, ri := range m.row {
		// a_i = r_i^-1/2 / total folds P = N/total into the row scaling.
		a[i] = invSqrt(ri) / m.total
		u[i] = math.Sqrt(ri)
	}
	for j, cj := range m.col {
		b[j] = invSqrt(cj)
		v[j] = math.Sqrt(cj)
	}
	return NewDelayed(n, a, b, u, v)
}

// NewGiniOperator returns the Gini-index covariance Ξ = P − r·cᵀ of the
// count table n (the CA kernel with K = I: no χ² weighting).
func NewGiniOperator(n Table) (*Delayed, error) {
	m, err := marginsOf(n)
	if err != nil {
		return nil, err
	}
	return newGini(n, m)
}

func newGini(n Table, m margins) (*Delayed, error) {
	r, c := n.Dims()
	a, b := make([]float64, r), make([]float64, c)
	for i := range a {
		a[i] = 1 / m.total
	}
	for j := range b {
		b[j] = 1
	}
	return NewDelayed(n, a, b, m.row, m.col)
}

func invSqrt(x float64) float64 {
	if x == 0 {
		return 0
	}
	return 1 / math.Sqrt(x)
}

// margins are the masses of P = N/total.
type margins struct {
	total    float64
	row, col []float64
}

// marginsOf checks that n is a usable count table (finite, non-negative
// entries, positive total) and returns its masses.
func marginsOf(n Table) (margins, error) {
	if isNil(n) {
		return margins{}, fmt.Errorf("ca: nil table")
	}
	r, c := n.Dims()
	if r == 0 || c == 0 {
		return margins{}, fmt.Errorf("ca: empty %d×%d table", r, c)
	}
	// One pass in row order, summing as CSR's Sum, RowSums and ColSums do
	// (the same bits), so that a table read from a file is read once.
	var total float64
	row, col := make([]float64, r), make([]float64, c)
	err := n.EachRow(func(i int, cols []int32, vals []float64) error {
		for p, x := range vals {
			if x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
				return fmt.Errorf("ca: table entry (%d, %d) = %v: counts must be finite and non-negative", i, cols[p], x)
			}
			total += x
			row[i] += x
			col[cols[p]] += x
		}
		return nil
	})
	if err != nil {
		return margins{}, err
	}
	if total <= 0 || math.IsInf(total, 0) {
		return margins{}, fmt.Errorf("ca: table total %v: need a finite positive total", total)
	}
	for i := range row {
		row[i] /= total
	}
	for j := range col {
		col[j] /= total
	}
	return margins{total: total, row: row, col: col}, nil
}

// Dims returns the table's shape.
func (d *Delayed) Dims() (r, c int) { return d.n.Dims() }

// MulTo sets dst (r×k) = A·x for x c×k. Beyond dst it allocates only k
// numbers: the scalings are applied inside the sparse product.
func (d *Delayed) MulTo(dst, x *mat.Dense) {
	d.n.MulDenseScaled(dst, x, d.a, d.b)
	subOuter(dst, d.u, colDot(d.v, x))
}

// MulTTo sets dst (c×k) = Aᵀ·x for x r×k.
func (d *Delayed) MulTTo(dst, x *mat.Dense) {
	d.n.MulTDenseScaled(dst, x, d.b, d.a)
	subOuter(dst, d.v, colDot(d.u, x))
}

// Materialize returns A as a new dense matrix (r·c·8 bytes).
func (d *Delayed) Materialize() *mat.Dense {
	r, c := d.n.Dims()
	out := mat.NewDense(r, c, nil)
	raw := out.RawMatrix()
	for i := 0; i < r; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for j := range row {
			row[j] = -d.u[i] * d.v[j]
		}
	}
	// A read error of a file-backed table is kept by the table (Err).
	_ = d.n.EachRow(func(i int, cols []int32, vals []float64) error {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for p, j := range cols {
			row[j] += d.a[i] * vals[p] * d.b[j]
		}
		return nil
	})
	return out
}

// colDot returns wᵀ·x (length k), summing rows in order.
func colDot(w []float64, x *mat.Dense) []float64 {
	r, k := x.Dims()
	out := make([]float64, k)
	xs := x.RawMatrix()
	for i := 0; i < r; i++ {
		if w[i] == 0 {
			continue
		}
		row := xs.Data[i*xs.Stride : i*xs.Stride+k]
		for l, v := range row {
			out[l] += w[i] * v
		}
	}
	return out
}

// subOuter sets dst -= u·wᵀ.
func subOuter(dst *mat.Dense, u, w []float64) {
	r, k := dst.Dims()
	ds := dst.RawMatrix()
	for i := 0; i < r; i++ {
		if u[i] == 0 {
			continue
		}
		row := ds.Data[i*ds.Stride : i*ds.Stride+k]
		for l := range row {
			row[l] -= u[i] * w[l]
		}
	}
}
