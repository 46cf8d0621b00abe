package compare

import (
	"math"

	"kcalab/records"
)

// A word vector scores only the pairs whose two words it has; the rest of
// a set is scored 0 under the zero rule and dropped under the skip rule.
// So a verdict between two rows whose coverage of a set differs is not a
// comparison on the same pairs: under the zero rule the row that covers
// less is charged for pairs it cannot score, under the skip rule each row
// is scored on its own share of the set. CoverageGap is where a headline
// starts to say so: coverages further apart than 5 percentage points (as
// printed, to 0.1 point), well above the spread of coverage between
// vocabularies of one corpus (a few pairs of a set), well below the gaps
// that decide verdicts (Rare: 20% against 100%).
const CoverageGap = 0.05

// CoverageCheck is what two rows' coverage of a set says of a verdict
// between them there (a against b, under one rule): both coverages, whether
// they differ by more than CoverageGap, and the verdict between the same
// rows under the other rule (NotTested when either lacks it).
type CoverageCheck struct {
	CovA, CovB float64
	Differs    bool
	Other      Verdict
}

// CheckCoverage tests a verdict's coverage: covA and covB are the rows'
// shares of the set's pairs (NaN: not recorded, never differs), otherA
// and otherB their scores under the other rule, compared as Compare does.
func CheckCoverage(covA, covB float64, otherA, otherB Estimate, digits int) CoverageCheck {
	c := CoverageCheck{CovA: covA, CovB: covB, Other: Compare(otherA, otherB, digits)}
	// Compared as printed (0.1 point), so "5.0 points apart" never counts
	// as more than 5 by a rounding error.
	c.Differs = finite(covA) && finite(covB) && math.Round(math.Abs(covA-covB)*1000) > math.Round(CoverageGap*1000)
	return c
}

// Side is what a row holds on one set for a comparison on common pairs:
// its score on the pairs it covers (skip rule) and how many it covers,
// and, for a row that covers pairs outside its corpus vocabulary
// (records.RuleVocab: fastText's n-gram vectors, subword rows), its score
// on the vocabulary's pairs and how many those are (VocabPairs 0: none
// recorded).
type Side struct {
	Skip       Estimate
	Covered    int
	Vocab      Estimate
	VocabPairs int
}

// CommonPairs returns two rows' scores on the pairs both cover, and how
// many pairs that is; ok is false when their records do not hold such
// scores. The rows must share one corpus vocabulary (the caller checks),
// so the pairs each covers are nested: a row without vectors for unseen
// words covers the pairs of its vocabulary words it has vectors for, a
// row with them covers those and more. Two rows covering as many pairs
// cover the same ones; a row that covers more is scored on the
// vocabulary's pairs when those are as many as the other row covers.
// Either way both scores come from the same resamples of the same pairs,
// so Compare's paired test applies.
func CommonPairs(a, b Side) (ea, eb Estimate, n int, ok bool) {
	ra, rb, n, ok := CommonRules(a, b)
	if !ok {
		return Estimate{Value: math.NaN()}, Estimate{Value: math.NaN()}, 0, false
	}
	return a.scoreUnder(ra), b.scoreUnder(rb), n, true
}

// CommonRules is CommonPairs's choice: under which rule each row is scored
// on the pairs both cover (records.RuleSkip, or records.RuleVocab for the
// row that covers more), so a caller can read the same scores by key from
// each of a row's seeds.
func CommonRules(a, b Side) (ra, rb records.Rule, n int, ok bool) {
	switch {
	case a.Covered == b.Covered:
		return records.RuleSkip, records.RuleSkip, a.Covered, a.Covered > 0
	case a.VocabPairs > 0 && a.VocabPairs == b.Covered && b.Covered < a.Covered:
		return records.RuleVocab, records.RuleSkip, b.Covered, finite(a.Vocab.Value)
	case b.VocabPairs > 0 && b.VocabPairs == a.Covered && a.Covered < b.Covered:
		return records.RuleSkip, records.RuleVocab, a.Covered, finite(b.Vocab.Value)
	}
	return "", "", 0, false
}

// scoreUnder is the side's score under rule r (RuleSkip or RuleVocab).
func (s Side) scoreUnder(r records.Rule) Estimate {
	if r == records.RuleVocab {
		return s.Vocab
	}
	return s.Skip
}
