package compare

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"kcalab/records"
)

func TestCheckCoverage(t *testing.T) {
	reps := func(v float64) []float64 {
		out := make([]float64, 50)
		for b := range out {
			out[b] = v + 0.01*float64(b%5-2)
		}
		return out
	}
	hi, lo := Estimate{Value: 0.6, Reps: reps(0.6)}, Estimate{Value: 0.3, Reps: reps(0.3)}
	cases := []struct {
		name       string
		covA, covB float64
		a, b       Estimate
		differs    bool
		other      Verdict
	}{
		{"equal coverage", 0.412, 0.412, hi, lo, false, Above},
		{"5 points apart: not more than the gap", 0.95, 1, hi, lo, false, Above},
		{"5.1 points apart", 0.949, 1, lo, hi, true, Below},
		{"Rare: 20.2% against 100%", 0.202, 1, hi, hi, true, Tie},
		{"coverage not recorded", math.NaN(), 1, hi, lo, false, Above},
		{"no score under the other rule", 0.2, 1, Estimate{Value: math.NaN()}, lo, true, NotTested},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := CheckCoverage(c.covA, c.covB, c.a, c.b, 3)
			assert.Equal(t, c.differs, got.Differs)
			assert.Equal(t, c.other, got.Other)
		})
	}
}

func TestCommonPairs(t *testing.T) {
	est := func(v float64) Estimate { return Estimate{Value: v, Reps: []float64{v, v}} }
	none := Estimate{Value: math.NaN()}
	tailcut := Side{Skip: est(0.6), Covered: 2175}
	fasttext := Side{Skip: est(0.7), Covered: 3000, Vocab: est(0.65), VocabPairs: 2175}
	cases := []struct {
		name   string
		a, b   Side
		ea, eb float64
		n      int
		ok     bool
		ra, rb records.Rule // the rule each side is read under, when ok
	}{
		{"the same coverage: each row's own pairs", tailcut, Side{Skip: est(0.5), Covered: 2175}, 0.6, 0.5, 2175, true, records.RuleSkip, records.RuleSkip},
		{"the wider row at its vocabulary's pairs", tailcut, fasttext, 0.6, 0.65, 2175, true, records.RuleSkip, records.RuleVocab},
		{"either side", fasttext, tailcut, 0.65, 0.6, 2175, true, records.RuleVocab, records.RuleSkip},
		{"two rows with vectors for unseen words, both at 100%", fasttext, Side{Skip: est(0.68), Covered: 3000, Vocab: est(0.6), VocabPairs: 2175}, 0.7, 0.68, 3000, true, records.RuleSkip, records.RuleSkip},
		{"no vocabulary score recorded (an older record)", tailcut, Side{Skip: est(0.7), Covered: 3000}, math.NaN(), math.NaN(), 0, false, "", ""},
		{"a vocabulary of another size", Side{Skip: est(0.6), Covered: 2100}, fasttext, math.NaN(), math.NaN(), 0, false, "", ""},
		{"a vocabulary score without a value", tailcut, Side{Skip: est(0.7), Covered: 3000, Vocab: none, VocabPairs: 2175}, math.NaN(), 0.6, 2175, false, "", ""},
		{"nothing covered", Side{Skip: none}, Side{Skip: none}, math.NaN(), math.NaN(), 0, false, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ea, eb, n, ok := CommonPairs(c.a, c.b)
			assert.Equal(t, c.ok, ok)
			ra, rb, rn, rok := CommonRules(c.a, c.b)
			assert.Equal(t, c.ok, rok, "CommonRules agrees with CommonPairs")
			if !ok {
				return
			}
			assert.Equal(t, c.ra, ra)
			assert.Equal(t, c.rb, rb)
			assert.Equal(t, c.n, rn)
			assert.Equal(t, c.ea, ea.Value)
			assert.Equal(t, c.eb, eb.Value)
			assert.Equal(t, c.n, n)
		})
	}
}
