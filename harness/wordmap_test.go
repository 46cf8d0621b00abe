package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/methods/vectors"
	"kcalab/records"
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

// A trial records its probes' neighbours by its own similarity and by the
// other: a long rare vector is the dot product's nearest word, not the
// cosine's.
func TestWordViewsBothSimilarities(t *testing.T) {
	words := []string{"king", "queen", "agis", "war"}
	m := mat.NewDense(4, 2, []float64{
		1, 0,
		0.9, 0.1,
		5, 4, // rare, long: the largest dot product with anything
		0, 1,
	})
	vs, err := vectors.New(words, m)
	require.NoError(t, err)
	tr := &TrialRun{Record: &records.Record{}}
	tr.Trial.Method = "sgns"
	tr.Trial.Eval.Probes = []string{"king"}
	require.NoError(t, tr.recordWordViews(vs, vectors.Dot))
	require.Len(t, tr.Record.Neighbours, 1)
	require.Len(t, tr.Record.NeighboursOther, 1)
	assert.Equal(t, "agis", tr.Record.Neighbours[0].Words[0], "by the dot product")
	assert.Equal(t, "queen", tr.Record.NeighboursOther[0].Words[0], "by cosine")

	tr = &TrialRun{Record: &records.Record{}}
	tr.Trial.Method = "sgns"
	tr.Trial.Eval.Probes = []string{"king"}
	require.NoError(t, tr.recordWordViews(vs, vectors.Cosine))
	assert.Equal(t, "queen", tr.Record.Neighbours[0].Words[0])
	assert.Equal(t, "agis", tr.Record.NeighboursOther[0].Words[0])
}
