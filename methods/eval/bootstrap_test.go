package eval

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/datasets/wordsim"
)

func TestResampleIndices(t *testing.T) {
	a := ResampleIndices("men", 50, 3)
	require.Len(t, a, 3)
	for _, idx := range a {
		require.Len(t, idx, 50)
		for _, i := range idx {
			assert.True(t, i >= 0 && i < 50)
		}
	}
	assert.Equal(t, a, ResampleIndices("men", 50, 3), "the same key and size give the same resamples")
	assert.NotEqual(t, a, ResampleIndices("rare", 50, 3))
	assert.NotEqual(t, a[0], a[1])
}

// The bootstrap spreads around the whole set's ρ, and a resample of every
// pair once is the whole set.
func TestBootstrap(t *testing.T) {
	set := &wordsim.Set{Name: "s"}
	var model []float64
	var covered []bool
	for i := 0; i < 100; i++ {
		set.Pairs = append(set.Pairs, wordsim.Pair{W1: "a", W2: "b", Score: float64(i)})
		model = append(model, float64(i)+20*math.Sin(float64(i)))
		covered = append(covered, i%10 != 0)
	}
	for _, rule := range Rules {
		whole, err := Correlate(set, model, covered, rule)
		require.NoError(t, err)
		identity := make([]int, 100)
		for i := range identity {
			identity[i] = i
		}
		got := Bootstrap(set, model, covered, rule, [][]int{identity})
		assert.InDelta(t, whole.Rho, got[0], 1e-12, "rule %s", rule)
		reps := Bootstrap(set, model, covered, rule, ResampleIndices("s", 100, Resamples))
		mean := 0.0
		for _, r := range reps {
			mean += r
		}
		mean /= float64(len(reps))
		assert.InDelta(t, whole.Rho, mean, 0.03, "rule %s: replicates centre on ρ", rule)
	}
	nan := Bootstrap(set, model, make([]bool, 100), Skip, [][]int{{1, 2}})
	assert.True(t, math.IsNaN(nan[0]), "no covered pair: undefined")
}
