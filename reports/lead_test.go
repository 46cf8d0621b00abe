package reports

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func tocOf(t *testing.T, r Report) []string {
	t.Helper()
	page := string(render(t, r))
	nav := page[strings.Index(page, `<nav class="toc">`):strings.Index(page, `</nav>`)]
	var ids []string
	for _, line := range strings.Split(nav, "\n") {
		if i := strings.Index(line, `<li><a href="#`); i == 0 {
			id := line[len(`<li><a href="#`):]
			id = id[:strings.Index(id, `"`)]
			switch id { // top-level sections only
			case "paper", "pairs", "check", "word-scores", "sweeps", "scaling", "words", "ca", "trials":
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// TestSectionOrder: each page leads with its question.
func TestSectionOrder(t *testing.T) {
	s := stubScript(t)
	assert.Equal(t, []string{"scaling", "trials"}, tocOf(t, wordReport("s", scalingRecords(), s)), "a scaling spec opens with its figures")
	assert.Equal(t, []string{"sweeps", "word-scores", "trials"}, tocOf(t, wordReport("s", sweepRecords(), s)), "a long sweep opens with its charts")
	assert.Equal(t, []string{"paper", "word-scores", "trials"}, tocOf(t, paperReport(s)))
	assert.Equal(t, []string{"pairs", "word-scores", "trials"}, tocOf(t, wordReport("s", pairsRecords(), s)))
	assert.Equal(t, []string{"ca", "trials"}, tocOf(t, fisherReport(t, s)))

	r := wordReport("s", sweepRecords(), s)
	r.Lead = "trials"
	assert.Equal(t, []string{"trials", "word-scores", "sweeps"}, tocOf(t, r), "report.lead names the first section; the rest keep their usual order")
	r.Lead = "nowhere"
	assert.ErrorContains(t, Write(&strings.Builder{}, r), "nowhere")
}

// TestPaperRows: the rows are taken at the dimension most of them have
// (a row without a trial there takes its largest), an id pins a trial,
// the rows are ranked in groups of one d, and in-sample cells never are.
func TestPaperRows(t *testing.T) {
	recs := paperRecords()
	m, missing := pickPaperTrials(tb().project(recs, hasMetric(records.ScoreMetric)), []string{"SCA+MEN=SCA+MEN in-sample"})
	require.Len(t, m, 4)
	assert.Equal(t, []string{"SGNS", "GloVe", "tail-cut", "SCA+MEN"}, []string{m[0].row.Name, m[1].row.Name, m[2].row.Name, m[3].row.Name})
	assert.Equal(t, "t1", m[2].ID, "of two tail-cut trials, the one at d = 300, where SGNS and GloVe are too")
	assert.Equal(t, "t3", m[3].ID, "SCA has no trial at d = 300: its largest")
	assert.Contains(t, missing, "CBOW")
	m, _ = pickPaperTrials(tb().project(recs, hasMetric(records.ScoreMetric)), []string{"tail-cut=t2"})
	assert.Equal(t, "t2", m[2].ID, "an id pins the trial")

	sec := tb().paperSection(recs, []string{"SCA+MEN=SCA+MEN in-sample"})
	require.NotNil(t, sec)
	require.IsType(t, Headline{}, sec.Blocks[0], "the section opens with what its numbers say")
	stab := sec.Blocks[2].(ScoreTable)
	assert.Equal(t, []string{"d = 300", "d = 300", "d = 300", "d = 1000"}, []string{stab.Rows[0].Group, stab.Rows[1].Group, stab.Rows[2].Group, stab.Rows[3].Group})
	sca := stab.Rows[3]
	assert.Equal(t, []bool{false, false, true, false, false, false}, sca.Unranked, "† MEN cell of SCA+MEN is not ranked")
	assert.Equal(t, "cos 0.529 † paper 0.770 · Δ −0.201", sca.Notes[2])
	assert.Equal(t, "SGNS: SGNS (d = 300, W = 10, epochs = 5 (default))", stab.Rows[0].Name)
	assert.Equal(t, "GloVe: GloVe (d = 300, W = 15 (default), epochs = 25 (default))", stab.Rows[1].Name)

	page := string(render(t, paperReport(stubScript(t))))
	assert.Empty(t, markedTuned(page), "a † cell is never marked")
	assert.Contains(t, page, `<td class="num">0.569 <small class="ci">±0.063</small> <small>cos 0.529 † paper 0.770 · Δ −0.201</small></td>`)
	rows, order, _ := tableRows(t, page, "paper-table")
	require.Len(t, order, 4)
	assert.Equal(t, [2]string{"0.498", "best"}, rows[order[2]][0], "tail-cut, 0.498 at d = 300, is significantly above SGNS's 0.306")
	assert.Equal(t, [2]string{"0.475", ""}, rows[order[3]][0], "SCA at d = 1000 is alone in its group: nothing to rank it against")
	assert.Contains(t, string(sec.Blocks[0].(Headline)[0]), "At d = 300, zero rule, each method at its own similarity: the paper's ordering")

	t.Run("replicates are one row of the other trials", func(t *testing.T) {
		recs := paperRecords()
		others := func(recs []records.Record) ScoreTable {
			sec := tb().paperSection(recs, []string{"SCA+MEN=SCA+MEN in-sample"})
			require.NotNil(t, sec)
			for _, b := range sec.Blocks {
				if d, ok := b.(Details); ok {
					for _, in := range d.Blocks {
						if st, ok := in.(ScoreTable); ok && st.ID == "paper-others" {
							return st
						}
					}
				}
				if st, ok := b.(ScoreTable); ok && st.ID == "paper-others" {
					return st
				}
			}
			t.Fatal("no paper-others table")
			return ScoreTable{}
		}
		before := others(recs)
		i := slices.IndexFunc(recs, func(r records.Record) bool { return r.ID == "t2" })
		require.GreaterOrEqual(t, i, 0)
		for rep := 1; rep <= 2; rep++ {
			r := recs[i]
			r.ID = fmt.Sprintf("t2r%d", rep)
			r.Settings = maps.Clone(r.Settings)
			r.Settings["replicate"] = float64(rep)
			r.Metrics = maps.Clone(r.Metrics)
			r.Metrics[records.Score(records.RuleZero, "men").Key()] += 0.01 * float64(rep)
			recs = append(recs, r)
		}
		after := others(recs)
		require.Len(t, after.Rows, len(before.Rows), "three replicates, one row")
		var notes []string
		for _, row := range after.Rows {
			notes = append(notes, strings.Join(row.Notes, "|"))
		}
		assert.Contains(t, strings.Join(notes, "\n"), "sd 0.01 over 3 seeds", "the MEN cell's spread over the seeds")
		k := slices.IndexFunc(after.Rows, func(r ScoreRow) bool { return strings.HasPrefix(r.Name, "tail-cut") })
		require.GreaterOrEqual(t, k, 0)
		// The seeds' replicates share the resamples: their mean per resample
		// is the bootstrap of the mean, so the folded row keeps an interval.
		hw := after.Rows[k].HalfWidths[2]
		assert.True(t, finite(hw) && hw > 0, "the folded MEN cell has an interval, got %v", hw)
	})
}

// TestPairs: per set, each trial's ρ, the paired bootstrap interval of
// their difference and what it says; a time ratio only for trials
// measured in one run; a headline per pair.
func TestPairs(t *testing.T) {
	sec := tb().pairsSection(pairsRecords())
	require.NotNil(t, sec)
	head := sec.Blocks[0].(Headline)
	assert.Equal(t, Headline{
		"SGNS, d = 300, zero rule, each at its own similarity: SGNS (Go) and SGNS (gensim) tie on Sim, Rel, MEN, M.Turk, Rare, S999.",
		"fastText, d = 300, zero rule, each at its own similarity: fastText (CLI) is significantly above fastText (Go) on Rare; ties on Sim, Rel, MEN, M.Turk, S999.",
	}, head)
	stab := sec.Blocks[2].(Table)
	assert.Len(t, stab.Rows, 12, "two pairs × six sets")
	assert.Equal(t, []string{"SGNS", "Rel", "SGNS (Go)", "SGNS (gensim)", "0.450", "0.440", "+0.010", "[−0.018, +0.038]", "tie", "98.8% / 98.8%", "322", "426", "1.33× faster"}, stab.Rows[1],
		"one run: the ratio of the training times, in words")
	require.Len(t, stab.CSV, 13)
	assert.Equal(t, []string{"SGNS", "rel", "SGNS (Go)", "SGNS (gensim)", "0.45", "0.44"}, stab.CSV[2][:6])
	assert.Equal(t, "0.754163734459301", stab.CSV[2][18], "the CSV's ratio is a plain number")
	for _, row := range stab.CSV[1:] {
		for j, c := range row {
			if j >= 4 && j != 9 && c != "" {
				_, err := strconv.ParseFloat(c, 64)
				assert.NoError(t, err, "CSV column %s: %q is not a number", stab.CSV[0][j], c)
			}
		}
	}
	assert.Equal(t, []string{"fastText", "Sim", "fastText (Go)", "fastText (CLI)", "0.510", "0.525", "−0.015", "[−0.043, +0.013]", "tie", "98.5% / 98.5%", "1,021", "2,407", whyOtherRuns}, stab.Rows[6])
	assert.Equal(t, "reference higher", stab.Rows[10][8], "fastText on Rare: 0.12 against 0.19")
	assert.Contains(t, sec.Blocks[3].(Paragraph), "GloVe (Go)")
	assert.Nil(t, tb().pairsSection(methodRecords()), "no external trial: no pairs")

	t.Run("parts: only where scored, never counted with the whole sets", func(t *testing.T) {
		recs := pairsRecords()
		for i, r := range recs {
			if strings.HasPrefix(formatValue(r.Settings["label"]), "fastText") {
				recs[i].Metrics = maps.Clone(r.Metrics)
				for _, set := range []string{"sim", "men"} {
					recs[i].Metrics[records.Score(records.RuleZero, records.SetPart(set, records.PartTest)).At(records.SimCosine, records.SimCosine).Key()] = 0.5
				}
			}
		}
		sec := tb().pairsSection(recs)
		tab := sec.Blocks[2].(Table)
		assert.Len(t, tab.Rows, 14, "the SGNS pair has no test parts: no rows of dashes for them")
		for _, r := range tab.Rows {
			assert.NotContains(t, strings.Join(r, " "), "NaN")
		}
		assert.Equal(t, "fastText, d = 300, zero rule, each at its own similarity: fastText (CLI) is significantly above fastText (Go) on Rare; ties on Sim, Rel, MEN, M.Turk, S999; "+
			"on the test parts, fastText (Go) and fastText (CLI) tie on Sim test, MEN test.", sec.Blocks[0].(Headline)[1])
	})

	t.Run("seeds of the Go trainer: one row, their mean", func(t *testing.T) {
		recs := pairsRecords()
		i := slices.IndexFunc(recs, func(r records.Record) bool { return r.Settings["label"] == "fastText (Go)" })
		require.GreaterOrEqual(t, i, 0)
		for rep := 1; rep <= 2; rep++ {
			r := recs[i]
			r.ID = fmt.Sprintf("ftr%d", rep)
			r.Settings = with(r.Settings, "replicate", float64(rep))
			r.Metrics = maps.Clone(r.Metrics)
			r.Metrics[records.Score(records.RuleZero, "sim").At(records.SimCosine, records.SimCosine).Key()] += 0.03 * float64(rep)
			r.Timings = map[string]float64{"train": 1021 - 100*float64(rep), "total": 1}
			recs = append(recs, r)
		}
		sec := tb().pairsSection(recs)
		tab := sec.Blocks[2].(Table)
		assert.Len(t, tab.Rows, 12, "three seeds fold into one row per set")
		assert.Equal(t, []string{"fastText", "Sim", "fastText (Go) (mean of 3 seeds)", "fastText (CLI)", "0.540", "0.525", "+0.015"},
			tab.Rows[6][:7], "Sim: the mean of 0.510, 0.540 and 0.570")
		assert.Equal(t, "921 (821–1,021 over 3 seeds)", tab.Rows[6][10])
		assert.Contains(t, sec.Blocks[0].(Headline)[1], "fastText (Go) (mean of 3 seeds)")
	})
	t.Run("a set with too few covered pairs: not compared", func(t *testing.T) {
		recs := pairsRecords()
		i := slices.IndexFunc(recs, func(r records.Record) bool { return r.Settings["label"] == "fastText (CLI)" })
		require.GreaterOrEqual(t, i, 0)
		recs[i].Metrics = maps.Clone(recs[i].Metrics)
		recs[i].Metrics[records.Pairs("rare").Key()], recs[i].Metrics[records.Coverage("rare").Key()] = 40, 0.1
		sec := tb().pairsSection(recs)
		assert.Equal(t, "fastText, d = 300, zero rule, each at its own similarity: fastText (Go) and fastText (CLI) tie on Sim, Rel, MEN, M.Turk, S999.",
			sec.Blocks[0].(Headline)[1], "Rare is no longer called a win")
		row := sec.Blocks[2].(Table).Rows[10]
		assert.Equal(t, []string{"Rare", "—", "not compared: ‡ 4 pairs, too few (< 10)"}, []string{row[1], row[7], row[8]})
	})
	t.Run("old records: not tested, no ratio", func(t *testing.T) {
		recs := pairsRecords()
		for i := range recs {
			recs[i].Bootstrap, recs[i].Run = nil, nil
		}
		sec := tb().pairsSection(recs)
		assert.Equal(t, "SGNS, d = 300, zero rule, each at its own similarity: SGNS (Go) and SGNS (gensim) tie on Sim; not tested on Rel, MEN, M.Turk, Rare, S999.",
			sec.Blocks[0].(Headline)[0], "equal as printed is a tie; any other difference needs replicates")
		row := sec.Blocks[2].(Table).Rows[1]
		assert.Equal(t, []string{"—", "not tested", whyNoRun}, []string{row[7], row[8], row[12]})
	})
	t.Run("damaged replicates: not tested, as without them", func(t *testing.T) {
		recs := pairsRecords()
		// A step of 5 on a ρ (an interval of ±600), a step of 0 under
		// non-zero deviations (±0) and a NaN step (no interval): none is
		// what a writer produces, so none is used.
		steps := []float32{5, 0, float32(math.NaN())}
		for i := range recs {
			bs := *recs[i].Bootstrap
			bs.Scores = map[string]string{}
			for k := range recs[i].Bootstrap.Scores {
				buf := make([]byte, 4+bs.B)
				binary.LittleEndian.PutUint32(buf, math.Float32bits(steps[i%len(steps)]))
				for j := range bs.B {
					buf[4+j] = byte(j%255 - 127)
				}
				bs.Scores[k] = base64.StdEncoding.EncodeToString(buf)
			}
			recs[i].Bootstrap = &bs
		}
		sec := tb().pairsSection(recs)
		assert.Equal(t, "SGNS, d = 300, zero rule, each at its own similarity: SGNS (Go) and SGNS (gensim) tie on Sim; not tested on Rel, MEN, M.Turk, Rare, S999.",
			sec.Blocks[0].(Headline)[0])
		row := sec.Blocks[2].(Table).Rows[1]
		assert.Equal(t, []string{"—", "not tested"}, []string{row[7], row[8]})
	})
	t.Run("records at the dot product alone: compared there, alike", func(t *testing.T) {
		recs := pairsRecords()
		for i := range recs {
			m := map[string]float64{}
			for k, v := range recs[i].Metrics {
				switch p := records.ParseMetric(k); {
				case p.Kind == records.ScoreMetric && p.Sim == records.SimDot:
					m[p.At(records.SimDot, records.SimDot).Key()] = v
				case p.Kind != records.ScoreMetric:
					m[k] = v
				}
			}
			recs[i].Metrics, recs[i].Bootstrap = m, nil
			recs[i].Settings = with(recs[i].Settings, "eval.similarity", "dot")
		}
		sec := tb().pairsSection(recs)
		assert.Equal(t, "SGNS, d = 300, zero rule, at the dot product (no cosine scores in these records): SGNS (Go) and SGNS (gensim) tie on Sim; not tested on Rel, MEN, M.Turk, Rare, S999.",
			sec.Blocks[0].(Headline)[0])
		assert.Equal(t, "0.373", sec.Blocks[2].(Table).Rows[0][4], "SGNS (Go) on Sim at the dot product: 0.413 − 0.04")
	})
}

func TestCheckSection(t *testing.T) {
	r := checkReport(stubScript(t))
	sec := checkSection(r.Check, r.Records)
	require.NotNil(t, sec)
	assert.Contains(t, sec.Blocks[0].(Headline)[0], "2 of 53 numbers FAIL", "the fixtures score at both similarities")
	items := records.CheckDetails(r.Check.Reference, r.Records, r.Check.Tolerance)
	var fails []string
	for _, it := range items {
		if !it.Pass {
			fails = append(fails, it.Problem)
		}
	}
	assert.ElementsMatch(t, records.CheckScores(r.Check.Reference, r.Records, r.Check.Tolerance), fails, "the section shows what -check reports")
	empty := checkSection(&Check{Tolerance: 0.01, Source: "x"}, r.Records)
	assert.Contains(t, string(empty.Blocks[0].(Paragraph)), "No reference")
	failed := []records.Record{{ID: "e", Status: "error"}}
	none := checkSection(&Check{Reference: failed, Tolerance: 0.01, Source: "x"}, r.Records)
	require.Len(t, none.Blocks, 1)
	assert.Contains(t, string(none.Blocks[0].(Paragraph)), "nothing to check")
}

func TestWordViews(t *testing.T) {
	sec := tb().wordViewsSection(wordViewRecords())
	require.NotNil(t, sec)
	wm := sec.Blocks[1].(ScatterMap)
	assert.Len(t, wm.Series[0].Points, 40)
	assert.Contains(t, string(sec.Blocks[0].(Paragraph)), "1 word(s) lie more than 8 times the median distance from the origin and are left off so that the rest can be read (agave).")
	assert.True(t, wm.HideOverlap)
	assert.Contains(t, string(sec.Blocks[3].(Paragraph)), "Why the CA family's dot-product neighbours are rare words")
	assert.Contains(t, string(sec.Blocks[3].(Paragraph)), "Cosine, beside it, ranks by direction alone")
	nb := sec.Blocks[4].(Table)
	assert.Equal(t, "Nearest neighbours: tail-cut (trial #1), by the dot product, its method's own similarity", nb.Caption)
	assert.Equal(t, []string{"Word", "Nearest 10 by dot, most similar first", "Nearest 10 by cosine"}, nb.Header)
	assert.Equal(t, []string{"king", "queen 0.812, prince 0.773, throne 0.7", "queen 0.9, kings 0.8"}, nb.Rows[0])
	assert.Equal(t, []string{"zyzzyva", "not in the vocabulary", "not in the vocabulary"}, nb.Rows[1])
	require.IsType(t, Details{}, sec.Blocks[5], "the other trials' neighbours are collapsed")
	sgns := sec.Blocks[5].(Details).Blocks[0].(Table)
	assert.Equal(t, "Nearest neighbours: SGNS (trial #2), by the dot product: the record holds no cosine neighbours (recorded before both similarities were; rerun the spec with -fresh for them)", sgns.Caption,
		"SGNS ranks by cosine; a record without cosine neighbours shows its dot ones and says so")
	assert.Len(t, sgns.Header, 2)

	recs := wordViewRecords()
	recs[1].NeighboursOther = []records.Neighbours{{Word: "king", Words: []string{"kings"}, Sims: []float64{0.5}}}
	sec = tb().wordViewsSection(recs)
	sgns = sec.Blocks[5].(Details).Blocks[0].(Table)
	assert.Equal(t, "Nearest neighbours: SGNS (trial #2), by cosine, its method's own similarity", sgns.Caption)
	assert.Equal(t, []string{"king", "kings 0.5", "queen 0.812, prince 0.773, throne 0.7"}, sgns.Rows[0], "SGNS's own cosine first, the dot product beside")
	assert.Nil(t, tb().wordViewsSection(methodRecords()))
}

// TestMapTrial: the word map comes from the trial on the most data, the
// most exact decomposition, then the largest dimension and window; a
// degenerate map (words on a few points) is passed over, and when every
// map is degenerate the page says so.
func TestMapTrial(t *testing.T) {
	spread := func(n int) *records.WordMap {
		wm := &records.WordMap{}
		for i := range n {
			wm.Words = append(wm.Words, fmt.Sprint("w", i))
			wm.X, wm.Y = append(wm.X, float64(i%10)), append(wm.Y, float64(i/10))
		}
		return wm
	}
	dot := func(n int) *records.WordMap {
		wm := spread(n)
		for i := range wm.X {
			wm.X[i], wm.Y[i] = 1e-9*float64(i%2), 0
		}
		wm.X[0] = 1
		return wm
	}
	rec := func(id string, wm *records.WordMap, settings map[string]any, resid float64) records.Record {
		return records.Record{ID: id, Status: "ok", Settings: settings, WordsMap: wm, SVD: &records.SVDAccuracy{RelResidual: resid}}
	}
	cases := []struct {
		name       string
		recs       []records.Record
		want       string
		degenerate bool
	}{
		{"largest corpus", []records.Record{
			rec("prefix", spread(50), map[string]any{"data.fraction": 1.0 / 64, "svd.rank": 1000.0}, 1e-9),
			rec("whole", spread(50), map[string]any{"data.fraction": 1.0, "svd.rank": 100.0}, 1e-9)}, "whole", false},
		{"exact before sketch", []records.Record{
			rec("sketch", spread(50), map[string]any{"svd.rank": 300.0}, 0.01),
			rec("exact", spread(50), map[string]any{"svd.rank": 300.0}, 1e-8)}, "exact", false},
		{"not W = 1", []records.Record{
			rec("w1", spread(50), map[string]any{"data.window": 1.0}, 1e-8),
			rec("w10", spread(50), map[string]any{"data.window": 10.0}, 1e-8)}, "w10", false},
		{"degenerate passed over", []records.Record{
			rec("dot", dot(50), map[string]any{"data.window": 30.0}, 1e-8),
			rec("spread", spread(50), map[string]any{"data.window": 10.0}, 1e-8)}, "spread", false},
		{"all degenerate", []records.Record{rec("dot", dot(50), nil, 1e-8)}, "dot", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, degenerate := mapTrial(tb().project(c.recs))
			assert.Equal(t, c.want, got.ID)
			assert.Equal(t, c.degenerate, degenerate)
		})
	}
	blocks := tb().wordMapBlocks(tb().project([]records.Record{rec("dot", dot(50), nil, 1e-8)}))
	require.Len(t, blocks, 1, "a warning, no map")
	assert.Contains(t, string(blocks[0].(Paragraph)), "No word map")
}

// TestCheckSaysWhatItCompared: a value the run reused from the reference
// is its own reference, and the verdict says so.
func TestCheckSaysWhatItCompared(t *testing.T) {
	ran := &records.RunInfo{Start: "2026-11-24T00:00:00Z", End: "2026-11-24T00:01:00Z", ID: "r1"}
	rec := records.Record{ID: "a", Status: "ok", Metrics: map[string]float64{"spearman.zero.men": 0.5}, Run: ran}
	again := rec
	again.Run = &records.RunInfo{Start: "2026-11-25T00:00:00Z", End: "2026-11-25T00:01:00Z", ID: "r2"}
	cases := []struct {
		name string
		now  records.Record
		want string
	}{
		{"reused", rec, "every one of the 1 was reused from the reference, not recomputed"},
		{"recomputed", again, "Every one was recomputed by this run."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := checkSection(&Check{Reference: []records.Record{rec}, Tolerance: 0.01, Source: "results.jsonl"}, []records.Record{c.now})
			require.NotNil(t, s)
			assert.Contains(t, s.Blocks[0].(Headline)[0], c.want)
		})
	}
}

// A difference that rounds to zero keeps its sign: an interval's bound
// beside "reference higher" is below zero.
func TestSigned(t *testing.T) {
	assert.Equal(t, "−0.0005", signed(-0.00049, 3))
	assert.Equal(t, "+0.0004", signed(0.00041, 3))
	assert.Equal(t, "±0.000", signed(0, 3))
	assert.Equal(t, "−0.011", signed(-0.011, 3))
	assert.Equal(t, "—", percent(math.NaN(), 1), "never NaN%")
	assert.Equal(t, "—", sig(math.NaN(), 3), "never NaN")
}

func TestRowsOf(t *testing.T) {
	assert.Equal(t, "41 trials", rowsOf(41, 41))
	assert.Equal(t, "1 trial", rowsOf(1, 1))
	assert.Equal(t, "41 rows of 65 trials (replicates folded)", rowsOf(41, 65))
}

// TestLeadRules: the paper's table leads only when trials stand for a
// third of its rows (or the spec maps them), a page of measured trials at
// one size opens with their measurements, and the first section's
// collapsed table opens.
func TestLeadRules(t *testing.T) {
	s := stubScript(t)
	// One trial labelled as a paper row among others: the scores lead.
	recs := sweepRecords()
	recs[0].Settings = maps.Clone(recs[0].Settings)
	recs[0].Settings["label"] = "tail-cut"
	got := tocOf(t, wordReport("s", recs, s))
	assert.NotEqual(t, "paper", got[0], "one paper row of nine does not lead: %v", got)

	// Two measured trials at one size: the measurements lead.
	m := scalingRecords()[:2]
	for i := range m {
		m[i].Settings = maps.Clone(m[i].Settings)
		m[i].Settings["svd.backend"] = "krylov"
		m[i].Settings["label"] = []string{"in memory", "from disk"}[i]
		m[i].Metrics = maps.Clone(m[i].Metrics)
		m[i].Metrics["vocab"] = 1000
	}
	page := string(render(t, wordReport("s", m, s)))
	assert.Less(t, strings.Index(page, `<section id="measured">`), strings.Index(page, `<section id="trials">`))
	assert.Contains(t, page, "from disk")

	// The first section's collapsed table is shown open.
	first := orderSections("", map[string]*Section{"scores": {ID: "word-scores", Blocks: []Block{Paragraph("p"), Details{Summary: "both"}}}}, projection{}, leads{})
	assert.True(t, first[0].Blocks[1].(Details).Open)
}
