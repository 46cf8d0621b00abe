package corpus

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"kcalab/datasets/sparse"
)

// Kind names a word table built from the offset tables N^1 … N^W.
type Kind string

const (
	// Flat is N^flat = Σ_k N^k.
	Flat Kind = "flat"
	// Skip is N^skip = Σ_k (W−k+1)/W · N^k, the skip-gram context with a
	// dynamic window drawn uniformly from 1..W, in deterministic form.
	Skip Kind = "skip"
	// Cut is the tail cut N^cut = Σ_k cut(N^k): an entry of N^k is kept
	// when N^k[i][j] ≥ rowsum(N^k)[i]·colsum(N^1)[j]/total(N^1), that is at
	// least the count expected under independence, and dropped otherwise.
	Cut Kind = "cut"
	// Glove is GloVe's co-occurrence table: Σ_k N^k/k counted in both
	// directions (symmetric by construction).
	Glove Kind = "glove"
)

// Kinds lists the table kinds.
var Kinds = []Kind{Flat, Skip, Cut, Glove}

// ParseKind checks a table kind's name.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if string(k) == s {
			return k, nil
		}
	}
	return "", fmt.Errorf("table kind %q: want one of flat, skip, cut, glove", s)
}

// Spec selects a word table.
type Spec struct {
	Kind   Kind
	Window int // W: offsets 1..W
	// Symmetric counts both directions: N + Nᵀ. Not allowed for Glove,
	// which is symmetric already.
	Symmetric bool
	// CutN1Twice (Cut only) adds cut(N^1) a second time, reproducing a slip
	// of the authors' script; off for the paper's definition.
	CutN1Twice bool
}

// Validate reports a Spec that names no table.
func (s Spec) Validate() error {
	if _, err := ParseKind(string(s.Kind)); err != nil {
		return err
	}
	if s.Window < 1 {
		return fmt.Errorf("table %s: window %d: want ≥ 1", s.Kind, s.Window)
	}
	if s.Kind == Glove && s.Symmetric {
		return fmt.Errorf("table glove is symmetric by construction: leave Symmetric off")
	}
	if s.CutN1Twice && s.Kind != Cut {
		return fmt.Errorf("table %s: CutN1Twice applies to the cut table only", s.Kind)
	}
	return nil
}

// Table returns the word table s (rows and columns labelled by the
// vocabulary ids), counting or loading N^1 … N^W as needed.
func (t *Tables) Table(ctx context.Context, s Spec) (*sparse.CSR, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if t.stored != nil {
		// A stored combined table saves reading W offset tables.
		m, err := t.stored.combined(s)
		if m != nil || err != nil {
			return m, err
		}
	}
	offs, err := t.Offsets(ctx, s.Window)
	if err != nil {
		return nil, err
	}
	return Combine(offs, s)
}

// Combine builds table s from offs[k-1] = N^k, k = 1..s.Window (offs may be
// longer, for a window sweep). Sums run over k in ascending order, so the
// result is the same bits whatever the parallelism.
func Combine(offs []*sparse.CSR, s Spec) (*sparse.CSR, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if len(offs) < s.Window {
		return nil, fmt.Errorf("table %s: window %d but %d offset tables given", s.Kind, s.Window, len(offs))
	}
	offs = offs[:s.Window]
	n, c := offs[0].Dims()
	for k, m := range offs {
		if m == nil {
			return nil, fmt.Errorf("table %s: offset table %d is missing", s.Kind, k+1)
		}
		if r, cc := m.Dims(); r != n || cc != c {
			return nil, fmt.Errorf("table %s: offset table %d is %d×%d, N^1 is %d×%d", s.Kind, k+1, r, cc, n, c)
		}
	}
	w := s.Window
	// N^k enters as count·mul[k]/div[k]; the row sums run over k in order.
	mul, div := make([]float64, w), make([]float64, w)
	final := 1.0
	for k := 1; k <= w; k++ {
		mul[k-1], div[k-1] = 1, 1
		switch s.Kind {
		case Skip:
			// Integer weights summed exactly, one division at the end.
			mul[k-1] = float64(w - k + 1)
			final = float64(w)
		case Glove:
			div[k-1] = float64(k)
		}
	}
	var cut *cutRule
	if s.Kind == Cut {
		cut = newCutRule(offs)
		if s.CutN1Twice {
			mul[0] = 2
		}
	}
	m, err := sumRows(offs, mul, div, final, cut)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.Kind, err)
	}
	if s.Symmetric || s.Kind == Glove {
		m, err = addTranspose(m)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", s.Kind, err)
		}
	}
	return m, nil
}

// cutRule holds the tail-cut margins in exact integers.
type cutRule struct {
	rowSums [][]int64 // rowSums[k-1][i] = rowsum(N^k)[i]
	col1    []int64   // colsum(N^1)
	total1  int64
}

func newCutRule(offs []*sparse.CSR) *cutRule {
	r := &cutRule{rowSums: make([][]int64, len(offs))}
	for k, m := range offs {
		r.rowSums[k] = intSums(m.RowSums())
	}
	r.col1 = intSums(offs[0].ColSums())
	for _, v := range r.col1 {
		r.total1 += v
	}
	return r
}

func intSums(s []float64) []int64 {
	out := make([]int64, len(s))
	for i, v := range s {
		out[i] = int64(v)
	}
	return out
}

// keep reports N^k[i][j] = v ≥ rowsum(N^k)[i]·colsum(N^1)[j]/total(N^1),
// compared as v·total ≥ rowsum·colsum in integers (no rounding: counts stay
// below 2³¹, so products below 2⁶²).
func (r *cutRule) keep(k, i int, j int32, v float64) bool {
	return int64(v)*r.total1 >= r.rowSums[k][i]*r.col1[j]
}

// rowAcc accumulates one output row: dense values plus a bitmap of the
// touched columns, drained in column order without sorting.
type rowAcc struct {
	acc    []float64
	bits   []uint64
	lo, hi int // touched bitmap words [lo, hi]
}

func newRowAcc(cols int) *rowAcc {
	nw := cols/64 + 1
	return &rowAcc{acc: make([]float64, cols), bits: make([]uint64, nw), lo: nw, hi: -1}
}

func (a *rowAcc) mark(j int32) {
	wd := int(j >> 6)
	if b := uint64(1) << (j & 63); a.bits[wd]&b == 0 {
		a.bits[wd] |= b
		a.lo, a.hi = min(a.lo, wd), max(a.hi, wd)
	}
}

// count returns the number of touched columns and clears the bitmap.
func (a *rowAcc) count() int64 {
	var n int
	for wd := a.lo; wd <= a.hi; wd++ {
		n += bits.OnesCount64(a.bits[wd])
		a.bits[wd] = 0
	}
	a.lo, a.hi = len(a.bits), -1
	return int64(n)
}

// drain writes the touched columns in order with value/final into indices
// and data (exactly as many as count reported) and clears the row.
func (a *rowAcc) drain(indices []int32, data []float64, final float64) {
	p := 0
	for wd := a.lo; wd <= a.hi; wd++ {
		b := a.bits[wd]
		for b != 0 {
			j := wd<<6 | bits.TrailingZeros64(b)
			b &= b - 1
			indices[p] = int32(j)
			data[p] = a.acc[j] / final
			a.acc[j] = 0
			p++
		}
		a.bits[wd] = 0
	}
	a.lo, a.hi = len(a.bits), -1
}

// splitRows cuts rows into about 64 ranges of similar work; the split
// depends on the data only, never on the number of workers.
func splitRows(work []int64) [][2]int {
	var total int64
	for _, w := range work {
		total += w + 1
	}
	const parts = 64
	var out [][2]int
	lo := 0
	var acc int64
	for i, w := range work {
		acc += w + 1
		if acc*parts >= total*int64(len(out)+1) || i == len(work)-1 {
			out = append(out, [2]int{lo, i + 1})
			lo = i + 1
		}
	}
	return out
}

// forRows runs fn over fixed row ranges on GOMAXPROCS workers, each with
// its own state; every output row has one writer.
func forRows[S any](ranges [][2]int, newState func() S, fn func(state S, lo, hi int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(ranges)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			state := newState()
			for {
				q := int(next.Add(1) - 1)
				if q >= len(ranges) {
					return
				}
				fn(state, ranges[q][0], ranges[q][1])
			}
		}()
	}
	wg.Wait()
}

// twoPass builds a rows×cols CSR in exact-size arrays: count(i) gives the
// length of row i, then fill(i, indices, data) writes it in place.
func twoPass[S any](rows, cols int, work []int64, newState func() S,
	count func(s S, i int) int64, fill func(s S, i int, indices []int32, data []float64)) (*sparse.CSR, error) {
	ranges := splitRows(work)
	indptr := make([]int64, rows+1)
	forRows(ranges, newState, func(s S, lo, hi int) {
		for i := lo; i < hi; i++ {
			indptr[i+1] = count(s, i)
		}
	})
	for i := range rows {
		indptr[i+1] += indptr[i]
	}
	indices := make([]int32, indptr[rows])
	data := make([]float64, indptr[rows])
	forRows(ranges, newState, func(s S, lo, hi int) {
		for i := lo; i < hi; i++ {
			a, b := indptr[i], indptr[i+1]
			fill(s, i, indices[a:b:b], data[a:b:b])
		}
	})
	return sparse.New(rows, cols, indptr, indices, data)
}

// sumRows returns (Σ_k offs[k]·mul[k]/div[k]) / final, keeping only the
// entries the cut rule (if any) accepts. The inputs must be count tables
// (non-negative), so no kept sum is zero.
func sumRows(offs []*sparse.CSR, mul, div []float64, final float64, cut *cutRule) (*sparse.CSR, error) {
	rows, cols := offs[0].Dims()
	work := make([]int64, rows)
	for _, m := range offs {
		indptr, _, _ := m.Raw()
		for i := range rows {
			work[i] += indptr[i+1] - indptr[i]
		}
	}
	count := func(a *rowAcc, i int) int64 {
		for k, m := range offs {
			cs, vs := m.Row(i)
			for p, j := range cs {
				if cut == nil || cut.keep(k, i, j, vs[p]) {
					a.mark(j)
				}
			}
		}
		return a.count()
	}
	fill := func(a *rowAcc, i int, indices []int32, data []float64) {
		for k, m := range offs {
			cs, vs := m.Row(i)
			mk, dk := mul[k], div[k]
			for p, j := range cs {
				if cut != nil && !cut.keep(k, i, j, vs[p]) {
					continue
				}
				x := vs[p]
				if mk != 1 {
					x *= mk
				}
				if dk != 1 {
					x /= dk
				}
				a.mark(j)
				a.acc[j] += x
			}
		}
		a.drain(indices, data, final)
	}
	return twoPass(rows, cols, work, func() *rowAcc { return newRowAcc(cols) }, count, fill)
}

// addTranspose returns m + mᵀ for a square m. Entry (i, j) is
// m[i][j] + m[j][i] and (j, i) the same sum, so the result is exactly
// symmetric.
func addTranspose(m *sparse.CSR) (*sparse.CSR, error) {
	rows, cols := m.Dims()
	if rows != cols {
		return nil, fmt.Errorf("symmetric table needs a square matrix, have %d×%d", rows, cols)
	}
	ap, ai, ad := m.Raw()
	tp, ti, td := transpose(m)
	work := make([]int64, rows)
	for i := range rows {
		work[i] = ap[i+1] - ap[i] + tp[i+1] - tp[i]
	}
	none := func() struct{} { return struct{}{} }
	return twoPass(rows, cols, work, none,
		func(_ struct{}, i int) int64 {
			// Row i of m + mᵀ has the union of both rows' columns.
			p, pe := ap[i], ap[i+1]
			q, qe := tp[i], tp[i+1]
			var n int64
			for p < pe && q < qe {
				switch {
				case ai[p] < ti[q]:
					p++
				case ti[q] < ai[p]:
					q++
				default:
					p++
					q++
				}
				n++
			}
			return n + (pe - p) + (qe - q)
		},
		func(_ struct{}, i int, indices []int32, data []float64) {
			p, pe := ap[i], ap[i+1]
			q, qe := tp[i], tp[i+1]
			o := 0
			for p < pe && q < qe {
				switch {
				case ai[p] < ti[q]:
					indices[o], data[o] = ai[p], ad[p]
					p++
				case ti[q] < ai[p]:
					indices[o], data[o] = ti[q], td[q]
					q++
				default:
					indices[o], data[o] = ai[p], ad[p]+td[q]
					p++
					q++
				}
				o++
			}
			copy(data[o:], ad[p:pe])
			o += copy(indices[o:], ai[p:pe])
			copy(data[o:], td[q:qe])
			copy(indices[o:], ti[q:qe])
		})
}

// transpose returns the arrays of mᵀ, by a counting sort of the entries by
// column (a valid CSR's transpose is valid: no need to check it again).
func transpose(m *sparse.CSR) (tp []int64, ti []int32, td []float64) {
	rows, cols := m.Dims()
	ap, ai, ad := m.Raw()
	tp = make([]int64, cols+1)
	for _, j := range ai {
		tp[j+1]++
	}
	for j := range cols {
		tp[j+1] += tp[j]
	}
	ti = make([]int32, len(ai))
	td = make([]float64, len(ad))
	// Each worker writes the output rows (input columns) of its own range,
	// scanning the whole input; positions come from the counts, so the
	// result does not depend on the split.
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := int32(cols*w/workers), int32(cols*(w+1)/workers)
		wg.Add(1)
		go func() {
			defer wg.Done()
			next := make([]int64, hi-lo)
			copy(next, tp[lo:hi])
			for i := range rows {
				for p := ap[i]; p < ap[i+1]; p++ {
					if j := ai[p]; j >= lo && j < hi {
						ti[next[j-lo]] = int32(i)
						td[next[j-lo]] = ad[p]
						next[j-lo]++
					}
				}
			}
		}()
	}
	wg.Wait()
	return tp, ti, td
}
