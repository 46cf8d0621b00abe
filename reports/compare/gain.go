package compare

// Sub is the estimate of a − b as one score, for comparing two gains (a
// supervised design over its base against another's over its own): its
// value the difference, its replicates the differences of the paired
// replicates (every row is scored on the same resamples of a set), and its
// seeds' part that of Diff (seedParts: paired by seed when both rows drew
// the same seeds, so the gain keeps its per-seed values; else both rows'
// variances on Welch–Satterthwaite's degrees of freedom). Diff of two
// such estimates is then the difference of two gains with its interval.
// Not tested (no replicates) when either is not, or their replicates do
// not pair.
func Sub(a, b Estimate) Estimate {
	out := Estimate{Value: a.Value - b.Value}
	if !a.Tested() || !b.Tested() || len(a.Reps) != len(b.Reps) {
		return out
	}
	out.Reps = make([]float64, len(a.Reps))
	for i := range out.Reps {
		out.Reps[i] = a.Reps[i] - b.Reps[i]
	}
	if d := pairedDraws(a, b); d != nil {
		out.Draws = d
		out.SeedVar, out.SeedDF = pairedVar(d)
		return out
	}
	out.SeedVar, out.SeedDF = welch(a.SeedVar, a.SeedDF, b.SeedVar, b.SeedDF)
	return out
}
