package compare

import (
	"cmp"
	"math"
	"slices"

	"kcalab/records"
)

// Verdicts counted over a family (a row against another on each of six
// sets) are adjusted for the family's size: six separate 95% tests of
// null differences come up with a "significant" one about one time in
// four. Holm's step-down (Holm 1979) keeps the chance of any false claim
// in the family at 5% without assuming the tests independent, and rejects
// at least what Bonferroni does.

// Holm returns the Holm-adjusted p-values of a family, in its order: with
// the m tested p-values sorted, p_(1) ≤ … ≤ p_(m), the adjusted p_(i) is
// max over j ≤ i of min(1, (m − j + 1)·p_(j)); a difference is claimed at
// level α when its adjusted p-value is below α. A NaN (a comparison that
// could not be tested) is no member of the family and stays NaN.
func Holm(ps []float64) []float64 {
	out := make([]float64, len(ps))
	var idx []int
	for i, p := range ps {
		out[i] = math.NaN()
		if !math.IsNaN(p) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(ps[a], ps[b]) })
	m := len(idx)
	running := 0.0
	for j, i := range idx {
		running = max(running, min(1, float64(m-j)*ps[i]))
		out[i] = running
	}
	return out
}

// HolmVerdicts are the verdicts of a against b on each member of a family
// after Holm's adjustment: Above or Below only where the adjusted p-value
// is below 5% (the sign of the difference), else Tie; NotTested where
// the pair cannot be tested. It also returns the unadjusted p-values and
// the adjusted ones.
func HolmVerdicts(a, b []Estimate) (vs []Verdict, p, adj []float64) {
	p = make([]float64, len(a))
	for i := range a {
		p[i] = PValue(a[i], b[i])
	}
	adj = Holm(p)
	vs = make([]Verdict, len(a))
	for i := range a {
		switch {
		case math.IsNaN(adj[i]):
			vs[i] = NotTested
		case adj[i] < alpha95 && a[i].Value > b[i].Value:
			vs[i] = Above
		case adj[i] < alpha95 && a[i].Value < b[i].Value:
			vs[i] = Below
		default:
			vs[i] = Tie
		}
	}
	return vs, p, adj
}

// FamilyVerdicts are Compare's verdicts of a[i] against b[i] over a family
// (one comparison per set of a headline), adjusted by Holm's step-down: a
// difference counts only when its adjusted p-value is below 5%. Pairs
// equal as printed with digits decimals tie, and take no part in the
// family's size only when they cannot be tested.
func FamilyVerdicts(a, b []Estimate, digits int) []Verdict {
	vs, _, _ := HolmVerdicts(a, b)
	for i := range vs {
		switch {
		case !finite(a[i].Value) || !finite(b[i].Value):
			vs[i] = NotTested
		case roundTo(a[i].Value, digits) == roundTo(b[i].Value, digits):
			vs[i] = Tie
		}
	}
	return vs
}

// Pooled is the row's mean score over several sets (one key each, e.g.
// the test parts of six sets) as one estimate, for a verdict across the
// sets: its value the mean of the keys' values; its replicates, per
// resample b, the mean of the sets' replicate b (each set's resamples
// draw its own pairs, so this resamples pairs within each set, as a
// stratified bootstrap does, and stays paired with every row scored on
// the same resamples); for a mean over seeds, its seed variance from the
// seeds' own means over the sets (SeedEstimate), so a seed that does well
// on every set counts once, not six times. Not tested (NaN value) when a
// seed lacks a key, or no replicates when one lacks them.
func (r Row) Pooled(keys []string) Estimate {
	members := r.Members
	if len(members) == 0 {
		members = []records.Record{r.Record}
	}
	if len(keys) == 0 {
		return Estimate{Value: math.NaN()}
	}
	vals := make([]float64, len(members))
	seeds := make([]uint64, len(members))
	lists := make([][]float64, len(members))
	for s, m := range members {
		seeds[s] = m.Seed
		var sum float64
		var reps []float64
		for _, k := range keys {
			v, ok := m.Metrics[k]
			if !ok || math.IsNaN(v) {
				return Estimate{Value: math.NaN()}
			}
			sum += v
			rk := replicatesOf(m, k)
			switch {
			case rk == nil || (reps != nil && len(rk) != len(reps)):
				reps = []float64{} // one set lacks replicates: the pool is not tested
			case reps == nil:
				reps = slices.Clone(rk)
			case len(reps) > 0:
				for b := range reps {
					reps[b] += rk[b]
				}
			}
		}
		vals[s] = sum / float64(len(keys))
		if len(reps) > 0 {
			for b := range reps {
				reps[b] /= float64(len(keys))
			}
			lists[s] = reps
		}
	}
	return SeedEstimate(vals, lists).withDraws(seeds, vals)
}
