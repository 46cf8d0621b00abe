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
		// Drawn with the same seeds, paired by seed: never narrower either.
		seeds := make([]uint64, n)
		for s := range seeds {
			seeds[s] = uint64(100 + s)
		}
		vc, lc := mk(n)
		qa, qc := ea.withDraws(seeds, va), SeedEstimate(vc, lc).withDraws(seeds, vc)
		pc := Estimate{Value: qc.Value, Reps: qc.Reps}
		_, lo, hi, ok = Diff(qa, qc)
		require.True(t, ok)
		_, plo, phi, _ = Diff(pa, pc)
		require.LessOrEqual(t, lo, plo+1e-15, "iteration %d: paired difference, low end", it)
		require.GreaterOrEqual(t, hi, phi-1e-15, "iteration %d: paired difference, high end", it)
		require.GreaterOrEqual(t, PValue(qa, qc), PValue(pa, pc)*(1-1e-9), "iteration %d: paired p-value", it)
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

// Two means drawn with the same seeds share their training (a retrofitted
// design and its plain twin), so their difference is paired by seed: its
// seeds' part is the variance of the per-seed differences over n, on n − 1
// degrees of freedom; a difference the same for every seed adds nothing to
// the pairs' interval, and a difference of 0 for every seed and resample
// (pairs retrofitting never moves) is 0 with an interval of width 0. Means
// over other seeds stay independent draws whose variances add.
func TestDiffPairedBySeed(t *testing.T) {
	reps := []float64{0.40, 0.42, 0.38, 0.41}
	shifted := func(d float64) []float64 {
		out := make([]float64, len(reps))
		for i, r := range reps {
			out[i] = r + d
		}
		return out
	}
	seeds := []uint64{11, 12, 13}
	other := []uint64{21, 22, 23}
	est := func(seeds []uint64, vals []float64, reps []float64) Estimate {
		lists := make([][]float64, len(vals))
		for i := range lists {
			lists[i] = reps
		}
		return SeedEstimate(vals, lists).withDraws(seeds, vals)
	}
	base := []float64{0.30, 0.40, 0.50} // seeds that scatter
	z := 1.96
	sdPairs := records.StdDev([]float64{0, 0, 0, 0})
	for _, c := range []struct {
		name    string
		a, b    Estimate
		seedVar float64
		df      int
		width   float64 // the interval's half-width; NaN: not checked
	}{
		{"the same vectors: 0 with no width", est(seeds, base, reps), est(seeds, base, reps), 0, 2, 0},
		{"a shift every seed shares: the pairs alone", est(seeds, []float64{0.31, 0.41, 0.51}, shifted(0.01)), est(seeds, base, reps), 0, 2, z * sdPairs},
		{"per-seed differences scatter", est(seeds, []float64{0.31, 0.43, 0.52}, shifted(0.02)), est(seeds, base, reps),
			0.0001 / 3, 2, math.Sqrt(4.302652729911275 * 4.302652729911275 * 0.0001 / 3)},
		{"other seeds: independent, variances add", est(other, []float64{0.31, 0.41, 0.51}, shifted(0.01)), est(seeds, base, reps),
			2 * 0.01 / 3, 4, math.NaN()},
		{"seeds in another order pair alike", est([]uint64{13, 11, 12}, []float64{0.52, 0.31, 0.43}, shifted(0.02)), est(seeds, base, reps),
			0.0001 / 3, 2, math.NaN()},
	} {
		t.Run(c.name, func(t *testing.T) {
			sd, seedVar, df, ok := diffParts(c.a, c.b)
			require.True(t, ok)
			assert.InDelta(t, c.seedVar, seedVar, 1e-12)
			assert.Equal(t, c.df, df)
			d, lo, hi, ok := Diff(c.a, c.b)
			require.True(t, ok)
			assert.InDelta(t, c.a.Value-c.b.Value, d, 1e-15)
			if !math.IsNaN(c.width) {
				assert.InDelta(t, c.width, (hi-lo)/2, 1e-9)
			}
			// Never narrower than the pairs alone.
			assert.GreaterOrEqual(t, (hi-lo)/2, z*sd-1e-15)
			g := Sub(c.a, c.b)
			assert.InDelta(t, seedVar, g.SeedVar, 1e-15, "a gain keeps the difference's seed part")
			assert.Equal(t, df, g.SeedDF)
		})
	}

	// A gain paired by seed keeps its per-seed values: two gains over the
	// same twins pair again; against a gain with no seeds (a CA design),
	// its own seed part stands alone.
	a, b := est(seeds, []float64{0.31, 0.43, 0.52}, shifted(0.02)), est(seeds, base, reps)
	g := Sub(a, b)
	require.Len(t, g.Draws, 3)
	for s, want := range map[uint64]float64{11: 0.01, 12: 0.03, 13: 0.02} {
		assert.InDelta(t, want, g.Draws[s], 1e-15, "seed %d", s)
	}
	ca := Sub(Estimate{Value: 0.5, Reps: shifted(0.1)}, Estimate{Value: 0.49, Reps: shifted(0.09)})
	_, seedVar, df, ok := diffParts(g, ca)
	require.True(t, ok)
	assert.InDelta(t, 0.0001/3, seedVar, 1e-12)
	assert.Equal(t, 2, df)

	// withDraws leaves a mean of fewer than two seeds, or one with a seed
	// given twice, unpaired.
	assert.Nil(t, Estimate{}.withDraws([]uint64{1}, []float64{0.3}).Draws)
	assert.Nil(t, Estimate{}.withDraws([]uint64{1, 1}, []float64{0.3, 0.4}).Draws)
	assert.Nil(t, Estimate{}.withDraws([]uint64{1, 2}, []float64{0.3}).Draws)
}
