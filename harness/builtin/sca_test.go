package builtin

import (
	"fmt"
	"kcalab/harness"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/datasets/wordsim"
	"kcalab/methods/sca"
)

// In folds mode no pair of any scored set may be scored by a model that
// was tuned on it (as an unordered word pair), including repeats of a
// tuning pair and pairs shared with other sets.
func TestSCAFoldsNeverScoreTuningPairs(t *testing.T) {
	var tune []wordsim.Pair
	for i := 0; i < 40; i++ {
		tune = append(tune, wordsim.Pair{W1: fmt.Sprintf("w%d", i%13), W2: fmt.Sprintf("v%d", i%7), Score: float64(i)})
	}
	tune = append(tune, wordsim.Pair{W1: "v3", W2: "w3", Score: 1}) // a repeat in the other order
	tuning := &wordsim.Set{Name: "tune", Pairs: tune}
	other := &wordsim.Set{Name: "other", Pairs: []wordsim.Pair{{W1: "w1", W2: "v1"}, {W1: "x", W2: "y"}, {W1: "v5", W2: "w5"}}}
	sets := []harness.NamedSet{{Key: "tune", Set: tuning}, {Key: "other", Set: other}}
	for _, seed := range []uint64{1, 2, 3} {
		folds, err := sca.Folds(len(tune), 5, seed)
		require.NoError(t, err)
		folds = mergeDuplicates(tuning, folds)
		// Still a partition.
		seen := map[int]bool{}
		for _, f := range folds {
			for _, i := range f {
				assert.False(t, seen[i])
				seen[i] = true
			}
		}
		assert.Len(t, seen, len(tune))
		route := routePairs(tuning, folds, sets, seed)
		ids := make([]sca.Pair, len(tune))
		for i := range tune {
			ids[i] = sca.Pair{A: i, B: i, Score: tune[i].Score} // index stands for the pair
		}
		for f := range folds {
			trained := map[[2]string]bool{}
			for _, p := range trainPairs(ids, folds, f) {
				trained[unordered(tune[p.A].W1, tune[p.A].W2)] = true
			}
			for s, ns := range sets {
				for i, p := range ns.Set.Pairs {
					if route[s][i] == f {
						assert.False(t, trained[unordered(p.W1, p.W2)],
							"seed %d fold %d scores %s–%s of %s, a pair it was tuned on", seed, f, p.W1, p.W2, ns.Key)
					}
				}
			}
		}
	}
}
