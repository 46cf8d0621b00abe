package reports

import (
	"strings"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A skip-rule table marks rows of unequal coverage on the pairs both
// cover, as the headline compares them: a score on 72.5% of a set is never
// ranked against one on 100% by their own values; without scores on the
// common pairs the row is not ranked ("≠ pairs"). The zero rule's table
// and a column where every row covers alike keep the plain rule.
func TestSkipMarksOnCommonPairs(t *testing.T) {
	type side struct {
		cov, skip, vocab float64
		vocabPairs       int
	}
	cases := []struct {
		name          string
		ca, ft, other side // on Rare: tail-cut KCA, fastText (CLI), GloVe (which covers as tail-cut)
		marks         [3]Mark
		apart         [3]bool // the cell says ≠ pairs
		legend        bool    // the table explains the common-pairs rule
	}{
		{
			name:  "on the pairs both cover fastText is above: tail-cut's higher own score wins nothing",
			ca:    side{cov: 0.725, skip: 0.60},
			ft:    side{cov: 1, skip: 0.45, vocab: 0.70, vocabPairs: 1475},
			other: side{cov: 0.725, skip: 0.20},
			marks: [3]Mark{Second, Best, NoMark}, legend: true,
		},
		{
			name:  "on the pairs both cover tail-cut is above: tail-cut alone is best",
			ca:    side{cov: 0.725, skip: 0.60},
			ft:    side{cov: 1, skip: 0.45, vocab: 0.50, vocabPairs: 1475},
			other: side{cov: 0.725, skip: 0.20},
			marks: [3]Mark{Best, Second, NoMark}, legend: true,
		},
		{
			name:  "no scores on the pairs both cover: fastText is ranked against neither",
			ca:    side{cov: 0.725, skip: 0.60},
			ft:    side{cov: 1, skip: 0.45},
			other: side{cov: 0.725, skip: 0.20},
			marks: [3]Mark{Best, NoMark, Second}, apart: [3]bool{false, true, false}, legend: true,
		},
		{
			name:  "every row covers alike: the plain rule",
			ca:    side{cov: 1, skip: 0.60},
			ft:    side{cov: 1, skip: 0.45},
			other: side{cov: 1, skip: 0.20},
			marks: [3]Mark{Best, Second, NoMark},
		},
	}
	trial := func(label, method string, rare side) records.Record {
		m := map[string]float64{
			records.Score(records.RuleZero, "rare").Key(): rare.skip * rare.cov, records.Score(records.RuleSkip, "rare").Key(): rare.skip,
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
			recs := harnessLike([]records.Record{trial("tail-cut KCA", "kca", c.ca), trial("fastText (CLI)", "external", c.ft), trial("GloVe", "glove", c.other)}, 0.01)
			groups := b.groupByDim(b.project(recs).Rows(true))
			st := b.grid(groups, []string{"rare"}, scoreOf(records.RuleSkip)).scoreTable("s", "skip", true, nil)
			require.Len(t, st.Rows, 3)
			byName := map[string]ScoreRow{}
			for _, r := range st.Rows {
				byName[r.Name] = r
			}
			for k, name := range []string{"tail-cut KCA", "fastText (CLI)", "GloVe"} {
				r, ok := byName[name]
				require.True(t, ok, "no row %s in %v", name, st.Rows)
				assert.Equal(t, c.marks[k], r.Marks[0], "%s's mark", name)
				assert.Equal(t, c.apart[k], strings.HasPrefix(r.Notes[0], otherPairsNote), "%s's note %q", name, r.Notes[0])
			}
			assert.Equal(t, c.legend, strings.Contains(st.Legend, commonPairsLegend), st.Legend)

			zero := b.grid(groups, []string{"rare"}, scoreOf(records.RuleZero)).scoreTable("z", "zero", true, nil)
			assert.NotContains(t, zero.Legend, commonPairsLegend, "the zero rule scores every pair: its plain rule stands")
		})
	}
}
