package reports

import (
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// caFixture is a 2×2-table analysis with one supplementary row and column,
// its statistics written by hand.
func caFixture() *records.CAResult {
	p := 1e-3
	return &records.CAResult{
		SingularValues: []float64{0.5}, Inertias: []float64{0.25}, InertiaShare: []float64{1}, TotalInertia: 0.25,
		Counts:    [][]float64{{30, 10}, {10, 30}},
		RowLabels: []string{"a", "b"}, ColLabels: []string{"x", "y"},
		RowPrincipal: [][]float64{{0.5}, {-0.5}}, ColPrincipal: [][]float64{{0.5}, {-0.5}},
		RowMass: []float64{0.5, 0.5}, ColMass: []float64{0.5, 0.5},
		RowDist: []float64{0.5, 0.5}, ColDist: []float64{0.5, 0.5},
		RowInertia: []float64{0.125, 0.125}, ColInertia: []float64{0.125, 0.125},
		RowCtr: [][]float64{{0.5}, {0.5}}, ColCtr: [][]float64{{0.5}, {0.5}},
		RowCos2: [][]float64{{1}, {1}}, ColCos2: [][]float64{{1}, {1}},
		RowQuality: []float64{1, 1}, ColQuality: []float64{1, 1},
		Chi2: 20, DF: 1, PValue: &p,
		SupRowLabels: []string{"c"}, SupRowPrincipal: [][]float64{{0.25}}, SupRowCos2: [][]float64{{0.8}}, SupRowQuality: []float64{0.8},
		SupRowCounts: [][]float64{{6, 2}},
		SupColLabels: []string{"z"}, SupColPrincipal: [][]float64{{-0.1}}, SupColCos2: [][]float64{{0.5}}, SupColQuality: []float64{0.5},
		SupColCounts: [][]float64{{1, 3}},
	}
}

func TestSummaryTable(t *testing.T) {
	tab := summaryTable(caFixture(), 1)
	require.NotNil(t, tab)
	assert.Equal(t, []string{"", "name", "mass", "qlt", "inr", "k=1", "cor", "ctr"}, tab.Header)
	assert.Equal(t, [][]string{
		{"row", "a", "500", "1000", "500", "500", "1000", "500"},
		{"row", "b", "500", "1000", "500", "-500", "1000", "500"},
		{"row (sup.)", "c", "—", "800", "—", "250", "800", "—"},
		{"column", "x", "500", "1000", "500", "500", "1000", "500"},
		{"column", "y", "500", "1000", "500", "-500", "1000", "500"},
		{"column (sup.)", "z", "—", "500", "—", "-100", "500", "—"},
	}, tab.Rows)
	old := caFixture()
	old.RowMass, old.RowCtr = nil, nil
	assert.Nil(t, summaryTable(old, 1), "a record from before the statistics gets no table")
}

func TestInputTable(t *testing.T) {
	tab := inputTable(caFixture(), 1)
	require.NotNil(t, tab)
	assert.Equal(t, []string{"", "x", "y", "z (sup.)"}, tab.Header)
	assert.Equal(t, [][]string{{"a", "30", "10", "1"}, {"b", "10", "30", "3"}, {"c (sup.)", "6", "2", "—"}}, tab.Rows)
}

func TestCAMapSupplementary(t *testing.T) {
	ca := caFixture()
	// A map needs two axes.
	two := func(v [][]float64) [][]float64 {
		out := make([][]float64, len(v))
		for i, x := range v {
			out[i] = []float64{x[0], 0.1 * float64(i+1)}
		}
		return out
	}
	ca.RowPrincipal, ca.ColPrincipal = two(ca.RowPrincipal), two(ca.ColPrincipal)
	ca.SupRowPrincipal, ca.SupColPrincipal = two(ca.SupRowPrincipal), two(ca.SupColPrincipal)
	m, _, err := caMap(ca, 1, 100)
	require.NoError(t, err)
	require.NotNil(t, m)
	require.Len(t, m.Series, 4)
	assert.Equal(t, "Supplementary rows", m.Series[2].Name)
	assert.Equal(t, "diamond", m.Series[2].Symbol, "supplementary points have their own symbol")
	assert.Equal(t, "c", m.Series[2].Points[0].Label)
	assert.Equal(t, "rect", m.Series[3].Symbol)
}

// Trials that differ only by backend share one subsection: one map, and a
// table of their singular values next to the published ones.
func TestCAGroupsBackends(t *testing.T) {
	rec := func(id, backend string, sv float64) records.Record {
		ca := caFixture()
		ca.SingularValues = []float64{sv}
		ca.SupRowLabels, ca.SupColLabels = nil, nil // published values are for the table as published
		return records.Record{ID: id, Status: "ok", Backend: backend, CA: ca,
			Settings: map[string]any{"method": "ca", "data.source": "fisher", "svd.backend": backend}}
	}
	recs := []records.Record{rec("a", "dense", 0.4464), rec("b", "randomized", 0.4464), rec("c", "dssvd", 0.4464)}
	other := rec("d", "dense", 0.3)
	other.Settings["svd.rank"] = 2
	recs = append(recs, other)
	groups := tb().project(recs).GroupBy(backendGroup)
	require.Len(t, groups, 2)
	assert.Len(t, groups[0].Trials, 3)
	tab := svCompare(groups[0].Trials, 1)
	require.NotNil(t, tab)
	assert.Equal(t, []string{"Axis", "published", "dense", "randomized", "dssvd"}, tab.Header)
	assert.Equal(t, []string{"1", "0.4464", "0.4464000000", "0.4464000000", "0.4464000000"}, tab.Rows[0])
	s, err := caSection(groups[0].Trials, 1, []string{"svd.backend"}, 100)
	require.NoError(t, err)
	assert.Equal(t, "Trials a, b, c", s.Title)
	assert.Contains(t, s.Blocks[0].(Headline)[0], "the singular values differ from the published ones at 4 decimals in dense, randomized, dssvd; the backends' singular values are equal to the last bit.",
		"the section's answer: one axis is not the published three")
	assert.Contains(t, string(s.Blocks[1].(Paragraph)), "dense: ok; randomized: ok; dssvd: ok")
	assert.Contains(t, string(s.Blocks[1].(Paragraph)), "χ² test of independence: χ² = 20, df = 1, p = 0.001")
}

// Quality is R's summary.ca's: Σ cos² over axes 1–2 (nd = 2), not over
// every kept axis (which is 1000 for every point of a full CA).
func TestSummaryQualityIsRs(t *testing.T) {
	ca := caFixture()
	ca.SingularValues = []float64{0.4, 0.2, 0.1}
	ca.RowPrincipal = [][]float64{{0.5, 0.1, 0.1}, {-0.5, 0.1, 0.1}}
	ca.RowCos2 = [][]float64{{0.7, 0.2, 0.1}, {0.5, 0.1, 0.4}}
	ca.RowQuality = []float64{1, 1}
	tab := summaryTable(ca, 1)
	require.NotNil(t, tab)
	assert.Equal(t, "900", tab.Rows[0][3])
	assert.Equal(t, "600", tab.Rows[1][3])
	assert.Contains(t, tab.Caption, "Σ cos² over axes 1–2, as R's summary.ca with ca's default nd: over all 3 axes every point's would be 1000")
}

// Several analyses on one page (CA beside the Gini covariance of one
// table) are each named as the trials table names them, and the section
// answers for each, so the page's answer does not speak for the first
// alone.
func TestCASectionsNameEach(t *testing.T) {
	rec := func(id, method string, shares []float64) records.Record {
		ca := caFixture()
		ca.SingularValues, ca.Inertias, ca.InertiaShare = []float64{0.3, 0.1}, []float64{0.09, 0.01}, shares
		return records.Record{ID: id, Status: "ok", CA: ca, Settings: map[string]any{"method": method, "data.source": "csv"}}
	}
	r := Report{Methods: testMethods, Records: []records.Record{rec("a1", "ca", []float64{0.878, 0.118}), rec("b2", "gini", []float64{0.969, 0.030})}}
	p := newBuilder(r)
	s, err := p.caSections(r)
	require.NoError(t, err)
	require.NotNil(t, s)
	require.Len(t, s.Subsections, 2)
	names := p.trialLabels([]records.Record{r.Records[0], r.Records[1]}, []int{1, 2})
	assert.Equal(t, names[0]+" (trial a1)", s.Subsections[0].Title)
	assert.Equal(t, names[1]+" (trial b2)", s.Subsections[1].Title)
	head, ok := s.Blocks[0].(Headline)
	require.True(t, ok, "the section's own answer comes first")
	assert.Equal(t, Headline{
		names[0] + ": axes 1 and 2 hold 87.8% and 11.8% of the inertia (99.6% together).",
		names[1] + ": axes 1 and 2 hold 96.9% and 3.0% of the inertia (99.9% together).",
	}, head)
	assert.NotEqual(t, names[0], names[1])

	// One analysis keeps its title and answers in its subsection alone.
	one := Report{Methods: testMethods, Records: r.Records[:1]}
	s, err = newBuilder(one).caSections(one)
	require.NoError(t, err)
	assert.Equal(t, "Trial a1", s.Subsections[0].Title)
	assert.Empty(t, s.Blocks)
}
