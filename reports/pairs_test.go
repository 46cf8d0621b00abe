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
	assert.Equal(t, []string{"SGNS", "Rel", "SGNS (Go)", "SGNS (gensim)", "0.450", "0.440", "+0.010", "[−0.018, +0.038]", "tie", "98.8% / 98.8%", "322", "426", whyUnmeasured}, stab.Rows[1],
		"one run, but neither trial measured (measure.process): no ratio of their times")
	require.Len(t, stab.CSV, 13)
	assert.Equal(t, []string{"SGNS", "rel", "SGNS (Go)", "SGNS (gensim)", "0.45", "0.44"}, stab.CSV[2][:6])
	assert.Equal(t, "", stab.CSV[2][18], "no ratio in the CSV either")
	for _, row := range stab.CSV[1:] {
		for j, c := range row {
			if j >= 4 && j != 9 && c != "" {
				_, err := strconv.ParseFloat(c, 64)
				assert.NoError(t, err, "CSV column %s: %q is not a number", stab.CSV[0][j], c)
			}
		}
	}
	assert.Equal(t, []string{"fastText", "Sim", "fastText (Go)", "fastText (CLI)", "0.510", "0.525", "−0.015", "[−0.043, +0.013]", "tie", "98.5% / 98.5%", "1,021", "2,407", whyUnmeasured}, stab.Rows[6])
	assert.Equal(t, "reference higher", stab.Rows[10][8], "fastText on Rare: 0.12 against 0.19")
	assert.Contains(t, sec.Blocks[3].(Paragraph), "GloVe (Go)")
	assert.Nil(t, tb().pairsSection(methodRecords()), "no external trial: no pairs")

	t.Run("coverage: a verdict it decides is named as such", func(t *testing.T) {
		// Go fastText's vocabulary covers 29.6% of Rare, the CLI's 41.2%:
		// the CLI's win under the zero rule is a tie on the pairs each
		// covers. On M.Turk 5.9 points apart, and a tie under both rules.
		sec := tb().pairsSection(pairsRecordsCovered(map[string][6]float64{"fastText (Go)": smallCoverage}))
		require.NotNil(t, sec)
		head := sec.Blocks[0].(Headline)
		assert.Equal(t, "SGNS, d = 300, zero rule, each at its own similarity: SGNS (Go) and SGNS (gensim) tie on Sim, Rel, MEN, M.Turk, Rare, S999.", head[0], "equal coverage adds nothing")
		assert.Equal(t, "fastText, d = 300, zero rule, each at its own similarity: fastText (CLI) is significantly above fastText (Go) on Rare; ties on Sim, Rel, MEN, M.Turk, S999; "+
			"fastText (Go) and fastText (CLI) cover 90.9% and 96.9% of M.Turk's pairs; on the pairs each covers (skip rule) the verdict holds; "+
			"on Rare, the verdict (fastText (CLI) significantly above fastText (Go)) is decided by coverage: fastText (Go) and fastText (CLI) cover 29.6% and 41.2% of Rare's pairs; on the pairs each covers (skip rule), a tie.", head[1])
	})

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
	t.Run("measured alike: the ratio of the training times", func(t *testing.T) {
		recs := pairsRecords()
		for i := range recs {
			recs[i].Settings = with(recs[i].Settings, "measure.process", true)
		}
		stab := tb().pairsSection(recs).Blocks[2].(Table)
		assert.Equal(t, "1.33× faster", stab.Rows[1][12], "one run, both measured: the ratio in words")
		assert.Equal(t, "0.754163734459301", stab.CSV[2][18], "the CSV's ratio is a plain number")
		assert.Equal(t, whyOtherRuns, stab.Rows[6][12], "fastText's two trials were measured in different runs")
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
		assert.Equal(t, []string{"—", "not tested", whyUnmeasured}, []string{row[7], row[8], row[12]})
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
