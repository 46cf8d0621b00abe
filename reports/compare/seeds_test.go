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

// The seed part of SeedReplicates: with no pair noise at all (every
// replicate of a seed equal to its score), the replicates' SD is the SD of
// the seeds' mean, s/√n; with identical seeds it adds nothing; one list is
// returned as it is; the draws depend on the salt alone.
func TestSeedReplicates(t *testing.T) {
	const B = 4000
	constant := func(v float64) []float64 {
		out := make([]float64, B)
		for b := range out {
			out[b] = v
		}
		return out
	}
	seeds := [][]float64{constant(0.50), constant(0.56), constant(0.62)}
	reps := SeedReplicates(seeds, "row")
	require.Len(t, reps, B)
	var m, ss float64
	for _, x := range reps {
		m += x
	}
	m /= B
	for _, x := range reps {
		ss += (x - m) * (x - m)
	}
	sd := math.Sqrt(ss / (B - 1))
	want := 0.06 / math.Sqrt(3) // sample SD of the three seeds is 0.06
	assert.InDelta(t, 0.56, m, 0.003, "centred on the seeds' mean")
	assert.InDelta(t, want, sd, 0.1*want, "the spread of a mean of 3 seeds")

	same := [][]float64{pairNoise(0.5, sharedEffects(200, 0.02), 0, 1), nil}
	same[1] = same[0]
	assert.Equal(t, MeanReplicates(same), SeedReplicates(same, "row"), "identical seeds add no spread")
	assert.Equal(t, same[0], SeedReplicates(same[:1], "row"), "one trial: its own replicates")
	assert.Nil(t, SeedReplicates([][]float64{same[0], nil}, "row"), "a seed without replicates: not tested")

	assert.Equal(t, SeedReplicates(seeds, "row"), SeedReplicates(seeds, "row"), "deterministic")
	assert.NotEqual(t, SeedReplicates(seeds, "row"), SeedReplicates(seeds, "other row"), "the salt draws")
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
