package reports

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRank(t *testing.T) {
	nan := math.NaN()
	const B, S, N = Best, Second, NoMark
	cases := []struct {
		name   string
		scores []float64
		digits int
		lower  bool
		want   []Mark
	}{
		{"distinct", []float64{0.5, 0.7, 0.6, 0.1}, 3, false, []Mark{N, B, S, N}},
		{"lower is better", []float64{0.5, 0.7, 0.6, 0.1}, 3, true, []Mark{S, N, N, B}},
		{"tie for best: both red, next value magenta", []float64{0.7, 0.6, 0.7, 0.5}, 3, false, []Mark{B, S, B, N}},
		{"tie for second", []float64{0.6, 0.9, 0.6, 0.1}, 3, false, []Mark{S, B, S, N}},
		{"equal as shown tie", []float64{0.7124, 0.7121, 0.7}, 3, false, []Mark{B, B, S}},
		{"differ as shown do not tie", []float64{0.7126, 0.7121}, 3, false, []Mark{B, S}},
		{"all equal: all best, no second", []float64{0.3, 0.3}, 2, false, []Mark{B, B}},
		{"missing scores never marked", []float64{nan, 0.2, math.Inf(1), 0.4}, 3, false, []Mark{N, S, N, B}},
		{"all missing", []float64{nan, nan}, 3, false, []Mark{N, N}},
		{"one score", []float64{0.1}, 3, false, []Mark{B}},
		{"none", nil, 3, false, []Mark{}},
		{"negative zero ties zero", []float64{-0.0001, 0.0001, -0.5}, 3, false, []Mark{B, B, S}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, Rank(c.scores, c.digits, c.lower))
		})
	}
}

// TestRankOrderFree: the marks follow the scores, not the row order.
func TestRankOrderFree(t *testing.T) {
	scores := []float64{0.31, 0.72, 0.72, 0.5, 0.69, math.NaN()}
	want := Rank(scores, 2, false)
	perm := []int{5, 3, 0, 2, 4, 1}
	shuffled := make([]float64, len(scores))
	for i, p := range perm {
		shuffled[i] = scores[p]
	}
	got := Rank(shuffled, 2, false)
	for i, p := range perm {
		assert.Equal(t, want[p], got[i], "score %v", scores[p])
	}
}

func TestScoreTableHTML(t *testing.T) {
	var buf bytes.Buffer
	err := Write(&buf, Report{Methods: testMethods, Title: "t", ECharts: CDNScript(), Sections: []Section{{Title: "s", Blocks: []Block{
		RankTable(ScoreTable{ID: "st", RowHeader: "Method", Columns: []string{"A", "B"}, Digits: 2,
			Rows: []ScoreRow{
				{Name: "m1", Scores: []float64{0.5, 0.1}},
				{Name: "m2", Scores: []float64{0.6, math.NaN()}},
				{Name: "m3", Scores: []float64{0.4, 0.3}},
			},
			ReferenceTitle: "Published", Reference: []ScoreRow{{Name: "ref", Scores: []float64{0.9, 0.9}}}}, nil),
	}}}})
	require.NoError(t, err)
	page := buf.String()
	// Without replicates nothing is tested: the two highest are shown as
	// such, never as wins; the printer shows the marks RankTable decided.
	assert.Contains(t, page, `<tr><th>m1</th><td class="num untested">0.50</td><td class="num untested">0.10</td></tr>`)
	assert.Contains(t, page, `<tr><th>m2</th><td class="num untested">0.60</td><td class="num">—</td></tr>`)
	assert.Contains(t, page, `<tr><th>m3</th><td class="num">0.40</td><td class="num untested">0.30</td></tr>`)
	assert.Contains(t, page, "not tested (no bootstrap replicates)")
	assert.NotContains(t, page, `<tr class="group">`, "rows without groups: no group headers")
	// The reference group is shown but never marked, though it scores higher.
	assert.Contains(t, page, `<tbody class="reference">`)
	assert.Contains(t, page, `<tr><th colspan="3">Published</th></tr>`)
	assert.Contains(t, page, `<tr><th>ref</th><td class="num">0.90</td><td class="num">0.90</td></tr>`)
	assert.Equal(t, 1, strings.Count(page, "reference rows are not ranked"))

	buf.Reset()
	rep := func(v, noise float64) []float64 { return replicatesFor("x", "s", v, noise) }
	err = Write(&buf, Report{Methods: testMethods, Title: "t", ECharts: CDNScript(), Sections: []Section{{Title: "s", Blocks: []Block{
		RankTable(ScoreTable{ID: "sig", RowHeader: "Method", Columns: []string{"A"},
			Rows: []ScoreRow{
				{Name: "a", Group: "d = 300", Scores: []float64{0.6}},
				{Name: "b", Group: "d = 300", Scores: []float64{0.5}},
				{Name: "c", Group: "d = 1000", Scores: []float64{0.9}},
				{Name: "e", Group: "d = 1000", Scores: []float64{0.89}},
			}}, [][][]float64{{rep(0.6, 0.01)}, {rep(0.5, 0.01)}, {rep(0.9, 0.01)}, {rep(0.89, 0.01)}}),
	}}}})
	require.NoError(t, err)
	page = buf.String()
	assert.Contains(t, page, `<tr class="group"><th colspan="2">d = 300</th></tr>`)
	assert.Contains(t, page, `<tr><th>a</th><td class="num best">0.600 <small class="ci">±0.071</small></td></tr>`)
	assert.Contains(t, page, `<tr><th>b</th><td class="num second">0.500 <small class="ci">±0.071</small></td></tr>`)
	assert.Contains(t, page, `<tr><th>c</th><td class="num best">0.900 <small class="ci">±0.071</small></td></tr>`, "ranked within its group: 0.6 does not count")
	assert.Contains(t, page, `<tr><th>e</th><td class="num second">0.890 <small class="ci">±0.071</small></td></tr>`,
		"the same resamples move c and e alike: their difference is 0.01 on every one, significant though their intervals overlap")
	assert.Contains(t, page, "± is the score's 95% bootstrap interval")

	err = Write(&buf, Report{Methods: testMethods, Title: "t", ECharts: CDNScript(), Sections: []Section{{Title: "s", Blocks: []Block{
		ScoreTable{Caption: "g", Columns: []string{"A"}, Rows: []ScoreRow{{Name: "a", Group: "x", Scores: []float64{1}}, {Name: "b", Group: "y", Scores: []float64{1}}, {Name: "c", Group: "x", Scores: []float64{1}}}},
	}}}})
	require.ErrorContains(t, err, "not contiguous")

	err = Write(&buf, Report{Methods: testMethods, Title: "t", ECharts: CDNScript(), Sections: []Section{{Title: "s", Blocks: []Block{
		ScoreTable{Caption: "c", Columns: []string{"A"}, Digits: 12},
	}}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Digits must be 0–9")
}

// TestRankSignificant: benchstat's rule. Replicates come from
// replicatesFor: a shared part per set (the resampled pairs) and an own
// part of sd tau per trial, so a paired difference has a 95% half-width
// near 2.77·tau.
func TestRankSignificant(t *testing.T) {
	nan := math.NaN()
	const B, S, U, N = Best, Second, Untested, NoMark
	rep := func(trial string, v, tau float64) []float64 { return replicatesFor(trial, "men", v, tau) }
	cases := []struct {
		name   string
		scores []float64
		reps   [][]float64
		lower  bool
		want   []Mark
	}{
		{"a significant gap", []float64{0.6, 0.5}, [][]float64{rep("a", 0.6, 0.01), rep("b", 0.5, 0.01)}, false, []Mark{B, S}},
		{"within the noise: a tie, both best", []float64{0.6, 0.59}, [][]float64{rep("a", 0.6, 0.02), rep("b", 0.59, 0.02)}, false, []Mark{B, B}},
		{"best is relative to the top; second the top of the rest",
			[]float64{0.60, 0.58, 0.53, 0.40}, [][]float64{rep("a", 0.60, 0.01), rep("b", 0.58, 0.01), rep("c", 0.53, 0.01), rep("d", 0.40, 0.01)}, false,
			[]Mark{B, B, S, N}},
		{"the same resamples moving both alike: a constant difference is significant",
			[]float64{0.60, 0.59}, [][]float64{rep("a", 0.60, 0.05), rep("a", 0.59, 0.05)}, false, []Mark{B, S}},
		{"equal as shown tie, whatever the replicates", []float64{0.7124, 0.7121}, [][]float64{rep("a", 0.7124, 0), rep("a", 0.7121, 0)}, false, []Mark{B, B}},
		{"without replicates: where it stands, never a win",
			[]float64{0.6, 0.5, 0.7, 0.4}, [][]float64{rep("a", 0.6, 0.01), rep("b", 0.5, 0.01), nil, nil}, false, []Mark{B, S, U, N}},
		{"nothing tested: the two highest as shown", []float64{0.6, 0.5, 0.4}, nil, false, []Mark{U, U, N}},
		{"nothing tested, all equal: nothing to show", []float64{0.0, 0.0, 0.0}, nil, false, []Mark{N, N, N}},
		{"replicates of another length are not paired", []float64{0.6, 0.5, 0.55}, [][]float64{rep("a", 0.6, 0.01), rep("b", 0.5, 0.01), rep("c", 0.55, 0.01)[:10]}, false, []Mark{B, S, U}},
		{"lower is better", []float64{0.6, 0.5}, [][]float64{rep("a", 0.6, 0.01), rep("b", 0.5, 0.01)}, true, []Mark{S, B}},
		{"missing scores never marked", []float64{nan, 0.6, 0.5}, [][]float64{nil, rep("a", 0.6, 0.01), rep("b", 0.5, 0.01)}, false, []Mark{N, B, S}},
		{"one score: nothing to rank it against", []float64{0.6, nan}, [][]float64{rep("a", 0.6, 0.01), nil}, false, []Mark{N, N}},
		{"none", nil, nil, false, []Mark{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, RankSignificant(c.scores, c.reps, 3, c.lower))
		})
	}
}

// The marks follow the scores, not the row order.
func TestRankSignificantOrderFree(t *testing.T) {
	scores := []float64{0.60, 0.58, 0.53, 0.40, 0.7}
	reps := [][]float64{replicatesFor("a", "s", 0.60, 0.01), replicatesFor("b", "s", 0.58, 0.01), replicatesFor("c", "s", 0.53, 0.01), replicatesFor("d", "s", 0.40, 0.01), nil}
	want := RankSignificant(scores, reps, 3, false)
	perm := []int{4, 2, 0, 3, 1}
	s2, r2 := make([]float64, len(perm)), make([][]float64, len(perm))
	for i, p := range perm {
		s2[i], r2[i] = scores[p], reps[p]
	}
	got := RankSignificant(s2, r2, 3, false)
	for i, p := range perm {
		assert.Equal(t, want[p], got[i], "score %v", scores[p])
	}
}
