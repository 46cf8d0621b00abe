package compare

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/records"
)

// TestEstimates: a line's point is the Row its trials fold into, with that
// row's replicates; trials that do not fold into one row, or lack the
// metric, give no estimate.
func TestEstimates(t *testing.T) {
	const key = "spearman.zero.men"
	rec := func(w, rep, v float64, reps []float64, other string) records.Record {
		r := records.Record{Spec: "s", Status: "ok", Settings: map[string]any{"data.window": w, "replicate": rep, "data.table": other},
			Metrics: map[string]float64{key: v}}
		if reps != nil {
			r.Bootstrap = &records.Bootstrap{B: len(reps), Scores: map[string]string{key: records.EncodeReplicates(reps, v)}}
		}
		return r
	}
	recs := []records.Record{
		rec(1, 0, 0.5, []float64{0.4, 0.6, 0.5}, "flat"),
		rec(2, 0, 0.6, []float64{0.5, 0.7, 0.6}, "flat"),
		rec(2, 1, 0.4, []float64{0.3, 0.5, 0.4}, "flat"),
		rec(3, 0, 0.7, nil, "flat"),
		rec(4, 0, 0.7, []float64{0.6, 0.8, 0.7}, "flat"),
		rec(4, 0, 0.7, []float64{0.6, 0.8, 0.7}, "skip"),
	}
	pr := Project(recs, func(recs []records.Record, _ []int) []string { return make([]string, len(recs)) })
	l := pr.Lines(func(int, Trial) string { return "one" }, func(_ int, t Trial) float64 { x, _ := Number(t.Settings["data.window"]); return x })[0]
	est := pr.Estimates(l, func(Row) string { return key })
	require.Len(t, est, 3, "W=4 holds two tables: no one row")
	assert.InDelta(t, 0.5, est[1].Value, 1e-12)
	assert.True(t, est[1].Tested())
	assert.InDelta(t, 0.5, est[2].Value, 1e-12, "two seeds: their mean")
	require.Len(t, est[2].Reps, 3)
	assert.InDelta(t, 0.6, est[2].Reps[1], 1e-2, "the seeds' replicates averaged per resample")
	assert.False(t, est[3].Tested(), "no replicates: not tested")
	assert.Empty(t, pr.Estimates(l, func(Row) string { return "spearman.zero.ws" }), "no metric, no estimate")
}
