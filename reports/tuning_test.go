package reports

import (
	"strconv"
	"strings"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tunedRecs are two tuning groups: tail-cut over W (W = 10 wins on dev,
// W = 5 is best on test: it must not be ranked there) and SGNS, with
// bootstrap replicates so the score tables can rank.
func tunedRecs() []records.Record {
	rec := func(id, label, method string, window int, dev, test float64) records.Record {
		return records.Record{ID: id, Status: "ok",
			Settings: map[string]any{"label": label, "method": method, "data.window": float64(window), "svd.rank": float64(300),
				"eval.parts": true, "tune.axes": []any{"data.window"}, "tune.on": []any{"men"}, "tune.rule": "mean", "tuned_on": []any{"men@dev"}},
			Metrics: map[string]float64{"spearman.zero.men@dev": dev, "spearman.zero.men@test": test, "spearman.zero.men": (dev + test) / 2,
				"coverage.men": 1, "coverage.men@dev": 1, "coverage.men@test": 1, "pairs.men": 3000, "pairs.men@dev": 900, "pairs.men@test": 2100},
			Timings: map[string]float64{"total": 12.5, "svd": 9.25}}
	}
	return harnessLike([]records.Record{
		rec("t5", "tail-cut", "kca", 5, 0.40, 0.80),
		rec("t10", "tail-cut", "kca", 10, 0.50, 0.45),
		rec("t24", "tail-cut", "kca", 24, 0.30, 0.30),
		rec("s2", "SGNS", "sgns", 2, 0.42, 0.44),
		rec("s5", "SGNS", "sgns", 5, 0.41, 0.43),
	}, 0.005)
}

func TestTuningSection(t *testing.T) {
	r := Report{Title: "tuned", Records: tunedRecs(), Methods: testMethods, ECharts: CDNScript()}
	p := newBuilder(r)
	cs := p.choices(r.Records)
	require.Len(t, cs, 2)
	assert.Equal(t, []string{"t10"}, cs[0].ChosenIDs(), "chosen on dev, not on test")
	assert.Equal(t, records.SimCosine, cs[1].Similarity, "SGNS at its own similarity")
	s := p.tuningSection(r.Records, cs)
	require.NotNil(t, s)
	// The verdict leads: the best CA design by dev against the best
	// baseline by dev, on the test parts.
	verdict, ok := s.Blocks[0].(Headline)
	require.True(t, ok)
	assert.Contains(t, verdict[0], "the best CA design by dev ρ, tail-cut (data.window=10; dev 0.500), against the best neural baseline by dev ρ, SGNS (data.window=2; dev 0.420)")
	assert.Contains(t, verdict[0], "per set after Holm's adjustment for the 1 sets: ties on MEN")
	vt, ok := s.Blocks[2].(Table)
	require.True(t, ok)
	assert.Equal(t, "verdict", vt.ID)
	head, ok := s.Blocks[3].(Headline)
	require.True(t, ok)
	assert.Equal(t, "tail-cut: data.window=10, mean dev ρ 0.500 (dot) among 3 candidate(s); chosen by 0.100 over the runner-up (dev noise ± 0.052).", head[0])
	assert.Equal(t, "SGNS: data.window=2, mean dev ρ 0.420 (cos) among 2 candidate(s); chosen by 0.010 over the runner-up (dev noise ± 0.056): within noise; data.window = 2 is the smallest value tried (2, 5): its best may lie below.", head[1])
	tab, ok := s.Blocks[5].(Table)
	require.True(t, ok)
	assert.Equal(t, []string{"tail-cut", "data.window=10", "0.500", "0.052", "0.400", "+0.100", "3", "9.25", "12.5", ""}, tab.Rows[0])
	assert.Equal(t, []string{"tail-cut", "data.window=10", "0.5", "0.052059186152649886", "0.4", "0.09999999999999998", "3", "9.25", "12.5", "false"}, tab.CSV[1], "numbers only")
	assert.Equal(t, "The chosen designs: their dev score and noise, the runner-up's margin, and their cost: "+strings.TrimPrefix(whyUnmeasured, "not compared: ")+"; so the times are read one by one, not against each other", tab.Caption)
	budget, ok := s.Blocks[6].(Table)
	require.True(t, ok)
	assert.Equal(t, []string{"tail-cut", "every candidate of the grid", "3", "3", "0.01"}, budget.Rows[0], "3 trials of 12.5 s on 1 core (no GOMAXPROCS recorded)")
	cands, ok := s.Blocks[7].(Details)
	require.True(t, ok)
	ct := cands.Blocks[0].(Table)
	assert.Equal(t, [][]string{{"1", "10", "0.500", "—", "1", "chosen"}, {"2", "5", "0.400", "−0.100", "1", "search-only"}, {"3", "24", "0.300", "−0.200", "1", "search-only"}}, ct.Rows, "every candidate, best first")
	require.Len(t, s.Blocks, 10, "one search chart for data.window")
	ch := s.Blocks[9].(LineChart)
	require.Len(t, ch.Series, 3, "tail-cut, SGNS and the chosen designs")
	assert.True(t, ch.Series[0].Dots, "every candidate a point, not a line")
	pts := ch.Series[0].Points
	require.Len(t, pts, 3)
	assert.Equal(t, []float64{5, 10, 24}, []float64{pts[0].X, pts[1].X, pts[2].X})
	chosen := ch.Series[2].Points
	require.Len(t, chosen, 2)
	assert.Equal(t, []float64{10, 0.5, 2, 0.42}, []float64{chosen[0].X, chosen[0].Y, chosen[1].X, chosen[1].Y})
	assert.InDelta(t, 0.052059, chosen[0].Err, 1e-6, "the chosen design's dev noise as its bar")

	// A tuned setting a record left out at its default (omitdefault) reads
	// as that default, not as null.
	beta := tunedRecs()
	for i := range beta {
		beta[i].Settings["tune.axes"] = []any{"data.window", "vectors.beta"}
		if beta[i].ID == "t10" {
			beta[i].Settings["vectors.beta"] = 0.0
		}
	}
	bc := newBuilder(Report{Title: "beta", Records: beta, Methods: testMethods}).choices(beta)
	require.Len(t, bc, 2)
	assert.Equal(t, "data.window=10 · vectors.beta=0", valuesText(bc[0].Axes, bc[0].Candidates[bc[0].Chosen].Values))
	assert.Equal(t, "data.window=5 · vectors.beta=-0.5", valuesText(bc[0].Axes, bc[0].Candidates[0].Values))

	// The page leads with the choice and compares only the chosen designs.
	page := string(render(t, r))
	assert.Less(t, strings.Index(page, "Designs chosen on the dev parts"), strings.Index(page, "Word similarity"))
	assert.Less(t, strings.Index(page, "Each method at its best"), strings.Index(page, "tuning-choices"), "the verdict first")
	scores := page[strings.Index(page, `id="word-scores"`):]
	scores = scores[:strings.Index(scores, "</section>")]
	test := scores[strings.Index(scores, `id="scores-zero-test"`):]
	test = test[:strings.Index(test, "</table>")]
	assert.Equal(t, 1, strings.Count(test, "<tr><th>tail-cut</th>"), "only the chosen candidate is ranked on the test parts")
	// The test-part tables carry the verdicts: first and open; the whole
	// sets (in-sample for every tuned row) follow, one click away.
	at := strings.Index(scores, `id="scores-zero-test"`)
	assert.Less(t, at, strings.Index(scores, `id="scores-zero"`))
	assert.NotContains(t, scores[:at], "<details", "the test-part table is not collapsed")
	assert.Contains(t, test, `<td class="num best">0.450`, "W = 10's test score, not W = 5's 0.800")
	assert.NotContains(t, test, "0.800")
	assert.Contains(t, page[strings.Index(page, `id="trials"`):], "<td>t5</td><td>5</td>", "every candidate stays in the trials table")
}

// runIDs are runner invocations as the harness names them.
var runIDs = map[string]string{"r1": "2026-11-26T12:48:44.976278636Z/vm/29876", "r2": "2026-11-26T14:02:10.5Z/vm/31000"}

// The chosen designs' costs are said to be measured in one run only when
// they were measured alike (each in a child process, one run); rows name
// their run when the designs ran in several.
func TestTuningCostsRuns(t *testing.T) {
	unmeasured := strings.TrimPrefix(whyUnmeasured, "not compared: ")
	tests := []struct {
		name     string
		runs     map[string]string // record id -> run id ("" = none)
		measured bool              // measure.process
		caption  string
		note     string // the tail-cut row's note
	}{
		{"one run, measured", map[string]string{"t10": "r1", "s2": "r1"}, true, "The chosen designs: their dev score and noise, the runner-up's margin, and their cost, measured alike in one run", ""},
		{"one run, not measured", map[string]string{"t10": "r1", "s2": "r1"}, false,
			"The chosen designs: their dev score and noise, the runner-up's margin, and their cost: " + unmeasured + "; so the times are read one by one, not against each other", ""},
		{"two runs, measured", map[string]string{"t10": "r1", "s2": "r2"}, true,
			"The chosen designs: their dev score and noise, the runner-up's margin, and their cost: measured in different runs (each row names its run), so the times are read one by one, not against each other",
			"measured in the run started 2026-11-26T12:48:44Z at commit 756e871"},
		{"two runs, not measured", map[string]string{"t10": "r1", "s2": "r2"}, false,
			"The chosen designs: their dev score and noise, the runner-up's margin, and their cost: " + unmeasured + "; they ran in different runs (each row names its run); so the times are read one by one, not against each other",
			"ran in the run started 2026-11-26T12:48:44Z at commit 756e871"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs := tunedRecs()
			for i := range recs {
				if id := tt.runs[recs[i].ID]; id != "" {
					recs[i].Run = &records.RunInfo{ID: runIDs[id], Commit: "756e871e2b6c011db21319a7e8e8caf6192d2bf0"}
				} else {
					recs[i].Run = &records.RunInfo{ID: runIDs["r1"], Commit: "756e871e2b6c011db21319a7e8e8caf6192d2bf0"}
				}
				recs[i].Settings["measure.process"] = tt.measured
			}
			p := newBuilder(Report{Title: "tuned", Records: recs, Methods: testMethods})
			s := p.tuningSection(recs, p.choices(recs))
			tab := s.Blocks[5].(Table)
			assert.Equal(t, tt.caption, tab.Caption)
			assert.Equal(t, tt.note, tab.Rows[0][9])
		})
	}
}

// A design whose d takes the leading triplets of one decomposition at a
// larger shared rank shows that decomposition's cost as what it is: the
// sweep's, at its rank, not the chosen d's own.
func TestTuningSharedCost(t *testing.T) {
	recs := tunedRecs()
	for i := range recs {
		if recs[i].Settings["method"] == "kca" {
			recs[i].Metrics[records.MetricSVDSharedRank] = 8000
			recs[i].Metrics[records.MetricSVDSharedSeconds] = 1118.4
		}
	}
	p := newBuilder(Report{Title: "tuned", Records: recs, Methods: testMethods})
	tab := p.tuningSection(recs, p.choices(recs)).Blocks[5].(Table)
	assert.Equal(t, "tuning-choices", tab.ID)
	assert.Equal(t, "1,118 (shared, rank 8000)", tab.Rows[0][7])
	assert.Contains(t, tab.Rows[0][9], "the sweep's one decomposition at rank 8000 (svd.shared_rank), which every d of it shares, not the chosen d = 300's own")
	assert.Equal(t, "9.25", tab.Rows[1][7], "SGNS's training: its own cost")
}

// A group searched by successive halving gets a row per pair of rungs:
// how well the earlier foretold the later (records.RungAgreement); a
// group without one gets none.
func TestTuningRungTable(t *testing.T) {
	rec := func(window, epochs int, dev float64) records.Record {
		return records.Record{ID: "w" + strconv.Itoa(window) + "e" + strconv.Itoa(epochs), Status: "ok",
			Settings: map[string]any{"label": "SGNS", "method": "sgns", "data.window": float64(window), "train.epochs": float64(epochs),
				"eval.parts": true, "tune.axes": []any{"data.window", "train.epochs"}, "tune.on": []any{"men"}, "tune.rule": "mean",
				"tune.halving": "train.epochs", "tune.eta": 1.0, "tuned_on": []any{"men@dev"}},
			Metrics: map[string]float64{"spearman.cosine.zero.men@dev": dev, "coverage.men@dev": 1, "pairs.men@dev": 900}}
	}
	// At 3 epochs W = 2 < 5 < 10; at 9, W = 5 first, then 10, then 2.
	recs := []records.Record{rec(2, 3, 0.10), rec(2, 9, 0.30), rec(5, 3, 0.20), rec(5, 9, 0.50), rec(10, 3, 0.30), rec(10, 9, 0.40)}
	p := newBuilder(Report{Title: "halved", Records: recs, Methods: testMethods})
	cs := p.choices(recs)
	require.Len(t, cs, 1)
	tab, ok := p.rungTable(cs)
	require.True(t, ok)
	assert.Equal(t, "tuning-rungs", tab.ID)
	assert.Equal(t, [][]string{{"SGNS", "train.epochs 3 → 9", "3", "+0.500", "2 of 3"}}, tab.Rows)
	assert.Equal(t, []string{"SGNS", "train.epochs", "3", "9", "3", "0.5", "2", "3"}, tab.CSV[1], "numbers only")
	_, ok = p.rungTable(p.choices(tunedRecs()))
	assert.False(t, ok, "no group halved")

	// Run with tune.eta 1 (every configuration at every rung), the group is
	// a check of the halving: the page answers with its first rung against
	// its last, not with a comparison of methods.
	sec := p.tuningSection(recs, cs)
	require.NotNil(t, sec)
	head, ok := sec.Blocks[0].(Headline)
	require.True(t, ok)
	assert.Equal(t, Headline{"SGNS, its order at train.epochs = 3 against each later rung's (3 configurations; a halving by η = 3 keeps the best 1 of the first rung): 3 → 9: Spearman +0.500, the best at 9 ranked 2 of 3."}, head)
	lead, _, v := p.answer([]Section{*sec})
	assert.Equal(t, "How well the halving's first rung foretells the later ones", lead)
	assert.Equal(t, "SGNS: train.epochs 3 → 9: Spearman +0.500, the best at 9 ranked 2 of 3 — mean dev ρ, every configuration at every rung", v.String())

	// A halving that saves (η = 3) is no check: no such answer.
	for i := range recs {
		recs[i].Settings["tune.eta"] = 3.0
	}
	q := newBuilder(Report{Title: "halved", Records: recs, Methods: testMethods})
	hc, claims := q.halvingCheck(q.choices(recs))
	assert.Empty(t, hc)
	assert.Empty(t, claims)
}
