package reports

import (
	"maps"
	"strings"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDimOf(t *testing.T) {
	rec := func(metrics map[string]float64, kv ...any) records.Record {
		return records.Record{Settings: with(map[string]any{}, kv...), Metrics: metrics}
	}
	cases := []struct {
		name string
		rec  records.Record
		want float64
	}{
		{"the dim metric wins", rec(map[string]float64{"dim": 64}, "svd.rank", 300.0), 64},
		{"a CA method: svd.rank", rec(nil, "method", "kca", "svd.rank", 1000.0), 1000},
		{"svd.rank 0: min(rows, cols) − 1 capped at 300", rec(nil, "method", "lca", "svd.rank", 0.0), 300},
		{"svd.rank 0 on a small vocabulary", rec(map[string]float64{"vocab": 72}, "method", "lca", "svd.rank", 0.0), 71},
		{"a baseline: train.dim", rec(nil, "method", "sgns", "train.dim", 100.0, "svd.rank", 300.0), 100},
		{"a baseline: train.dim 0 is svd.rank", rec(nil, "method", "sgns", "train.dim", 0.0, "svd.rank", 200.0), 200},
		{"a baseline: else 300", rec(nil, "method", "sgns", "train.dim", 0.0), 300},
		{"nothing known", rec(nil, "method", "x"), 300},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { assert.Equal(t, c.want, dimOf(c.rec)) })
	}
}

// A cell is in-sample when its set, or the part of it, was tuned on.
func TestTunedOn(t *testing.T) {
	rec := func(kv ...any) records.Record {
		return records.Record{Settings: with(map[string]any{"method": "lca"}, kv...)}
	}
	cases := []struct {
		name string
		rec  records.Record
		in   []string // of men, men@dev, men@test, rare, rare@dev, rare@test
	}{
		{"nothing tuned", rec(), nil},
		{"a whole set: every part of it", rec("tuned_on", []any{"rare"}), []string{"rare", "rare@dev", "rare@test"}},
		{"the dev part: it and the set; the test part held out", rec("tuned_on", []any{"rare@dev"}), []string{"rare", "rare@dev"}},
		{"several", rec("tuned_on", []any{"men", "rare@test"}), []string{"men", "men@dev", "men@test", "rare", "rare@test"}},
		{"SCA in-sample: its set", rec("method", "sca", "sca.mode", "in-sample", "sca.set", "men"), []string{"men", "men@dev", "men@test"}},
		{"SCA folds: held out", rec("method", "sca", "sca.mode", "folds", "sca.set", "men"), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, k := range []string{"men", "men@dev", "men@test", "rare", "rare@dev", "rare@test"} {
				if tb().tunedOn(c.rec, k) {
					got = append(got, k)
				}
			}
			assert.Equal(t, c.in, got)
		})
	}
}

// Each method at its declared similarity, unless the page says otherwise;
// a method that declares none at its own.
func TestRankSim(t *testing.T) {
	ca := records.Record{Settings: map[string]any{"method": "kca", "eval.similarity": "cosine"}}
	sgns := records.Record{Settings: map[string]any{"method": "sgns", "eval.similarity": "dot"}}
	unknown := records.Record{Settings: map[string]any{"method": "mine", "eval.similarity": "cosine"}}
	for _, c := range []struct {
		page              string
		ca, sgns, unknown records.Similarity
	}{
		{"", records.SimDot, records.SimCosine, records.SimCosine},
		{SimilarityDeclared, records.SimDot, records.SimCosine, records.SimCosine},
		{SimilarityDot, records.SimDot, records.SimDot, records.SimDot},
		{SimilarityCosine, records.SimCosine, records.SimCosine, records.SimCosine},
	} {
		b := newBuilder(Report{Methods: testMethods, Similarity: c.page})
		assert.Equal(t, []records.Similarity{c.ca, c.sgns, c.unknown}, []records.Similarity{b.rankSim(ca), b.rankSim(sgns), b.rankSim(unknown)}, "report.similarity %q", c.page)
	}
	require.ErrorContains(t, Write(&strings.Builder{}, Report{Title: "t", ECharts: CDNScript(), Similarity: "euclid"}), "euclid")
}

// With report.similarity dot every row ranks at the dot product: a
// baseline's cosine score is the one in small type then.
func TestSimilarityOverride(t *testing.T) {
	b := newBuilder(Report{Methods: testMethods, Similarity: SimilarityDot})
	zero := findScoreTable(t, b.scoreSection(methodRecords()).Blocks, "scores-zero")
	assert.InDelta(t, methodRecords()[1].Metrics["spearman.dot.zero.sim"], zero.Rows[1].Scores[0], 0, "SGNS at the dot product")
	assert.True(t, strings.HasPrefix(zero.Rows[1].Notes[0], "cos 0.641"), zero.Rows[1].Notes[0])
	assert.Contains(t, zero.Caption, "every method at the dot product")
}

// Rows are ranked only within one d and one data; held-out SCA sits just
// after the in-sample SCA it belongs with.
func TestGroupByDim(t *testing.T) {
	b := baseSettings()
	rec := func(id string, kv ...any) records.Record {
		return records.Record{ID: id, Status: "ok", Settings: with(b, kv...), Metrics: wordMetrics([6]float64{0.5, 0.5, 0.5, 0.5, 0.1, 0.1}, fullCoverage)}
	}
	recs := []records.Record{
		rec("cut300", "label", "tail-cut", "svd.rank", 300.0),
		rec("cut100", "label", "tail-cut", "svd.rank", 100.0),
		rec("scaMEN", "label", "SCA+MEN in-sample", "method", "sca", "sca.set", "men", "sca.mode", "in-sample", "svd.rank", 300.0),
		rec("scaTurk", "label", "SCA+M.Turk in-sample", "method", "sca", "sca.set", "mturk", "sca.mode", "in-sample", "svd.rank", 300.0),
		rec("sgns", "label", "SGNS", "method", "sgns", "train.dim", 0.0, "svd.rank", 300.0),
		rec("foldsTurk", "label", "SCA+M.Turk folds", "method", "sca", "sca.set", "mturk", "sca.mode", "folds", "svd.rank", 300.0),
		rec("foldsMEN", "label", "SCA+MEN folds", "method", "sca", "sca.set", "men", "sca.mode", "folds", "svd.rank", 300.0),
		rec("half", "label", "tail-cut", "svd.rank", 300.0, "data.fraction", 0.5),
	}
	groups := tb().groupByDim(tb().project(recs).Rows(true))
	var got [][]string
	var labels []string
	for _, g := range groups {
		var ids []string
		for _, r := range g.rows {
			ids = append(ids, r.ID)
		}
		got, labels = append(got, ids), append(labels, g.label)
	}
	assert.Equal(t, []string{"d = 100 · f=1", "d = 300 · f=1", "d = 300 · f=0.5"}, labels)
	assert.Equal(t, [][]string{
		{"cut100"},
		{"cut300", "scaMEN", "foldsMEN", "scaTurk", "foldsTurk", "sgns"},
		{"half"},
	}, got)

	// Rows whose d was tuned on dev parts compete whatever d each chose,
	// before the rows of a fixed d.
	tuned := []records.Record{
		rec("sgns", "label", "SGNS", "method", "sgns", "train.dim", 0.0, "svd.rank", 300.0),
		rec("cut8000", "label", "tail-cut", "svd.rank", 8000.0, "tune.axes", []any{"svd.rank", "vectors.alpha"}),
		rec("ft300", "label", "fastText", "method", "fasttext", "train.dim", 0.0, "svd.rank", 300.0, "tune.axes", []any{"svd.rank"}),
		rec("cut300", "label", "tail-cut at 300", "svd.rank", 300.0, "tune.axes", []any{"vectors.alpha"}),
	}
	labels, got = nil, nil
	for _, g := range tb().groupByDim(tb().project(tuned).Rows(true)) {
		var ids []string
		for _, r := range g.rows {
			ids = append(ids, r.ID)
		}
		got, labels = append(got, ids), append(labels, g.label)
	}
	assert.Equal(t, []string{"d chosen on dev parts", "d = 300"}, labels)
	assert.Equal(t, [][]string{{"cut8000", "ft300"}, {"sgns", "cut300"}}, got)
	g := tb().groupByDim(tb().project(tuned).Rows(true))
	assert.Equal(t, "tail-cut (d = 8000)", g[0].rows[0].Label, "a row whose d was chosen names it")
	assert.Equal(t, "fastText (d = 300)", g[0].rows[1].Label)
	assert.Equal(t, "SGNS", g[1].rows[0].Label)
}

// A measured trial (measure.process) is ranked like any other.
func TestMeasuredRanked(t *testing.T) {
	recs := methodRecords()
	recs[3].Settings = with(recs[3].Settings, "measure.process", true) // fastText
	recs[3].Metrics = maps.Clone(recs[3].Metrics)
	recs[3].Metrics[records.MetricWall] = 1000
	page := string(render(t, wordReport("t", recs, CDNScript())))
	rows, _, _ := tableRows(t, page, "scores-zero")
	var name string
	for n := range rows {
		if strings.HasPrefix(n, "fastText") {
			name = n
		}
	}
	require.NotEmpty(t, name)
	assert.Equal(t, [2]string{"0.611", "best"}, rows[name][2], "MEN: fastText is significantly above the other baselines")
}

// Old records (no bootstrap, one similarity): every score shown, none
// marked a win, the other similarity "—", and a baseline without its own
// similarity's score shows the one it has, small.
func TestOldRecords(t *testing.T) {
	recs := methodRecords()
	for i := range recs {
		recs[i].Bootstrap = nil
		recs[i].Settings = with(recs[i].Settings, "eval.similarity", "dot")
		m := map[string]float64{}
		for k, v := range recs[i].Metrics {
			if records.ParseMetric(k).Sim == "" {
				m[k] = v
			}
		}
		recs[i].Metrics = m
	}
	s := tb().scoreSection(recs)
	zero := findScoreTable(t, s.Blocks, "scores-zero")
	assert.Equal(t, "cos —", zero.Rows[4].Notes[0], "LCA · flat: no cosine score recorded")
	assert.True(t, zero.Rows[1].Scores[0] != zero.Rows[1].Scores[0], "SGNS has no cosine score: none shown where it is ranked")
	assert.Equal(t, "dot 0.641", zero.Rows[1].Notes[0], "its dot product score, small")
	var text []string
	for _, b := range s.Blocks {
		if p, ok := b.(Paragraph); ok {
			text = append(text, string(p))
		}
	}
	assert.Contains(t, strings.Join(text, "\n"), "No row has bootstrap replicates")
	assert.Contains(t, strings.Join(text, "\n"), "Rows without a score at the similarity they are ranked at")
	page := string(render(t, wordReport("t", recs, CDNScript())))
	assert.NotContains(t, page, `class="num best"`)
	assert.NotContains(t, page, `class="num second"`)
	assert.Contains(t, page, `class="num untested"`)
}

// The sweeps draw a series tuned on a chart's set dashed, named with †,
// and keyed as the same line elsewhere (one colour on every chart).
func TestSweepTuned(t *testing.T) {
	recs := sweepRecords()
	for i := range recs {
		if recs[i].Settings["data.table"] == "skip" {
			recs[i].Settings = with(recs[i].Settings, "tuned_on", []any{"men"})
		}
	}
	s := tb().sweepSection(recs)
	require.NotNil(t, s)
	row := s.Subsections[0].Blocks[1].(Row)
	for j, b := range row {
		c := b.(LineChart)
		skip := c.Series[2]
		if fixtureSets[j].name == "men" {
			assert.Equal(t, "skip †", skip.Name)
			assert.True(t, skip.Muted)
			assert.Equal(t, "skip", skip.Key)
		} else {
			assert.Equal(t, "skip", skip.Name)
			assert.False(t, skip.Muted)
		}
	}
	assert.Contains(t, string(s.Subsections[0].Blocks[0].(Paragraph)), "drawn dashed with hollow symbols in its own colour")
	head := s.Blocks[0].(Headline)
	assert.Contains(t, head[len(head)-1], "skip at 10 (mean ρ 0.44 over the 5 sets it was not tuned on)", "a set a line was tuned on does not count for it")
}

func TestTimesCompare(t *testing.T) {
	disturbed := func(r records.Record) records.Record {
		r.Metrics = map[string]float64{records.MetricWall: 367.6, records.MetricCPU: 222.6}
		return r
	}
	rec := func(run string, process bool) records.Record {
		r := records.Record{Settings: map[string]any{"measure.process": process}}
		if run != "" {
			r.Run = &records.RunInfo{ID: run}
		}
		return r
	}
	cases := []struct {
		name string
		a, b []records.Record
		ok   bool
		why  string
	}{
		{"one run, both in a child", []records.Record{rec("r1", true)}, []records.Record{rec("r1", true)}, true, ""},
		{"one run, neither measured", []records.Record{rec("r1", false), rec("r1", false)}, []records.Record{rec("r1", false)}, false, whyUnmeasured},
		{"one run, a disturbed record", []records.Record{rec("r1", true)}, []records.Record{disturbed(rec("r1", true))}, false,
			"not compared: a disturbed record (wall time 368 s above its CPU time 223 s: the process waited)"},
		{"two runs", []records.Record{rec("r1", true)}, []records.Record{rec("r2", true)}, false, whyOtherRuns},
		{"replicates from two runs", []records.Record{rec("r1", true), rec("r2", true)}, []records.Record{rec("r1", true)}, false, whyOtherRuns},
		{"one in a child, one not", []records.Record{rec("r1", true)}, []records.Record{rec("r1", false)}, false, whyOtherMethod},
		{"no run id", []records.Record{rec("", true)}, []records.Record{rec("r1", true)}, false, whyNoRun},
		{"nothing", nil, []records.Record{rec("r1", true)}, false, whyNoRun},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ok, why := timesCompare(c.a, c.b)
			assert.Equal(t, c.ok, ok)
			assert.Equal(t, c.why, why)
		})
	}
}

// The headline rules (headline.go), case by case: rows of one group, each
// a method and a family, scored on three sets with replicates.
func TestGroupHeadline(t *testing.T) {
	type r struct {
		label, method string
		scores        [3]float64
		tested        bool
		tuned         string // a set tuned on; "old": scored at the dot product alone
	}
	headline := func(rows []r) string {
		var recs []records.Record
		for _, x := range rows {
			settings := with(baseSettings(), "label", x.label, "method", x.method, "svd.rank", 300.0)
			if x.method != "kca" && x.method != "lca" {
				settings = with(settings, "train.dim", 300.0)
			}
			switch x.tuned {
			case "", "old":
			case "all":
				settings["tuned_on"] = []any{"sim", "men", "rare"}
			default:
				settings["tuned_on"] = []any{x.tuned}
			}
			m := map[string]float64{}
			for j, set := range []string{"sim", "men", "rare"} {
				m[records.Score(records.RuleZero, set).Key()] = x.scores[j]
			}
			recs = append(recs, records.Record{ID: x.label, Status: "ok", Settings: settings, Metrics: m})
		}
		recs = harnessLike(recs, 0.01)
		for i, x := range rows {
			if !x.tested {
				recs[i].Bootstrap = nil
			}
			if x.tuned == "old" { // scored at the dot product alone
				recs[i].Settings["eval.similarity"] = "dot"
				for k := range recs[i].Metrics {
					if records.ParseMetric(k).Sim != "" {
						delete(recs[i].Metrics, k)
					}
				}
			}
		}
		b := tb()
		rs := b.project(recs).Rows(true)
		g := b.grid(b.groupByDim(rs), []string{"sim", "men", "rare"}, scoreOf(records.RuleZero))
		return b.groupHeadline(g, 0, records.RuleZero, "")
	}
	const at = "At d = 300, zero rule, each method at its own similarity: "
	cases := []struct {
		name string
		rows []r
		want string
	}{
		{"one method: nothing to say", []r{{"a", "kca", [3]float64{0.5, 0.5, 0.5}, true, ""}, {"b", "kca", [3]float64{0.4, 0.4, 0.4}, true, ""}}, ""},
		{"CA rows against baselines: per set, the best of each",
			[]r{
				{"tail-cut", "kca", [3]float64{0.60, 0.50, 0.10}, true, ""},
				{"LCA", "lca", [3]float64{0.50, 0.52, 0.12}, true, ""},
				{"SGNS", "sgns", [3]float64{0.40, 0.51, 0.30}, true, ""},
			},
			at + "the paper's ordering (the best CA row significantly above the best baseline, after Holm's adjustment for the 3 sets) holds on 1 of 3 sets (Sim), is reversed on 1 (Rare), ties on 1 (MEN); " +
				"tail-cut is significantly above SGNS on Sim; SGNS above tail-cut on Rare; ties on MEN."},
		{"an in-sample cell never counts",
			[]r{
				{"SCA", "sca", [3]float64{0.60, 0.90, 0.20}, true, "men"},
				{"SGNS", "sgns", [3]float64{0.40, 0.50, 0.20}, true, ""},
			},
			at + "the paper's ordering (the best CA row significantly above the best baseline, after Holm's adjustment for the 2 sets) holds on 1 of 2 sets (Sim), ties on 1 (Rare); SCA is significantly above SGNS on Sim; ties on Rare."},
		{"a row tuned on every set is said to be, not taken for one without scores",
			[]r{
				{"letters", "kca", [3]float64{0.60, 0.90, 0.20}, true, "all"},
				{"tail-cut", "kca", [3]float64{0.50, 0.50, 0.10}, true, ""},
				{"SGNS", "sgns", [3]float64{0.40, 0.50, 0.20}, true, ""},
			},
			at + "the paper's ordering (the best CA row significantly above the best baseline, after Holm's adjustment for the 3 sets) holds on 1 of 3 sets (Sim), is reversed on 1 (Rare), ties on 1 (MEN); " +
				"tail-cut is significantly above SGNS on Sim; SGNS above tail-cut on Rare; ties on MEN; letters was tuned on these sets (in-sample): not compared."},
		{"baselines alone: the two best rows of different methods",
			[]r{
				{"SGNS", "sgns", [3]float64{0.50, 0.50, 0.20}, true, ""},
				{"SGNS again", "sgns", [3]float64{0.60, 0.60, 0.30}, true, ""},
				{"GloVe", "glove", [3]float64{0.40, 0.50, 0.20}, true, ""},
			},
			at + "SGNS again is significantly above GloVe on Sim, MEN, Rare."},
		{"no replicates: nothing claimed",
			[]r{{"tail-cut", "kca", [3]float64{0.60, 0.50, 0.10}, false, ""}, {"SGNS", "sgns", [3]float64{0.40, 0.51, 0.30}, false, ""}},
			at + "nothing is tested (no row has bootstrap replicates), so no difference is claimed."},
		{"a row without scores at its ranked similarity is named",
			[]r{
				{"tail-cut", "kca", [3]float64{0.60, 0.50, 0.10}, true, ""},
				{"LCA", "lca", [3]float64{0.50, 0.50, 0.10}, true, ""},
				{"SGNS", "sgns", [3]float64{0.40, 0.51, 0.30}, true, "old"},
			},
			at + "tail-cut is significantly above LCA on Sim; ties on MEN, Rare; SGNS: no score at cosine, the similarity it is ranked at, in its records (older than scoring at both)."},
		{"a tested row is compared before an untested one",
			[]r{
				{"tail-cut", "kca", [3]float64{0.60, 0.50, 0.10}, true, ""},
				{"GloVe", "glove", [3]float64{0.70, 0.70, 0.70}, false, ""},
				{"SGNS", "sgns", [3]float64{0.40, 0.50, 0.10}, true, ""},
			},
			at + "the paper's ordering (its CA rows above the neural baselines) is not tested on any set (the best rows have no bootstrap replicates); tail-cut is significantly above SGNS on Sim; ties on MEN, Rare."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { assert.Equal(t, c.want, headline(c.rows)) })
	}
}

// Every committed-report-like page: no † cell carries a mark.
func TestTunedNeverMarked(t *testing.T) {
	recs := methodRecords()
	recs[4].Settings = with(recs[4].Settings, "tuned_on", []any{"sim", "rare@dev"})
	for name, r := range map[string]Report{
		"words": wordReport("t", recs, CDNScript()),
		"paper": paperReport(CDNScript()),
		"analogies": func() Report {
			a := analogyRecords()
			a[2].Settings = with(a[2].Settings, "tuned_on", []any{"google"})
			return wordReport("a", a, CDNScript())
		}(),
	} {
		page := string(render(t, r))
		assert.Contains(t, page, "†", name)
		assert.Empty(t, markedTuned(page), name)
	}
}

// The zero and the skip rule are ranked apart: each table's marks follow
// its own rule's scores.
func TestRulesApart(t *testing.T) {
	b := baseSettings()
	rec := func(id string, zero, skip float64) records.Record {
		return records.Record{ID: id, Status: "ok", Settings: with(b, "label", id),
			Metrics: map[string]float64{records.Score(records.RuleZero, "men").Key(): zero, records.Score(records.RuleSkip, "men").Key(): skip}}
	}
	page := string(render(t, wordReport("t", harnessLike([]records.Record{rec("a", 0.60, 0.40), rec("b", 0.40, 0.60)}, 0.01), CDNScript())))
	zero, _, _ := tableRows(t, page, "scores-zero")
	skip, _, _ := tableRows(t, page, "scores-skip")
	assert.Equal(t, []string{"best", "second"}, []string{zero["a"][0][1], zero["b"][0][1]})
	assert.Equal(t, []string{"second", "best"}, []string{skip["a"][0][1], skip["b"][0][1]})
}

// A score resting on fewer than records.MinRankedPairs covered pairs is
// shown, marked ‡ with its count, and never ranked nor compared in a
// headline; the same rows are ranked on a set with enough pairs.
func TestFewPairsNeverRanked(t *testing.T) {
	b := baseSettings()
	tests := []struct {
		name         string
		pairs, cover float64 // of the set "tiny"
		wantUnranked bool
		wantNote     string
	}{
		{"two pairs", 2, 1, true, "‡ 2 pairs"},
		{"nine covered of a hundred", 100, 0.09, true, "‡ 9 pairs"},
		{"ten covered: enough", 10, 1, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := func(id string, men, tiny float64) records.Record {
				return records.Record{ID: id, Status: "ok", Settings: with(b, "label", id), Metrics: map[string]float64{
					records.Score(records.RuleZero, "men").Key(): men, records.Score(records.RuleZero, "tiny").Key(): tiny,
					records.Pairs("men").Key(): 3000, records.Coverage("men").Key(): 1,
					records.Pairs("tiny").Key(): tt.pairs, records.Coverage("tiny").Key(): tt.cover,
				}}
			}
			recs := harnessLike([]records.Record{rec("a", 0.60, 1), rec("b", 0.40, -1)}, 0.01)
			page := string(render(t, wordReport("t", recs, CDNScript())))
			zero, _, _ := tableRows(t, page, "scores-zero")
			require.Len(t, zero["a"], 2)
			assert.Equal(t, []string{"best", "second"}, []string{zero["a"][0][1], zero["b"][0][1]}, "men is ranked")
			marks := []string{zero["a"][1][1], zero["b"][1][1]}
			if tt.wantUnranked {
				assert.Equal(t, []string{"", ""}, marks, "tiny is never ranked")
				assert.True(t, strings.Contains(page, tt.wantNote), "the cell says its pairs: %s", tt.wantNote)
				assert.True(t, strings.Contains(page, "too few pairs"), "the legend says why")
				return
			}
			assert.Equal(t, []string{"best", "second"}, marks)
			assert.False(t, strings.Contains(page, "‡"))
		})
	}
	t.Run("headline", func(t *testing.T) {
		rec := func(id, method string, tiny float64) records.Record {
			return records.Record{ID: id, Status: "ok", Settings: with(b, "label", id, "method", method, "svd.rank", 300.0), Metrics: map[string]float64{
				records.Score(records.RuleZero, "tiny").Key(): tiny, records.Pairs("tiny").Key(): 2, records.Coverage("tiny").Key(): 1,
			}}
		}
		recs := harnessLike([]records.Record{rec("tail-cut", "kca", 1), rec("LCA", "lca", -1)}, 0.01)
		bd := tb()
		rs := bd.project(recs).Rows(true)
		g := bd.grid(bd.groupByDim(rs), []string{"tiny"}, scoreOf(records.RuleZero))
		assert.NotContains(t, bd.groupHeadline(g, 0, records.RuleZero, ""), "significantly above")
	})
}

// A measured record whose process waited more than it ran, or whose
// corpus or table stage took more than twice its peers' (the same data and
// size), is disturbed and says why; a quiet one is not.
func TestDisturbedRecords(t *testing.T) {
	rec := func(id, backend string, wall, cpu, table float64) records.Record {
		return records.Record{ID: id, Status: "ok",
			Settings: map[string]any{"measure.process": true, "svd.backend": backend, "data.source": "synthetic", "synthetic.tokens": 1e8},
			Metrics:  map[string]float64{records.MetricWall: wall, records.MetricCPU: cpu, records.MetricVocab: 235625},
			Timings:  map[string]float64{"table": table, "corpus": 30}}
	}
	recs := []records.Record{
		rec("dssvd", "dssvd", 147.3, 158.1, 33.2),
		rec("krylov", "krylov", 367.6, 222.6, 114.7),
		rec("krylov-quiet", "krylov", 200, 350, 14),
	}
	got := disturbedRecords(recs)
	assert.Equal(t, map[string]string{
		"krylov": "wall time 368 s above its CPU time 223 s: the process waited; its table stage took 115 s against at most 33.2 s in trials doing the same work",
	}, got)
	other := recs[2]
	other.Settings = map[string]any{"measure.process": true, "data.source": "synthetic", "synthetic.tokens": 1.7e7}
	assert.False(t, sameWork(recs[0], other), "another corpus size is other work")
}
