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
		ScoreTable{ID: "st", RowHeader: "Method", Columns: []string{"A", "B"}, Digits: 2,
			Rows: []ScoreRow{
				{Name: "m1", Scores: []float64{0.5, 0.1}},
				{Name: "m2", Scores: []float64{0.6, math.NaN()}},
				{Name: "m3", Scores: []float64{0.4, 0.3}},
			},
			ReferenceTitle: "Published", Reference: []ScoreRow{{Name: "ref", Scores: []float64{0.9, 0.9}}}},
	}}}})
	require.NoError(t, err)
	page := buf.String()
	assert.Contains(t, page, `<tr><th>m1</th><td class="num second">0.50</td><td class="num second">0.10</td></tr>`)
	assert.Contains(t, page, `<tr><th>m2</th><td class="num best">0.60</td><td class="num">—</td></tr>`)
	assert.Contains(t, page, `<tr><th>m3</th><td class="num">0.40</td><td class="num best">0.30</td></tr>`)
	// The reference group is shown but never marked, though it scores higher.
	assert.Contains(t, page, `<tbody class="reference">`)
	assert.Contains(t, page, `<tr><th colspan="3">Published</th></tr>`)
	assert.Contains(t, page, `<tr><th>ref</th><td class="num">0.90</td><td class="num">0.90</td></tr>`)
	assert.Equal(t, 1, strings.Count(page, "reference rows are not ranked"))

	err = Write(&buf, Report{Methods: testMethods, Title: "t", ECharts: CDNScript(), Sections: []Section{{Title: "s", Blocks: []Block{
		ScoreTable{Caption: "c", Columns: []string{"A"}, Digits: 12},
	}}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Digits must be 0–9")
}
