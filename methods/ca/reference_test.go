package ca

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets"
	"kcalab/datasets/sparse"
	"kcalab/methods/svd"
)

// rReference is one table of testdata/ca_reference.json, written by
// testdata/ca_reference.R with R's ca package (see that script for the
// definitions and the choice of supplementary points).
type rReference struct {
	Rows, Cols    []string
	Counts        [][]float64
	SupRowLabels  []string    `json:"sup_row_labels"`
	SupRowCounts  [][]float64 `json:"sup_row_counts"`
	SupColLabels  []string    `json:"sup_col_labels"`
	SupColCounts  [][]float64 `json:"sup_col_counts"`
	SV            []float64
	TotalInertia  float64 `json:"total_inertia"`
	Chi2          float64
	DF            int
	PValue        float64 `json:"p_value"`
	QualityAxes   int     `json:"quality_axes"`
	Row, Col      rSide   `json:"-"`
	SupRow, SupCl rSup    `json:"-"`
}

type rSide struct {
	Mass, Dist, Inertia, Quality []float64
	Standard, Principal          [][]float64
	Ctr, Cos2                    [][]float64
}

type rSup struct {
	Dist, Quality                     []float64
	Standard, Principal, Cos2, Cos2Sm [][]float64
}

// UnmarshalJSON reads the row_…/col_…/sup_… keys into the two sides.
func (r *rReference) UnmarshalJSON(b []byte) error {
	type plain rReference
	if err := json.Unmarshal(b, (*plain)(r)); err != nil {
		return err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	get := func(key string, dst any) error {
		v, ok := raw[key]
		if !ok {
			return fmt.Errorf("reference: no key %q", key)
		}
		return json.Unmarshal(v, dst)
	}
	for _, s := range []struct {
		p   string
		d   *rSide
		sup *rSup
	}{{"row", &r.Row, &r.SupRow}, {"col", &r.Col, &r.SupCl}} {
		for key, dst := range map[string]any{
			s.p + "_mass": &s.d.Mass, s.p + "_dist": &s.d.Dist, s.p + "_inertia": &s.d.Inertia,
			s.p + "_quality": &s.d.Quality, s.p + "_standard": &s.d.Standard, s.p + "_principal": &s.d.Principal,
			s.p + "_ctr": &s.d.Ctr, s.p + "_cos2": &s.d.Cos2,
			"sup_" + s.p + "_dist": &s.sup.Dist, "sup_" + s.p + "_quality": &s.sup.Quality,
			"sup_" + s.p + "_standard": &s.sup.Standard, "sup_" + s.p + "_principal": &s.sup.Principal,
			"sup_" + s.p + "_cos2": &s.sup.Cos2, "sup_" + s.p + "_cos2_summary": &s.sup.Cos2Sm,
		} {
			if err := get(key, dst); err != nil {
				return err
			}
		}
	}
	return nil
}

func loadReference(t *testing.T) map[string]*rReference {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "ca_reference.json"))
	require.NoError(t, err)
	var ref struct {
		Fisher, Smoking *rReference
	}
	require.NoError(t, json.Unmarshal(b, &ref))
	return map[string]*rReference{"fisher": ref.Fisher, "smoking": ref.Smoking}
}

func denseCSR(rows [][]float64) *sparse.CSR {
	var vals []float64
	for _, r := range rows {
		vals = append(vals, r...)
	}
	return sparse.FromDense(len(rows), len(rows[0]), vals)
}

// refTol is the bar for every quantity against R.
const refTol = 1e-9

// TestReferenceTablesAreTheProjectTables checks that R analysed the
// project's own Fisher and smoking tables.
func TestReferenceTablesAreTheProjectTables(t *testing.T) {
	ref := loadReference(t)
	f := datasets.Fisher()
	assert.Equal(t, f.N.ToDense(), denseCSR(ref["fisher"].Counts).ToDense())
	assert.Equal(t, f.RowLabels, ref["fisher"].Rows)
	assert.Equal(t, f.ColLabels, ref["fisher"].Cols)
	s, err := datasets.ReadCSVFile(filepath.Join("..", "..", "experiments", "tables", "smoking.csv"))
	require.NoError(t, err)
	assert.Equal(t, s.N.ToDense(), denseCSR(ref["smoking"].Counts).ToDense())
}

// TestMatchesR matches every statistic and supplementary quantity to R's
// ca on Fisher's and the smoking tables, on every backend,
// with all axes kept and with two (quality over the kept axes only; χ²
// distance and cos² still over all dimensions). Axes may differ in sign.
func TestMatchesR(t *testing.T) {
	for name, ref := range loadReference(t) {
		n := denseCSR(ref.Counts)
		for _, b := range backends() {
			for _, k := range []int{len(ref.SV), ref.QualityAxes} {
				t.Run(fmt.Sprintf("%s/%s/k=%d", name, b.Name(), k), func(t *testing.T) {
					res, err := Analyze(context.Background(), n, KernelCA, b, svd.DefaultOptions(k))
					require.NoError(t, err)
					assert.InDeltaSlice(t, ref.SV[:k], res.SingularValues, refTol)
					assert.InDelta(t, ref.TotalInertia, res.TotalInertia, refTol)
					assert.InDelta(t, ref.Chi2, res.Chi2, refTol*ref.Chi2)
					assert.Equal(t, ref.DF, res.DF)
					assert.InEpsilon(t, ref.PValue, res.PValue, refTol)

					sign := axisSigns(ref.Row.Standard, res.RowStandard)
					checkSide(t, "row", ref.Row, k, sign, res.RowMass, res.RowStandard, res.RowPrincipal,
						res.RowDist, res.RowInertia, res.RowQuality, res.RowCtr, res.RowCos2)
					checkSide(t, "col", ref.Col, k, sign, res.ColMass, res.ColStandard, res.ColPrincipal,
						res.ColDist, res.ColInertia, res.ColQuality, res.ColCtr, res.ColCos2)
					var rowInr, colInr float64
					for i := range res.RowInertia {
						rowInr += res.RowInertiaShare(i)
					}
					for j := range res.ColInertia {
						colInr += res.ColInertiaShare(j)
					}
					assert.InDelta(t, 1, rowInr, 1e-12)
					assert.InDelta(t, 1, colInr, 1e-12)

					rp, err := res.RowProjector()
					require.NoError(t, err)
					sup, err := rp.Project(denseCSR(ref.SupRowCounts))
					require.NoError(t, err)
					checkSup(t, "sup row", ref.SupRow, k, sign, sup)
					cp, err := res.ColProjector()
					require.NoError(t, err)
					sup, err = cp.Project(denseCSR(ref.SupColCounts))
					require.NoError(t, err)
					checkSup(t, "sup col", ref.SupCl, k, sign, sup)

					// The word-table path: Decompose, then V by the
					// transition formula, gives the same projections.
					dec, err := Decompose(context.Background(), n, KernelCA, b, svd.DefaultOptions(k))
					require.NoError(t, err)
					drp, err := dec.RowProjector(n)
					require.NoError(t, err)
					sup, err = drp.Project(denseCSR(ref.SupRowCounts))
					require.NoError(t, err)
					checkSup(t, "decomposition sup row", ref.SupRow, k, axisSigns(ref.Row.Standard, standardOf(dec)), sup)
					dcp, err := dec.ColProjector()
					require.NoError(t, err)
					sup, err = dcp.Project(denseCSR(ref.SupColCounts))
					require.NoError(t, err)
					checkSup(t, "decomposition sup col", ref.SupCl, k, axisSigns(ref.Row.Standard, standardOf(dec)), sup)
				})
			}
		}
	}
}

// TestSupplementaryCos2Convention pins the one place where summary.ca and
// the definition part: a supplementary profile off the span of the active
// ones (Fisher's made-up row) has Σ_all-axes cos² < 1, and summary.ca's
// cor is cos² renormalised by that sum.
func TestSupplementaryCos2Convention(t *testing.T) {
	ref := loadReference(t)["fisher"].SupRow
	var sum float64
	for _, c := range ref.Cos2[0] {
		sum += c
	}
	assert.Less(t, sum, 0.95)
	for l, c := range ref.Cos2[0] {
		assert.InDelta(t, ref.Cos2Sm[0][l], c/sum, 1e-14)
	}
}

func standardOf(dec *Decomposition) *mat.Dense {
	r, k := dec.U.Dims()
	out := mat.NewDense(r, k, nil)
	for i := 0; i < r; i++ {
		for l := 0; l < k; l++ {
			out.Set(i, l, dec.U.At(i, l)/math.Sqrt(dec.RowMass[i]))
		}
	}
	return out
}

// axisSigns returns, per axis, the sign that turns got's axis into R's.
func axisSigns(want [][]float64, got *mat.Dense) []float64 {
	_, k := got.Dims()
	sign := make([]float64, k)
	for l := range sign {
		var dot float64
		for i, w := range want {
			dot += w[l] * got.At(i, l)
		}
		sign[l] = math.Copysign(1, dot)
	}
	return sign
}

func checkSide(t *testing.T, side string, ref rSide, k int, sign, mass []float64, standard, principal *mat.Dense,
	dist, inertia, quality []float64, ctr, cos2 [][]float64) {
	t.Helper()
	assert.InDeltaSlice(t, ref.Mass, mass, refTol, side+" mass")
	assert.InDeltaSlice(t, ref.Dist, dist, refTol, side+" dist")
	assert.InDeltaSlice(t, ref.Inertia, inertia, refTol, side+" inertia")
	for i := range ref.Mass {
		var q float64
		for l := 0; l < k; l++ {
			assert.InDelta(t, ref.Standard[i][l], sign[l]*standard.At(i, l), refTol, "%s %d standard axis %d", side, i, l)
			assert.InDelta(t, ref.Principal[i][l], sign[l]*principal.At(i, l), refTol, "%s %d principal axis %d", side, i, l)
			assert.InDelta(t, ref.Ctr[i][l], ctr[i][l], refTol, "%s %d ctr axis %d", side, i, l)
			assert.InDelta(t, ref.Cos2[i][l], cos2[i][l], refTol, "%s %d cos2 axis %d", side, i, l)
			q += ref.Cos2[i][l]
		}
		assert.Len(t, ctr[i], k)
		assert.InDelta(t, q, quality[i], refTol, "%s %d quality", side, i)
		if k == 2 {
			assert.InDelta(t, ref.Quality[i], quality[i], refTol, "%s %d quality (R)", side, i)
		}
	}
}

func checkSup(t *testing.T, what string, ref rSup, k int, sign []float64, sup *Supplementary) {
	t.Helper()
	assert.InDeltaSlice(t, ref.Dist, sup.Dist, refTol, what+" dist")
	for i := range ref.Dist {
		var q float64
		for l := 0; l < k; l++ {
			assert.InDelta(t, ref.Principal[i][l], sign[l]*sup.Principal.At(i, l), refTol, "%s %d principal axis %d", what, i, l)
			assert.InDelta(t, ref.Standard[i][l], sign[l]*sup.Standard.At(i, l), refTol, "%s %d standard axis %d", what, i, l)
			assert.InDelta(t, ref.Cos2[i][l], sup.Cos2[i][l], refTol, "%s %d cos2 axis %d", what, i, l)
			q += ref.Cos2[i][l]
		}
		assert.InDelta(t, q, sup.Quality[i], refTol, what+" quality")
		if k == 2 {
			assert.InDelta(t, ref.Quality[i], sup.Quality[i], refTol, what+" quality (R)")
		}
	}
}
