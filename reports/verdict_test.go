package reports

import (
	"math"
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

// A scaling comparison's answer: ratios that run one way as a range of
// factors over the sizes, one factor when both ends agree, and the long
// form when the sense changes.
func TestScalingVerdictRanges(t *testing.T) {
	nan := math.NaN()
	pair := func(times ...float64) scalingPair {
		sp := scalingPair{a: "krylov", b: "dssvd", backB: "dssvd", paperPosition: -1}
		for k, r := range times {
			sp.sizes = append(sp.sizes, pairAt{x: []float64{998, 3304, 14569}[k], time: r, mem: nan})
		}
		return sp
	}
	cases := []struct {
		name string
		sp   scalingPair
		want string
	}{
		{"faster and faster", pair(1/1.3, 1/16.8, 1/682.0), "1.3–682× faster, V = 998–14,569"},
		{"the same factor", pair(1.2, 1.2), "1.2× slower, V = 998–3,304"},
		{"the sense changes", pair(1.27, 1/9.75), "1.27× slower at V = 998 to 9.75× faster at 3,304"},
		{"one size", pair(nan, 1/16.8), "16.8× faster at V = 3,304"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.sp.rankA = 1
			v := scalingVerdict([]scalingPair{c.sp}, nil, scalingAxis{allV: true})
			require.Len(t, v.Claims, 1)
			assert.Equal(t, c.want, v.Claims[0].Answer)
		})
	}
}
