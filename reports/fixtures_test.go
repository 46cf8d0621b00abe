package reports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/require"
)

// fisherRecords reads testdata/fisher.jsonl: three trials of CA on Fisher's
// eye × hair colour table (two ok, one error), with the published numbers
// (singular values 0.4464, 0.1735, 0.0293).
func fisherRecords(t testing.TB) []records.Record {
	t.Helper()
	b, err := os.ReadFile("testdata/fisher.jsonl")
	require.NoError(t, err)
	var recs []records.Record
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r records.Record
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&r))
		recs = append(recs, r)
	}
	require.NoError(t, sc.Err())
	require.Len(t, recs, 3)
	return recs
}

// stubScript stands in for the library in golden files, which must not carry
// a copy of it.
func stubScript(t testing.TB) Script {
	t.Helper()
	s, err := InlineScript("/* ECharts stub: golden files do not carry the library */", "ECharts stub (test)")
	require.NoError(t, err)
	return s
}

func fisherReport(t testing.TB, s Script) Report {
	return Report{Methods: testMethods,
		Title:       "Fisher eye × hair colour",
		Spec:        "fisher",
		Description: "Correspondence analysis of Fisher's eye × hair colour data (Figure 1 of the paper).",
		Notes:       []string{"Published: singular values 0.4464, 0.1735, 0.0293."},
		Records:     fisherRecords(t),
		ECharts:     s,
	}
}

// blocksReport shows every building block the later reports will use: log
// line charts, a score table with ties and a reference group, a bar chart,
// a free scatter map and a plain table.
func blocksReport(s Script) Report {
	sizes := []float64{1e5, 1e6, 1e7, 1e8}
	return Report{Methods: testMethods,
		Title: "Building blocks",
		Spec:  "blocks",
		Sections: []Section{
			{ID: "timing", Title: "Time and memory against training size", Blocks: []Block{
				Paragraph("One series per backend; both axes logarithmic."),
				Row{
					LineChart{ID: "time", Title: "SVD time", XName: "Training tokens", YName: "Seconds", LogX: true, LogY: true,
						Series: []LineSeries{
							{Name: "dense", Points: []XY{{X: sizes[0], Y: 0.5}, {X: sizes[1], Y: 4}, {X: sizes[2], Y: 41}, {X: sizes[3], Y: math.NaN()}}},
							{Name: "randomized", Points: []XY{{X: sizes[0], Y: 0.2}, {X: sizes[1], Y: 1.1}, {X: sizes[2], Y: 9}, {X: sizes[3], Y: 80}}},
							{Name: "dssvd", Points: []XY{{X: sizes[0], Y: 0.1}, {X: sizes[1], Y: 0.6}, {X: sizes[2], Y: 5}, {X: sizes[3], Y: 0}}},
						}},
					LineChart{ID: "memory", Title: "Peak memory", XName: "Training tokens", YName: "MiB", LogX: true, LogY: true,
						Width: 560, Height: 360,
						Series: []LineSeries{
							{Name: "dense", Points: []XY{{X: sizes[0], Y: 120}, {X: sizes[1], Y: 900}, {X: sizes[2], Y: 7000}}},
							{Name: "dssvd", Points: []XY{{X: sizes[0], Y: 60}, {X: sizes[1], Y: 210}, {X: sizes[2], Y: 800}, {X: sizes[3], Y: 2900}}},
						}},
				},
			}},
			{ID: "scores", Title: "Word similarity", Blocks: []Block{
				RankTable(ScoreTable{ID: "scores-table", Caption: "Spearman ρ per word-similarity set", RowHeader: "Method",
					Columns: []string{"WS353", "MEN", "SimLex"},
					Rows: []ScoreRow{
						{Name: "CA (K = D⁻¹)", Scores: []float64{0.712, 0.70, 0.31}},
						{Name: "Gini (K = I)", Scores: []float64{0.7124, 0.65, math.NaN()}},
						{Name: "SVD-PPMI", Scores: []float64{0.69, 0.72, 0.35}},
						{Name: "word2vec SGNS", Scores: []float64{0.70, 0.72, 0.38}},
					},
					ReferenceTitle: "Published (paper, Table 2)",
					Reference:      []ScoreRow{{Name: "SGNS (paper)", Scores: []float64{0.733, 0.75, 0.40}}},
				}, nil),
				Row{
					LineChart{ID: "by-window", Title: "ρ against window size", XName: "Window W", YName: "Spearman ρ",
						Series: []LineSeries{{Name: "WS353", Points: []XY{{X: 2, Y: 0.61}, {X: 5, Y: 0.66}, {X: 10, Y: 0.7}}}, {Name: "MEN", Points: []XY{{X: 2, Y: 0.6}, {X: 5, Y: 0.68}, {X: 10, Y: 0.71}}}}},
					LineChart{ID: "by-dim", Title: "ρ against dimension", XName: "Dimension k", YName: "Spearman ρ", LogX: true,
						Series: []LineSeries{{Name: "WS353", Points: []XY{{X: 50, Y: 0.6}, {X: 100, Y: 0.66}, {X: 300, Y: 0.7}}}}},
				},
			}},
			{Title: "Other blocks", Blocks: []Block{
				Bar{ID: "bars", Title: "Bars", XName: "Axis", YName: "Inertia", Categories: []string{"1", "2", "3"},
					Series: []BarSeries{{Name: "a", Values: []float64{3, 2, 1}}, {Name: "b", Values: []float64{2.5, 1, 0.5}, Labels: []string{"x", "y", "z"}}}},
				ScatterMap{ID: "free-map", Title: "Free-scale map", XName: "x", YName: "y",
					Series: []ScatterSeries{{Name: "points", Points: []Labeled{{Label: "p", X: 1, Y: 2}, {Label: "q", X: -3, Y: 0.5}, {Label: "r", X: 2, Y: -1}}}}},
				Table{Caption: "A table", Header: []string{"name", "value"}, Rows: [][]string{{"a", "1"}, {"b", "22"}}, Numeric: []bool{false, true}},
				List{"one", "two"},
			}, Subsections: []Section{{Title: "A subsection", Blocks: []Block{Paragraph("Nested.")}}}},
		},
		ECharts: s,
	}
}

// hostile is text from the data that tries to break out of every context
// the page has: element text, attributes, the chart JSON in <script>, and
// ECharts' own "{b}" label templates.
const hostile = `</script><b>x</b><!--"'&{b}`

func hostileReport(s Script) Report {
	ca := &records.CAResult{
		SingularValues: []float64{0.5, 0.2},
		Inertias:       []float64{0.25, 0.04},
		InertiaShare:   []float64{0.862, 0.138},
		TotalInertia:   0.29,
		RowLabels:      []string{hostile, "plain"},
		ColLabels:      []string{"c1", hostile},
		RowPrincipal:   [][]float64{{0.5, 0.1}, {-0.4, -0.2}},
		ColPrincipal:   [][]float64{{0.3, -0.3}, {-0.6, 0.2}},
	}
	// Word trials whose names, methods, backends and sets are hostile too:
	// they reach the score tables, the sweep and the scaling charts.
	var words []records.Record
	for i, w := range []float64{1, 2, 3} {
		st := "ok"
		if i == 2 {
			st = "over_budget"
		}
		words = append(words, records.Record{ID: "w" + formatValue(w), Status: st, Error: hostile,
			Settings: map[string]any{"method": hostile, "name": hostile + formatValue(w), "svd.backend": hostile, "data.window": w},
			Metrics:  map[string]float64{"spearman.zero." + hostile: w / 10, "coverage." + hostile: 1, "wall_s": w, "max_rss_mb": w, "vocab": 1000 * w}})
	}
	return Report{Methods: testMethods,
		Title:       "Title " + hostile,
		Spec:        "spec " + hostile,
		Description: hostile,
		Notes:       []string{hostile},
		Records: []records.Record{
			{ID: "id " + hostile, Spec: hostile, Status: "ok", CA: ca,
				Settings: map[string]any{"data.csv": "dir/" + hostile + ".csv", hostile: 1.0},
				Metrics:  map[string]float64{"m." + hostile: 0.5},
				Timings:  map[string]float64{hostile: 1}},
			{ID: "second", Status: "error", Error: hostile,
				Settings: map[string]any{"data.csv": "other.csv"}},
			words[0], words[1], words[2],
		},
		Sections: []Section{{Title: hostile, Blocks: []Block{
			LineChart{ID: "hostile-line", Title: hostile, XName: hostile, YName: hostile,
				Series: []LineSeries{{Name: hostile, Points: []XY{{X: 1, Y: 2}, {X: 2, Y: 3}}}}},
			Bar{ID: "hostile-bar", Title: hostile, Categories: []string{hostile, "b"},
				Series: []BarSeries{{Name: hostile, Values: []float64{1, 2}, Labels: []string{hostile, "y"}}}},
			ScoreTable{Caption: hostile, RowHeader: hostile, Columns: []string{hostile},
				Rows:           []ScoreRow{{Name: hostile, Scores: []float64{1}}},
				ReferenceTitle: hostile, Reference: []ScoreRow{{Name: hostile, Scores: []float64{2}}}},
			Table{Caption: hostile, Header: []string{hostile}, Rows: [][]string{{hostile}}},
		}}},
		ECharts: s,
	}
}
