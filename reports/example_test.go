package reports_test

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"kcalab/records"
	"kcalab/schema"

	"kcalab/reports"
)

// A CA trial gets a map, a scree chart and a table of singular values.
func ExampleWrite() {
	rec := records.Record{
		ID: "demo", Spec: "demo", Status: "ok",
		Settings: map[string]any{"svd.backend": "dense"},
		CA: &records.CAResult{
			SingularValues: []float64{0.4464, 0.1735},
			Inertias:       []float64{0.1992, 0.0301},
			InertiaShare:   []float64{0.866, 0.131},
			TotalInertia:   0.2302,
			RowLabels:      []string{"blue", "dark"},
			ColLabels:      []string{"fair", "black"},
			RowPrincipal:   [][]float64{{-0.40, -0.17}, {0.70, -0.13}},
			ColPrincipal:   [][]float64{{-0.54, -0.17}, {1.09, -0.29}},
		},
	}
	var page bytes.Buffer
	err := reports.Write(&page, reports.Report{
		Title:   "Demo",
		Spec:    "demo",
		Records: []records.Record{rec},
		// In a program: reports.FindECharts(reports.FindOptions{}).
		ECharts: reports.CDNScript(),
	})
	fmt.Println("error:", err)
	for _, id := range []string{"ca-map-1", "ca-scree-1", "ca-sv-1", "trials-table"} {
		fmt.Println(id, strings.Contains(page.String(), `id="`+id+`"`))
	}
	fmt.Println(strings.Contains(page.String(), `"name":"Axis 1 (86.6%)"`))
	// Output:
	// error: <nil>
	// ca-map-1 true
	// ca-scree-1 true
	// ca-sv-1 true
	// trials-table true
	// true
}

// Ties share a mark: both 0.712 are best, 0.700 is second.
func ExampleRank() {
	marks := reports.Rank([]float64{0.7124, 0.700, 0.7121, math.NaN()}, 3, false)
	names := map[reports.Mark]string{reports.NoMark: "-", reports.Best: "best", reports.Second: "second"}
	for _, m := range marks {
		fmt.Print(names[m], " ")
	}
	fmt.Println()
	// Output: best second best -
}

// Extra sections carry the charts and tables of later experiments. A
// score table is ranked before it is printed (RankTable); without
// bootstrap replicates nothing is tested: its two highest scores are shown
// as such ("untested"), never as wins.
func ExampleSection() {
	s := reports.Section{ID: "timing", Title: "Time against training size", Blocks: []reports.Block{
		reports.LineChart{ID: "svd-time", Title: "SVD time", XName: "Tokens", YName: "Seconds", LogX: true, LogY: true,
			Series: []reports.LineSeries{{Name: "dssvd", Points: []reports.XY{{X: 1e5, Y: 0.1}, {X: 1e6, Y: 0.6}}}}},
		reports.RankTable(reports.ScoreTable{Caption: "Spearman ρ", RowHeader: "Method", Columns: []string{"MEN"},
			Rows: []reports.ScoreRow{{Name: "CA", Scores: []float64{0.71}}, {Name: "SGNS", Scores: []float64{0.72}}}}, nil),
	}}
	var page bytes.Buffer
	err := reports.Write(&page, reports.Report{Title: "Timing", Sections: []reports.Section{s}, ECharts: reports.CDNScript()})
	fmt.Println(err, strings.Contains(page.String(), `<td class="num untested">0.720</td>`))
	// Output: <nil> true
}

// Word trials get the score tables on their own: the caller passes the
// records and the methods they name (the command passes schema.Methods()).
// Each ρ shows its 95% bootstrap interval and, small, its score at the
// other similarity; a row is best only when no row is significantly above
// it (here the resamples move both trials alike, so 0.700 against 0.641 is
// a clear difference). The paper's numbers follow as a reference group.
func ExampleWrite_wordTrials() {
	rec := func(id, table string, men float64, own float64) records.Record {
		reps := make([]float64, 200)
		for b := range reps {
			reps[b] = men + 0.03*math.Sin(float64(b)) + own*math.Cos(float64(3*b))
		}
		key := "spearman.zero.men"
		return records.Record{ID: id, Status: "ok",
			Settings: map[string]any{"method": "lca", "data.table": table, "svd.rank": 300},
			Metrics: map[string]float64{key: men, "spearman.cosine.zero.men": men - 0.02, "spearman.skip.men": men + 0.01,
				"coverage.men": 0.997, "pairs.men": 3000},
			Bootstrap: &records.Bootstrap{B: 200, Scores: map[string]string{key: records.EncodeReplicates(reps, men)}}}
	}
	var page bytes.Buffer
	err := reports.Write(&page, reports.Report{Title: "LCA", ECharts: reports.CDNScript(),
		Records: []records.Record{rec("a", "flat", 0.641, 0.01), rec("b", "skip", 0.700, 0.005)},
		Methods: []schema.MethodInfo{{Name: "lca", Label: "LCA", Inputs: schema.CorpusInput, Axes: true, Similarity: records.SimDot}}})
	fmt.Println("error:", err)
	p := page.String()
	fmt.Println(strings.Contains(p, `<tr class="group"><th colspan="2">d = 300</th></tr>`))
	fmt.Println(strings.Contains(p, `<tr><th>LCA · flat</th><td class="num second">0.641 <small class="ci">±0.044</small> <small>cos 0.621</small></td></tr>`))
	fmt.Println(strings.Contains(p, `<tr><th>LCA · skip</th><td class="num best">0.700 <small class="ci">±0.042</small> <small>cos 0.680</small></td></tr>`))
	fmt.Println(strings.Contains(p, `<td class="num">99.7% of 3000</td>`))
	fmt.Println(strings.Contains(p, `<tr><th>LCA N^skip</th><td class="num">0.672</td></tr>`))
	// Output:
	// error: <nil>
	// true
	// true
	// true
	// true
	// true
}

// The published table, for any choice of sets (NaN where the paper has none).
func ExamplePaperScores() {
	for _, r := range reports.PaperScores([]string{"men", "s999"})[4:7] {
		fmt.Println(r.Name, r.Scores)
	}
	// Output:
	// tail-cut [0.682 0.212]
	// LCA N^flat [0.671 0.218]
	// LCA N^skip [0.672 0.211]
}
