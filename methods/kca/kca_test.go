package kca

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/datasets/sparse"
)

// table3 is a 3×3 count table: total 14, row and column sums 7, 4, 3.
func table3() *sparse.CSR {
	return sparse.FromDense(3, 3, []float64{
		5, 0, 2,
		0, 3, 1,
		2, 1, 0,
	})
}

func dense(m *sparse.CSR) [][]float64 {
	r, c := m.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = make([]float64, c)
		for j := range out[i] {
			out[i][j] = m.At(i, j)
		}
	}
	return out
}

func requireClose(t *testing.T, want, got [][]float64, tol float64) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		require.InDeltaSlice(t, want[i], got[i], tol, "row %d: got %v", i, got[i])
	}
}

func TestSPPMIHandComputed(t *testing.T) {
	ln := math.Log
	tests := []struct {
		shift float64
		want  [][]float64
		nnz   int
	}{
		// PMI_ij = log(N_ij·14/(R_i·C_j)), all positive here.
		{1, [][]float64{
			{ln(5 * 14.0 / 49), 0, ln(2 * 14.0 / 21)},
			{0, ln(3 * 14.0 / 16), ln(14.0 / 12)},
			{ln(2 * 14.0 / 21), ln(14.0 / 12), 0},
		}, 6},
		// log 2 = 0.693 leaves only (1,1): log(42/16) = 0.965.
		{2, [][]float64{
			{0, 0, 0},
			{0, ln(42.0/16) - ln(2), 0},
			{0, 0, 0},
		}, 1},
		// Shift e: (1,1) would be 0.965 − 1 < 0: nothing is left.
		{math.E, [][]float64{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, 0},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.shift), func(t *testing.T) {
			m, err := SPPMI(table3(), tc.shift)
			require.NoError(t, err)
			requireClose(t, tc.want, dense(m), 1e-15)
			assert.Equal(t, tc.nnz, m.NNZ(), "entries ≤ 0 are not stored")
		})
	}
}

// TestGloVeLogOneRound follows one round of the fit by hand: b from b̃ = 0,
// then b̃ from b.
func TestGloVeLogOneRound(t *testing.T) {
	ln := math.Log
	b := []float64{(ln(5) + ln(2)) / 2, (ln(3) + ln(1)) / 2, (ln(2) + ln(1)) / 2}
	bt := []float64{
		((ln(5) - b[0]) + (ln(2) - b[2])) / 2,
		((ln(3) - b[1]) + (ln(1) - b[2])) / 2,
		((ln(2) - b[0]) + (ln(1) - b[1])) / 2,
	}
	want := [][]float64{
		{ln(5) - b[0] - bt[0], 0, ln(2) - b[0] - bt[2]},
		{0, ln(3) - b[1] - bt[1], ln(1) - b[1] - bt[2]},
		{ln(2) - b[2] - bt[0], ln(1) - b[2] - bt[1], 0},
	}
	m, err := GloVeLog(table3(), 1)
	require.NoError(t, err)
	requireClose(t, want, dense(m), 1e-15)
	assert.Equal(t, 6, m.NNZ(), "zeros stay zeros")
}

// TestGloVeLogConverges: with enough rounds the residual satisfies the
// least-squares normal equations (every row and column of residuals sums
// to zero), and a table whose log counts are exactly b_i + b̃_j on its
// pattern leaves nothing.
func TestGloVeLogConverges(t *testing.T) {
	m, err := GloVeLog(table3(), 2000)
	require.NoError(t, err)
	d := dense(m)
	for i := range d {
		var row, col float64
		for j := range d {
			row += d[i][j]
			col += d[j][i]
		}
		assert.InDelta(t, 0, row, 1e-10, "row %d", i)
		assert.InDelta(t, 0, col, 1e-10, "column %d", i)
	}

	u, v := []float64{1, 3, 0.5, 2}, []float64{2, 7, 1}
	pattern := [][]bool{{true, true, false}, {false, true, true}, {true, false, true}, {true, true, true}}
	vals := make([]float64, 12)
	for i := range pattern {
		for j, on := range pattern[i] {
			if on {
				vals[i*3+j] = u[i] * v[j]
			}
		}
	}
	exact, err := GloVeLog(sparse.FromDense(4, 3, vals), 2000)
	require.NoError(t, err)
	_, _, data := exact.Raw()
	for _, x := range data {
		assert.InDelta(t, 0, x, 1e-10)
	}
}

func TestGloVeLogDefaultIters(t *testing.T) {
	a, err := GloVeLog(table3(), 0)
	require.NoError(t, err)
	b, err := GloVeLog(table3(), DefaultGloVeIters)
	require.NoError(t, err)
	assert.Equal(t, dense(b), dense(a))
}

func TestErrors(t *testing.T) {
	bad := func(v float64) *sparse.CSR { return sparse.FromDense(2, 2, []float64{1, v, 2, 3}) }
	tests := []struct {
		name  string
		n     *sparse.CSR
		shift float64
		want  string
	}{
		{"nil", nil, 1, "nil table"},
		{"empty", sparse.FromDense(0, 2, nil), 1, "empty 0×2 table"},
		{"negative", bad(-1), 1, "table entry (0, 1) = -1: counts must be finite and non-negative"},
		{"NaN", bad(math.NaN()), 1, "table entry (0, 1) = NaN"},
		{"Inf", bad(math.Inf(1)), 1, "table entry (0, 1) = +Inf"},
		{"all zero", sparse.FromDense(2, 2, make([]float64, 4)), 1, "table total 0: need a finite positive total"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := SPPMI(tc.n, tc.shift)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "SPPMI: "+tc.want)
			_, err = GloVeLog(tc.n, 3)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "GloVeLog: "+tc.want)
		})
	}
	for _, shift := range []float64{0.5, 0, -1, math.NaN(), math.Inf(1)} {
		_, err := SPPMI(table3(), shift)
		require.Error(t, err, "shift %v", shift)
		assert.Contains(t, err.Error(), "want a finite number ≥ 1")
	}
}

func ExampleSPPMI() {
	n := sparse.FromDense(2, 2, []float64{
		3, 1,
		1, 3,
	})
	// PMI of (0,0): log(3·8/(4·4)) = log 1.5; of (0,1): log 0.5 < 0, dropped.
	m, err := SPPMI(n, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.4f %v stored %d\n", m.At(0, 0), m.At(0, 1), m.NNZ())
	// Output: 0.4055 0 stored 2
}

// TestSPPMICDS: with context distribution smoothing the column distribution
// is C_j^α / Σ C^α (hyperwords' --cds), worked by hand on table3 (column
// sums 7, 4, 3); cds 1 and 0 are SPPMI bit for bit.
func TestSPPMICDS(t *testing.T) {
	ln := math.Log
	z := math.Pow(7, 0.5) + math.Pow(4, 0.5) + math.Pow(3, 0.5)
	c := func(j int) float64 { return math.Pow([]float64{7, 4, 3}[j], 0.5) / z }
	pmi := func(v, r float64, j int) float64 { return max(0, ln(v/(r*c(j)))) }
	for _, tc := range []struct {
		name  string
		shift float64
		want  [][]float64
	}{
		{"cds 1/2", 1, [][]float64{
			{pmi(5, 7, 0), 0, pmi(2, 7, 2)},
			{0, pmi(3, 4, 1), pmi(1, 4, 2)},
			{pmi(2, 3, 0), pmi(1, 3, 1), 0},
		}},
		{"cds 1/2, shift 2", 2, [][]float64{
			{max(0, pmi(5, 7, 0)-ln(2)), 0, max(0, pmi(2, 7, 2)-ln(2))},
			{0, max(0, pmi(3, 4, 1)-ln(2)), max(0, pmi(1, 4, 2)-ln(2))},
			{max(0, pmi(2, 3, 0)-ln(2)), max(0, pmi(1, 3, 1)-ln(2)), 0},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := SPPMIWith(table3(), tc.shift, 0.5)
			require.NoError(t, err)
			requireClose(t, tc.want, dense(m), 1e-14)
		})
	}
	// Smoothing lifts the rare column (C = 3) relative to the frequent one.
	plain, err := SPPMI(table3(), 1)
	require.NoError(t, err)
	smooth, err := SPPMIWith(table3(), 1, 0.5)
	require.NoError(t, err)
	assert.Less(t, smooth.At(1, 2), plain.At(1, 2), "rare context: PMI shrinks")
	assert.Greater(t, smooth.At(0, 0), plain.At(0, 0), "frequent context: PMI grows")
	for _, off := range []float64{0, 1} {
		got, err := SPPMIWith(table3(), 2, off)
		require.NoError(t, err)
		want, err := SPPMI(table3(), 2)
		require.NoError(t, err)
		assert.Equal(t, dense(want), dense(got), "cds %v is off", off)
	}
	_, err = SPPMIWith(table3(), 1, 1.5)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "0 ≤ α ≤ 1")
}
