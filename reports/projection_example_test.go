package reports

import (
	"fmt"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
	"kcalab/schema"
)

// A section projects its records in three steps: select the trials
// (filters; each keeps its number on the page), group them (here: table
// rows with replicates folded into mean ± SD, and chart lines whose
// values at one x fold into a point), then draw the cells and points.
func Example_projection() {
	men := records.Score(records.RuleZero, "men").Key()
	recs := []records.Record{
		{ID: "a", Status: "ok", Settings: map[string]any{"method": "ca", "data.window": 2}, Metrics: map[string]float64{men: 0.60}},
		{ID: "b", Status: "ok", Settings: map[string]any{"method": "ca", "data.window": 2, "replicate": 1}, Metrics: map[string]float64{men: 0.62}},
		{ID: "c", Status: "ok", Settings: map[string]any{"method": "ca", "data.window": 5}, Metrics: map[string]float64{men: 0.70}},
		{ID: "d", Status: "error", Settings: map[string]any{"method": "sgns"}},
	}
	b := newBuilder(Report{Methods: []schema.MethodInfo{{Name: "ca", Label: "CA"}, {Name: "sgns", Label: "SGNS"}}})

	// Select: the trials with Spearman scores.
	scored := b.project(recs, compare.HasMetric(records.ScoreMetric))

	// Group into table rows × set columns; a cell is the row's value.
	t := table{Rows: scored.Rows(true), Cols: setColumns([]string{"men"}, scoreOf(records.RuleZero), false)}
	for _, r := range t.Rows {
		c := r.Cell(t.Cols[0].Metric)
		fmt.Println(strings.TrimSpace(fmt.Sprintf("row #%d %s, %s: %.2f %s", r.Num, r.Label, t.Cols[0].Name, c.Value, c.Spread())))
	}

	// Or into chart lines against the window: one point per x.
	x := func(_ int, t trial) float64 { w, _ := compare.Number(t.Settings["data.window"]); return w }
	for _, l := range scored.Lines(func(int, trial) string { return "CA" }, x) {
		pts, _ := l.Points(compare.MetricAt(men))
		for _, p := range pts {
			fmt.Printf("line %s at W = %g: %.2f ± %.3f\n", l.Name, p.X, p.Y, p.Err)
		}
	}
	// Output:
	// row #1 CA · W=2, MEN: 0.61 sd 0.014 over 2 seeds
	// row #3 CA · W=5, MEN: 0.70
	// line CA at W = 2: 0.61 ± 0.014
	// line CA at W = 5: 0.70 ± 0.000
}
