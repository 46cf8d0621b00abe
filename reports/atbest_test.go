package reports

import (
	"strings"
	"testing"

	"kcalab/records"
	"kcalab/reports/compare"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commonRecs are a subword CA design that covers every pair (its scores on
// its corpus vocabulary's pairs recorded: records.RuleVocab) and SGNS,
// which covers the vocabulary's pairs only. Under the zero rule SGNS is
// charged 0 for the rest and loses; on the pairs both cover it is above on
// MEN, level on Rare, and on S999 the pair counts differ, so S999 cannot
// be compared there.
func commonRecs(sgnsCoverage float64) []records.Record {
	type part struct {
		zero, skip, vocab float64
		coverage          float64
		pairs, vocabPairs float64
	}
	rec := func(id, label, method string, window int, dev float64, parts map[string]part) records.Record {
		r := records.Record{ID: id, Status: "ok",
			Settings: map[string]any{"label": label, "method": method, "data.window": float64(window), "svd.rank": float64(300),
				"data.source": "corpus", "data.corpus": "text8_prefix", "data.min_count": float64(5), "data.fraction": float64(1),
				"eval.parts": true, "tune.axes": []any{"data.window"}, "tune.on": []any{"men", "rare", "s999"}, "tune.rule": "mean",
				"tuned_on": []any{"men@dev", "rare@dev", "s999@dev"}},
			Metrics: map[string]float64{}}
		for set, p := range parts {
			dp, tp := records.SetPart(set, records.PartDev), records.SetPart(set, records.PartTest)
			r.Metrics[records.Score(records.RuleZero, dp).Key()] = dev
			r.Metrics[records.Score(records.RuleZero, tp).Key()] = p.zero
			r.Metrics[records.Score(records.RuleSkip, tp).Key()] = p.skip
			r.Metrics[records.Coverage(tp).Key()] = p.coverage
			r.Metrics[records.Pairs(tp).Key()] = p.pairs
			if p.vocabPairs > 0 {
				r.Metrics[records.Score(records.RuleVocab, tp).Key()] = p.vocab
				r.Metrics[records.VocabPairs(tp).Key()] = p.vocabPairs
			}
		}
		return r
	}
	subword := map[string]part{
		"men":  {zero: 0.60, skip: 0.60, vocab: 0.55, coverage: 1, pairs: 2100, vocabPairs: 1470},
		"rare": {zero: 0.30, skip: 0.30, vocab: 0.40, coverage: 1, pairs: 2000, vocabPairs: 400},
		"s999": {zero: 0.40, skip: 0.40, vocab: 0.40, coverage: 1, pairs: 700, vocabPairs: 600},
	}
	cov := func(share float64) float64 { return 1 - (1-share)*sgnsCoverage }
	sgns := map[string]part{
		"men":  {zero: 0.45, skip: 0.65, coverage: cov(0.7), pairs: 2100},
		"rare": {zero: 0.10, skip: 0.40, coverage: cov(0.2), pairs: 2000},
		"s999": {zero: 0.35, skip: 0.40, coverage: cov(0.9), pairs: 700},
	}
	return harnessLike([]records.Record{
		rec("c5", "subword tail-cut", "kca", 5, 0.50, subword),
		rec("c10", "subword tail-cut", "kca", 10, 0.40, subword),
		rec("s2", "SGNS", "sgns", 2, 0.42, sgns),
		rec("s5", "SGNS", "sgns", 5, 0.41, sgns),
	}, 0.005)
}

func TestVerdictOnCommonPairs(t *testing.T) {
	recs := commonRecs(1)
	p := newBuilder(Report{Title: "common", Records: recs, Methods: testMethods})
	cs := p.choices(recs)
	require.Len(t, cs, 2)
	blocks, v, common := p.verdictBlocks(recs, cs)
	require.NotNil(t, v)
	require.NotNil(t, common, "SGNS leaves pairs uncovered: the page claims on the pairs both cover too")
	assert.Equal(t, []verdict{compare.Above, compare.Above, compare.Above}, v.vs, "the zero rule charges SGNS for its unseen words")
	assert.Equal(t, []verdict{compare.Below, compare.Tie, compare.NotTested}, common.vs, "on the pairs both cover: MEN below, Rare level, S999 not the same pairs")
	assert.Equal(t, []int{1470, 400, 0}, common.common)
	assert.InDelta(t, (0.55-0.65)/2, common.poolD, 1e-12, "pooled over the two sets compared: MEN −0.10, Rare 0")
	assert.Equal(t, 2, common.pooledSets)

	var head Headline
	var table Table
	for _, b := range blocks {
		switch b := b.(type) {
		case Headline:
			if strings.HasPrefix(b[0], "On the pairs both cover") {
				head = b
			}
		case Table:
			if b.ID == "verdict-common" {
				table = b
			}
		}
	}
	require.NotNil(t, head)
	assert.Contains(t, head[0], "against SGNS, pooled Δρ −0.050 [")
	assert.Contains(t, head[0], "(over 2 of 3 sets)")
	assert.Contains(t, head[0], "per set (Holm): below on MEN; ties on Rare; not tested on S999")
	require.Len(t, table.Rows, 1)
	row := table.Rows[0]
	assert.Contains(t, row[1], "−0.100 [")
	assert.Contains(t, row[1], "below (1470 pairs)")
	assert.Contains(t, row[2], "tie (400 pairs)")
	assert.Equal(t, "not tested: not the same pairs", row[3])
	assert.Equal(t, "pairs", table.CSV[0][len(table.CSV[0])-1])
	require.Len(t, table.CSV, 5, "header, three sets, pooled")
	assert.Equal(t, []string{"men", "1470"}, []string{table.CSV[1][2], table.CSV[1][11]})
	assert.Equal(t, []string{"pooled", "1870"}, []string{table.CSV[4][2], table.CSV[4][11]})

	s := p.tuningSection(recs, cs)
	require.NotNil(t, s)
	lead := p.verdicts[tuningSectionID].String()
	assert.Contains(t, lead, "subword tail-cut − SGNS: above 3 (Holm), pooled: above")
	assert.Contains(t, lead, "on pairs both cover: below 1 · ties 1 · not tested 1 (Holm), pooled: below (Δρ −0.050)")

	// Where both cover every pair the common pairs are the whole parts:
	// the table stays, the lead does not repeat itself.
	full := commonRecs(0)
	pf := newBuilder(Report{Title: "full", Records: full, Methods: testMethods})
	_, _, none := pf.verdictBlocks(full, pf.choices(full))
	assert.Nil(t, none)
	pf.tuningSection(full, pf.choices(full))
	assert.NotContains(t, pf.verdicts[tuningSectionID].String(), "both cover")
}
