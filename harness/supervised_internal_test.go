package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/datasets/wordsim"
	"kcalab/records"
	"kcalab/schema"
)

// devTrial is a trial run over sets a (scale 0–10) and b (scale 1–5) that
// share the word pair cat–dog, in another order and case.
func devTrial(t *testing.T, supervise []string, touched bool) *TrialRun {
	t.Helper()
	var a, b []wordsim.Pair
	words := []string{"cat", "dog", "car", "bus", "sun", "moon", "tea", "milk", "red", "blue", "tree", "leaf"}
	for i := range words {
		for j := i + 1; j < len(words); j++ {
			a = append(a, wordsim.Pair{W1: words[i], W2: words[j], Score: float64((i*7 + j*3) % 11)})
		}
	}
	b = append(b, wordsim.Pair{W1: "DOG", W2: "Cat", Score: 5}, wordsim.Pair{W1: "sun", W2: "star", Score: 1}, wordsim.Pair{W1: "sea", W2: "sky", Score: 3})
	tr := &TrialRun{Spec: &schema.Spec{}, Trial: schema.Trial{Settings: schema.Settings{
		Eval: schema.EvalSettings{Parts: true, Supervise: supervise, Touched: touched}}}}
	tr.Spec.Seed = 9
	tr.sets = []NamedSet{{Key: "a", Set: &wordsim.Set{Name: "a", Pairs: a}}, {Key: "b", Set: &wordsim.Set{Name: "b", Pairs: b}}}
	return tr
}

func TestDevPairs(t *testing.T) {
	tr := devTrial(t, nil, true)
	d, err := tr.DevPairs(3)
	require.NoError(t, err)
	require.NotEmpty(t, d.Pairs)
	perSet := map[string][2]float64{}
	for _, p := range d.Pairs {
		assert.Equal(t, wordsim.PartDev, wordsim.PartOf(p.W1, p.W2), "%s–%s", p.W1, p.W2)
		assert.Equal(t, DevFold(9, 3, p.W1, p.W2), p.Fold)
		assert.Equal(t, p.Fold, DevFold(9, 3, p.W2, p.W1), "either order")
		r := perSet[p.Set]
		if _, ok := perSet[p.Set]; !ok {
			r = [2]float64{p.S, p.S}
		}
		perSet[p.Set] = [2]float64{min(r[0], p.S), max(r[1], p.S)}
		assert.True(t, d.Holds(p.W2, p.W1))
		assert.True(t, d.Touches(p.W1))
	}
	// Each set's dev scores are scaled by their own range.
	if r, ok := perSet["a"]; assert.True(t, ok) {
		assert.Equal(t, [2]float64{0, 1}, r)
	}
	// Fold f's model learns from every dev pair but fold f's; the final
	// model from all of them.
	for f := range 3 {
		for _, p := range d.Train(f) {
			assert.NotEqual(t, f, p.Fold)
		}
	}
	assert.Len(t, d.Train(-1), len(d.Pairs))
	// No test pair is a dev pair.
	for _, s := range tr.sets {
		for _, p := range s.Set.Pairs {
			if wordsim.PartOf(p.W1, p.W2) == wordsim.PartTest {
				assert.False(t, d.Holds(p.W1, p.W2))
			}
		}
	}

	// eval.supervise: only a's dev pairs are learned from.
	onlyA, err := devTrial(t, []string{"a"}, false).DevPairs(3)
	require.NoError(t, err)
	for _, p := range onlyA.Pairs {
		assert.Equal(t, "a", p.Set)
	}

	// Without eval.parts there are no dev pairs to learn from.
	tr.Trial.Eval.Parts = false
	_, err = tr.DevPairs(3)
	assert.Error(t, err)
}

// A set is scored under its whole key, its parts and, with eval.touched,
// its test part's touched and untouched pairs, which split the test part.
func TestScoredParts(t *testing.T) {
	tr := devTrial(t, nil, true)
	d, err := tr.DevPairs(1)
	require.NoError(t, err)
	parts := tr.parts(tr.sets[0], d)
	keys := map[string][]int{}
	for _, p := range parts {
		keys[p.key] = p.idx
	}
	require.Contains(t, keys, "a")
	assert.Len(t, keys["a"], len(tr.sets[0].Set.Pairs))
	test := keys[records.SetPart("a", records.PartTest)]
	assert.Equal(t, len(test), len(keys[records.SetPart("a", records.PartTestTouched)])+len(keys[records.SetPart("a", records.PartTestUntouched)]))
	assert.Equal(t, len(tr.sets[0].Set.Pairs), len(test)+len(keys[records.SetPart("a", records.PartDev)]))
	for _, i := range keys[records.SetPart("a", records.PartTestUntouched)] {
		p := tr.sets[0].Set.Pairs[i]
		assert.False(t, d.Touches(p.W1) || d.Touches(p.W2))
	}
	tr.Trial.Eval.Touched = false
	assert.Len(t, tr.parts(tr.sets[0], nil), 3, "whole, dev, test")
	tr.Trial.Eval.Parts = false
	assert.Len(t, tr.parts(tr.sets[0], nil), 1)
}
