package sca

import (
	"fmt"
	"math"

	"kcalab/datasets/sparse"
)

// Blend returns the SCA table in its signed, mass-preserving form. Each
// pair's s (as in Gamma: scores scaled to [0, 1], duplicates averaged) is
// centred on the mean s of the pairs, w_ab = s_ab − s̄, so a pair judged
// more similar than average attracts and one judged less similar repels.
// Word a's row profile p_a = N[a,:]/r_a then moves
//
//	p'_a = p_a + alpha · Σ_b w_ab (p_b − p_a) / Σ_b |w_ab|
//
// (toward the profiles of its attracting partners, away from its repelling
// ones); negative entries are set to 0 and the row is scaled back to its
// mass r_a. Words without pairs keep their rows. The columns (contexts) are
// not tuned: the vectors are rows. Blend is the default SCA (sca.form:
// blend); Apply(n, Gamma(...)) is the unsigned form Γ·N·Γᵀ (sca.form: sum).
func Blend(n *sparse.CSR, pairs []Pair, alpha float64) (*sparse.CSR, error) {
	if n == nil {
		return nil, fmt.Errorf("sca: nil table")
	}
	if math.IsNaN(alpha) || alpha < 0 || alpha > 1 {
		return nil, fmt.Errorf("sca: blend share %v: want 0 ≤ alpha ≤ 1", alpha)
	}
	v, c := n.Dims()
	if v != c {
		return nil, fmt.Errorf("sca: the table is %d×%d: rows and columns must be the same vocabulary", v, c)
	}
	ps, err := scaledPairs(v, pairs)
	if err != nil {
		return nil, err
	}
	r := n.RowSums()
	var mean float64
	for _, p := range ps {
		mean += p.s
	}
	if len(ps) > 0 {
		mean /= float64(len(ps))
	}
	// Each word's partners with their centred weights, in pair order;
	// a partner of mass 0 has no profile to move toward.
	type partner struct {
		b int
		w float64
	}
	partners := make([][]partner, v)
	for _, p := range ps {
		if w := p.s - mean; w != 0 {
			if r[p.b] > 0 {
				partners[p.a] = append(partners[p.a], partner{p.b, w})
			}
			if r[p.a] > 0 {
				partners[p.b] = append(partners[p.b], partner{p.a, w})
			}
		}
	}
	// Triplets of D(r)·B·D(r)⁻¹, B = I + alpha·(W − diag(W·1))/Σ|w| by row.
	var ts []sparse.Triplet
	for a := 0; a < v; a++ {
		var abs, net float64
		for _, q := range partners[a] {
			abs += math.Abs(q.w)
			net += q.w
		}
		if abs == 0 || r[a] == 0 || alpha == 0 {
			ts = append(ts, sparse.Triplet{I: int32(a), J: int32(a), V: 1})
			continue
		}
		ts = append(ts, sparse.Triplet{I: int32(a), J: int32(a), V: 1 - alpha*net/abs})
		for _, q := range partners[a] {
			ts = append(ts, sparse.Triplet{I: int32(a), J: int32(q.b), V: alpha * q.w / abs * r[a] / r[q.b]})
		}
	}
	left, err := sparse.FromTriplets(v, v, ts)
	if err != nil {
		return nil, fmt.Errorf("sca: %w", err)
	}
	moved, err := sparse.Mul(left, n)
	if err != nil {
		return nil, fmt.Errorf("sca: %w", err)
	}
	return clipRows(moved, r)
}

// clipRows sets negative entries to 0 and scales each row to mass r[i].
func clipRows(m *sparse.CSR, r []float64) (*sparse.CSR, error) {
	rows, cols := m.Dims()
	indptr, indices, data := m.Raw()
	outPtr := make([]int64, rows+1)
	outIdx := make([]int32, 0, len(indices))
	outVal := make([]float64, 0, len(data))
	for i := 0; i < rows; i++ {
		start := len(outVal)
		var sum float64
		for k := indptr[i]; k < indptr[i+1]; k++ {
			if x := data[k]; x > 0 {
				outIdx = append(outIdx, indices[k])
				outVal = append(outVal, x)
				sum += x
			}
		}
		if sum > 0 {
			f := r[i] / sum
			for k := start; k < len(outVal); k++ {
				outVal[k] *= f
			}
		}
		outPtr[i+1] = int64(len(outVal))
	}
	return sparse.New(rows, cols, outPtr, outIdx, outVal)
}
