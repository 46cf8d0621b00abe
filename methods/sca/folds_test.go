package sca

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/datasets/wordsim"
)

// In folds mode no pair of any scored set may be scored by a model that
// was tuned on it (as an unordered word pair), including repeats of a
// tuning pair and pairs shared with other sets.
func TestFoldsNeverScoreTuningPairs(t *testing.T) {
	var tune []wordsim.Pair
	for i := 0; i < 40; i++ {
		tune = append(tune, wordsim.Pair{W1: fmt.Sprintf("w%d", i%13), W2: fmt.Sprintf("v%d", i%7), Score: float64(i)})
	}
	tune = append(tune, wordsim.Pair{W1: "v3", W2: "w3", Score: 1}) // a repeat in the other order
	other := []wordsim.Pair{{W1: "w1", W2: "v1"}, {W1: "x", W2: "y"}, {W1: "v5", W2: "w5"}}
	sets := [][]wordsim.Pair{tune, other}
	// Pairs as vocabulary ids: one id per distinct word.
	ids := map[string]int{}
	id := func(w string) int {
		if i, ok := ids[w]; ok {
			return i
		}
		ids[w] = len(ids)
		return ids[w]
	}
	pairs := make([]Pair, len(tune))
	for i, p := range tune {
		pairs[i] = Pair{A: id(p.W1), B: id(p.W2), Score: p.Score}
	}
	for _, seed := range []uint64{1, 2, 3} {
		folds, err := Folds(len(tune), 5, seed)
		require.NoError(t, err)
		folds = MergeRepeats(tune, folds)
		seen := map[int]bool{}
		for _, f := range folds {
			for _, i := range f {
				assert.False(t, seen[i], "still a partition")
				seen[i] = true
			}
		}
		assert.Len(t, seen, len(tune))
		route := Route(tune, folds, sets, seed)
		for f := range folds {
			trained := map[[2]int]bool{}
			for _, p := range TrainPairs(pairs, folds, f) {
				trained[unordered(p)] = true
			}
			for s, set := range sets {
				for i, p := range set {
					if route[s][i] != f {
						continue
					}
					a, okA := ids[p.W1]
					b, okB := ids[p.W2]
					if okA && okB {
						assert.False(t, trained[unordered(Pair{A: a, B: b})],
							"seed %d fold %d scores %s–%s of set %d, a pair it was tuned on", seed, f, p.W1, p.W2, s)
					}
				}
			}
		}
	}
}
