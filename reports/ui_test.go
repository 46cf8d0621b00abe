package reports

import (
	"encoding/csv"
	"math"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// csvOf returns the CSV behind each download link of a page, in page order.
func csvOf(t *testing.T, page string) map[string][][]string {
	t.Helper()
	out := map[string][][]string{}
	re := regexp.MustCompile(`<a download="([^"]+)" href="data:text/csv;charset=utf-8,([^"]*)">`)
	for _, m := range re.FindAllStringSubmatch(page, -1) {
		raw, err := url.PathUnescape(strings.ReplaceAll(m[2], "&amp;", "&"))
		require.NoError(t, err)
		rows, err := csv.NewReader(strings.NewReader(raw)).ReadAll()
		require.NoError(t, err, m[1])
		out[m[1]] = rows
	}
	return out
}

func TestTablesHaveCSV(t *testing.T) {
	r := Report{Methods: testMethods, Title: "t", ECharts: CDNScript(), Sections: []Section{{Title: "s", Blocks: []Block{
		Table{ID: "plain", Header: []string{"a", "b, c"}, Rows: [][]string{{"1", `say "hi" & <b>`}}},
		Details{Summary: "more", Blocks: []Block{
			ScoreTable{ID: "sc", RowHeader: "M", Columns: []string{"x"}, Rows: []ScoreRow{
				{Name: "p", Scores: []float64{0.9}, Notes: []string{"†"}, Unranked: []bool{true}},
				{Name: "q", Scores: []float64{0.5}},
			}},
		}},
	}}}}
	page := string(render(t, r))
	got := csvOf(t, page)
	assert.Equal(t, [][]string{{"a", "b, c"}, {"1", `say "hi" & <b>`}}, got["plain.csv"])
	assert.Equal(t, [][]string{{"M", "x", "x unranked"}, {"p", "0.9", "1"}, {"q", "0.5", ""}}, got["sc.csv"],
		"one plain number per cell, the unranked flag a column of its own")
	assert.Contains(t, page, `<details class="more"><summary>more</summary>`)
	// The unranked 0.9 takes no mark, and 0.5, the only ranked score, has
	// nothing to be ranked against.
	assert.Contains(t, page, `<td class="num">0.900 <small>†</small></td>`)
	assert.Contains(t, page, `<td class="num">0.500</td>`)
}

func TestChartsHaveToolbox(t *testing.T) {
	r := Report{Methods: testMethods, Title: "t", ECharts: CDNScript(), Sections: []Section{{Title: "s", Blocks: []Block{
		Bar{ID: "b", Categories: []string{"x"}, Series: []BarSeries{{Name: "n", Values: []float64{1}}}},
	}}}}
	page := string(render(t, r))
	assert.Contains(t, page, `"toolbox":{"bottom":2,"feature":{"dataView":`)
	assert.Contains(t, page, `"saveAsImage":{"name":"b"`)
	assert.Contains(t, page, `mySVG`)
}

// TestScoreCSV: a score table's download has one numeric column per
// quantity its cells carry, full precision, nothing for none.
func TestScoreCSV(t *testing.T) {
	st := ScoreTable{RowHeader: "Trial", Columns: []string{"Sim", "MEN"}, ReferenceTitle: "Published",
		Rows: []ScoreRow{
			{Name: "a", Scores: []float64{0.4701, math.NaN()}, Quantities: [][]Quantity{{{"paper", 0.762}, {"delta", -0.2919}}, nil}},
			{Name: "b", Scores: []float64{0.5, 0.25}, Quantities: [][]Quantity{{{"sd", 0.01}, {"coverage", 0.862}}, {{"coverage", 0.725}}}},
		},
		Reference: []ScoreRow{{Name: "SGNS", Scores: []float64{0.674, 0.561}}},
		Footer:    []TextRow{{Name: "pairs covered", Cells: []string{"86.2% of 203", "72.5% of 3000"}}}}
	assert.Equal(t, [][]string{
		{"Trial", "Sim", "Sim paper", "Sim delta", "Sim sd", "Sim coverage", "MEN", "MEN paper", "MEN delta", "MEN sd", "MEN coverage"},
		{"a", "0.4701", "0.762", "-0.2919", "", "", "", "", "", "", ""},
		{"b", "0.5", "", "", "0.01", "0.862", "0.25", "", "", "", "0.725"},
		{"SGNS (Published)", "0.674", "", "", "", "", "0.561", "", "", "", ""},
	}, scoreCSV(st))
}

func TestCSVNumber(t *testing.T) {
	assert.Equal(t, "9781414", csvNumber(9781414))
	assert.Equal(t, "-0.2919", csvNumber(-0.2919))
	assert.Equal(t, "1.8e-15", csvNumber(1.8e-15))
	assert.Equal(t, "", csvNumber(math.NaN()))
}

func TestCSVCell(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"2,139,749", "2139749"},
		{"−0.226", "-0.226"},
		{"+6.0%", "0.06"},
		{"86.2%", "0.862"},
		{"—", ""},
		{"1.8e-15", "1.8e-15"},
		{"12,828 MB", "12,828 MB"},
		{"krylov", "krylov"},
	} {
		assert.Equal(t, c.want, csvCell(c.in), c.in)
	}
}
