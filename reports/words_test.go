package reports

import (
	"fmt"
	"html"
	"kcalab/records"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tableRows parses the rows of one rendered score table (by id) into row
// name → cells, each cell its text and class ("best", "second" or ""), and
// the names of the rows in the reference group.
func tableRows(t *testing.T, page, id string) (rows map[string][][2]string, order, reference []string) {
	t.Helper()
	start := strings.Index(page, `id="`+id+`"`)
	require.GreaterOrEqual(t, start, 0, "no table %s", id)
	table := page[start : start+strings.Index(page[start:], "</table>")]
	if f := strings.Index(table, `<tbody class="footer">`); f >= 0 {
		table = table[:f] + table[f+strings.Index(table[f:], "</tbody>"):]
	}
	ref := strings.Index(table, `<tbody class="reference">`)
	rowRE := regexp.MustCompile(`<tr><th>([^<]*)</th>((?:<td[^>]*>[^<]*(?:<small>[^<]*</small>)?</td>)+)</tr>`)
	cellRE := regexp.MustCompile(`<td class="num( best| second)?">([^< ]*)`)
	rows = map[string][][2]string{}
	for _, m := range rowRE.FindAllStringSubmatchIndex(table, -1) {
		name := html.UnescapeString(table[m[2]:m[3]])
		if ref >= 0 && m[0] > ref {
			reference = append(reference, name)
			name = "ref:" + name
		} else {
			order = append(order, name)
		}
		for _, c := range cellRE.FindAllStringSubmatch(table[m[4]:m[5]], -1) {
			rows[name] = append(rows[name], [2]string{c[2], strings.TrimSpace(c[1])})
		}
	}
	return rows, order, reference
}

// TestScoreMarks checks the red/magenta marks of the zero-rule table
// against the fixture's numbers, worked out here independently of Rank, and
// that the published rows, though higher, are never marked.
func TestScoreMarks(t *testing.T) {
	recs := methodRecords()
	page := string(render(t, wordReport("t", recs, CDNScript())))
	rows, order, reference := tableRows(t, page, "scores-zero")
	require.Equal(t, []string{"CBOW", "SGNS", "GloVe", "fastText", "tail-cut", "LCA · flat", "LCA · skip",
		"SCA · MEN · in-sample", "SCA · M.Turk · folds"}, order)
	require.Len(t, reference, 9)
	for j, s := range fixtureSets {
		// The best and second-best distinct values at 3 decimals.
		var shown []string
		for _, rec := range recs {
			shown = append(shown, strconv.FormatFloat(rec.Metrics[records.Score(records.RuleZero, s.name).Key()], 'f', 3, 64))
		}
		distinct := slices.Clone(shown)
		slices.Sort(distinct)
		distinct = slices.Compact(distinct)
		best, second := distinct[len(distinct)-1], distinct[len(distinct)-2]
		for i, name := range order {
			cell := rows[name][j]
			assert.Equal(t, shown[i], cell[0], "%s / %s", name, s.name)
			want := ""
			switch shown[i] {
			case best:
				want = "best"
			case second:
				want = "second"
			}
			assert.Equal(t, want, cell[1], "mark of %s on %s (%s; best %s, second %s)", name, s.name, shown[i], best, second)
		}
		for _, name := range reference {
			assert.Equal(t, "", rows["ref:"+name][j][1], "published row %s is marked on %s", name, s.name)
		}
	}
	// The published SCA+MEN on MEN (0.770) beats every trial, yet the red
	// mark stays with the best trial; 0.7124 and 0.7121 tie as 0.712.
	assert.Equal(t, [2]string{"0.770", ""}, rows["ref:SCA+MEN"][2])
	assert.Equal(t, [2]string{"0.731", "best"}, rows["SCA · MEN · in-sample"][2])
	for _, name := range []string{"tail-cut", "LCA · skip", "SCA · M.Turk · folds"} {
		assert.Equal(t, [2]string{"0.712", "best"}, rows[name][0], name)
	}
}

func TestScoreSection(t *testing.T) {
	recs := methodRecords()
	s := tb().scoreSection(recs)
	require.NotNil(t, s)
	zero := s.Blocks[1].(ScoreTable)
	skip := s.Blocks[2].(ScoreTable)
	assert.Equal(t, []string{"Sim", "Rel", "MEN", "M.Turk", "Rare", "S999"}, zero.Columns)
	assert.Equal(t, []string{"98.5% of 203", "98.8% of 252", "99.7% of 3000", "varies: see cells (of 287)", "varies: see cells (of 2034)", "99.7% of 999"},
		zero.Footer[0].Cells, "coverage common to all trials goes in the footer")
	assert.Equal(t, []string{"", "", "", "90.9%", "29.6%", ""}, zero.Rows[2].Notes, "GloVe's own coverage where it differs")
	assert.Equal(t, []string{"", "", "†", "96.9%", "41.2%", ""}, zero.Rows[7].Notes, "in-sample SCA flagged on its training set")
	assert.InDelta(t, recs[0].Metrics["spearman.skip.rare"], skip.Rows[0].Scores[4], 0)
	assert.Equal(t, PaperScores(paperSets), zero.Reference)

	t.Run("user set and missing scores", func(t *testing.T) {
		recs := []records.Record{
			{ID: "a", Status: "ok", Settings: map[string]any{"method": "ca"}, Metrics: map[string]float64{"spearman.zero.men": 0.5, "spearman.zero.mine": 0.4}},
			{ID: "b", Status: "error", Error: "boom", Settings: map[string]any{"method": "sgns"}},
		}
		s := tb().scoreSection(recs)
		require.NotNil(t, s)
		zero := s.Blocks[1].(ScoreTable)
		assert.Equal(t, []string{"MEN", "mine"}, zero.Columns, "registered sets first, user sets after")
		assert.True(t, math.IsNaN(zero.Reference[0].Scores[1]), "the paper has no score on a user set")
		assert.True(t, math.IsNaN(s.Blocks[2].(ScoreTable).Rows[0].Scores[0]), "no skip-rule metric: no score")
		assert.Equal(t, Paragraph("1 trial(s) have no scores (1 error); see the trials table."), s.Blocks[len(s.Blocks)-1])
	})
	assert.Nil(t, tb().scoreSection(fisherRecords(t)), "no Spearman metrics: no section")
}

func TestTrialLabels(t *testing.T) {
	rec := func(kv ...any) records.Record { return records.Record{Settings: with(map[string]any{}, kv...)} }
	cases := []struct {
		name string
		recs []records.Record
		want []string
	}{
		{"name wins", []records.Record{rec("method", "ca", "name", "mine", "label", "other"), rec("method", "ca", "label", "lbl")}, []string{"mine", "lbl"}},
		{"settings varying within the method",
			[]records.Record{rec("method", "ca", "data.table", "cut", "svd.rank", 1000.0, "data.window", 5.0), rec("method", "ca", "data.table", "flat", "svd.rank", 1000.0, "data.window", 10.0), rec("method", "sgns", "data.table", "cut", "svd.rank", 0.0, "data.window", 5.0)},
			[]string{"CA · cut · W=5", "CA · flat · W=10", "SGNS"}},
		{"ranks and fractions", []records.Record{rec("method", "kca", "svd.rank", 1000.0, "data.fraction", 0.5), rec("method", "kca", "svd.rank", 300.0, "data.fraction", 1.0)},
			[]string{"KCA · d=1000 · f=0.5", "KCA · d=300 · f=1"}},
		{"repeats get the trial number", []records.Record{rec("method", "ca"), rec("method", "ca")}, []string{"CA (#1)", "CA (#2)"}},
		{"unknown keys spelled out", []records.Record{rec("method", "x", "foo.bar", true), rec("method", "x", "foo.bar", false)}, []string{"x · foo.bar=true", "x · foo.bar=false"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			nums := make([]int, len(c.recs))
			for i := range nums {
				nums[i] = i + 1
			}
			assert.Equal(t, c.want, tb().trialLabels(c.recs, nums))
		})
	}
}

func TestSweepSection(t *testing.T) {
	s := tb().sweepSection(sweepRecords())
	require.NotNil(t, s)
	require.Len(t, s.Subsections, 1, "only the window takes ≥ 3 values")
	sub := s.Subsections[0]
	assert.Equal(t, "sweep-window", sub.ID)
	row := sub.Blocks[1].(Row)
	require.Len(t, row, 6, "one chart per set")
	for j, b := range row {
		c := b.(LineChart)
		assert.Equal(t, fmt.Sprintf("sweep-window-%d", j+1), c.ID)
		assert.False(t, c.LogX, "windows 2–40 span less than 20×")
		var names []string
		for _, ls := range c.Series {
			names = append(names, ls.Name)
			var xs []float64
			for _, p := range ls.Points {
				xs = append(xs, p.X)
			}
			assert.Equal(t, []float64{2, 5, 10, 24, 40}, xs)
		}
		assert.Equal(t, []string{"cut", "flat", "skip"}, names)
	}
	assert.Equal(t, sweepRecords()[7].Metrics["spearman.zero.sim"], row[0].(LineChart).Series[1].Points[2].Y, "flat, W=10, Sim")

	t.Run("two values are no sweep", func(t *testing.T) {
		assert.Nil(t, tb().sweepSection(sweepRecords()[:2]))
	})
	t.Run("no scores, no sweep", func(t *testing.T) {
		assert.Nil(t, tb().sweepSection(scalingRecords()))
	})
	t.Run("ranks on a log axis, repeats averaged", func(t *testing.T) {
		var recs []records.Record
		for _, d := range []float64{100, 300, 1000, 3000, 3000} {
			recs = append(recs, records.Record{Status: "ok", Settings: map[string]any{"method": "ca", "svd.rank": d},
				Metrics: map[string]float64{"spearman.zero.men": d / 1e4}})
		}
		s := tb().sweepSection(recs)
		require.NotNil(t, s)
		c := s.Subsections[0].Blocks[1].(Row)[0].(LineChart)
		assert.True(t, c.LogX)
		assert.Equal(t, []LineSeries{{Name: "CA", Points: []XY{{X: 100, Y: 0.01}, {X: 300, Y: 0.03}, {X: 1000, Y: 0.1}, {X: 3000, Y: 0.3}}}}, c.Series)
		assert.Contains(t, string(s.Subsections[0].Blocks[0].(Paragraph)), "averaged")
	})
	t.Run("replicates give error bars", func(t *testing.T) {
		var recs []records.Record
		for i, v := range []float64{0.1, 0.2, 0.3, 0.3, 0.5, 0.4} {
			x := []float64{1, 2, 3, 3, 3, 5}[i]
			recs = append(recs, records.Record{Status: "ok", Settings: map[string]any{"method": "lca", "data.window": x, "replicate": float64(i % 3)},
				Metrics: map[string]float64{"spearman.zero.men": v}})
		}
		s := tb().sweepSection(recs)
		require.NotNil(t, s)
		pts := s.Subsections[0].Blocks[1].(Row)[0].(LineChart).Series[0].Points
		require.Len(t, pts, 4)
		assert.Equal(t, XY{X: 1, Y: 0.1}, pts[0])
		assert.InDelta(t, 11.0/30, pts[2].Y, 1e-12)
		assert.InDelta(t, math.Sqrt(((0.3-11.0/30)*(0.3-11.0/30)*2+(0.5-11.0/30)*(0.5-11.0/30))/2), pts[2].Err, 1e-12, "sample sd over the three replicates")
		assert.Contains(t, string(s.Subsections[0].Blocks[0].(Paragraph)), "error bars are ± one standard deviation")
	})
}

func TestScalingSection(t *testing.T) {
	s := tb().scalingSection(scalingRecords())
	require.NotNil(t, s)
	charts := s.Blocks[1].(Row)
	for _, b := range charts {
		c := b.(LineChart)
		assert.True(t, c.LogX && c.LogY)
		assert.Equal(t, "Vocabulary size V", c.XName)
		require.Len(t, c.Series, 3)
		assert.Equal(t, []string{"dense", "randomized", "dssvd"}, []string{c.Series[0].Name, c.Series[1].Name, c.Series[2].Name})
		assert.Len(t, c.Series[0].Points, 3, "dense finished the three smaller sizes")
		assert.Len(t, c.Series[2].Points, 5)
		// The two sizes dense did not finish are marked, at the V the other
		// backends measured there.
		assert.Equal(t, []VLines{{Name: "dense: over budget", X: []float64{40186, 62154}, Like: "dense"}}, c.Marks)
	}
	unfinished := s.Blocks[2].(Table)
	assert.Equal(t, [][]string{
		{"dense", "V = 40,186", "over_budget", "over budget: wall time passed budget.seconds = 600 s"},
		{"dense", "V = 62,154", "over_budget", "over budget: resident memory passed budget.memory_mb = 8000 MB"},
	}, unfinished.Rows)
	assert.Contains(t, string(s.Blocks[3].(Paragraph)), "DSSVD was 100 times faster than SVD with numPy and 10 times faster than randomized SVD.")
	ratios := s.Blocks[4].(Table)
	assert.Equal(t, [][]string{
		// 1.52 / 190.4 at the largest size dense finished; 190 / 5150 MB.
		{"dssvd / dense", "V = 25,371", "125× faster", "3.7% of dense's", "100× faster; 10% of the memory"},
		// 7.1 / 70.4 at the largest size; 390 / 1830 MB.
		{"dssvd / randomized", "V = 62,154", "9.92× faster", "21.3% of randomized's", "10× faster; 20% of the memory"},
	}, ratios.Rows)

	t.Run("fraction axis without vocab", func(t *testing.T) {
		recs := scalingRecords()
		for i := range recs {
			delete(recs[i].Metrics, "vocab")
		}
		s := tb().scalingSection(recs)
		require.NotNil(t, s)
		c := s.Blocks[1].(Row)[0].(LineChart)
		assert.Equal(t, "Corpus fraction (data.fraction)", c.XName)
		assert.Equal(t, []float64{0.5, 1}, c.Marks[0].X)
	})
	t.Run("one size: no figures", func(t *testing.T) {
		recs := scalingRecords()
		assert.Nil(t, tb().scalingSection([]records.Record{recs[5], recs[10]}))
	})
	t.Run("no dssvd: no ratios", func(t *testing.T) {
		s := tb().scalingSection(scalingRecords()[:10])
		require.NotNil(t, s)
		for _, b := range s.Blocks {
			if tb, ok := b.(Table); ok {
				assert.NotEqual(t, "scaling-ratios", tb.ID)
			}
		}
	})
	t.Run("krylov replicates: mean ratios, error bars, accuracy figure", func(t *testing.T) {
		recs := scalingRecords()
		for i := range recs {
			if recs[i].Status == "ok" {
				recs[i].Metrics[records.MetricSVDResidual] = 1e-2
			}
		}
		// krylov at the two largest sizes, three seeds: 10, 11, 12 s and 400 MB.
		for k, f := range []float64{0.5, 1} {
			for rep := range 3 {
				settings := with(recs[0].Settings, "svd.backend", "krylov", "data.fraction", f)
				if rep > 0 {
					settings = with(settings, "replicate", float64(rep))
				}
				recs = append(recs, records.Record{ID: fmt.Sprintf("k%d%d", k, rep), Spec: "svd-scaling", Status: "ok", Settings: settings,
					Metrics: map[string]float64{"wall_s": 10 + float64(rep), "max_rss_mb": 400, "vocab": []float64{40186, 62154}[k],
						records.MetricSVDResidual: 1e-9}})
			}
		}
		s := tb().scalingSection(recs)
		require.NotNil(t, s)
		time := s.Blocks[1].(Row)[0].(LineChart)
		require.Len(t, time.Series, 4, "one krylov line, not one per replicate")
		assert.Equal(t, []XY{{X: 40186, Y: 11, Err: 1}, {X: 62154, Y: 11, Err: 1}}, time.Series[3].Points)
		var acc *LineChart
		var ratios *Table
		for _, b := range s.Blocks {
			if r, ok := b.(Row); ok && len(r) == 1 {
				if c, ok := r[0].(LineChart); ok && c.ID == "scaling-accuracy" {
					acc = &c
				}
			}
			if tb, ok := b.(Table); ok && tb.ID == "scaling-ratios" {
				ratios = &tb
			}
		}
		require.NotNil(t, acc, "an accuracy figure when records carry residuals")
		assert.Equal(t, []XY{{X: 40186, Y: 1e-9}, {X: 62154, Y: 1e-9}}, acc.Series[3].Points)
		require.NotNil(t, ratios)
		assert.Contains(t, ratios.Rows, []string{"krylov / randomized", "V = 62,154", "6.4× faster", "21.9% of randomized's", "— (not in the paper)"},
			"the replicates' mean, 11 s against 70.4 s")
	})
	assert.Nil(t, tb().scalingSection(methodRecords()), "no measurements: no section")
}

// TestTrialsTableCompact: scores stay out of the trials table, and a
// median's range over repeats shares its column.
func TestTrialsTableCompact(t *testing.T) {
	s := tb().trialsSection(append(methodRecords(), scalingRecords()...))
	var tb Table
	for _, b := range s.Blocks {
		if d, ok := b.(Details); ok { // a long table is collapsed
			b = d.Blocks[0]
		}
		if x, ok := b.(Table); ok {
			tb = x
		}
	}
	for _, h := range tb.Header {
		assert.False(t, strings.HasPrefix(h, "spearman.") || strings.HasPrefix(h, "coverage.") || strings.HasPrefix(h, "pairs."), h)
		assert.False(t, strings.HasSuffix(h, ".min") || strings.HasSuffix(h, ".max"), h)
	}
	col := slices.Index(tb.Header, "wall_s")
	require.GreaterOrEqual(t, col, 0)
	assert.Equal(t, "1.52 [1.474–1.581]", tb.Rows[9+12][col], "dssvd at the third size")
	assert.Equal(t, "40,186", tb.Rows[0][slices.Index(tb.Header, "vocab")])
}

func TestPaperScores(t *testing.T) {
	rows := PaperScores([]string{"s999", "men", "other"})
	require.Len(t, rows, 9)
	assert.Equal(t, "SCA+MEN", rows[7].Name)
	assert.Equal(t, 0.210, rows[7].Scores[0])
	assert.Equal(t, 0.770, rows[7].Scores[1])
	assert.True(t, math.IsNaN(rows[7].Scores[2]))
	rows[0].Scores[0] = 1
	assert.Equal(t, 0.075, PaperScores([]string{"s999"})[0].Scores[0], "a fresh copy each time")
}

// Replicates fold into one row of means with their spread in the cell.
func TestScoreReplicates(t *testing.T) {
	rec := func(id string, r int, men float64) records.Record {
		s := map[string]any{"method": "ca", "svd.backend": "dssvd"}
		if r > 0 {
			s["replicate"] = r
		}
		return records.Record{ID: id, Status: "ok", Settings: s, Metrics: map[string]float64{"spearman.zero.men": men, "spearman.skip.men": men}}
	}
	sec := tb().scoreSection([]records.Record{rec("a", 0, 0.50), rec("b", 1, 0.52), rec("c", 2, 0.54)})
	require.NotNil(t, sec)
	zero := sec.Blocks[1].(ScoreTable)
	require.Len(t, zero.Rows, 1)
	assert.InDelta(t, 0.52, zero.Rows[0].Scores[0], 1e-12)
	assert.Equal(t, "± 0.02 (n = 3)", zero.Rows[0].Notes[0])
}

// With lapack trials in the run, the paper's "100× faster than numPy's
// SVD" is checked against them (numPy's SVD is LAPACK), and the pure-Go
// dense row says it is not the paper's baseline.
func TestScalingRatiosAgainstLAPACK(t *testing.T) {
	recs := scalingRecords()
	for k, w := range []float64{2.1, 7.9, 30.2} {
		f := []float64{0.0625, 0.125, 0.25}[k]
		recs = append(recs, records.Record{ID: fmt.Sprintf("l%d", k), Spec: "svd-scaling", Status: "ok",
			Settings: with(recs[0].Settings, "svd.backend", "lapack", "data.fraction", f),
			Metrics:  map[string]float64{"wall_s": w, "max_rss_mb": 900, "vocab": []float64{9812, 15904, 25371}[k]}})
	}
	s := tb().scalingSection(recs)
	require.NotNil(t, s)
	var ratios *Table
	for _, b := range s.Blocks {
		if tb, ok := b.(Table); ok && tb.ID == "scaling-ratios" {
			ratios = &tb
		}
	}
	require.NotNil(t, ratios)
	assert.Contains(t, ratios.Caption, "LAPACK")
	assert.Contains(t, ratios.Rows, []string{"dssvd / lapack", "V = 25,371", "19.9× faster", "21.1% of lapack's", "100× faster; 10% of the memory"},
		"1.52 s against LAPACK's 30.2 s, at the largest size both finished")
	assert.Contains(t, ratios.Rows, []string{"dssvd / dense", "V = 25,371", "125× faster", "3.7% of dense's", "— (pure-Go dense; the paper's numPy SVD is LAPACK)"})
}
