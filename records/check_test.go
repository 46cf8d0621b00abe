package records

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func scoreRec(id, label string, men float64) Record {
	return Record{ID: id, Status: "ok", Settings: map[string]any{"label": label, "method": "ca"},
		Metrics: map[string]float64{"spearman.zero.men": men, "coverage.men": 1, "wall_s": 3}}
}

func TestCheckScores(t *testing.T) {
	got := []Record{scoreRec("a", "tail-cut", 0.45), scoreRec("b", "flat", 0.40)}
	for _, tc := range []struct {
		name string
		ref  []Record
		want []string
	}{
		{"equal", []Record{scoreRec("a", "tail-cut", 0.45), scoreRec("b", "flat", 0.40)}, nil},
		{"reference lowered: passes", []Record{scoreRec("a", "tail-cut", 0.30)}, nil},
		{"within tolerance", []Record{scoreRec("a", "tail-cut", 0.455)}, nil},
		{"reference raised: fails", []Record{scoreRec("a", "tail-cut", 0.47)},
			[]string{"tail-cut (trial a): men (zero rule) fell to 0.4500 from the reference 0.4700 (by 0.0200, tolerance 0.01)"}},
		{"missing trial", []Record{scoreRec("c", "skip", 0.4)},
			[]string{"skip (trial c): in the reference results but not in this run (did the spec change?)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, CheckScores(tc.ref, got, 0.01))
		})
	}
	failed := scoreRec("a", "tail-cut", 0)
	failed.Status, failed.Error = "error", "boom"
	assert.Equal(t, []string{"tail-cut (trial a): status error: boom"},
		CheckScores([]Record{scoreRec("a", "tail-cut", 0.45)}, []Record{failed}, 0.01))
}

func TestCompareRuns(t *testing.T) {
	a := []Record{scoreRec("a", "tail-cut", 0.45)}
	b := []Record{scoreRec("a", "tail-cut", 0.45)}
	b[0].Metrics["wall_s"] = 4 // measurements may differ
	assert.Empty(t, CompareRuns(a, b))
	a[0].Metrics[MetricSVDPlan], b[0].Metrics[MetricSVDPlan] = 10.1, 8.9 // planned for 2 cores, and for 1
	assert.Empty(t, CompareRuns(a, b), "the SVD plan depends on GOMAXPROCS, as peak memory does")
	c := []Record{scoreRec("a", "tail-cut", 0.45000000001)}
	fails := CompareRuns(a, c)
	assert.Len(t, fails, 1)
	assert.Contains(t, fails[0], "men (zero rule) is 0.45 in the first run and 0.45000000001 in the rerun")
	assert.Len(t, CompareRuns(a, nil), 2)
}

func caRec(id string, sv ...float64) Record {
	rec := Record{ID: id, Status: "ok", Settings: map[string]any{"method": "ca"}, Metrics: map[string]float64{}}
	rec.CA = &CAResult{SingularValues: sv}
	total := 0.0
	for i, s := range sv {
		rec.CA.Inertias = append(rec.CA.Inertias, s*s)
		total += s * s
		rec.Metrics[InertiaShare(i+1).Key()] = s * s
	}
	rec.CA.TotalInertia = total
	rec.Metrics[MetricTotalInertia] = total
	return rec
}

// -check guards CA results in both directions: a doubled singular value
// fails as much as a halved one.
func TestCheckCA(t *testing.T) {
	got := []Record{caRec("f", 0.4464, 0.1735, 0.0293)}
	for _, tc := range []struct {
		name      string
		ref       Record
		wantFails int
		contains  string
	}{
		{"equal", caRec("f", 0.4464, 0.1735, 0.0293), 0, ""},
		{"rounding", caRec("f", 0.4464*(1+1e-9), 0.1735, 0.0293), 0, ""},
		{"doubled", caRec("f", 0.8928, 0.3470, 0.0586), 11, "singular values[1] is 0.4464, the reference 0.8928"},
		{"halved: lower is not better either", caRec("f", 0.2232, 0.1735, 0.0293), 5, "principal inertias[1]"},
		{"fewer axes", caRec("f", 0.4464, 0.1735), 4, "3 singular values, the reference 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fails := CheckScores([]Record{tc.ref}, got, 0.01)
			assert.Len(t, fails, tc.wantFails, "%q", fails)
			if tc.contains != "" {
				assert.Contains(t, strings.Join(fails, "\n"), tc.contains)
			}
		})
	}
	noCA := caRec("f", 0.4464)
	noCA.CA = nil
	assert.Contains(t, strings.Join(CheckScores([]Record{caRec("f", 0.4464)}, []Record{noCA}, 0.01), "\n"), "no CA result")
	scores, ca := CheckedCounts(got)
	assert.Equal(t, 0, scores)
	assert.Equal(t, 4+3+3+1, ca)
}

// -check compares the means of replicates, not each seed's draw.
func TestCheckReplicateMeans(t *testing.T) {
	rep := func(id string, r int, men float64) Record {
		rec := scoreRec(id, "sketch", men)
		if r > 0 {
			rec.Settings["replicate"] = r
		}
		return rec
	}
	ref := []Record{rep("a", 0, 0.50), rep("b", 1, 0.52), rep("c", 2, 0.54)}
	// One replicate falls by 0.03, the mean by 0.005: passes.
	got := []Record{rep("a", 0, 0.515), rep("b", 1, 0.52), rep("c", 2, 0.52)}
	assert.Empty(t, CheckScores(ref, got, 0.01))
	got = []Record{rep("a", 0, 0.49), rep("b", 1, 0.50), rep("c", 2, 0.51)}
	fails := CheckScores(ref, got, 0.01)
	require.Len(t, fails, 1)
	assert.Contains(t, fails[0], "fell to 0.5000 from the reference 0.5200")

	m := MergeReplicates(ref)
	require.Len(t, m, 1)
	assert.Equal(t, 3, m[0].N)
	assert.InDelta(t, 0.52, m[0].Record.Metrics["spearman.zero.men"], 1e-12)
	assert.InDelta(t, 0.02, m[0].SD["spearman.zero.men"], 1e-12)
	assert.Equal(t, "a", m[0].Record.ID)
}

// TestCheckDetails: the items behind CheckScores carry the reference, the
// value, the floor and the verdict a report shows.
func TestCheckDetails(t *testing.T) {
	got := []Record{scoreRec("a", "tail-cut", 0.45)}
	items := CheckDetails([]Record{scoreRec("a", "tail-cut", 0.47), scoreRec("c", "skip", 0.4)}, got, 0.01)
	require.Len(t, items, 2)
	assert.Equal(t, "men (zero rule)", items[0].Metric)
	assert.InDelta(t, 0.47, items[0].Reference, 1e-12)
	assert.InDelta(t, 0.45, items[0].Value, 1e-12)
	assert.InDelta(t, 0.46, items[0].Floor, 1e-12)
	assert.False(t, items[0].Pass)
	assert.Equal(t, "c", items[1].ID)
	assert.False(t, items[1].Pass)
	ok := CheckDetails(got, got, 0.01)
	require.Len(t, ok, 1)
	assert.True(t, ok[0].Pass)
	assert.Empty(t, ok[0].Problem)
}

// -check compares every recorded CA quantity, coordinates up to the sign of
// each axis: a doubled row_principal, row_mass or chi2 fails, an axis
// flipped whole passes, a row flipped alone does not.
func TestCheckCAEveryQuantity(t *testing.T) {
	full := func(edit func(ca *CAResult)) Record {
		rec := caRec("f", 0.4464, 0.1735)
		p := 0.003
		rec.CA.RowLabels, rec.CA.ColLabels = []string{"a", "b", "c"}, []string{"x", "y", "z"}
		rec.CA.Counts = [][]float64{{1, 2, 3}, {4, 5, 6}, {7, 8, 10}}
		rec.CA.RowPrincipal = [][]float64{{0.5, -0.1}, {-0.2, 0.3}, {0.1, 0.05}}
		rec.CA.ColPrincipal = [][]float64{{0.4, 0.2}, {-0.3, 0.1}, {0.05, -0.2}}
		rec.CA.RowMass, rec.CA.ColMass = []float64{0.2, 0.3, 0.5}, []float64{0.25, 0.35, 0.4}
		rec.CA.RowCtr = [][]float64{{0.5, 0.1}, {0.3, 0.6}, {0.2, 0.3}}
		rec.CA.Chi2, rec.CA.DF, rec.CA.PValue = 12.5, 4, &p
		if edit != nil {
			edit(rec.CA)
		}
		return rec
	}
	ref := full(nil)
	tests := []struct {
		name  string
		edit  func(ca *CAResult)
		wants string // "" = passes
	}{
		{"equal", nil, ""},
		{"an axis flipped whole", func(ca *CAResult) {
			for _, m := range [][][]float64{ca.RowPrincipal, ca.ColPrincipal} {
				for i := range m {
					m[i][1] = -m[i][1]
				}
			}
		}, ""},
		{"row_principal doubled", func(ca *CAResult) {
			for i := range ca.RowPrincipal {
				ca.RowPrincipal[i][0] *= 2
			}
		}, "row principal coordinates[1][1] is 1, the reference 0.5 (relative tolerance 1e-06, each axis up to its sign)"},
		{"one row flipped alone", func(ca *CAResult) { ca.RowPrincipal[2][0] = -ca.RowPrincipal[2][0] }, "row principal coordinates[3][1] is -0.1, the reference 0.1"},
		{"row_mass doubled", func(ca *CAResult) {
			for i := range ca.RowMass {
				ca.RowMass[i] *= 2
			}
		}, "row masses[1] is 0.4, the reference 0.2"},
		{"chi2 doubled", func(ca *CAResult) { ca.Chi2 *= 2 }, "χ² is 25, the reference 12.5"},
		{"a count changed", func(ca *CAResult) { ca.Counts[1][1] = 50 }, "counts[2][2] is 50, the reference 5"},
		{"a label changed", func(ca *CAResult) { ca.RowLabels = []string{"a", "B", "c"} }, `row labels are ["a" "B" "c"], the reference ["a" "b" "c"]`},
		{"a quantity missing", func(ca *CAResult) { ca.ColMass = nil }, "column masses are none, the reference 1×3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fails := CheckScores([]Record{ref}, []Record{full(tt.edit)}, 0.01)
			if tt.wants == "" {
				assert.Empty(t, fails)
				return
			}
			require.Len(t, fails, 1, "%q", fails)
			assert.Contains(t, fails[0], tt.wants)
		})
	}
}
