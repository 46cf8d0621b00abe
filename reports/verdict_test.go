package reports

import (
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// orderingClaim counts the paper's ordering set by set, as the headline
// does, and says how many of its verdicts coverage decides; a group of
// baselines alone is counted by its leading pair.
func TestOrderingClaim(t *testing.T) {
	trial := func(label, method string, menZero, rareZero, rareSkip, rareCov float64) records.Record {
		return records.Record{ID: label, Status: "ok", Settings: map[string]any{"label": label, "method": method, "svd.rank": 300.0},
			Metrics: map[string]float64{
				records.Score(records.RuleZero, "men").Key(): menZero, records.Score(records.RuleSkip, "men").Key(): menZero,
				records.Coverage("men").Key(): 1, records.Pairs("men").Key(): 3000,
				records.Score(records.RuleZero, "rare").Key(): rareZero, records.Score(records.RuleSkip, "rare").Key(): rareSkip,
				records.Coverage("rare").Key(): rareCov, records.Pairs("rare").Key(): 2034,
			}}
	}
	for _, c := range []struct {
		name string
		recs []records.Record
		want string
	}{
		{"a reversal coverage decides", []records.Record{trial("tail-cut KCA", "kca", 0.5, 0.05, 0.30, 0.202), trial("fastText (CLI)", "external", 0.5, 0.30, 0.30, 1)},
			"ordering: holds 0 · ties 1 · reversed 1 (1 by coverage)"},
		{"the ordering holds", []records.Record{trial("tail-cut KCA", "kca", 0.7, 0.4, 0.4, 1), trial("fastText (CLI)", "external", 0.5, 0.2, 0.2, 1)},
			"ordering: holds 2 · ties 0 · reversed 0"},
		{"baselines alone: the leading pair", []records.Record{trial("SGNS", "sgns", 0.5, 0.2, 0.2, 1), trial("fastText (CLI)", "external", 0.7, 0.2, 0.2, 1)},
			"fastText (CLI) against SGNS: above 1 · ties 1 · below 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newBuilder(Report{Methods: testMethods})
			recs := harnessLike(c.recs, 0.01)
			groups := b.groupByDim(b.project(recs).Rows(true))
			claim, ok := b.orderingClaim(b.grid(groups, []string{"men", "rare"}, scoreOf(records.RuleZero)), 0, records.RuleZero)
			require.True(t, ok)
			assert.Equal(t, c.want, claim.String())
		})
	}
}
