package harness_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kcalab/harness"
	_ "kcalab/harness/builtin"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rReference is the part of methods/ca/testdata/ca_reference.json (written
// by ca_reference.R with R's ca package) that a record holds.
type rReference struct {
	Rows, Cols                   []string
	Counts                       [][]float64
	SupRowLabels                 []string    `json:"sup_row_labels"`
	SupRowCounts                 [][]float64 `json:"sup_row_counts"`
	SupColLabels                 []string    `json:"sup_col_labels"`
	SupColCounts                 [][]float64 `json:"sup_col_counts"`
	SV                           []float64
	TotalInertia                 float64 `json:"total_inertia"`
	Chi2                         float64
	PValue                       float64 `json:"p_value"`
	DF                           int
	QualityAxes                  int         `json:"quality_axes"`
	RowMass, ColMass             []float64   `json:"-"`
	RowDist                      []float64   `json:"row_dist"`
	ColDist                      []float64   `json:"col_dist"`
	RowInertia                   []float64   `json:"row_inertia"`
	ColInertia                   []float64   `json:"col_inertia"`
	RowPrincipal                 [][]float64 `json:"row_principal"`
	ColPrincipal                 [][]float64 `json:"col_principal"`
	RowCtr                       [][]float64 `json:"row_ctr"`
	ColCtr                       [][]float64 `json:"col_ctr"`
	RowCos2                      [][]float64 `json:"row_cos2"`
	ColCos2                      [][]float64 `json:"col_cos2"`
	RowQuality                   []float64   `json:"row_quality"`
	ColQuality                   []float64   `json:"col_quality"`
	SupRowPrincipal              [][]float64 `json:"sup_row_principal"`
	SupColPrincipal              [][]float64 `json:"sup_col_principal"`
	SupRowDist                   []float64   `json:"sup_row_dist"`
	SupColDist                   []float64   `json:"sup_col_dist"`
	SupRowQuality, SupColQuality []float64   `json:"-"`
}

// A CSV table with one supplementary row and one supplementary column,
// through the whole harness (spec → record) on every backend, matches R's
// ca(…, suprow=, supcol=) to 1e-9 (up to the sign of an axis).
func TestSupplementaryMatchesR(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "methods", "ca", "testdata", "ca_reference.json"))
	require.NoError(t, err)
	var refs map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(b, &refs))
	for _, name := range []string{"fisher", "smoking"} {
		t.Run(name, func(t *testing.T) {
			var ref rReference
			require.NoError(t, json.Unmarshal(refs[name], &ref))
			dir := t.TempDir()
			var csv strings.Builder
			csv.WriteString("x," + strings.Join(ref.Cols, ",") + "," + ref.SupColLabels[0] + "\n")
			for i, row := range append(ref.Counts, ref.SupRowCounts[0]) {
				label := ref.SupRowLabels[0]
				if i < len(ref.Rows) {
					label = ref.Rows[i]
				}
				csv.WriteString(label)
				for _, v := range row {
					fmt.Fprintf(&csv, ",%g", v)
				}
				if i < len(ref.Rows) {
					fmt.Fprintf(&csv, ",%g", ref.SupColCounts[0][i])
				} else {
					csv.WriteString(",0") // the cell of a supplementary row and column counts for neither
				}
				csv.WriteString("\n")
			}
			require.NoError(t, os.WriteFile(filepath.Join(dir, "t.csv"), []byte(csv.String()), 0o644))
			spec := fmt.Sprintf("name: sup\ndata: {source: csv, csv: t.csv, supplementary_rows: [%q], supplementary_cols: [%q]}\n"+
				"svd: {rank: %d, backend: [dense, randomized, dssvd]}\n", ref.SupRowLabels[0], ref.SupColLabels[0], ref.QualityAxes)
			path := filepath.Join(dir, "sup.yaml")
			require.NoError(t, os.WriteFile(path, []byte(spec), 0o644))
			s := loadSpecTo(t, path, filepath.Join(dir, "out"))
			res, err := (&harness.Runner{}).Run(context.Background(), s)
			require.NoError(t, err)
			require.Len(t, res.Records, 3)
			const tol = 1e-9
			for _, rec := range res.Records {
				ca := rec.CA
				require.NotNil(t, ca, rec.Backend)
				k := ref.QualityAxes
				require.Len(t, ca.SingularValues, k)
				assert.InDeltaSlice(t, ref.SV[:k], ca.SingularValues, tol, rec.Backend)
				assert.InDelta(t, ref.TotalInertia, ca.TotalInertia, tol)
				assert.InDelta(t, ref.Chi2, ca.Chi2, 1e-7)
				assert.Equal(t, ref.DF, ca.DF)
				require.NotNil(t, ca.PValue)
				assert.InEpsilon(t, ref.PValue, *ca.PValue, 1e-9)
				for _, v := range []struct {
					name      string
					want, got []float64
				}{
					{"row_dist", ref.RowDist, ca.RowDist}, {"col_dist", ref.ColDist, ca.ColDist},
					{"row_inertia", ref.RowInertia, ca.RowInertia}, {"col_inertia", ref.ColInertia, ca.ColInertia},
					{"row_quality", ref.RowQuality, ca.RowQuality}, {"col_quality", ref.ColQuality, ca.ColQuality},
					{"sup_row_dist", ref.SupRowDist, ca.SupRowDist}, {"sup_col_dist", ref.SupColDist, ca.SupColDist},
				} {
					assert.InDeltaSlice(t, v.want, v.got, tol, "%s %s", rec.Backend, v.name)
				}
				for _, v := range []struct {
					name      string
					want, got [][]float64
					signed    bool
				}{
					{"row_principal", ref.RowPrincipal, ca.RowPrincipal, true}, {"col_principal", ref.ColPrincipal, ca.ColPrincipal, true},
					{"sup_row_principal", ref.SupRowPrincipal, ca.SupRowPrincipal, true}, {"sup_col_principal", ref.SupColPrincipal, ca.SupColPrincipal, true},
					{"row_ctr", ref.RowCtr, ca.RowCtr, false}, {"col_ctr", ref.ColCtr, ca.ColCtr, false},
					{"row_cos2", ref.RowCos2, ca.RowCos2, false}, {"col_cos2", ref.ColCos2, ca.ColCos2, false},
				} {
					require.Len(t, v.got, len(v.want), v.name)
					for l := 0; l < k; l++ {
						sign := 1.0
						if v.signed && v.want[0][l]*v.got[0][l] < 0 {
							sign = -1
						}
						for i := range v.want {
							assert.InDelta(t, v.want[i][l], sign*v.got[i][l], tol, "%s %s[%d][%d]", rec.Backend, v.name, i, l)
						}
					}
				}
				assert.Equal(t, ref.SupRowLabels, ca.SupRowLabels)
				assert.Equal(t, ref.SupColLabels, ca.SupColLabels)
				assert.NotContains(t, ca.RowLabels, ref.SupRowLabels[0], "a supplementary row takes no part in the analysis")
				assert.False(t, math.IsNaN(ca.SupRowQuality[0]))
			}
		})
	}
}
