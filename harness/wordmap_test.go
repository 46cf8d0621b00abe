package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/methods/vectors"
)

func TestWordViews(t *testing.T) {
	words := []string{"a", "b", "c", "d", unkWord}
	m := mat.NewDense(5, 2, []float64{
		1, 0,
		0.9, 0.1,
		0, 1,
		0.9, 0.1, // ties with b: the more frequent word (b) comes first
		5, 5,
	})
	vs, err := vectors.New(words, m)
	require.NoError(t, err)

	wm := wordMap(vs, 3)
	assert.Equal(t, []string{"a", "b", "c"}, wm.Words)
	assert.Equal(t, []float64{1, 0.9, 0}, wm.X)
	assert.Equal(t, []float64{0, 0.1, 1}, wm.Y)
	assert.Len(t, wordMap(vs, 10).Words, 4, "<unk> is not a word of the map")

	nb := nearest(vs, []string{"a", "zz"}, 2, vectors.DotSim)
	require.Len(t, nb, 2)
	assert.Equal(t, []string{"b", "d"}, nb[0].Words, "<unk> is never a neighbour; ties go to the more frequent word")
	assert.Equal(t, []float64{0.9, 0.9}, nb[0].Sims)
	assert.Equal(t, "zz", nb[1].Word)
	assert.Empty(t, nb[1].Words, "an out-of-vocabulary probe has no neighbours")

	assert.Equal(t, []string{"a", "b", "c", "d"}, probesFor(vs, []string{"zz"}), "no probe in the vocabulary: the most frequent words")
	assert.Equal(t, []string{"zz", "c"}, probesFor(vs, []string{"zz", "c"}))

	assert.Equal(t, 0.1235, round4(0.123456))
}
