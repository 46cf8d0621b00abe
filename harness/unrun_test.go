package harness_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/harness"
	"kcalab/records"
	"kcalab/schema"
)

// Unrun names the grid's trials a finished run would hold and the records
// lack: none after a finished run (successive halving's trials not promoted
// are not missing), the trial whose record is gone, and, before a rung has
// run, every trial that waits on it.
func TestUnrun(t *testing.T) {
	spec := `
name: unrun
seed: 5
data: {source: synthetic, table: flat, window: [1, 2, 4]}
synthetic: {tokens: 20000, noise: 0.6, words: 40}
eval: {sets: [synthetic], parts: true}
method: lca
svd: {rank: [3, 5, 8]}
replicates: 2
tune: {axes: [svd.rank, data.window], halving: data.window}
`
	out := t.TempDir()
	s := loadSpecTo(t, writeSpec(t, spec), out)
	res, err := (&harness.Runner{Jobs: 2}).Run(context.Background(), s)
	require.NoError(t, err)
	require.Len(t, res.Records, 6)
	trials := s.Trials()
	ids := func(ts []schema.Trial) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.ID)
		}
		return out
	}
	without := func(i int) []records.Record {
		recs := append([]records.Record(nil), res.Records[:i]...)
		return append(recs, res.Records[i+1:]...)
	}
	last := len(res.Records) - 1 // the chosen design's second seed, run last
	for _, tc := range []struct {
		name string
		recs []records.Record
		want func([]schema.Trial)
	}{
		{"finished", res.Records, func(got []schema.Trial) { assert.Empty(t, got) }},
		{"last seed missing", without(last), func(got []schema.Trial) {
			assert.Equal(t, []string{res.Records[last].ID}, ids(got))
		}},
		{"a rung-0 trial missing", without(0), func(got []schema.Trial) {
			assert.Contains(t, ids(got), res.Records[0].ID)
			assert.Greater(t, len(got), 1, "the rungs above wait on it")
		}},
		{"nothing run", nil, func(got []schema.Trial) { assert.Len(t, got, len(trials), "every trial runs or waits") }},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.want(harness.Unrun(trials, tc.recs)) })
	}
}
