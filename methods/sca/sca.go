package sca

import (
	"fmt"
	"math"

	"kcalab/datasets/sparse"
)

// Pair is a tuning judgement: word indices A and B in the vocabulary and
// the human score.
type Pair struct {
	A, B  int
	Score float64
}

// Gamma returns the v×v tuning matrix Γ = I + weight·G built from pairs
// (see the package documentation for how scores become γ).
func Gamma(v int, pairs []Pair, weight float64) (*sparse.CSR, error) {
	if math.IsNaN(weight) || math.IsInf(weight, 0) || weight < 0 {
		return nil, fmt.Errorf("sca: weight %v: want a finite number ≥ 0", weight)
	}
	ps, err := scaledPairs(v, pairs)
	if err != nil {
		return nil, err
	}
	ts := make([]sparse.Triplet, 0, v+2*len(ps))
	for i := 0; i < v; i++ {
		ts = append(ts, sparse.Triplet{I: int32(i), J: int32(i), V: 1})
	}
	for _, p := range ps {
		g := weight * p.s
		if g == 0 {
			continue
		}
		a, b := int32(p.a), int32(p.b)
		ts = append(ts, sparse.Triplet{I: a, J: b, V: g}, sparse.Triplet{I: b, J: a, V: g})
	}
	g, err := sparse.FromTriplets(v, v, ts)
	if err != nil {
		return nil, fmt.Errorf("sca: %w", err)
	}
	return g, nil
}

// scaledPair is a distinct unordered word pair (a < b) and its s.
type scaledPair struct {
	a, b int
	s    float64
}

// scaledPairs checks the pairs and returns each distinct unordered pair
// once, in first-appearance order, with s = (score − min)/(max − min)
// (1 when all scores are equal), averaged over repeats; pairs with a = b
// are ignored.
func scaledPairs(v int, pairs []Pair) ([]scaledPair, error) {
	if v < 1 || v > math.MaxInt32 {
		return nil, fmt.Errorf("sca: vocabulary size %d: want 1..%d", v, math.MaxInt32)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for k, p := range pairs {
		if p.A < 0 || p.A >= v || p.B < 0 || p.B >= v {
			return nil, fmt.Errorf("sca: pair %d (%d, %d): word index outside the vocabulary 0..%d", k+1, p.A, p.B, v-1)
		}
		if math.IsNaN(p.Score) || math.IsInf(p.Score, 0) {
			return nil, fmt.Errorf("sca: pair %d (%d, %d): score %v is not finite", k+1, p.A, p.B, p.Score)
		}
		if p.A == p.B {
			continue
		}
		lo, hi = min(lo, p.Score), max(hi, p.Score)
	}
	index := map[[2]int]int{}
	var out []scaledPair
	var n []int
	for _, p := range pairs {
		if p.A == p.B {
			continue
		}
		s := 1.0
		if hi > lo {
			s = (p.Score - lo) / (hi - lo)
		}
		key := [2]int{min(p.A, p.B), max(p.A, p.B)}
		k, ok := index[key]
		if !ok {
			k = len(out)
			index[key] = k
			out = append(out, scaledPair{a: key[0], b: key[1]})
			n = append(n, 0)
		}
		out[k].s += s
		n[k]++
	}
	for k := range out {
		out[k].s /= float64(n[k])
	}
	return out, nil
}

// Apply returns the SCA table Γ·N·Γᵀ of the v×v word table n, for a v×v
// gamma (usually from Gamma). Both products are sparse; the result is the
// same bits whatever GOMAXPROCS is.
func Apply(n *sparse.CSR, gamma *sparse.CSR) (*sparse.CSR, error) {
	if n == nil || gamma == nil {
		return nil, fmt.Errorf("sca: nil table or Γ")
	}
	r, c := n.Dims()
	gr, gc := gamma.Dims()
	if r != c {
		return nil, fmt.Errorf("sca: the table is %d×%d: rows and columns must be the same vocabulary", r, c)
	}
	if gr != r || gc != r {
		return nil, fmt.Errorf("sca: Γ is %d×%d, want %d×%d for a table of %d words", gr, gc, r, r, r)
	}
	gn, err := sparse.Mul(gamma, n)
	if err != nil {
		return nil, fmt.Errorf("sca: Γ·N: %w", err)
	}
	out, err := sparse.Mul(gn, gamma.T())
	if err != nil {
		return nil, fmt.Errorf("sca: Γ·N·Γᵀ: %w", err)
	}
	return out, nil
}
