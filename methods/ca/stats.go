package ca

import (
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"kcalab/datasets/sparse"
)

// Statistics are what readers of R's summary.ca and FactoMineR look at
// first: per-point masses, χ² distances, inertias, contributions and
// squared correlations, and the χ² test of independence of the table.
// The JSON tags are the keys of a record's ca object.
//
// Definitions (as in R's ca, Greenacre's "Correspondence Analysis in
// Practice"), for row i with mass r_i, profile p_i = P[i,:]/r_i and
// principal coordinates f_il:
//
//	dist_i    = √(Σ_j (p_ij − c_j)²/c_j)  χ² distance to the centroid, over
//	                                      ALL dimensions (from the table, not
//	                                      the kept axes)
//	inertia_i = r_i·dist_i²               (absolute; Σ_i = total inertia)
//	ctr_il    = r_i·f_il²/σ_l²            = r_i·(standard_il)²: share of axis
//	                                      l's inertia due to i (Σ_i = 1)
//	cos2_il   = f_il²/dist_i²             share of i's inertia on axis l
//	quality_i = Σ_{kept l} cos2_il
//
// and the same for columns. All are fractions (R prints permills). A point
// of zero mass (or zero distance) gets zeros, never NaN.
type Statistics struct {
	RowDist    []float64   `json:"row_dist"`
	ColDist    []float64   `json:"col_dist"`
	RowInertia []float64   `json:"row_inertia"`
	ColInertia []float64   `json:"col_inertia"`
	RowCtr     [][]float64 `json:"row_ctr"` // one list per row, one value per kept axis
	ColCtr     [][]float64 `json:"col_ctr"`
	RowCos2    [][]float64 `json:"row_cos2"`
	ColCos2    [][]float64 `json:"col_cos2"`
	RowQuality []float64   `json:"row_quality"`
	ColQuality []float64   `json:"col_quality"`

	// Chi2 is Pearson's statistic of independence, n·(total inertia).
	Chi2 float64 `json:"chi2"`
	// DF is (I′ − 1)(J′ − 1) with I′, J′ the rows and columns of positive
	// margin: a zero row or column constrains nothing (R's chisq.test
	// returns NaN on such a table; the analysis ignores them).
	DF int `json:"df"`
	// PValue is P(χ²_DF ≥ Chi2) (upper tail, as chisq.test). It underflows
	// to 0 below about 1e-308 (Fisher's table: ≈ 1e-260, still representable).
	PValue float64 `json:"p_value"`
}

// RowInertiaShare returns row i's share of the total inertia (0 when the
// total is 0): what summary.ca prints, in permills, as inr.
func (r *Result) RowInertiaShare(i int) float64 { return share(r.RowInertia[i], r.TotalInertia) }

// ColInertiaShare returns column j's share of the total inertia.
func (r *Result) ColInertiaShare(j int) float64 { return share(r.ColInertia[j], r.TotalInertia) }

func share(x, total float64) float64 {
	if total <= 0 {
		return 0
	}
	return x / total
}

// independence returns Pearson's χ² statistic (n·total inertia), its
// degrees of freedom and upper-tail p-value.
func independence(m margins, totalInertia float64) (chi2 float64, df int, p float64) {
	chi2 = m.total * totalInertia
	df = (positives(m.row) - 1) * (positives(m.col) - 1)
	if df < 1 {
		return chi2, df, math.NaN()
	}
	return chi2, df, distuv.ChiSquared{K: float64(df)}.Survival(chi2)
}

func positives(x []float64) int {
	var k int
	for _, v := range x {
		if v > 0 {
			k++
		}
	}
	return k
}

// chiDistances returns the squared χ² distances of the row and column
// profiles to their centroids, from the stored entries only:
// Σ_j (p_ij/r_i − c_j)²/c_j = Σ_j p_ij²/(r_i² c_j) − 1, because the profile
// and the centroid both sum to one. The subtraction cancels only when a
// profile is near the centroid, where the absolute error (≈1e-16) is what
// matters; negatives from rounding are clamped to 0.
func chiDistances(n *sparse.CSR, m margins) (row, col []float64) {
	rows, cols := n.Dims()
	row, col = make([]float64, rows), make([]float64, cols)
	for i := 0; i < rows; i++ {
		js, vals := n.Row(i)
		for p, j := range js {
			x := vals[p] / m.total
			row[i] += x * x / m.col[j]
			col[j] += x * x / m.row[i]
		}
	}
	for i, ri := range m.row {
		if ri > 0 {
			row[i] = max(row[i]/(ri*ri)-1, 0)
		}
	}
	for j, cj := range m.col {
		if cj > 0 {
			col[j] = max(col[j]/(cj*cj)-1, 0)
		}
	}
	return row, col
}

// pointStats fills distance, inertia, ctr, cos² and quality for one set of
// points (rows or columns) from squared distances d2, masses and
// coordinates.
func pointStats(d2, mass []float64, standard, principal *mat.Dense) (dist, inertia, quality []float64, ctr, cos2 [][]float64) {
	n, k := principal.Dims()
	dist, inertia, quality = make([]float64, n), make([]float64, n), make([]float64, n)
	ctr, cos2 = make([][]float64, n), make([][]float64, n)
	for i := 0; i < n; i++ {
		dist[i] = math.Sqrt(d2[i])
		inertia[i] = mass[i] * d2[i]
		ctr[i], cos2[i] = make([]float64, k), make([]float64, k)
		for l := 0; l < k; l++ {
			a := standard.At(i, l)
			ctr[i][l] = mass[i] * a * a
			if d2[i] > 0 {
				f := principal.At(i, l)
				cos2[i][l] = f * f / d2[i]
			}
			quality[i] += cos2[i][l]
		}
	}
	return dist, inertia, quality, ctr, cos2
}

// caStatistics computes the Statistics of a CA result.
func caStatistics(n *sparse.CSR, m margins, res *Result) Statistics {
	var s Statistics
	rd2, cd2 := chiDistances(n, m)
	s.RowDist, s.RowInertia, s.RowQuality, s.RowCtr, s.RowCos2 = pointStats(rd2, m.row, res.RowStandard, res.RowPrincipal)
	s.ColDist, s.ColInertia, s.ColQuality, s.ColCtr, s.ColCos2 = pointStats(cd2, m.col, res.ColStandard, res.ColPrincipal)
	s.Chi2, s.DF, s.PValue = independence(m, res.TotalInertia)
	return s
}
