package reports

import (
	"fmt"
	"html"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"kcalab/records"
	"kcalab/reports/compare"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tableRows parses the rows of one rendered score table (by id) into row
// name → cells, each cell its text and class ("best", "second",
// "untested" or ""), and the names of the rows in the reference group.
func tableRows(t *testing.T, page, id string) (rows map[string][][2]string, order, reference []string) {
	t.Helper()
	start := strings.Index(page, `id="`+id+`"`)
	require.GreaterOrEqual(t, start, 0, "no table %s", id)
	table := page[start : start+strings.Index(page[start:], "</table>")]
	if f := strings.Index(table, `<tbody class="footer">`); f >= 0 {
		table = table[:f] + table[f+strings.Index(table[f:], "</tbody>"):]
	}
	ref := strings.Index(table, `<tbody class="reference">`)
	rowRE := regexp.MustCompile(`<tr><th>([^<]*)</th>((?:<td[^>]*>[^<]*(?: ?<small[^>]*>[^<]*</small>)*</td>)+)</tr>`)
	cellRE := regexp.MustCompile(`<td class="num( best| second| untested)?">([^< ]*)`)
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

// TestScoreMarks checks the marks of the zero-rule table against the
// fixture's numbers, worked out here from the paired bootstrap directly
// (records.Difference) rather than by RankSignificant: per group of one d
// and column, best is every ranked score whose difference from the group's
// top has a 95% interval holding 0 (or that prints the same), second the
// same among the rest. In-sample (†) cells and the published rows, though
// higher, are never marked.
func TestScoreMarks(t *testing.T) {
	recs := methodRecords()
	page := string(render(t, wordReport("t", recs, CDNScript())))
	rows, order, reference := tableRows(t, page, "scores-zero")
	// Groups: the baselines at d = 300, the LCA and SCA rows at d = 500,
	// the tail cut alone at d = 1000 (each group's rows in page order).
	require.Equal(t, []string{"CBOW", "SGNS", "GloVe", "fastText", "LCA · flat", "LCA · skip", "SCA · MEN · in-sample", "SCA · M.Turk · folds", "tail-cut"}, order)
	require.Len(t, reference, 9)
	byName := map[string]records.Record{}
	names := tb().trialLabels(recs, []int{1, 2, 3, 4, 5, 6, 7, 8, 9})
	for i, rec := range recs {
		byName[names[i]] = rec
	}
	groups := [][]string{order[:4], order[4:8], order[8:]}
	for j, s := range fixtureSets {
		key := records.Score(records.RuleZero, s.name).Key()
		est := func(name string) (float64, []float64) {
			rec := byName[name]
			reps, ok := rec.Bootstrap.Replicates(key, rec.Metrics[key])
			require.True(t, ok, "%s: %s", name, key)
			return rec.Metrics[key], reps
		}
		for _, g := range groups {
			var ranked []string
			for _, name := range g {
				if !(name == "SCA · MEN · in-sample" && s.name == "men") {
					ranked = append(ranked, name)
				}
			}
			tierOf := func(cands []string) map[string]bool {
				if len(cands) == 0 {
					return nil
				}
				top := ""
				for _, c := range cands {
					if v, _ := est(c); top == "" || roundTo(v, 3) > roundTo(compare.Metric(byName[top], key), 3) {
						top = c
					}
				}
				out := map[string]bool{}
				tv, tr := est(top)
				for _, c := range cands {
					v, r := est(c)
					_, _, sign := records.Difference(tv, v, tr, r)
					if roundTo(v, 3) == roundTo(tv, 3) || sign != 1 {
						out[c] = true
					}
				}
				return out
			}
			want := map[string]string{}
			if len(ranked) > 1 {
				best := tierOf(ranked)
				var rest []string
				for _, c := range ranked {
					if best[c] {
						want[c] = "best"
					} else {
						rest = append(rest, c)
					}
				}
				for c := range tierOf(rest) {
					want[c] = "second"
				}
			}
			for _, name := range g {
				assert.Equal(t, want[name], rows[name][j][1], "mark of %s on %s", name, s.name)
			}
		}
		for _, name := range reference {
			assert.Equal(t, "", rows["ref:"+name][j][1], "published row %s is marked on %s", name, s.name)
		}
	}
	assert.Equal(t, [2]string{"0.731", ""}, rows["SCA · MEN · in-sample"][2], "in-sample: shown, never ranked")
	assert.Equal(t, [2]string{"0.104", ""}, rows["tail-cut"][4], "alone at d = 1000: nothing to rank it against")
	assert.Equal(t, [2]string{"0.641", "best"}, rows["SGNS"][0], "SGNS 0.641 and fastText 0.633 tie")
	assert.Equal(t, [2]string{"0.633", "best"}, rows["fastText"][0])
	assert.Equal(t, [2]string{"0.402", "second"}, rows["GloVe"][0])
	assert.Empty(t, markedTuned(page))

	skip, _, skipRef := tableRows(t, page, "scores-skip")
	assert.Empty(t, skipRef, "the paper's zero-rule rows never appear under the skip rule")
	assert.Len(t, skip, 9)
}

// TestScoreSection: a headline, then the tables; the coverage, the other
// similarity, † and the replicates in the cells.
func TestScoreSection(t *testing.T) {
	recs := methodRecords()
	s := tb().scoreSection(recs)
	require.NotNil(t, s)
	head := s.Blocks[0].(Headline)
	// fastText's mean (0.449) is the highest at d = 300, SGNS's (0.435)
	// next; MEN 0.611 against 0.528 and Rel 0.590 against 0.622 differ by
	// more than the paired interval's half-width (about 0.028), but over
	// six sets only MEN's gap stays significant after Holm's adjustment.
	assert.Equal(t, Headline{
		"At d = 300, zero rule, each method at its own similarity: fastText is significantly above SGNS on MEN; ties on Sim, Rel, M.Turk, Rare, S999.",
		"At d = 300, skip rule, each method at its own similarity: fastText is significantly above SGNS on MEN; ties on Sim, Rel, M.Turk, Rare, S999.",
	}, head, "the group with the most methods; only baselines there: the two best rows of different methods")
	zero := findScoreTable(t, s.Blocks, "scores-zero")
	skip := findScoreTable(t, s.Blocks, "scores-skip")
	assert.Equal(t, []string{"Sim", "Rel", "MEN", "M.Turk", "Rare", "S999"}, zero.Columns)
	assert.Equal(t, []string{"98.5% of 203", "98.8% of 252", "99.7% of 3000", "varies: see cells (of 287)", "varies: see cells (of 2034)", "99.7% of 999"},
		zero.Footer[0].Cells, "coverage common to all trials goes in the footer")
	assert.Equal(t, []string{"dot 0.362", "dot 0.401", "dot 0.359", "90.9% dot 0.432", "29.6% dot 0.047", "dot 0.052"}, zero.Rows[2].Notes,
		"GloVe, ranked at cosine: its own coverage where it differs, its dot product score")
	assert.Equal(t, []string{"cos 0.665", "cos 0.597", "† cos 0.691", "96.9% cos 0.569", "41.2% cos 0.078", "cos 0.157"}, zero.Rows[6].Notes, "in-sample SCA flagged on its training set")
	assert.Equal(t, []bool{false, false, true, false, false, false}, zero.Rows[6].Unranked)
	assert.Equal(t, tunedLegend, zero.Legend)
	assert.True(t, finite(zero.Rows[0].HalfWidths[0]) && zero.Rows[0].HalfWidths[0] > 0, "a score with replicates carries its interval")
	assert.Equal(t, NoMark, zero.Rows[6].Marks[2], "the in-sample cell is never marked")
	assert.InDelta(t, recs[0].Metrics["spearman.skip.rare"], skip.Rows[0].Scores[4], 0)
	assert.Equal(t, PaperScores(paperSets), zero.Reference)
	assert.Empty(t, skip.Reference, "the paper scored under the zero rule only")
	other := s.Blocks[3].(List)
	// At d = 500 SCA folds has the highest mean (0.493), LCA · flat the
	// highest of another method (0.491): no difference exceeds 0.022.
	assert.Equal(t, List{
		"At d = 500, zero rule, each method at its own similarity: SCA · M.Turk · folds and LCA · flat tie on Sim, Rel, MEN, M.Turk, Rare, S999.",
		"At d = 500, skip rule, each method at its own similarity: SCA · M.Turk · folds and LCA · flat tie on Sim, Rel, MEN, M.Turk, Rare, S999.",
	}, other, "the other groups' headlines, next to the tables")

	t.Run("user set and missing scores", func(t *testing.T) {
		recs := []records.Record{
			{ID: "a", Status: "ok", Settings: map[string]any{"method": "ca"}, Metrics: map[string]float64{"spearman.zero.men": 0.5, "spearman.zero.mine": 0.4}},
			{ID: "b", Status: "error", Error: "boom", Settings: map[string]any{"method": "sgns"}},
		}
		s := tb().scoreSection(recs)
		require.NotNil(t, s)
		zero := findScoreTable(t, s.Blocks, "scores-zero")
		assert.Equal(t, []string{"MEN", "mine"}, zero.Columns, "registered sets first, user sets after")
		assert.True(t, math.IsNaN(zero.Reference[0].Scores[1]), "the paper has no score on a user set")
		assert.True(t, math.IsNaN(findScoreTable(t, s.Blocks, "scores-skip").Rows[0].Scores[0]), "no skip-rule metric: no score")
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
		{"a name no other trial carries is the whole label",
			[]records.Record{rec("method", "external", "label", "SGNS (gensim)", "external.command", []any{"python3", "w2v.py"}), rec("method", "external", "label", "fastText (CLI)", "external.command", []any{"sh", "ft.sh"}),
				rec("method", "kca", "label", "tail-cut", "svd.rank", 300.0), rec("method", "kca", "label", "tail-cut", "svd.rank", 1000.0)},
			[]string{"SGNS (gensim)", "fastText (CLI)", "tail-cut · d=300", "tail-cut · d=1000"}},
		{"unknown keys spelled out", []records.Record{rec("method", "x", "foo.bar", true), rec("method", "x", "foo.bar", false)}, []string{"x · foo.bar=true", "x · foo.bar=false"}},
		{"a backend's option named only where changed", []records.Record{rec("method", "lca", "svd.backend", "krylov", "svd.projected", "go"), rec("method", "lca", "svd.backend", "dssvd", "svd.projected", "lapack"), rec("method", "lca", "svd.backend", "dssvd", "svd.projected", "go")},
			[]string{"LCA · krylov", "LCA · dssvd · svd.projected=lapack", "LCA · dssvd"}},
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
	assert.Equal(t, Headline{"Whether ρ changes with data.window beyond noise is not tested: the points have no bootstrap replicates in their records.",
		"Where the mean Spearman ρ over the 6 sets (zero rule; differences not tested) is highest against data.window: cut at 40 (mean ρ 0.5); flat at 10 (mean ρ 0.489); skip at 2 (mean ρ 0.44)."},
		s.Blocks[0], "the section's answer: nothing tested without replicates, and where each line peaks")
	assert.Len(t, s.Blocks, 1, "no rule to name when nothing is tested")
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
		assert.Equal(t, []LineSeries{{Name: "CA", Key: "CA", Points: []XY{{X: 100, Y: 0.01}, {X: 300, Y: 0.03}, {X: 1000, Y: 0.1}, {X: 3000, Y: 0.3}}}}, c.Series)
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
		assert.False(t, pts[0].DashedErr)
		assert.True(t, pts[2].DashedErr, "± SD over seeds, drawn dashed")
		assert.Contains(t, string(s.Subsections[0].Blocks[0].(Paragraph)), "Dashed error bars are ± one standard deviation over seeds")
	})
}

func TestScalingSection(t *testing.T) {
	s := tb().scalingSection(scalingRecords())
	require.NotNil(t, s)
	assert.Equal(t, Headline{"dssvd / dense: 40.6× faster at V = 9,812 … 125× faster (117–134× over repeats) at V = 25,371, memory 3.7% of dense's at V = 25,371 (the paper: 100× faster; 10% of the memory); " +
		"dssvd / randomized: 8.86× faster at V = 9,812 … 9.92× faster (9.25–10.6× over repeats) at V = 62,154, memory 21.3% of randomized's at V = 62,154 (the paper: 10× faster; 20% of the memory)."}, s.Blocks[0],
		"the section's answer: the paper's comparisons, from the smallest to the largest size both finished")
	charts := body(s)[1].(Row)
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
	unfinished := body(s)[2].(Table)
	assert.Equal(t, [][]string{
		{"dense", "V = 40,186", "over_budget", "over budget: wall time passed budget.seconds = 600 s"},
		{"dense", "V = 62,154", "over_budget", "over budget: resident memory passed budget.memory_mb = 8000 MB"},
	}, unfinished.Rows)
	assert.Contains(t, string(body(s)[3].(Paragraph)), "DSSVD was 100 times faster than SVD with numPy and 10 times faster than randomized SVD.")
	ratios := body(s)[4].(Table)
	assert.Equal(t, [][]string{
		// 1.52 / 190.4 at the largest size dense finished; 190 / 5150 MB;
		// over the three repeats, 1.474/197.9 to 1.581/184.7.
		{"dssvd / dense", "V = 9,812 … 25,371 (3)", "40.6× faster at V = 9,812 … 125× faster (117–134× over repeats) at V = 25,371", "3.7% of dense's at V = 25,371", "100× faster; 10% of the memory"},
		// 7.1 / 70.4 at the largest size; 390 / 1830 MB.
		{"dssvd / randomized", "V = 9,812 … 62,154 (5)", "8.86× faster at V = 9,812 … 9.92× faster (9.25–10.6× over repeats) at V = 62,154", "21.3% of randomized's at V = 62,154", "10× faster; 20% of the memory"},
		{"randomized / dense", "V = 9,812 … 25,371 (3)", "4.58× faster at V = 9,812 … 13.4× faster (12.5–14.4× over repeats) at V = 25,371", "13.4% of dense's at V = 25,371", "— (not in the paper)"},
	}, ratios.Rows, "every two backends, the paper's comparisons first")
	bySize := body(s)[5].(Table) // 11 rows: not collapsed
	require.Equal(t, "scaling-ratios-by-size", bySize.ID)
	assert.Len(t, bySize.Rows, 3+5+3, "every size where both finished")
	assert.Equal(t, []string{"dssvd / dense", "V = 9,812", "0.35 s against 14.2 s", "40.6× faster (37.8–43.6× over repeats)", "95 MiB against 781 MiB", "12.2% of dense's"}, bySize.Rows[0])

	t.Run("a ratio only of times measured alike", func(t *testing.T) {
		ratiosOf := func(recs []records.Record) [][]string {
			s := tb().scalingSection(recs)
			require.NotNil(t, s)
			for _, b := range s.Blocks {
				if tb, ok := b.(Table); ok && tb.ID == "scaling-ratios" {
					return tb.Rows
				}
			}
			t.Fatal("no ratio table")
			return nil
		}
		recs := scalingRecords()
		for i := range recs {
			if recs[i].Settings["svd.backend"] == "dssvd" && recs[i].Settings["data.fraction"] == 1.0 {
				recs[i].Run = &records.RunInfo{ID: "run-2"}
			}
		}
		rows := ratiosOf(recs)
		assert.Equal(t, []string{"dssvd / randomized", "V = 9,812 … 62,154 (5)", "8.86× faster at V = 9,812 … 9.66× faster (9.01–10.4× over repeats) at V = 40,186", "24.3% of randomized's at V = 40,186",
			"10× faster; 20% of the memory"}, rows[1], "up to the largest size measured in one run")
		for i := range recs {
			if recs[i].Settings["svd.backend"] == "dssvd" {
				recs[i].Run = nil
			}
		}
		rows = ratiosOf(recs)
		assert.Equal(t, []string{"dssvd / dense", "V = 9,812 … 25,371 (3)", whyNoRun + " (at V = 25,371: 1.52 s against 190 s)", whyMemNoCode, "100× faster; 10% of the memory"}, rows[0],
			"records without a run id: no ratio, why, and both times")
		for i := range recs {
			recs[i].Run = &records.RunInfo{ID: "run-1"}
			if recs[i].Settings["svd.backend"] == "dssvd" {
				recs[i].Run = &records.RunInfo{Commit: "486b0b852699846157e57e09aa36c0b76590b51f"}
			}
		}
		rows = ratiosOf(recs)
		assert.Equal(t, []string{"dssvd / dense", "V = 9,812 … 25,371 (3)", whyNoRun + " (at V = 25,371: 1.52 s against 190 s)", whyMemOtherCode, "100× faster; 10% of the memory"}, rows[0],
			"another code: no memory ratio either")
		for i := range recs {
			recs[i].Run = &records.RunInfo{Commit: "486b0b852699846157e57e09aa36c0b76590b51f"}
		}
		rows = ratiosOf(recs)
		assert.Equal(t, []string{"dssvd / dense", "V = 9,812 … 25,371 (3)", whyNoRun + " (at V = 25,371: 1.52 s against 190 s)", "3.7% of dense's at V = 25,371", "100× faster; 10% of the memory"}, rows[0],
			"one clean commit, no run id: memory compares, times do not")
	})

	t.Run("unmeasured trials: no ratio of times", func(t *testing.T) {
		recs := scalingRecords()
		for i := range recs {
			recs[i].Settings = with(recs[i].Settings, "measure.process", false)
		}
		s := tb().scalingSection(recs)
		require.NotNil(t, s)
		for _, b := range s.Blocks {
			if tb, ok := b.(Table); ok && tb.ID == "scaling-ratios" {
				assert.True(t, strings.HasPrefix(tb.Rows[0][2], whyUnmeasured), tb.Rows[0][2])
				assert.Equal(t, whyMemUnmeasured, tb.Rows[0][3])
			}
		}
	})

	t.Run("a disturbed record: named, never compared", func(t *testing.T) {
		recs := scalingRecords()
		for i := range recs {
			if recs[i].Settings["svd.backend"] == "randomized" && recs[i].Settings["data.fraction"] == 1.0 {
				recs[i].Metrics = maps.Clone(recs[i].Metrics)
				recs[i].Metrics["cpu_s"] = 30 // 70.4 s of wall time, 30 s on a core: the process waited
			}
		}
		s := tb().scalingSection(recs)
		require.NotNil(t, s)
		h := string(s.Blocks[0].(Headline)[0])
		assert.Contains(t, h, "dssvd / randomized: 8.86× faster at V = 9,812 … 9.66× faster (9.01–10.4× over repeats) at V = 40,186", "the ratio stops before the disturbed record")
		var note string
		for _, b := range s.Blocks {
			if p, ok := b.(Paragraph); ok && strings.HasPrefix(string(p), "Disturbed records") {
				note = string(p)
			}
		}
		assert.Contains(t, note, "randomized at V = 62,154 (trial #10): wall time 70.4 s above its CPU time 30 s: the process waited")
	})

	t.Run("fraction axis without vocab", func(t *testing.T) {
		recs := scalingRecords()
		for i := range recs {
			delete(recs[i].Metrics, "vocab")
		}
		s := tb().scalingSection(recs)
		require.NotNil(t, s)
		c := body(s)[1].(Row)[0].(LineChart)
		assert.Equal(t, "Corpus fraction (data.fraction)", c.XName)
		assert.Equal(t, []float64{0.5, 1}, c.Marks[0].X)
	})
	t.Run("one size: no figures", func(t *testing.T) {
		recs := scalingRecords()
		assert.Nil(t, tb().scalingSection([]records.Record{recs[5], recs[10]}))
	})
	t.Run("no dssvd: the backends there compared", func(t *testing.T) {
		s := tb().scalingSection(scalingRecords()[:10])
		require.NotNil(t, s)
		var rows [][]string
		for _, b := range s.Blocks {
			if tb, ok := b.(Table); ok && tb.ID == "scaling-ratios" {
				rows = tb.Rows
			}
		}
		require.Len(t, rows, 1)
		assert.Equal(t, "randomized / dense", rows[0][0])
		require.IsType(t, Headline{}, s.Blocks[0], "without DSSVD the answer is how the newest backend compares")
		assert.Equal(t, "randomized / dense: 4.58× faster at V = 9,812 … 13.4× faster (12.5–14.4× over repeats) at V = 25,371, memory 13.4% of dense's at V = 25,371.", s.Blocks[0].(Headline)[0])
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
						records.MetricSVDResidual: 1e-9}, Run: &records.RunInfo{ID: "run-1"}})
			}
		}
		s := tb().scalingSection(recs)
		require.NotNil(t, s)
		time := body(s)[1].(Row)[0].(LineChart)
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
		assert.Contains(t, ratios.Rows, []string{"krylov / randomized", "V = 40,186 … 62,154 (2)", "2.85× faster at V = 40,186 … 6.4× faster at V = 62,154", "21.9% of randomized's at V = 62,154", "— (not in the paper)"},
			"the replicates' mean, 11 s against 70.4 s at the largest size")
		assert.Contains(t, ratios.Rows, []string{"krylov / dense", "none", "no size where both finished: krylov at V = 40,186 … 62,154, dense at V = 9,812 … 25,371", "—", "— (not in the paper)"})
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
	zero := findScoreTable(t, sec.Blocks, "scores-zero")
	require.Len(t, zero.Rows, 1)
	assert.InDelta(t, 0.52, zero.Rows[0].Scores[0], 1e-12)
	assert.Equal(t, "cos — sd 0.02 over 3 seeds", zero.Rows[0].Notes[0], "no cosine score recorded; the spread over the seeds")
}

// lapackRatios is the scaling section's ratio table for the fixture
// records with three lapack trials added, their settings changed further
// by extra (key, value pairs).
func lapackRatios(t *testing.T, extra ...any) *Table {
	t.Helper()
	recs := scalingRecords()
	for k, w := range []float64{2.1, 7.9, 30.2} {
		kv := append([]any{"svd.backend", "lapack", "data.fraction", []float64{0.0625, 0.125, 0.25}[k]}, extra...)
		recs = append(recs, records.Record{ID: fmt.Sprintf("l%d", k), Spec: "svd-scaling", Status: "ok",
			Settings: with(recs[0].Settings, kv...),
			Metrics:  map[string]float64{"wall_s": w, "max_rss_mb": 900, "vocab": []float64{9812, 15904, 25371}[k]}, Run: &records.RunInfo{ID: "run-1"}})
	}
	s := tb().scalingSection(recs)
	require.NotNil(t, s)
	for _, b := range s.Blocks {
		if tb, ok := b.(Table); ok && tb.ID == "scaling-ratios" {
			return &tb
		}
	}
	require.Fail(t, "no scaling-ratios table")
	return nil
}

// With lapack trials in the run, the paper's "100× faster than numPy's
// SVD" is checked against them (numPy's SVD is LAPACK), and the pure-Go
// dense row says it is not the paper's baseline.
func TestScalingRatiosAgainstLAPACK(t *testing.T) {
	ratios := lapackRatios(t)
	assert.Contains(t, ratios.Caption, "LAPACK")
	assert.Equal(t, []string{"dssvd / lapack", "V = 9,812 … 25,371 (3)", "6× faster at V = 9,812 … 19.9× faster at V = 25,371", "21.1% of lapack's at V = 25,371", "100× faster; 10% of the memory"}, ratios.Rows[0],
		"the paper's claim against numPy's SVD is against LAPACK's: first; 1.52 s against 30.2 s at the largest size both finished")
	assert.Contains(t, ratios.Rows, []string{"dssvd / dense", "V = 9,812 … 25,371 (3)", "40.6× faster at V = 9,812 … 125× faster (117–134× over repeats) at V = 25,371", "3.7% of dense's at V = 25,371", "— (pure-Go dense; the paper's numPy SVD is LAPACK)"})
}

// A backend given its own budget (more memory, more time) is the same line
// as without it: a budget bounds what a trial may spend, not what it
// computes (schema.Setting.Limit), so it names no line and keeps no
// comparison apart.
func TestScalingBudgetKeepsNoLineApart(t *testing.T) {
	ratios := lapackRatios(t, "budget.memory_mb", 17000.0, "budget.seconds", 3600.0)
	require.NotEmpty(t, ratios.Rows)
	assert.Equal(t, "dssvd / lapack", ratios.Rows[0][0], "the paper's claim is compared, its lines named by backend alone")
	assert.Equal(t, "6× faster at V = 9,812 … 19.9× faster at V = 25,371", ratios.Rows[0][2])
	for _, r := range ratios.Rows {
		assert.NotContains(t, r[0], "budget", "no line is named by its budget")
	}
}

// body is a section's blocks after its headline, if it opens with one.
func body(s *Section) []Block {
	if len(s.Blocks) > 0 {
		if _, ok := s.Blocks[0].(Headline); ok {
			return s.Blocks[1:]
		}
	}
	return s.Blocks
}

// With no comparison and no growth law, the scaling answer is each line's
// largest finished size, its time and memory there, or that it finished
// nowhere.
func TestLargestAnswer(t *testing.T) {
	ok := func(wall, rss float64) trial {
		return trial{Record: records.Record{Status: "ok", Metrics: map[string]float64{metricWall: wall, metricRSS: rss}}}
	}
	lines := []line{
		{Name: "dense", Trials: []trial{{Record: records.Record{Status: "over_budget"}}}, Xs: []float64{1000}},
		{Name: "dssvd", Trials: []trial{ok(10, 100), ok(140, 4900), ok(154, 5008)}, Xs: []float64{1000, 235625, 235625}},
	}
	assert.Equal(t, []string{"dense finished at no size", "dssvd at V = 235,625, its largest: 147 s, peak memory 4,954 MiB"},
		largestAnswer(lines, scalingAxis{allV: true}, nil))
}

// Trials that decompose one table at several ranks are drawn against k:
// one line per backend, a lapack trial over its memory budget at every k
// listed, and the growth law fitted against k.
func TestScalingAgainstRank(t *testing.T) {
	b := with(baseSettings(), "method", "kca", "data.table", "cut", "measure.process", true, "budget.memory_mb", 20000.0)
	var recs []records.Record
	wall := map[string][]float64{"krylov": {5, 18, 85, 420}, "dssvd": {3, 9, 40, 210}}
	for _, backend := range []string{"krylov", "dssvd", "lapack"} {
		for i, k := range []float64{300, 1000, 3000, 8000} {
			rec := records.Record{ID: backend + formatValue(k), Spec: "svd-k-scaling", Seed: uint64(i + 1),
				Settings: with(b, "svd.backend", backend, "svd.rank", k), Run: &records.RunInfo{ID: "one run"}}
			if backend == "lapack" {
				rec.Status, rec.Error = "over_budget", "over budget: the lapack backend plans 38,785 MiB of buffers, more than budget.memory_mb = 20000"
			} else {
				w := wall[backend][i]
				rec.Status = "ok"
				rec.Metrics = map[string]float64{"wall_s": w, "cpu_s": 1.9 * w, "max_rss_mb": 300 + k/3, "vocab": 22542, "nnz": 1.5e7,
					records.MetricOthersCPU: 0, records.MetricSVDResidual: 1e-9}
			}
			recs = append(recs, rec)
		}
	}
	s := tb().scalingSection(recs)
	require.NotNil(t, s)
	assert.Equal(t, "Time and memory against the rank k", s.Title)
	charts := body(s)[1].(Row)
	c := charts[0].(LineChart)
	assert.Equal(t, "Rank k (svd.rank)", c.XName)
	assert.Equal(t, "Wall time against k", c.Title)
	require.Len(t, c.Series, 3)
	assert.Equal(t, []string{"krylov", "dssvd", "lapack"}, []string{c.Series[0].Name, c.Series[1].Name, c.Series[2].Name})
	assert.Len(t, c.Series[0].Points, 4)
	assert.Empty(t, c.Series[2].Points, "lapack finished at no k: its marks say where it did not")
	var unfinished Table
	for _, b := range s.Blocks {
		if tb, ok := b.(Table); ok && tb.ID == "scaling-unfinished" {
			unfinished = tb
		}
	}
	require.Len(t, unfinished.Rows, 4)
	assert.Equal(t, []string{"lapack", "k = 300", "over_budget"}, unfinished.Rows[0][:3])
	h := strings.Join(s.Blocks[0].(Headline), " ")
	assert.Contains(t, h, "krylov / dssvd: 1.67× slower at k = 300 … 2× slower at k = 8,000")
	assert.Contains(t, h, "lapack finished at no k (over budget)")
	assert.NotContains(t, h, "no size where both finished")
}
