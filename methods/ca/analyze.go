package ca

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/sparse"
	"kcalab/methods/svd"
)

// Kernel names the matrix that is decomposed.
type Kernel string

// Kernels accepted by Analyze.
const (
	// KernelCA is correspondence analysis, S = D(r)^-1/2·(P − r·cᵀ)·D(c)^-1/2.
	KernelCA Kernel = "ca"
	// KernelLCA is the paper's name for the same analysis (linear CA).
	KernelLCA Kernel = "lca"
	// KernelGini is the Gini-index covariance Ξ = P − r·cᵀ (K = I).
	KernelGini Kernel = "gini"
)

// Result is a correspondence analysis of a table with k dimensions.
type Result struct {
	Kernel Kernel // "ca" or "gini" ("lca" is reported as "ca")

	SingularValues []float64 // σ_1 ≥ … ≥ σ_k
	Inertias       []float64 // principal inertias σ²
	// TotalInertia is the sum of all principal inertias, computed from the
	// table (not the truncated SVD): χ²/n for CA, ‖Ξ‖_F² for gini.
	TotalInertia float64
	InertiaShare []float64 // σ²/TotalInertia

	RowMass []float64 `json:"row_mass"` // r, the row margins of P = N/n
	ColMass []float64 `json:"col_mass"` // c, the column margins of P

	// Coordinates, one row per table row or column, one column per
	// dimension. For CA: RowStandard = D(r)^-1/2·U, RowPrincipal =
	// RowStandard·Σ, ColStandard = D(c)^-1/2·V, ColPrincipal =
	// ColStandard·Σ; a zero-mass row or column gets zeros. For gini the
	// metric is the identity: standard = U (or V), principal = U·Σ (V·Σ).
	RowStandard, RowPrincipal *mat.Dense
	ColStandard, ColPrincipal *mat.Dense

	// Statistics per point and of the table (see Statistics). The
	// per-point fields are CA quantities (χ² metric) and are set for the
	// ca kernel only; Chi2, DF and PValue describe the table and are set
	// for both kernels.
	Statistics
}

// Analyze runs the analysis of the count table n with opt.Rank dimensions,
// decomposing the kernel's delayed sparse operator with backend.
//
// Both kernels annihilate the constant vectors (S·√c = 0, Ξ·1 = 0), so a
// table has at most min(rows, cols) − 1 non-trivial dimensions and a larger
// rank is an error.
func Analyze(ctx context.Context, n *sparse.CSR, kernel Kernel, backend svd.Backend, opt svd.Options) (*Result, error) {
	if backend == nil {
		return nil, fmt.Errorf("ca: nil SVD backend")
	}
	newOp := newCA
	switch kernel {
	case KernelCA, KernelLCA:
		kernel = KernelCA
	case KernelGini:
		newOp = newGini
	default:
		return nil, fmt.Errorf("ca: unknown kernel %q (allowed: ca, lca, gini)", kernel)
	}
	m, err := marginsOf(n)
	if err != nil {
		return nil, err
	}
	op, err := newOp(n, m)
	if err != nil {
		return nil, err
	}
	r, c := n.Dims()
	if limit := min(r, c) - 1; opt.Rank < 1 || opt.Rank > limit {
		return nil, fmt.Errorf("ca: rank %d out of range: a %d×%d table has min(rows, cols) − 1 = %d non-trivial dimensions, so the rank must be in 1..%d",
			opt.Rank, r, c, limit, limit)
	}
	dec, err := backend.Decompose(ctx, op, opt)
	if err != nil {
		return nil, fmt.Errorf("ca: %s of a %d×%d table: %w", kernel, r, c, err)
	}
	res := &Result{
		Kernel:         kernel,
		SingularValues: dec.S,
		Inertias:       make([]float64, len(dec.S)),
		InertiaShare:   make([]float64, len(dec.S)),
		RowMass:        m.row,
		ColMass:        m.col,
	}
	if kernel == KernelCA {
		res.TotalInertia = caTotalInertia(n, m)
	} else {
		res.TotalInertia = giniTotalInertia(n, m)
	}
	chi2 := kernel == KernelCA
	res.RowStandard, res.RowPrincipal = coordinates(dec.U, m.row, dec.S, chi2)
	res.ColStandard, res.ColPrincipal = coordinates(dec.V, m.col, dec.S, chi2)
	for l, s := range dec.S {
		res.Inertias[l] = s * s
		if res.TotalInertia > 0 {
			res.InertiaShare[l] = s * s / res.TotalInertia
		}
	}
	if chi2 {
		res.Statistics = caStatistics(n, m, res)
	} else {
		res.Chi2, res.DF, res.PValue = independence(m, caTotalInertia(n, m))
	}
	return res, nil
}

// caTotalInertia is Σ_ij (p_ij − r_i c_j)²/(r_i c_j) = Σ_nz p_ij²/(r_i c_j) − 1
// = χ²/n, from the stored entries only. In counts the summand is
// N_ij²/(R_i·C_j) with R, C the count margins.
func caTotalInertia(n Table, m margins) float64 {
	var s float64
	_ = n.EachRow(func(i int, cols []int32, vals []float64) error {
		for p, j := range cols {
			x := vals[p] / m.total
			s += x * x / (m.row[i] * m.col[j])
		}
		return nil
	})
	return max(s-1, 0)
}

// giniTotalInertia is ‖P − r·cᵀ‖_F² = Σ p² − 2·Σ_nz p_ij r_i c_j + ‖r‖²·‖c‖²,
// from the stored entries only.
func giniTotalInertia(n Table, m margins) float64 {
	var pp, prc float64
	_ = n.EachRow(func(i int, cols []int32, vals []float64) error {
		for p, j := range cols {
			x := vals[p] / m.total
			pp += x * x
			prc += x * m.row[i] * m.col[j]
		}
		return nil
	})
	var rr, cc float64
	for _, x := range m.row {
		rr += x * x
	}
	for _, x := range m.col {
		cc += x * x
	}
	return max(pp-2*prc+rr*cc, 0)
}

// coordinates returns M·w and M·w·diag(s) with M = D(mass)^-1/2 when chi2
// is set, else the identity. Rows of zero mass are exactly zero in both
// kernels, so their coordinates are set to exactly zero rather than left
// at the SVD's rounding noise.
func coordinates(w *mat.Dense, mass []float64, s []float64, chi2 bool) (standard, principal *mat.Dense) {
	r, k := w.Dims()
	standard = mat.NewDense(r, k, nil)
	principal = mat.NewDense(r, k, nil)
	for i := 0; i < r; i++ {
		f := invSqrt(mass[i])
		if !chi2 && f != 0 {
			f = 1
		}
		for l := 0; l < k; l++ {
			x := f * w.At(i, l)
			standard.Set(i, l, x)
			principal.Set(i, l, x*s[l])
		}
	}
	return standard, principal
}
