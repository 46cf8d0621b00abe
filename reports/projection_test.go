package reports

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/records"
	"kcalab/reports/compare"
)

// projRecords are six trials: CA at two ranks (the first replicated, one
// replicate failed), a measured trial, an SGNS trial without scores that
// failed, and a second SGNS trial that has them.
func projRecords() []records.Record {
	score := func(v float64) map[string]float64 {
		return map[string]float64{records.Score(records.RuleZero, "men").Key(): v, records.Coverage("men").Key(): 0.9}
	}
	return []records.Record{
		{ID: "a", Status: "ok", Settings: map[string]any{"method": "ca", "svd.rank": 100}, Metrics: score(0.60)},
		{ID: "b", Status: "ok", Settings: map[string]any{"method": "ca", "svd.rank": 100, "replicate": 1}, Metrics: score(0.62)},
		{ID: "c", Status: "ok", Settings: map[string]any{"method": "ca", "svd.rank": 300}, Metrics: score(0.70)},
		{ID: "d", Status: "ok", Settings: map[string]any{"method": "ca", "svd.rank": 300, "measure.process": true},
			Metrics: map[string]float64{records.MetricWall: 2, records.Score(records.RuleZero, "men").Key(): 0.5}},
		{ID: "e", Status: "error", Settings: map[string]any{"method": "sgns"}},
		{ID: "f", Status: "ok", Settings: map[string]any{"method": "sgns", "svd.rank": "x"}, Metrics: score(0.40)},
	}
}

func ids(pr projection) []string {
	var out []string
	for _, t := range pr.Trials {
		out = append(out, fmt.Sprintf("%s#%d", t.ID, t.Num))
	}
	return out
}

// Filters select; every trial keeps its number on the page.
func TestProjectFilters(t *testing.T) {
	cases := []struct {
		name string
		keep []filter
		want []string
	}{
		{"all", nil, []string{"a#1", "b#2", "c#3", "d#4", "e#5", "f#6"}},
		{"scored", []filter{compare.HasMetric(records.ScoreMetric)}, []string{"a#1", "b#2", "c#3", "d#4", "f#6"}},
		{"any of several kinds", []filter{compare.HasMetric(records.PearsonMetric, records.MeasurementMetric)}, []string{"d#4"}},
		{"status", []filter{compare.HasStatus("error")}, []string{"e#5"}},
		{"not measured", []filter{compare.HasMetric(records.ScoreMetric), compare.Not(isMeasuredTrial)}, []string{"a#1", "b#2", "c#3", "f#6"}},
		{"numeric setting", []filter{compare.NumericSetting("svd.rank")}, []string{"a#1", "b#2", "c#3", "d#4"}},
		{"nothing", []filter{compare.HasStatus("over_budget")}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, ids(tb().project(projRecords(), c.keep...)))
		})
	}
	pr := tb().project(projRecords(), compare.HasMetric(records.ScoreMetric)).Where(compare.HasStatus("ok"), compare.Not(isMeasuredTrial))
	assert.Equal(t, []string{"a#1", "b#2", "c#3", "f#6"}, ids(pr), "where narrows and keeps the numbers")
}

// Groups come in the order their keys first appear; byKey sorts them.
func TestGroupBy(t *testing.T) {
	pr := tb().project(projRecords())
	groups := pr.GroupBy(func(_ int, t trial) string { return formatValue(t.Settings["method"]) + "/" + t.Status })
	var got []string
	for _, g := range groups {
		got = append(got, fmt.Sprintf("%s:%d", g.Key, len(g.Trials)))
	}
	assert.Equal(t, []string{"ca/ok:4", "sgns/error:1", "sgns/ok:1"}, got)
	assert.Equal(t, "c", groups[0].Trials[2].ID, "trials keep their order in a group")

	byStatus := compare.ByKey(pr.GroupBy(func(_ int, t trial) string { return t.Status }))
	assert.Equal(t, "error", byStatus[0].Key)
	assert.Equal(t, "ok", byStatus[1].Key)

	byIndex := pr.GroupBy(func(i int, _ trial) string { return fmt.Sprint(i % 2) })
	assert.Equal(t, "0", byIndex[0].Key, "the key may use the trial's index")
}

// Rows fold replicates as records.MergeReplicates does: the mean, the
// sample SD, how many, and the first replicate's number.
func TestRowsFold(t *testing.T) {
	pr := tb().project(projRecords(), compare.HasMetric(records.ScoreMetric), compare.Not(isMeasuredTrial))
	key := records.Score(records.RuleZero, "men").Key()
	cases := []struct {
		name   string
		fold   bool
		labels []string
		nums   []int
		n      []int
	}{
		{"folded", true, []string{"CA · d=100", "CA · d=300", "SGNS"}, []int{1, 3, 6}, []int{2, 1, 1}},
		{"each trial", false, []string{"CA · d=100", "CA · d=100 · replicate=1", "CA · d=300", "SGNS"}, []int{1, 2, 3, 6}, []int{1, 1, 1, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rows := pr.Rows(c.fold)
			var labels []string
			var nums, n []int
			for _, r := range rows {
				labels, nums, n = append(labels, r.Label), append(nums, r.Num), append(n, r.N)
			}
			assert.Equal(t, c.labels, labels)
			assert.Equal(t, c.nums, nums)
			assert.Equal(t, c.n, n)
		})
	}
	c := pr.Rows(true)[0].Cell(key)
	assert.InDelta(t, 0.61, c.Value, 1e-12)
	assert.True(t, c.HasSD)
	assert.InDelta(t, math.Sqrt(0.0002), c.SD, 1e-12)
	assert.Equal(t, "sd 0.014 over 2 seeds", c.Spread())
	assert.Equal(t, "", pr.Rows(true)[1].Cell(key).Spread(), "a single trial says nothing of spread")
	none := pr.Rows(true)[0].Cell("no.such.metric")
	assert.True(t, math.IsNaN(none.Value))
	assert.Equal(t, "2 seeds", none.Spread(), "folded but no value: the count alone")
}

// A failed replicate still belongs to its group: folding keys on the
// settings, not the status.
func TestRowsFoldFailedReplicate(t *testing.T) {
	recs := projRecords()[:2]
	recs[1].Status = "error"
	rows := tb().project(recs).Rows(true)
	require.Len(t, rows, 1)
	assert.Equal(t, 2, rows[0].N)
}

// A table's coverage is said once in the footer when every row covers the
// same, else per cell (noted before what the section adds).
func TestTableCoverage(t *testing.T) {
	recs := projRecords()
	recs[2].Metrics[records.Coverage("men").Key()] = 0.5
	recs[2].Metrics[records.Pairs("men").Key()] = 3000
	cases := []struct {
		name    string
		recs    []records.Record
		footer  string
		perCell bool
		note    string
	}{
		{"same", recs[:2], "90.0%", false, "† sd 0.014 over 2 seeds"},
		{"varies", recs[:3], "varies: see cells (of 3000)", true, "90.0% † sd 0.014 over 2 seeds"},
		{"none", []records.Record{{ID: "x", Settings: map[string]any{"method": "ca"}, Metrics: map[string]float64{"spearman.zero.men": 0.1}}}, "—", false, "†"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tab := table{Rows: tb().project(c.recs).Rows(true), Cols: setColumns([]string{"men"}, scoreOf(records.RuleZero), true)}
			footer, perCell := tab.Coverage()
			assert.Equal(t, []string{c.footer}, footer)
			assert.Equal(t, []bool{c.perCell}, perCell)
			rows := tab.ScoreRows(func(i, j int, c *cell) {
				c.Note("†")
				c.Note(c.Spread())
				c.Unranked = i == 0
			})
			assert.Equal(t, c.note, rows[0].Notes[0])
			assert.Equal(t, []bool{true}, rows[0].Unranked)
			assert.Equal(t, []string{"MEN"}, tab.Header())
		})
	}
}

// Lines come in the order their names first appear; a point folds the
// values at one x into their mean ± SD, points sorted by x.
func TestLinesPoints(t *testing.T) {
	recs := []records.Record{
		{ID: "a", Settings: map[string]any{"w": 5}, Metrics: map[string]float64{"m": 1}},
		{ID: "b", Settings: map[string]any{"w": 2}, Metrics: map[string]float64{"m": 3}},
		{ID: "c", Settings: map[string]any{"w": 5}, Metrics: map[string]float64{"m": 2}},
		{ID: "d", Settings: map[string]any{"w": 2}, Metrics: map[string]float64{}},
		{ID: "e", Settings: map[string]any{"w": 9, "other": true}, Metrics: map[string]float64{"m": 4}},
	}
	pr := tb().project(recs)
	name := func(_ int, t trial) string {
		if _, ok := t.Settings["other"]; ok {
			return "other"
		}
		return "main"
	}
	x := func(_ int, t trial) float64 { v, _ := compare.Number(t.Settings["w"]); return v }
	lines := pr.Lines(name, x)
	require.Len(t, lines, 2)
	assert.Equal(t, "main", lines[0].Name)
	assert.Equal(t, 2, lines[0].DistinctX())
	pts, many := lines[0].Points(compare.MetricAt("m"))
	assert.True(t, many)
	assert.Equal(t, []XY{{X: 2, Y: 3}, {X: 5, Y: 1.5, Err: math.Sqrt(0.5)}}, pts, "d has no value: b alone at x = 2")
	pts, many = lines[1].Points(compare.MetricAt("m"))
	assert.False(t, many)
	assert.Equal(t, []XY{{X: 9, Y: 4}}, pts)
	pts, _ = lines[0].Points(func(t trial, x float64) (float64, bool) { return x, x > 3 })
	assert.Equal(t, []XY{{X: 5, Y: 5}}, pts, "value sees the x and may skip a trial")

	// Values at an unknown x stay points of their own, after the others,
	// in the trials' order, however the map of the others iterates.
	unknown := func(_ int, t trial) float64 {
		if t.ID == "b" || t.ID == "d" {
			return math.NaN()
		}
		return x(0, t)
	}
	for range 20 {
		pts, _ = pr.Lines(func(int, trial) string { return "all" }, unknown)[0].Points(func(t trial, _ float64) (float64, bool) { return float64(len(t.ID)), true })
		require.Len(t, pts, 4)
		assert.Equal(t, []float64{5, 9}, []float64{pts[0].X, pts[1].X})
		assert.True(t, math.IsNaN(pts[2].X) && math.IsNaN(pts[3].X))
	}
}

// A measured trial's row is ranked like any other (it differs only in how
// its time was taken), in the group of its dimension, however the scored
// trials before it fold.
func TestScoreRowsMeasuredAfterFold(t *testing.T) {
	sec := tb().scoreSection(projRecords())
	require.NotNil(t, sec)
	zero := findScoreTable(t, sec.Blocks, "scores-zero")
	var names, groups []string
	for _, r := range zero.Rows {
		names, groups = append(names, r.Name), append(groups, r.Group)
	}
	assert.Equal(t, []string{"CA · d=100", "CA · d=300", "CA · d=300 · measure.process=true", "SGNS"}, names)
	assert.Equal(t, []string{"d = 100", "d = 300", "d = 300", "d = 300"}, groups)
	assert.Equal(t, []bool{false}, zero.Rows[2].Unranked)
}

// findScoreTable is the score table with the id among blocks (inside a
// Details too).
func findScoreTable(t *testing.T, blocks []Block, id string) ScoreTable {
	t.Helper()
	for _, b := range blocks {
		switch b := b.(type) {
		case ScoreTable:
			if b.ID == id {
				return b
			}
		case Details:
			for _, in := range b.Blocks {
				if st, ok := in.(ScoreTable); ok && st.ID == id {
					return st
				}
			}
		}
	}
	t.Fatalf("no score table %s", id)
	return ScoreTable{}
}
