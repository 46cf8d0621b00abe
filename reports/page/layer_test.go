package page

import (
	"bytes"
	"math"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoRecordsBelow: the page layer knows no records and no comparison.
// Of the module's packages it may depend only on kcalab/internal/...;
// kcalab/records, kcalab/schema and kcalab/reports (where ranking lives)
// never, directly or not, so nothing here can rank a score.
func TestNoRecordsBelow(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		// A test binary runs where it was built, so the toolchain that
		// built it is there.
		//lint:ignore SA1019 see above
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	out, err := exec.Command(goTool, "list", "-deps", "kcalab/reports/page").Output()
	require.NoError(t, err, "go list -deps kcalab/reports/page")
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "kcalab/reports/page", "go list named the package itself")
	for _, d := range deps {
		if d == "kcalab/reports/page" || strings.HasPrefix(d, "kcalab/internal/") {
			continue
		}
		assert.False(t, d == "kcalab" || strings.HasPrefix(d, "kcalab/"), "the page layer depends on %s", d)
	}
	assert.NotContains(t, deps, "kcalab/records")
}

// TestScoreTablePrintsMarks: a score table shows the marks and intervals
// its rows carry and decides none: a lower score marked best is printed
// best, and rows without marks show none, however their scores compare.
func TestScoreTablePrintsMarks(t *testing.T) {
	st := ScoreTable{ID: "st", RowHeader: "M", Columns: []string{"A"}, Rows: []ScoreRow{
		{Name: "low", Scores: []float64{0.1}, Marks: []Mark{Best}, HalfWidths: []float64{0.02}},
		{Name: "high", Scores: []float64{0.9}, Marks: []Mark{Second}, HalfWidths: []float64{math.NaN()}},
	}}
	plain := ScoreTable{ID: "plain", RowHeader: "M", Columns: []string{"A"}, Rows: []ScoreRow{
		{Name: "a", Scores: []float64{0.1}}, {Name: "b", Scores: []float64{0.9}},
	}}
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, Page{Title: "t", Script: SrcScript("https://example.org/e.js", "", "e"),
		Sections: []Section{{Title: "s", Blocks: []Block{st, plain}}}}))
	html := buf.String()
	assert.Contains(t, html, `<tr><th>low</th><td class="num best">0.100 <small class="ci">±0.020</small></td></tr>`)
	assert.Contains(t, html, `<tr><th>high</th><td class="num second">0.900</td></tr>`)
	assert.Contains(t, html, `<tr><th>a</th><td class="num">0.100</td></tr>`)
	assert.Contains(t, html, `<tr><th>b</th><td class="num">0.900</td></tr>`, "no marks given, none shown")

	bad := st
	bad.Rows = []ScoreRow{{Name: "x", Scores: []float64{1, 2}, Marks: []Mark{Best}}}
	bad.Columns = []string{"A", "B"}
	err := Write(&buf, Page{Title: "t", Script: SrcScript("https://example.org/e.js", "", "e"),
		Sections: []Section{{Title: "s", Blocks: []Block{bad}}}})
	require.ErrorContains(t, err, "1 marks for 2 scores")
}
