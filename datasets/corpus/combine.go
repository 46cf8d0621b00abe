package corpus

import (
	"context"
	"fmt"

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
	var keep func(k, i int, j int32, v float64) bool
	if cut != nil {
		keep = cut.keep
	}
	m, err := sparse.SumScaled(offs, mul, div, final, keep)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.Kind, err)
	}
	if s.Symmetric || s.Kind == Glove {
		m, err = sparse.AddTranspose(m)
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
