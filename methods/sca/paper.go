package sca

import (
	"context"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/sparse"
	"kcalab/methods/ca"
	"kcalab/methods/svd"
)

// KernelPaper names the paper-form SCA decomposition in a ca.Decomposition.
const KernelPaper ca.Kernel = "sca-paper"

// Tuning is one entry γ(A, B) = γ(B, A) of a tuning-ratio table: the factor
// that scales the difference of the one-hot encodings of categories A and
// B (A ≠ B). Every pair not listed has γ = 1.
type Tuning struct {
	A, B  int
	Gamma float64
}

// PaperOptions map judged word pairs to the tuning-ratio tables of the
// paper form (sca.form: paper); see the package documentation.
type PaperOptions struct {
	// Strength λ ≥ 0 and Pivot s₀ ∈ [0, 1] set γ = exp(−λ·(s − s₀)) for a
	// pair with scaled score s: pairs judged more similar than s₀ get
	// γ < 1, less similar ones γ > 1; λ = 0 is plain CA.
	Strength, Pivot float64
	// Rows and Cols choose the tables that are tuned: Γʳ (the words as
	// rows) and Γᶜ (the words as contexts). The other is 11ᵀ.
	Rows, Cols bool
}

// DefaultPaperOptions are the settings the harness starts from: both
// tables tuned, pivot at the middle of the score range, λ = 4 (γ from
// e^−2 ≈ 0.14 for the best-judged pair to e^2 ≈ 7.4 for the worst).
func DefaultPaperOptions() PaperOptions {
	return PaperOptions{Strength: 4, Pivot: 0.5, Rows: true, Cols: true}
}

func (o PaperOptions) validate() error {
	if math.IsNaN(o.Strength) || math.IsInf(o.Strength, 0) || o.Strength < 0 {
		return fmt.Errorf("sca: paper strength %v: want a finite number ≥ 0", o.Strength)
	}
	if math.IsNaN(o.Pivot) || o.Pivot < 0 || o.Pivot > 1 {
		return fmt.Errorf("sca: paper pivot %v: want 0 ≤ pivot ≤ 1 (scores are scaled to [0, 1])", o.Pivot)
	}
	return nil
}

// PaperTuning returns the tuning-ratio entries of the judged pairs over a
// vocabulary of v words: scores scaled to s ∈ [0, 1] and repeats averaged
// as for Gamma, then γ = exp(−Strength·(s − Pivot)). Pairs of a word with
// itself are ignored.
func PaperTuning(v int, pairs []Pair, opt PaperOptions) ([]Tuning, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	ps, err := scaledPairs(v, pairs)
	if err != nil {
		return nil, err
	}
	out := make([]Tuning, len(ps))
	for k, p := range ps {
		out[k] = Tuning{A: p.a, B: p.b, Gamma: math.Exp(-opt.Strength * (p.s - opt.Pivot))}
	}
	return out, nil
}

// tuned is one side's tuning table Γ = 11ᵀ + Δ restricted to its tuned
// categories: Δ (γ − 1 off the diagonal) in local indices.
type tuned struct {
	loc   []int32     // global → local index, −1 when untuned
	glob  []int       // local → global
	delta *sparse.CSR // t×t, symmetric, zero diagonal
}

func newTuned(size int, ts []Tuning, side string) (*tuned, error) {
	tu := &tuned{loc: make([]int32, size)}
	for i := range tu.loc {
		tu.loc[i] = -1
	}
	seen := make(map[[2]int]bool, len(ts))
	for k, e := range ts {
		if e.A < 0 || e.A >= size || e.B < 0 || e.B >= size {
			return nil, fmt.Errorf("sca: %s tuning %d (%d, %d): index outside 0..%d", side, k+1, e.A, e.B, size-1)
		}
		if e.A == e.B {
			return nil, fmt.Errorf("sca: %s tuning %d (%d, %d): a category with itself (its encodings' difference is zero)", side, k+1, e.A, e.B)
		}
		if math.IsNaN(e.Gamma) || math.IsInf(e.Gamma, 0) || e.Gamma < 0 {
			return nil, fmt.Errorf("sca: %s tuning %d (%d, %d): γ = %v, want a finite number ≥ 0", side, k+1, e.A, e.B, e.Gamma)
		}
		key := [2]int{min(e.A, e.B), max(e.A, e.B)}
		if seen[key] {
			return nil, fmt.Errorf("sca: %s tuning %d (%d, %d): pair given twice", side, k+1, e.A, e.B)
		}
		seen[key] = true
		for _, g := range key {
			if tu.loc[g] < 0 {
				tu.loc[g] = int32(len(tu.glob))
				tu.glob = append(tu.glob, g)
			}
		}
	}
	t := len(tu.glob)
	trip := make([]sparse.Triplet, 0, 2*len(ts))
	for _, e := range ts {
		a, b := tu.loc[e.A], tu.loc[e.B]
		trip = append(trip, sparse.Triplet{I: a, J: b, V: e.Gamma - 1}, sparse.Triplet{I: b, J: a, V: e.Gamma - 1})
	}
	d, err := sparse.FromTriplets(t, t, trip)
	if err != nil {
		return nil, fmt.Errorf("sca: %w", err)
	}
	tu.delta = d
	return tu, nil
}

// mulDelta returns Δ·(D(w)·x[glob, :]) as a t×k matrix: x is global-sized
// (rows×k), w a global-sized weight (nil for ones).
func (tu *tuned) mulDelta(x *mat.Dense, w []float64) *mat.Dense {
	_, k := x.Dims()
	t := len(tu.glob)
	out := mat.NewDense(max(t, 1), k, nil)
	for i := 0; i < t; i++ {
		cols, vals := tu.delta.Row(i)
		dst := out.RawRowView(i)
		for p, m := range cols {
			g := tu.glob[m]
			f := vals[p]
			if w != nil {
				f *= w[g]
			}
			src := x.RawRowView(g)
			for l := range dst {
				dst[l] += f * src[l]
			}
		}
	}
	return out
}

// mulDeltaLocal returns Δ·x for x in local rows (t×k).
func (tu *tuned) mulDeltaLocal(x *mat.Dense) *mat.Dense {
	var out mat.Dense
	tu.delta.MulDense(&out, x)
	return &out
}

// mulDeltaVec returns Δ·v[glob] (t).
func (tu *tuned) mulDeltaVec(v []float64) []float64 {
	out := make([]float64, len(tu.glob))
	for i := range out {
		cols, vals := tu.delta.Row(i)
		for p, m := range cols {
			out[i] += vals[p] * v[tu.glob[m]]
		}
	}
	return out
}

// PaperOperator is the paper's SCA matrix (Definition of SCA) as a delayed
// operator for the svd backends:
//
//	Ŝ = D(r)^-1/2·X·D(c)^-1/2,  X = N∘(Γʳ·N·Γᶜ) − (Γʳ·N)∘(N·Γᶜ),
//
// r and c the row and column sums of (Γʳ·N)∘(N·Γᶜ). With Γ = 11ᵀ + Δ
// (Δ sparse, on the tuned categories T) and R, C, n the margins and total
// of N, a = Δʳ·R, b = Δᶜ·C:
//
//	X = D(n + a)·N + N·D(b) − R·Cᵀ − (N·Δᶜ)·D(C) − D(R)·(Δʳ·N) + H,
//	H = N∘(Δʳ·N·Δᶜ) − (Δʳ·N)∘(N·Δᶜ)   (non-zero on Tʳ×Tᶜ only)
//
// so a product with a c×k block costs one product with N (as the CA
// operator), products with N's tuned rows and columns, and O(|T|·k) more;
// nothing of size V×V is formed. H is built once from N[Tʳ, Tᶜ].
// X·1 = 0 and 1ᵀ·X = 0 for any symmetric Γ (the two Hadamard terms have
// equal margins), so Ŝ·√c = 0: the trivial axis is removed, as in CA.
type PaperOperator struct {
	n          *sparse.CSR
	total      float64
	R, C       []float64 // count margins of N
	a, b       []float64 // Δʳ·R, Δᶜ·C (global-sized, zero off T)
	r, c       []float64 // margins of (Γʳ·N)∘(N·Γᶜ)
	rho, kappa []float64 // r^-1/2, c^-1/2 (0 for a zero margin)
	rt, ct     *tuned
	m          *sparse.CSR // M = N[Tʳ, Tᶜ] in local indices, tʳ×tᶜ
	h          *sparse.CSR // H in local indices, tʳ×tᶜ

	// scratch is the one rows×k or cols×k block a product needs, kept
	// between calls (a word table's block is ~200 MB at k = 310) and
	// guarded so that concurrent products stay correct.
	mu      sync.Mutex
	scratch []float64
}

var _ svd.Materializer = (*PaperOperator)(nil)

// NewPaperOperator builds the operator of the count table n (finite,
// non-negative, positive total) with the row and column tuning entries.
// It keeps n, which must not change afterwards.
func NewPaperOperator(n *sparse.CSR, rowTuning, colTuning []Tuning) (*PaperOperator, error) {
	if n == nil {
		return nil, fmt.Errorf("sca: nil table")
	}
	rows, cols := n.Dims()
	if rows == 0 || cols == 0 {
		return nil, fmt.Errorf("sca: empty %d×%d table", rows, cols)
	}
	for i := 0; i < rows; i++ {
		js, vals := n.Row(i)
		for p, x := range vals {
			if x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
				return nil, fmt.Errorf("sca: table entry (%d, %d) = %v: counts must be finite and non-negative", i, js[p], x)
			}
		}
	}
	op := &PaperOperator{n: n, total: n.Sum(), R: n.RowSums(), C: n.ColSums()}
	if !(op.total > 0) || math.IsInf(op.total, 0) {
		return nil, fmt.Errorf("sca: table total %v: need a finite positive total", op.total)
	}
	var err error
	if op.rt, err = newTuned(rows, rowTuning, "row"); err != nil {
		return nil, err
	}
	if op.ct, err = newTuned(cols, colTuning, "column"); err != nil {
		return nil, err
	}
	op.a = make([]float64, rows)
	for i, v := range op.rt.mulDeltaVec(op.R) {
		op.a[op.rt.glob[i]] = v
	}
	op.b = make([]float64, cols)
	for j, v := range op.ct.mulDeltaVec(op.C) {
		op.b[op.ct.glob[j]] = v
	}
	if op.m, err = tunedBlock(n, op.rt, op.ct); err != nil {
		return nil, err
	}
	h2, err := op.buildH()
	if err != nil {
		return nil, err
	}
	op.margins(h2)
	return op, nil
}

// tunedBlock returns M = N[Tʳ, Tᶜ] in local indices.
func tunedBlock(n *sparse.CSR, rt, ct *tuned) (*sparse.CSR, error) {
	var ts []sparse.Triplet
	for li, i := range rt.glob {
		js, vals := n.Row(i)
		for p, j := range js {
			if lj := ct.loc[j]; lj >= 0 {
				ts = append(ts, sparse.Triplet{I: int32(li), J: lj, V: vals[p]})
			}
		}
	}
	m, err := sparse.FromTriplets(len(rt.glob), len(ct.glob), ts)
	if err != nil {
		return nil, fmt.Errorf("sca: %w", err)
	}
	return m, nil
}

// buildH sets op.h = M∘(Δʳ·M·Δᶜ) − (Δʳ·M)∘(M·Δᶜ) with M = N[Tʳ, Tᶜ] (every
// factor's non-zero rows and columns lie in T) and returns
// H2 = (Δʳ·M)∘(M·Δᶜ), whose margins enter r and c.
func (op *PaperOperator) buildH() (*sparse.CSR, error) {
	m := op.m
	dm, err := sparse.Mul(op.rt.delta, m)
	if err != nil {
		return nil, fmt.Errorf("sca: Δʳ·M: %w", err)
	}
	md, err := sparse.Mul(m, op.ct.delta)
	if err != nil {
		return nil, fmt.Errorf("sca: M·Δᶜ: %w", err)
	}
	dmd, err := sparse.Mul(dm, op.ct.delta)
	if err != nil {
		return nil, fmt.Errorf("sca: Δʳ·M·Δᶜ: %w", err)
	}
	h2, err := hadamard(dm, md)
	if err != nil {
		return nil, err
	}
	h1, err := hadamard(m, dmd)
	if err != nil {
		return nil, err
	}
	op.h, err = sparse.Add(h1, h2.Scale(-1))
	if err != nil {
		return nil, fmt.Errorf("sca: %w", err)
	}
	return h2, nil
}

// hadamard returns the entrywise product of two CSR matrices of one shape
// (rows' indices sorted, as FromTriplets and Mul leave them).
func hadamard(x, y *sparse.CSR) (*sparse.CSR, error) {
	rows, cols := x.Dims()
	var ts []sparse.Triplet
	for i := 0; i < rows; i++ {
		xj, xv := x.Row(i)
		yj, yv := y.Row(i)
		for p, q := 0, 0; p < len(xj) && q < len(yj); {
			switch {
			case xj[p] < yj[q]:
				p++
			case xj[p] > yj[q]:
				q++
			default:
				ts = append(ts, sparse.Triplet{I: int32(i), J: xj[p], V: xv[p] * yv[q]})
				p++
				q++
			}
		}
	}
	out, err := sparse.FromTriplets(rows, cols, ts)
	if err != nil {
		return nil, fmt.Errorf("sca: %w", err)
	}
	return out, nil
}

// margins sets r = n·R + N·b + R∘a + H2·1 and c = n·C + C∘b + Nᵀ·a + H2ᵀ·1,
// the row and column sums of (Γʳ·N)∘(N·Γᶜ) = R·Cᵀ + (N·Δᶜ)·D(C) +
// D(R)·(Δʳ·N) + H2, and their inverse square roots.
func (op *PaperOperator) margins(h2 *sparse.CSR) {
	rows, cols := op.n.Dims()
	op.r, op.c = make([]float64, rows), make([]float64, cols)
	for i := range op.r {
		op.r[i] = op.total*op.R[i] + op.R[i]*op.a[i]
	}
	for j := range op.c {
		op.c[j] = op.total*op.C[j] + op.C[j]*op.b[j]
	}
	if len(op.ct.glob) > 0 { // N·b: b lives on Tᶜ, one pass over N
		for i := 0; i < rows; i++ {
			js, vals := op.n.Row(i)
			for p, j := range js {
				op.r[i] += vals[p] * op.b[j]
			}
		}
	}
	for _, i := range op.rt.glob { // Nᵀ·a: a lives on Tʳ
		js, vals := op.n.Row(i)
		for p, j := range js {
			op.c[j] += vals[p] * op.a[i]
		}
	}
	for li := range op.rt.glob {
		js, vals := h2.Row(li)
		for p, lj := range js {
			op.r[op.rt.glob[li]] += vals[p]
			op.c[op.ct.glob[lj]] += vals[p]
		}
	}
	op.rho, op.kappa = make([]float64, rows), make([]float64, cols)
	for i, x := range op.r {
		if x > 0 {
			op.rho[i] = 1 / math.Sqrt(x)
		}
	}
	for j, x := range op.c {
		if x > 0 {
			op.kappa[j] = 1 / math.Sqrt(x)
		}
	}
}

// Dims returns the table's shape.
func (op *PaperOperator) Dims() (r, c int) { return op.n.Dims() }

// RowMass returns r/Σr, the row masses of the SCA metric: the weights w of
// the row coordinates D(w)^-1/2·U·Σ (R/n, CA's masses, when Γ = 11ᵀ).
func (op *PaperOperator) RowMass() []float64 { return normalised(op.r) }

// ColMass returns c/Σc.
func (op *PaperOperator) ColMass() []float64 { return normalised(op.c) }

func normalised(x []float64) []float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v / s
	}
	return out
}

// paperSide is one orientation of Ŝ's product: "in" is the side the
// input block is indexed by, "out" the side of the result. MulTo takes
// in = columns, out = rows; MulTTo the reverse, so both run one body.
type paperSide struct {
	inScale, outScale []float64               // κ and ρ for MulTo
	in, out           *tuned                  // Tᶜ and Tʳ
	inW, outW         []float64               // b = Δᶜ·C and a = Δʳ·R
	inM, outM         []float64               // C and R
	mulN, mulM        func(dst, x *mat.Dense) // N·x and M·x (their transposes for MulTTo)
	mulH              func(x *mat.Dense) *mat.Dense
}

// MulTo sets dst (rows×k) = Ŝ·z for z cols×k. Beyond dst it allocates one
// cols×k block and O(|T|·k) numbers, and it multiplies by N once: the
// tuned rows' N[Tʳ,:]·y are recovered from that product (below), not
// recomputed, since MEN-like sets tune the most frequent words, whose rows
// hold much of N.
func (op *PaperOperator) MulTo(dst, z *mat.Dense) {
	op.mul(dst, z, paperSide{inScale: op.kappa, outScale: op.rho, in: op.ct, out: op.rt,
		inW: op.b, outW: op.a, inM: op.C, outM: op.R, mulN: op.n.MulDense, mulM: op.m.MulDense, mulH: op.mulH})
}

// MulTTo sets dst (cols×k) = Ŝᵀ·w for w rows×k, as MulTo with the roles
// of rows and columns exchanged.
func (op *PaperOperator) MulTTo(dst, w *mat.Dense) {
	op.mul(dst, w, paperSide{inScale: op.rho, outScale: op.kappa, in: op.rt, out: op.ct,
		inW: op.a, outW: op.b, inM: op.R, outM: op.C, mulN: op.n.MulTDense, mulM: op.m.MulTDense, mulH: op.mulHT})
}

// mul is MulTo's body in the orientation s (written for MulTo: in = Tᶜ,
// out = Tʳ).
func (op *PaperOperator) mul(dst, z *mat.Dense, s paperSide) {
	op.mu.Lock()
	defer op.mu.Unlock()
	y := op.scaleRows(z, s.inScale) // D(κ)·z
	// What needs y itself, before it becomes the input of the N product.
	cy := colDot(s.inM, y)
	var hy *mat.Dense
	if len(s.out.glob) > 0 {
		hy = s.mulH(y)
	}
	// corr = D(b)·y − Δᶜ·D(C)·y on Tᶜ (local rows).
	corr := s.in.mulDelta(y, s.inM)
	for lj, j := range s.in.glob {
		row, src := corr.RawRowView(lj), y.RawRowView(j)
		for l := range row {
			row[l] = s.inW[j]*src[l] - row[l]
		}
	}
	// y ← n·y + corr, and dst = N·y.
	y.Scale(op.total, y)
	for lj, j := range s.in.glob {
		row, d := y.RawRowView(j), corr.RawRowView(lj)
		for l := range row {
			row[l] += d[l]
		}
	}
	s.mulN(dst, y)
	// Tʳ rows: + D(a)·N·y₀ − D(R)·Δʳ·N·y₀ + H·y₀[Tᶜ], y₀ the scaled input,
	// with N[Tʳ,:]·y₀ = (dst[Tʳ] − M·corr)/n: the correction only touches
	// Tᶜ, so M = N[Tʳ, Tᶜ] suffices. dst[Tʳ] is dominated by n·N·y₀, so
	// the subtraction loses no relative precision.
	if hy != nil {
		t, k := len(s.out.glob), hy.RawMatrix().Cols
		ny := mat.NewDense(t, k, nil)
		if len(s.in.glob) > 0 {
			s.mulM(ny, corr)
		}
		for li, i := range s.out.glob {
			row, d := ny.RawRowView(li), dst.RawRowView(i)
			for l := range row {
				row[l] = (d[l] - row[l]) / op.total
			}
		}
		dny := s.out.mulDeltaLocal(ny)
		for li, i := range s.out.glob {
			row, a, d, h := dst.RawRowView(i), ny.RawRowView(li), dny.RawRowView(li), hy.RawRowView(li)
			for l := range row {
				row[l] += s.outW[i]*a[l] - s.outM[i]*d[l] + h[l]
			}
		}
	}
	subOuter(dst, s.outM, cy)
	scaleRowsInPlace(dst, s.outScale)
}

// mulH returns H·y[Tᶜ, :] (tʳ×k).
func (op *PaperOperator) mulH(y *mat.Dense) *mat.Dense {
	_, k := y.Dims()
	out := mat.NewDense(len(op.rt.glob), k, nil)
	for li := range op.rt.glob {
		js, vals := op.h.Row(li)
		dst := out.RawRowView(li)
		for p, lj := range js {
			src := y.RawRowView(op.ct.glob[lj])
			for l := range dst {
				dst[l] += vals[p] * src[l]
			}
		}
	}
	return out
}

// mulHT returns Hᵀ·w[Tʳ, :] (tᶜ×k).
func (op *PaperOperator) mulHT(w *mat.Dense) *mat.Dense {
	_, k := w.Dims()
	out := mat.NewDense(len(op.ct.glob), k, nil)
	for li, i := range op.rt.glob {
		js, vals := op.h.Row(li)
		src := w.RawRowView(i)
		for p, lj := range js {
			dst := out.RawRowView(int(lj))
			for l := range dst {
				dst[l] += vals[p] * src[l]
			}
		}
	}
	return out
}

// Materialize returns Ŝ as a dense rows×cols matrix, by products with the
// identity (for the dense backends and tests on small tables).
func (op *PaperOperator) Materialize() *mat.Dense {
	_, cols := op.n.Dims()
	id := mat.NewDense(cols, cols, nil)
	for j := 0; j < cols; j++ {
		id.Set(j, j, 1)
	}
	var out mat.Dense
	op.MulTo(&out, id)
	return &out
}

// TotalInertia returns ‖Ŝ‖_F², the sum of all squared singular values
// (CA's χ²/n when Γ = 11ᵀ), by products with blocks of the identity: one
// pass of MulTo per block of columns, so O(cols/block) passes over N.
func (op *PaperOperator) TotalInertia() float64 {
	_, cols := op.n.Dims()
	const block = 256
	var s float64
	for j0 := 0; j0 < cols; j0 += block {
		k := min(block, cols-j0)
		id := mat.NewDense(cols, k, nil)
		for l := 0; l < k; l++ {
			id.Set(j0+l, l, 1)
		}
		var out mat.Dense
		op.MulTo(&out, id)
		for _, v := range out.RawMatrix().Data {
			s += v * v
		}
	}
	return s
}

// DecomposePaper is SCA in the paper's form for a word table n (rows and
// columns the same vocabulary): the judged pairs become tuning entries
// (PaperTuning) for Γʳ and/or Γᶜ as opt says, and the operator's leading
// svdOpt.Rank singular triplets are computed with backend. The result
// reads as a ca.Decomposition (Kernel "sca-paper"): word vectors are
// D(w)^-1/2·U·Σ^α with w = RowMass, the SCA row masses r/Σr. TotalInertia
// is left 0 for word tables (it costs V/256 passes over N); call
// PaperOperator.TotalInertia when it is wanted.
func DecomposePaper(ctx context.Context, n *sparse.CSR, pairs []Pair, opt PaperOptions, backend svd.Backend, svdOpt svd.Options) (*ca.Decomposition, error) {
	if backend == nil {
		return nil, fmt.Errorf("sca: nil SVD backend")
	}
	if n == nil {
		return nil, fmt.Errorf("sca: nil table")
	}
	rows, cols := n.Dims()
	if rows != cols {
		return nil, fmt.Errorf("sca: the table is %d×%d: rows and columns must be the same vocabulary", rows, cols)
	}
	ts, err := PaperTuning(rows, pairs, opt)
	if err != nil {
		return nil, err
	}
	var rt, ct []Tuning
	if opt.Rows {
		rt = ts
	}
	if opt.Cols {
		ct = ts
	}
	op, err := NewPaperOperator(n, rt, ct)
	if err != nil {
		return nil, err
	}
	if limit := min(rows, cols) - 1; svdOpt.Rank < 1 || svdOpt.Rank > limit {
		return nil, fmt.Errorf("sca: rank %d out of range: a %d×%d table has %d non-trivial dimensions", svdOpt.Rank, rows, cols, limit)
	}
	res, err := backend.Decompose(ctx, op, svdOpt)
	if err != nil {
		return nil, fmt.Errorf("sca: paper form of a %d×%d table: %w", rows, cols, err)
	}
	u := res.U
	for i, x := range op.r {
		if x == 0 { // a zero row of Ŝ: exact zeros, not the backend's noise
			clear(u.RawRowView(i))
		}
	}
	return &ca.Decomposition{Kernel: KernelPaper, S: res.S, U: u, RowMass: op.RowMass()}, nil
}

// scaleRows returns D(s)·x in the operator's scratch block (valid until
// the next call; the caller holds op.mu).
func (op *PaperOperator) scaleRows(x *mat.Dense, s []float64) *mat.Dense {
	r, k := x.Dims()
	if cap(op.scratch) < r*k {
		op.scratch = make([]float64, r*k)
	}
	out := mat.NewDense(r, k, op.scratch[:r*k])
	for i := 0; i < r; i++ {
		src, dst := x.RawRowView(i), out.RawRowView(i)
		for l := range dst {
			dst[l] = s[i] * src[l]
		}
	}
	return out
}

// scaleRowsInPlace sets x = D(s)·x.
func scaleRowsInPlace(x *mat.Dense, s []float64) {
	r, _ := x.Dims()
	for i := 0; i < r; i++ {
		row := x.RawRowView(i)
		for l := range row {
			row[l] *= s[i]
		}
	}
}

// colDot returns wᵀ·x (length k).
func colDot(w []float64, x *mat.Dense) []float64 {
	r, k := x.Dims()
	out := make([]float64, k)
	for i := 0; i < r; i++ {
		if w[i] == 0 {
			continue
		}
		for l, v := range x.RawRowView(i) {
			out[l] += w[i] * v
		}
	}
	return out
}

// subOuter sets dst −= u·wᵀ.
func subOuter(dst *mat.Dense, u, w []float64) {
	r, _ := dst.Dims()
	for i := 0; i < r; i++ {
		if u[i] == 0 {
			continue
		}
		row := dst.RawRowView(i)
		for l := range row {
			row[l] -= u[i] * w[l]
		}
	}
}
