package compare

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/records"
)

// pairNoise is B replicates of a score centre + a shared pair effect: the
// same resample b moves every trial's score alike (what pairing cancels)
// plus a small trial-own jitter.
func pairNoise(centre float64, shared []float64, jitter float64, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]float64, len(shared))
	for b, s := range shared {
		out[b] = centre + s + jitter*r.NormFloat64()
	}
	return out
}

func sharedEffects(n int, sd float64) []float64 {
	r := rand.New(rand.NewPCG(7, 7))
	out := make([]float64, n)
	for b := range out {
		out[b] = sd * r.NormFloat64()
	}
	return out
}

// SeedEstimate: the value is the seeds' mean, the replicates the
// per-resample means (the pairs' noise of the mean), the seed variance the
// variance of the mean over the seeds (s²/n on n − 1 degrees of freedom);
// one seed is the trial's own estimate; a seed without replicates leaves
// the mean untested.
func TestSeedEstimate(t *testing.T) {
	shared := sharedEffects(200, 0.02)
	a, b, c := pairNoise(0.50, shared, 0.002, 1), pairNoise(0.56, shared, 0.002, 2), pairNoise(0.62, shared, 0.002, 3)
	e := SeedEstimate([]float64{0.50, 0.56, 0.62}, [][]float64{a, b, c})
	assert.InDelta(t, 0.56, e.Value, 1e-12)
	assert.Equal(t, MeanReplicates([][]float64{a, b, c}), e.Reps)
	assert.InDelta(t, 0.06*0.06/3, e.SeedVar, 1e-12, "sample SD of the three seeds is 0.06")
	assert.Equal(t, 2, e.SeedDF)
	// With 3 seeds the seed part is t_{2, .975}·s/√3 = 4.303·0.0346.
	pairs := 1.96 * records.StdDev(e.Reps)
	assert.InDelta(t, math.Hypot(pairs, 4.302652729911275*0.06/math.Sqrt(3)), e.HalfWidth(), 1e-9)

	one := SeedEstimate([]float64{0.5}, [][]float64{a})
	assert.Equal(t, Estimate{Value: 0.5, Reps: a}, one, "one trial: its own estimate")
	assert.Nil(t, SeedEstimate([]float64{0.5, 0.6}, [][]float64{a, nil}).Reps, "a seed without replicates: not tested")
	same := SeedEstimate([]float64{0.5, 0.5}, [][]float64{a, a})
	assert.Zero(t, same.SeedVar, "identical seeds add no spread")
	assert.InDelta(t, 1.96*records.StdDev(a), same.HalfWidth(), 1e-12)
}

// The interval of a mean over seeds is never narrower than its pairs-only
// interval, whatever the seeds and pairs (a property over random data):
// one estimate's, and a difference's against another row with or without
// seeds; and its p-value is never below the pairs-only one.
func TestSeedIntervalNeverNarrower(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 11))
	for it := range 500 {
		B := 20 + r.IntN(300)
		n := 1 + r.IntN(6)
		sharedSD := 0.001 + 0.05*r.Float64()
		shared := make([]float64, B)
		for i := range shared {
			shared[i] = sharedSD * r.NormFloat64()
		}
		mk := func(k int) ([]float64, [][]float64) {
			vals := make([]float64, k)
			lists := make([][]float64, k)
			centre := 0.3 + 0.3*r.Float64()
			spread := 0.05 * r.Float64()
			for s := range k {
				vals[s] = centre + spread*r.NormFloat64()
				lists[s] = make([]float64, B)
				jitter := 0.02 * r.Float64()
				for i := range lists[s] {
					lists[s][i] = vals[s] + shared[i] + jitter*r.NormFloat64()
				}
			}
			return vals, lists
		}
		va, la := mk(n)
		vb, lb := mk(1 + r.IntN(6))
		ea, eb := SeedEstimate(va, la), SeedEstimate(vb, lb)
		pa := Estimate{Value: ea.Value, Reps: ea.Reps}
		pb := Estimate{Value: eb.Value, Reps: eb.Reps}
		require.GreaterOrEqual(t, ea.HalfWidth(), pa.HalfWidth(), "iteration %d: one row", it)
		_, lo, hi, ok := Diff(ea, eb)
		require.True(t, ok)
		_, plo, phi, _ := Diff(pa, pb)
		require.LessOrEqual(t, lo, plo+1e-15, "iteration %d: difference, low end", it)
		require.GreaterOrEqual(t, hi, phi-1e-15, "iteration %d: difference, high end", it)
		require.GreaterOrEqual(t, PValue(ea, eb), PValue(pa, pb)*(1-1e-9), "iteration %d: p-value", it)
		// The verdict agrees with the p-value at 5% (but for the sliver
		// where z = 1.96 and z_{.975} = 1.95996 differ).
		if p := PValue(ea, eb); p < 0.0499 || p > 0.0501 {
			assert.Equal(t, p < 0.05, lo > 0 || hi < 0, "iteration %d: p %.4g, [%.4g, %.4g]", it, p, lo, hi)
		}
	}
}

// A trainer whose seeds scatter far more than the pair noise is compared
// by its mean over the seeds with an interval that holds their spread: a
// single trial between its seeds ties it, where averaging the replicates
// alone (pairs only) called the difference significant; seeds that agree
// keep a real difference significant.
func TestEstimateOverSeeds(t *testing.T) {
	const key = "spearman.zero.men"
	shared := sharedEffects(200, 0.02)
	trialRec := func(id string, v float64, jitter float64, seed uint64) records.Record {
		reps := pairNoise(v, shared, jitter, seed)
		return records.Record{ID: id, Status: "ok", Metrics: map[string]float64{key: v},
			Bootstrap: &records.Bootstrap{B: len(reps), Scores: map[string]string{key: records.EncodeReplicates(reps, v)}}}
	}
	seeded := func(vals ...float64) Row {
		var members []records.Record
		var mean float64
		for i, v := range vals {
			members = append(members, trialRec("s"+string(rune('a'+i)), v, 0.002, uint64(10+i)))
			mean += v / float64(len(vals))
		}
		rec := members[0]
		rec.Metrics = map[string]float64{key: mean}
		return Row{Trial: Trial{Record: rec}, Members: members}
	}
	single := Row{Trial: Trial{Record: trialRec("single", 0.53, 0.002, 99)}}

	for _, c := range []struct {
		name      string
		row       Row
		pairsOnly Verdict // what averaging the replicates alone says of the row against single
		want      Verdict
	}{
		{"seeds scatter: a tie", seeded(0.50, 0.62, 0.56), Above, Tie},
		{"seeds agree: still above", seeded(0.600, 0.602, 0.598), Above, Above},
		{"seeds agree below: still below", seeded(0.480, 0.482, 0.478), Below, Below},
	} {
		t.Run(c.name, func(t *testing.T) {
			var lists [][]float64
			for _, m := range c.row.Members {
				reps, ok := m.Bootstrap.Replicates(key, m.Metrics[key])
				require.True(t, ok)
				lists = append(lists, reps)
			}
			e := c.row.Estimate(key)
			require.True(t, e.Tested())
			s := single.Estimate(key)
			assert.Equal(t, c.pairsOnly, Compare(Estimate{Value: e.Value, Reps: MeanReplicates(lists)}, s, 3), "pairs only")
			assert.Equal(t, c.want, Compare(e, s, 3), "over the pairs and the seeds")
		})
	}
}
