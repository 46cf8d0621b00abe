package records_test

import (
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slimRec is a tuned trial scored on men (tuned on) and simlex (not), with
// replicates of every score, a word map and neighbours.
func slimRec(id string, window int, men float64) records.Record {
	rec := tuneRec(id, "tail-cut", window, 0, "dot", map[string]float64{
		"spearman.zero.men@dev": men, "spearman.zero.rare@dev": men,
		"pearson.zero.men@dev": men, "pearson.cosine.skip.rare@test": men, "coverage.men": 0.9,
	})
	rec.Bootstrap = &records.Bootstrap{B: 2, Scores: map[string]string{}}
	for _, k := range []string{
		"spearman.zero.men", "spearman.zero.men@dev", "spearman.zero.men@test",
		"spearman.cosine.skip.rare@dev", "spearman.cosine.skip.rare@test",
		"spearman.zero.simlex", "spearman.zero.simlex@dev",
		"analogy.google",
	} {
		rec.Bootstrap.Scores[k] = "enc"
	}
	rec.WordsMap = &records.WordMap{Words: []string{"king"}}
	rec.Neighbours = []records.Neighbours{{Word: "king"}}
	rec.NeighboursOther = []records.Neighbours{{Word: "king"}}
	rec.SVD = &records.SVDAccuracy{S: []float64{0.9, 0.5, 0.2}, MaxResidual: 1e-9, Products: 40}
	return rec
}

func TestSlim(t *testing.T) {
	dot := func(records.Record) records.Similarity { return records.SimDot }
	recs := []records.Record{slimRec("a", 5, 0.2), slimRec("b", 10, 0.4), {ID: "x", Status: "ok", Settings: map[string]any{"label": "plain"}, Bootstrap: &records.Bootstrap{B: 2, Scores: map[string]string{"spearman.zero.men": "enc"}}}}
	cs := records.Choose(recs, dot)
	require.Equal(t, 1, cs[0].Chosen)

	cut, n := records.Slim(recs, cs)
	assert.Equal(t, 2, n)
	lost, chosen := cut[0], cut[1]
	assert.True(t, lost.SearchOnly)
	assert.Nil(t, lost.Bootstrap)
	assert.Nil(t, lost.WordsMap)
	assert.Nil(t, lost.Neighbours)
	assert.Nil(t, lost.NeighboursOther)
	assert.Equal(t, map[string]float64{"spearman.zero.men@dev": 0.2, "spearman.zero.rare@dev": 0.2, "coverage.men": 0.9}, lost.Metrics,
		"every Spearman ρ and coverage stays; Pearson r goes")
	assert.Len(t, recs[0].Metrics, 5, "the input's metrics are not modified")
	assert.Equal(t, recs[1].Metrics, chosen.Metrics, "the choice keeps every metric")
	assert.Equal(t, &records.SVDAccuracy{S: []float64{0.9}, K: 3, SK: 0.2, MaxResidual: 1e-9, Products: 40}, lost.SVD,
		"σ_1, σ_k, k and the residual stay; the spectrum goes")
	assert.Len(t, recs[0].SVD.S, 3)
	assert.Len(t, chosen.SVD.S, 3)

	assert.False(t, chosen.SearchOnly)
	assert.NotNil(t, chosen.WordsMap)
	var kept []string
	for k := range chosen.Bootstrap.Scores {
		kept = append(kept, k)
	}
	assert.ElementsMatch(t, []string{
		"spearman.zero.men@test", "spearman.cosine.skip.rare@test", // the tuned sets' test parts
		"spearman.zero.simlex", "spearman.zero.simlex@dev", // a set the choice never saw, whole and parts
		"analogy.google",
	}, kept)
	assert.Equal(t, recs[2], cut[2], "an untuned trial is left as it is")

	// Nothing modified in place; slimming again changes nothing.
	assert.Len(t, recs[1].Bootstrap.Scores, 8)
	assert.NotNil(t, recs[0].WordsMap)
	again, n := records.Slim(cut, records.Choose(cut, dot))
	assert.Zero(t, n)
	assert.Equal(t, cut, again)
	assert.Empty(t, records.NeedsFull(cut, records.Choose(cut, dot)))

	// A group whose choice is not final (a candidate did not finish) is
	// left whole.
	failed := []records.Record{slimRec("a", 5, 0.2), slimRec("b", 10, 0.4)}
	failed[0].Status = "error"
	_, n = records.Slim(failed, records.Choose(failed, dot))
	assert.Zero(t, n)

	// The choice moves to a candidate cut to the search: it needs computing
	// again.
	cut[0].Metrics = map[string]float64{"spearman.zero.men@dev": 0.9, "spearman.zero.rare@dev": 0.9}
	assert.Equal(t, []string{"a"}, records.NeedsFull(cut, records.Choose(cut, dot)))
}
