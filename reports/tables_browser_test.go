package reports

import (
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/reports/browsertest"
)

// TestTablesSortAndChooseColumns: in headless Chromium, offline, a click on
// a header sorts the rows by that column's numbers ("1,021", "−3"; "—"
// last), a second click reverses them; a score table's groups sort each in
// place, the best score first on the first click; a table of many columns offers a box that hides a column.
func TestTablesSortAndChooseColumns(t *testing.T) {
	header := []string{"Name", "Score"}
	for j := 2; j < 12; j++ {
		header = append(header, "c"+strconv.Itoa(j))
	}
	row := func(name, score string) []string {
		r := []string{name, score}
		for j := 2; j < 12; j++ {
			r = append(r, "x")
		}
		return r
	}
	r := Report{Methods: testMethods, Title: "t", ECharts: inlineECharts(t), Sections: []Section{{Title: "s", Blocks: []Block{
		Table{ID: "wide", Header: header, Numeric: []bool{false, true},
			Rows: [][]string{row("b", "1,021"), row("a", "—"), row("c", "−3"), row("d", "20 [18–22]")}},
		Table{ID: "ratios", Header: []string{"Name", "Time"}, Rows: [][]string{{"s", "1.2× slower"}, {"f", "1.46× faster"}, {"e", "as fast"}, {"w", "125× faster"}}},
		ScoreTable{ID: "sc", RowHeader: "M", Columns: []string{"x"}, Rows: []ScoreRow{
			{Name: "p", Scores: []float64{0.5}, Group: "d = 1"}, {Name: "q", Scores: []float64{0.9}, Group: "d = 1"},
			{Name: "r", Scores: []float64{0.1}, Group: "d = 2"}, {Name: "s", Scores: []float64{0.7}, Group: "d = 2"},
		}},
	}}}}
	path := filepath.Join(t.TempDir(), "report.html")
	require.NoError(t, WriteFile(path, r))
	u, err := browsertest.FileURL(path)
	require.NoError(t, err)
	p := browsertest.Open(t, u, browsertest.Options{Width: 1400, Height: 1000})
	require.NoError(t, p.WaitFor(`document.readyState === "complete"`, 30*time.Second))

	names := func(id string) []string {
		got, err := browsertest.Eval[[]string](p, `Array.from(document.querySelectorAll("#`+id+` tbody tr")).map(function (r) { return r.cells[0].textContent; })`)
		require.NoError(t, err)
		return got
	}
	click := func(id string, col int) {
		_, err := browsertest.Eval[bool](p, `document.querySelectorAll("#`+id+` thead th")[`+strconv.Itoa(col)+`].click(), true`)
		require.NoError(t, err)
	}
	click("wide", 1)
	assert.Equal(t, []string{"c", "d", "b", "a"}, names("wide"), "by value: −3, 20, 1,021, then —")
	click("wide", 1)
	assert.Equal(t, []string{"b", "d", "c", "a"}, names("wide"), "reversed, — still last")
	sorted, err := browsertest.Eval[string](p, `document.querySelectorAll("#wide thead th")[1].getAttribute("aria-sort")`)
	require.NoError(t, err)
	assert.Equal(t, "descending", sorted)

	click("ratios", 1)
	assert.Equal(t, []string{"w", "f", "e", "s"}, names("ratios"), "a ratio in words sorts by the ratio: 125× faster first")

	click("sc", 1)
	assert.Equal(t, []string{"d = 1", "q", "p", "d = 2", "s", "r"}, names("sc"), "each group sorted in place under its title, the best score first (higher is better)")
	click("sc", 1)
	assert.Equal(t, []string{"d = 1", "p", "q", "d = 2", "r", "s"}, names("sc"), "the second click reverses")

	boxes, err := browsertest.Eval[int](p, `document.querySelectorAll("details.columns").length`)
	require.NoError(t, err)
	assert.Equal(t, 1, boxes, "only the wide table offers a choice of columns")
	shown, err := browsertest.Eval[string](p, `(function () {
		var cb = document.querySelector("details.columns input[data-column='1']");
		cb.checked = false;
		cb.dispatchEvent(new Event("change"));
		return getComputedStyle(document.querySelector("#wide tbody tr").cells[1]).display + "/" + getComputedStyle(document.querySelectorAll("#wide thead th")[1]).display;
	})()`)
	require.NoError(t, err)
	assert.Equal(t, "none/none", shown, "the Score column is hidden, header and cells")
	assert.Empty(t, p.Errors(), "JavaScript errors")
}
