package reports

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
