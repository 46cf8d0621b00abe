package records_test

import (
	"math"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func tuneRec(id, label string, window, rep int, sim string, dev map[string]float64) records.Record {
	s := map[string]any{"label": label, "method": "kca", "data.window": float64(window), "eval.similarity": sim,
		"tune.axes": []any{"data.window"}, "tune.on": []any{"men", "rare"}, "tune.rule": "mean",
		"tuned_on": []any{"men@dev", "rare@dev"}}
	if rep > 0 {
		s["replicate"] = float64(rep)
	}
	m := map[string]float64{}
	for k, v := range dev {
		m[k] = v
	}
	return records.Record{ID: id, Status: "ok", Settings: s, Metrics: m}
}

func TestChoose(t *testing.T) {
	dot := func(records.Record) records.Similarity { return records.SimDot }
	recs := []records.Record{
		// Scored at cosine by their eval.similarity: their dot scores, the
		// method's own, carry the similarity's name.
		tuneRec("a", "tail-cut", 5, 0, "cosine", map[string]float64{"spearman.dot.zero.men@dev": 0.40, "spearman.dot.zero.rare@dev": 0.10, "spearman.zero.men@test": 0.9}),
		tuneRec("b", "tail-cut", 10, 0, "cosine", map[string]float64{"spearman.dot.zero.men@dev": 0.45, "spearman.dot.zero.rare@dev": 0.20}),
		tuneRec("c", "tail-cut", 24, 0, "cosine", map[string]float64{"spearman.dot.zero.men@dev": 0.45, "spearman.dot.zero.rare@dev": 0.20, "spearman.zero.men@dev": 0.99, "spearman.zero.rare@dev": 0.99}),
		// Another label: its own group; replicates averaged before the rule.
		tuneRec("d", "SGNS", 5, 0, "dot", map[string]float64{"spearman.zero.men@dev": 0.50, "spearman.zero.rare@dev": 0.50}),
		tuneRec("d1", "SGNS", 5, 1, "dot", map[string]float64{"spearman.zero.men@dev": 0.10, "spearman.zero.rare@dev": 0.10}),
		tuneRec("e", "SGNS", 10, 0, "dot", map[string]float64{"spearman.zero.men@dev": 0.35, "spearman.zero.rare@dev": 0.35}),
		tuneRec("e1", "SGNS", 10, 1, "dot", map[string]float64{"spearman.zero.men@dev": 0.35}),
		{ID: "x", Status: "ok", Settings: map[string]any{"label": "plain"}},
	}
	cs := records.Choose(recs, dot)
	require.Len(t, cs, 2)

	tc := cs[0]
	assert.Equal(t, "tail-cut", tc.Label)
	assert.Equal(t, []string{"data.window"}, tc.Axes)
	assert.Equal(t, []string{"men", "rare"}, tc.On)
	require.Len(t, tc.Candidates, 3)
	assert.InDelta(t, 0.25, tc.Candidates[0].Score, 1e-12)
	assert.InDelta(t, 0.325, tc.Candidates[1].Score, 1e-12)
	assert.InDelta(t, 0.325, tc.Candidates[2].Score, 1e-12, "read at dot, the method's own, not at the trial's cosine")
	assert.Equal(t, 1, tc.Chosen, "a tie goes to the first in grid order")
	assert.Equal(t, []string{"b"}, tc.ChosenIDs())

	sg := cs[1]
	require.Len(t, sg.Candidates, 2)
	assert.Equal(t, []string{"d", "d1"}, sg.Candidates[0].IDs)
	assert.InDelta(t, 0.30, sg.Candidates[0].Score, 1e-12, "the mean over its seeds")
	assert.True(t, math.IsNaN(sg.Candidates[1].Score), "a replicate without a dev score")
	assert.Contains(t, sg.Candidates[1].Why, "no dot score on rare's dev part")
	assert.Equal(t, 0, sg.Chosen)
	assert.Empty(t, sg.Why())
	none := records.Choose(recs[6:7], dot)
	require.Len(t, none, 1)
	assert.Equal(t, -1, none[0].Chosen)
	assert.Contains(t, none[0].Why(), "no dot score on rare's dev part")

	// A candidate that did not finish cannot be chosen.
	recs[1].Status = "error"
	cs = records.Choose(recs, dot)
	assert.Equal(t, 2, cs[0].Chosen)
	assert.Contains(t, cs[0].Candidates[1].Why, "did not finish")
}
