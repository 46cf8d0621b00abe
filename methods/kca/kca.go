package kca

import (
	"fmt"
	"math"

	"kcalab/datasets/sparse"
	"kcalab/methods/ca"
)

// DefaultGloVeIters is the number of bias-fitting rounds GloVeLog uses when
// asked for iters ≤ 0.
const DefaultGloVeIters = 10

// SPPMI returns the shifted positive PMI of the count table n:
// max(0, log(N_ij·n/(R_i·C_j)) − log shift) on the stored entries (see the
// package documentation). shift is word2vec's number of negative samples,
// at least 1 (1 gives the positive PMI).
func SPPMI(n *sparse.CSR, shift float64) (*sparse.CSR, error) {
	return SPPMIWith(n, shift, 1)
}

// SPPMIWith is SPPMI with context distribution smoothing (Levy, Goldberg &
// Dagan 2015): the column distribution is C_j^cds / Σ_k C_k^cds, so
//
//	M_ij = max(0, log(N_ij / (R_i · C_j^cds/Σ_k C_k^cds)) − log shift),
//
// hyperwords' PMI with --cds. cds = 1 is SPPMI bit for bit (and 0, the
// zero value, is off too); otherwise 0 < cds < 1 (0.75 is theirs): rare
// contexts get a larger share of the mass, so their PMI is less inflated.
func SPPMIWith(n *sparse.CSR, shift, cds float64) (*sparse.CSR, error) {
	if math.IsNaN(shift) || math.IsInf(shift, 0) || shift < 1 {
		return nil, fmt.Errorf("kca: SPPMI shift %v: want a finite number ≥ 1 (the negative samples k)", shift)
	}
	total, err := checkCounts("SPPMI", n)
	if err != nil {
		return nil, err
	}
	rs, cs := n.RowSums(), n.ColSums()
	logShift := math.Log(shift)
	if cds != 0 && cds != 1 {
		smooth, err := ca.SmoothMasses(cs, cds)
		if err != nil {
			return nil, fmt.Errorf("kca: SPPMI: %w", err)
		}
		return n.Map(func(i, j int, v float64) float64 {
			pmi := math.Log(v/(rs[i]*smooth[j])) - logShift
			if pmi <= 0 {
				return 0
			}
			return pmi
		}), nil
	}
	return n.Map(func(i, j int, v float64) float64 {
		// The ratio, not log(v) + log(n) − …: one rounding instead of four.
		pmi := math.Log(v*total/(rs[i]*cs[j])) - logShift
		if pmi <= 0 {
			return 0
		}
		return pmi
	}), nil
}

// GloVeLog returns log N_ij − b_i − b̃_j on the stored entries of the count
// table n, with the biases fitted by iters rounds of alternating least
// squares (DefaultGloVeIters when iters ≤ 0; see the package documentation).
func GloVeLog(n *sparse.CSR, iters int) (*sparse.CSR, error) {
	if iters <= 0 {
		iters = DefaultGloVeIters
	}
	if _, err := checkCounts("GloVeLog", n); err != nil {
		return nil, err
	}
	b, bt := fitBiases(n, iters)
	return n.Map(func(i, j int, v float64) float64 {
		return math.Log(v) - b[i] - bt[j]
	}), nil
}

// fitBiases fits log N_ij ≈ b_i + b̃_j over the stored entries. Rows and
// columns without entries keep a zero bias.
func fitBiases(n *sparse.CSR, iters int) (b, bt []float64) {
	r, c := n.Dims()
	indptr, indices, data := n.Raw()
	logs := make([]float64, len(data))
	for p, v := range data {
		logs[p] = math.Log(v)
	}
	colCount := make([]float64, c)
	for _, j := range indices {
		colCount[j]++
	}
	b, bt = make([]float64, r), make([]float64, c)
	colSum := make([]float64, c)
	for range iters {
		for i := 0; i < r; i++ {
			lo, hi := indptr[i], indptr[i+1]
			if lo == hi {
				continue
			}
			var s float64
			for p := lo; p < hi; p++ {
				s += logs[p] - bt[indices[p]]
			}
			b[i] = s / float64(hi-lo)
		}
		clear(colSum)
		for i := 0; i < r; i++ {
			for p := indptr[i]; p < indptr[i+1]; p++ {
				colSum[indices[p]] += logs[p] - b[i]
			}
		}
		for j := range bt {
			if colCount[j] > 0 {
				bt[j] = colSum[j] / colCount[j]
			}
		}
	}
	return b, bt
}

// checkCounts accepts a non-empty table of finite, non-negative counts with
// a positive finite total, and returns the total.
func checkCounts(name string, n *sparse.CSR) (float64, error) {
	if n == nil {
		return 0, fmt.Errorf("kca: %s: nil table", name)
	}
	r, c := n.Dims()
	if r == 0 || c == 0 {
		return 0, fmt.Errorf("kca: %s: empty %d×%d table", name, r, c)
	}
	for i := 0; i < r; i++ {
		cols, vals := n.Row(i)
		for p, x := range vals {
			if x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
				return 0, fmt.Errorf("kca: %s: table entry (%d, %d) = %v: counts must be finite and non-negative", name, i, cols[p], x)
			}
		}
	}
	total := n.Sum()
	if !(total > 0) || math.IsInf(total, 0) {
		return 0, fmt.Errorf("kca: %s: table total %v: need a finite positive total (the table has %d stored entries)", name, total, n.NNZ())
	}
	return total, nil
}
