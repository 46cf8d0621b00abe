package eval

import (
	"hash/fnv"
	"math"
	"math/rand/v2"

	"kcalab/datasets/wordsim"
)

// Resamples is the number of bootstrap resamples of a set's pairs.
const Resamples = 200

// resampleStream fixes the second PCG word: the resamples of a set depend
// on its key and size alone.
const resampleStream = 0x6b63612d626f6f74 // "kca-boot"

// ResampleIndices draws b resamples of n pairs (indices drawn with
// replacement) for the set with the given key. They depend only on the key
// and n, never on a trial or a spec's seed, so every trial scored on the
// set is scored on the same resamples and two trials' replicates pair up.
func ResampleIndices(key string, n, b int) [][]int {
	h := fnv.New64a()
	h.Write([]byte(key))
	rng := rand.New(rand.NewPCG(h.Sum64()^uint64(n), resampleStream))
	out := make([][]int, b)
	for r := range out {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = rng.IntN(n)
		}
		out[r] = idx
	}
	return out
}

// Bootstrap is ρ of each resample: the pairs of set given by the indices,
// scored as Correlate scores the whole set (model[i] for a covered pair,
// the rule for the others). A resample on which ρ is undefined gives NaN.
func Bootstrap(set *wordsim.Set, model []float64, covered []bool, rule Rule, resamples [][]int) []float64 {
	out := make([]float64, len(resamples))
	human := make([]float64, 0, len(set.Pairs))
	kept := make([]float64, 0, len(set.Pairs))
	for r, idx := range resamples {
		human, kept = human[:0], kept[:0]
		for _, i := range idx {
			s := 0.0
			if covered[i] {
				s = model[i]
			} else if rule == Skip {
				continue
			}
			human = append(human, set.Pairs[i].Score)
			kept = append(kept, s)
		}
		rho, err := Spearman(human, kept)
		if err != nil {
			rho = math.NaN()
		}
		out[r] = rho
	}
	return out
}
