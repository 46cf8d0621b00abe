package reports

import (
	"encoding/csv"
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
