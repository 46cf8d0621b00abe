package reports

import (
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
)

// A headline's verdict between two rows whose coverage of a set differs by
// more than compare.CoverageGap names both coverages and what the other
// rule says: under the zero rule a verdict the skip rule does not repeat
// is decided by coverage; under the skip rule the rows are not scored on
// the same pairs. Equal coverage adds nothing.
func TestHeadlineCoverage(t *testing.T) {
	// vocab is a score on the vocabulary's pairs (records.RuleVocab), over
	// vocabPairs of them; 0: none recorded.
	type side struct {
		cov, zero, skip, vocab float64
		vocabPairs             int
	}
	type want struct {
		rule       records.Rule
		has, hasNo []string
	}
	cases := []struct {
		name         string
		ca, ft       side // on Rare
		menCA, menFT side // on MEN; zero: both cover all, ρ 0.5
		wants        []want
	}{
		{
			name: "zero rule: reversed by coverage, a tie on the pairs each covers",
			ca:   side{cov: 0.202, zero: 0.05, skip: 0.30}, ft: side{cov: 1, zero: 0.30, skip: 0.30},
			wants: []want{
				{records.RuleZero, []string{"is reversed on 1 (Rare)",
					"on Rare, the verdict (fastText (CLI) significantly above tail-cut KCA) is decided by coverage: tail-cut KCA and fastText (CLI) cover 20.2% and 100.0% of Rare's pairs; on the pairs each covers (skip rule), a tie"}, nil},
				{records.RuleSkip, []string{"tail-cut KCA and fastText (CLI) are scored on 20.2% and 100.0% of Rare's pairs: not the same pairs, so not a comparison on common pairs; with the pairs they lack scoring 0 (zero rule), fastText (CLI) significantly above tail-cut KCA"}, nil},
			},
		},
		{
			name: "skip rule: a win on 72.5% against 100% is not paired",
			ca:   side{cov: 0.725, zero: 0.30, skip: 0.60}, ft: side{cov: 1, zero: 0.45, skip: 0.45},
			wants: []want{
				{records.RuleSkip, []string{"tail-cut KCA is significantly above fastText (CLI) on Rare",
					"tail-cut KCA and fastText (CLI) are scored on 72.5% and 100.0% of Rare's pairs: not the same pairs"}, nil},
				{records.RuleZero, []string{"fastText (CLI) is significantly above tail-cut KCA on Rare",
					"the verdict (fastText (CLI) significantly above tail-cut KCA) is decided by coverage: tail-cut KCA and fastText (CLI) cover 72.5% and 100.0% of Rare's pairs; on the pairs each covers (skip rule), tail-cut KCA significantly above fastText (CLI)"}, nil},
			},
		},
		{
			name: "coverage differs, the verdict holds under both rules",
			ca:   side{cov: 0.80, zero: 0.10, skip: 0.15}, ft: side{cov: 1, zero: 0.40, skip: 0.40},
			wants: []want{
				{records.RuleZero, []string{"tail-cut KCA and fastText (CLI) cover 80.0% and 100.0% of Rare's pairs; on the pairs each covers (skip rule) the verdict holds"}, []string{"decided by coverage"}},
				{records.RuleSkip, []string{"not the same pairs", "(zero rule), the verdict holds"}, nil},
			},
		},
		{
			name: "verdicts that hold on several sets: one clause",
			ca:   side{cov: 0.80, zero: 0.10, skip: 0.15}, ft: side{cov: 1, zero: 0.40, skip: 0.40},
			menCA: side{cov: 0.80, zero: 0.20, skip: 0.25}, menFT: side{cov: 1, zero: 0.50, skip: 0.50},
			wants: []want{
				{records.RuleZero, []string{"; tail-cut KCA and fastText (CLI) cover 80.0% and 100.0% of MEN's pairs, 80.0% and 100.0% of Rare's; on the pairs each covers (skip rule) the verdicts hold."}, nil},
			},
		},
		{
			name: "skip rule: compared on the pairs both cover",
			ca:   side{cov: 0.725, zero: 0.30, skip: 0.60}, ft: side{cov: 1, zero: 0.45, skip: 0.45, vocab: 0.50, vocabPairs: 1475},
			wants: []want{
				{records.RuleSkip, []string{"tail-cut KCA is significantly above fastText (CLI) on Rare",
					"tail-cut KCA and fastText (CLI) cover 72.5% and 100.0% of Rare's pairs: compared on the 1,475 pairs of Rare both cover (paired); with the pairs they lack scoring 0 (zero rule), fastText (CLI) significantly above tail-cut KCA"}, []string{"not the same pairs"}},
				{records.RuleZero, []string{"fastText (CLI) is significantly above tail-cut KCA on Rare",
					"the verdict (fastText (CLI) significantly above tail-cut KCA) is decided by coverage: tail-cut KCA and fastText (CLI) cover 72.5% and 100.0% of Rare's pairs; on the 1,475 pairs of Rare both cover, tail-cut KCA significantly above fastText (CLI)"}, nil},
			},
		},
		{
			name: "skip rule: the pairs both cover turn a win on different pairs around",
			ca:   side{cov: 0.725, zero: 0.30, skip: 0.60}, ft: side{cov: 1, zero: 0.45, skip: 0.45, vocab: 0.70, vocabPairs: 1475},
			wants: []want{
				{records.RuleSkip, []string{"fastText (CLI) is significantly above tail-cut KCA on Rare", "compared on the 1,475 pairs of Rare both cover (paired); with the pairs they lack scoring 0 (zero rule), the verdict holds"}, nil},
				{records.RuleZero, []string{"cover 72.5% and 100.0% of Rare's pairs; on the 1,475 pairs of Rare both cover the verdict holds"}, []string{"decided by coverage"}},
			},
		},
		{
			name: "a vocabulary score over other pairs than the row covers: not paired",
			ca:   side{cov: 0.725, zero: 0.30, skip: 0.60}, ft: side{cov: 1, zero: 0.45, skip: 0.45, vocab: 0.70, vocabPairs: 1400},
			wants: []want{
				{records.RuleSkip, []string{"tail-cut KCA is significantly above fastText (CLI) on Rare", "not the same pairs"}, []string{"paired"}},
			},
		},
		{
			name: "equal coverage adds nothing",
			ca:   side{cov: 0.412, zero: 0.05, skip: 0.30}, ft: side{cov: 0.412, zero: 0.30, skip: 0.30},
			wants: []want{
				{records.RuleZero, []string{"is reversed on 1 (Rare)"}, []string{"covers", "decided by coverage", "not the same pairs"}},
				{records.RuleSkip, []string{"ties on 2 (MEN, Rare)"}, []string{"covers", "decided by coverage", "not the same pairs"}},
			},
		},
		{
			name: "5 points apart: within the gap",
			ca:   side{cov: 0.95, zero: 0.05, skip: 0.30}, ft: side{cov: 1, zero: 0.30, skip: 0.30},
			wants: []want{
				{records.RuleZero, nil, []string{"covers", "decided by coverage"}},
			},
		},
	}
	sets := []string{"men", "rare"}
	trial := func(label, method string, men, rare side) records.Record {
		if men == (side{}) {
			men = side{cov: 1, zero: 0.5, skip: 0.5}
		}
		m := map[string]float64{
			records.Score(records.RuleZero, "men").Key(): men.zero, records.Score(records.RuleSkip, "men").Key(): men.skip,
			records.Coverage("men").Key(): men.cov, records.Pairs("men").Key(): 3000,
			records.Score(records.RuleZero, "rare").Key(): rare.zero, records.Score(records.RuleSkip, "rare").Key(): rare.skip,
			records.Coverage("rare").Key(): rare.cov, records.Pairs("rare").Key(): 2034,
		}
		if rare.vocabPairs > 0 {
			m[records.Score(records.RuleVocab, "rare").Key()] = rare.vocab
			m[records.VocabPairs("rare").Key()] = float64(rare.vocabPairs)
		}
		return records.Record{ID: label, Status: "ok", Settings: map[string]any{"label": label, "method": method, "svd.rank": 300.0}, Metrics: m}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newBuilder(Report{Methods: testMethods})
			recs := harnessLike([]records.Record{trial("tail-cut KCA", "kca", c.menCA, c.ca), trial("fastText (CLI)", "external", c.menFT, c.ft)}, 0.01)
			groups := b.groupByDim(b.project(recs).Rows(true))
			for _, w := range c.wants {
				h := b.groupHeadline(b.grid(groups, sets, scoreOf(w.rule)), 0, w.rule, "")
				for _, s := range w.has {
					assert.Contains(t, h, s, "%s rule", w.rule)
				}
				for _, s := range w.hasNo {
					assert.NotContains(t, h, s, "%s rule", w.rule)
				}
			}
		})
	}
}

// Rows of one corpus vocabulary pair whatever else their methods read: a
// count model's record holds its table's settings, a trainer's does not.
func TestVocabularyOf(t *testing.T) {
	data := map[string]any{"data.source": "corpus", "data.corpus": "text8_prefix", "data.fraction": 1.0, "data.lowercase": false, "data.min_count": 5.0, "data.max_vocab": 0.0}
	rec := func(extra ...any) records.Record {
		s := map[string]any{}
		for k, v := range data {
			s[k] = v
		}
		for i := 0; i < len(extra); i += 2 {
			s[extra[i].(string)] = extra[i+1]
		}
		return records.Record{Settings: s}
	}
	tailcut := rec("method", "kca", "data.table", "cut", "data.window", 24.0, "data.cut_n1_twice", false, "data.symmetric", false)
	fasttext := rec("method", "fasttext", "train.window", 10.0)
	assert.Equal(t, vocabularyOf(tailcut), vocabularyOf(fasttext))
	assert.NotEqual(t, vocabularyOf(tailcut), vocabularyOf(rec("data.min_count", 10.0)))
	assert.NotEqual(t, vocabularyOf(tailcut), vocabularyOf(rec("data.fraction", 0.5)))
}
