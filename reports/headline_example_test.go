package reports

import (
	"fmt"

	"kcalab/records"
)

// A section's headline is computed from the ranking group's records:
// whether the paper's ordering (the best CA row significantly above the
// best baseline) holds set by set, then how the leading CA row and the
// leading baseline compare, a difference counted only where the 95%
// interval of their paired bootstrap excludes 0.
func Example_headline() {
	sets := []string{"sim", "men", "rare"}
	trial := func(label, method string, scores ...float64) records.Record {
		rec := records.Record{ID: label, Status: "ok", Settings: map[string]any{"label": label, "method": method, "svd.rank": 300.0},
			Metrics: map[string]float64{}, Bootstrap: &records.Bootstrap{B: resamples, Scores: map[string]string{}}}
		for j, set := range sets {
			key := records.Score(records.RuleZero, set).Key()
			rec.Metrics[key] = scores[j]
			// ρ on resamples of the set's pairs that every trial shares.
			rec.Bootstrap.Scores[key] = records.EncodeReplicates(replicatesFor(label, set, scores[j], 0.01), scores[j])
		}
		return rec
	}
	b := newBuilder(Report{Methods: testMethods})
	recs := harnessLike([]records.Record{
		trial("tail-cut KCA", "kca", 0.548, 0.491, 0.251),
		trial("LCA", "lca", 0.530, 0.470, 0.230),
		trial("fastText (CLI)", "external", 0.525, 0.560, 0.300),
	}, 0)
	g := b.grid(b.groupByDim(b.project(recs).Rows(true)), sets, scoreOf(records.RuleZero))
	fmt.Println(b.groupHeadline(g, 0, records.RuleZero, ""))
	// Output:
	// At d = 300, zero rule, each method at its own similarity: the paper's ordering (the best CA row significantly above the best baseline, after Holm's adjustment for the 3 sets) holds on 0 of 3 sets, is reversed on 2 (MEN, Rare), ties on 1 (Sim); fastText (CLI) is significantly above tail-cut KCA on MEN, Rare; ties on Sim.
}
