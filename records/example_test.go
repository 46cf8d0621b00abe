package records_test

import (
	"fmt"

	"kcalab/records"
)

// Metric keys are built and parsed in one place, with what they mean.
func ExampleParseMetric() {
	key := records.Score(records.RuleZero, "men").Key()
	m := records.ParseMetric(key)
	fmt.Println(key, m.Set, m.Rule, m.HigherIsBetter(), m.Checked())
	fmt.Println(m.Label())
	// Output:
	// spearman.zero.men men zero true true
	// men (zero rule)
}

// Replicates fold into one record of means, with their standard deviations.
func ExampleMergeReplicates() {
	rec := func(rep int, men float64) records.Record {
		s := map[string]any{"method": "kca"}
		if rep > 0 {
			s["replicate"] = rep
		}
		return records.Record{ID: fmt.Sprint(rep), Settings: s, Metrics: map[string]float64{"spearman.zero.men": men}}
	}
	for _, r := range records.MergeReplicates([]records.Record{rec(0, 0.40), rec(1, 0.44), rec(2, 0.42)}) {
		fmt.Printf("%d replicates: %.2f ± %.2f\n", r.N, r.Record.Metrics["spearman.zero.men"], r.SD["spearman.zero.men"])
	}
	// Output:
	// 3 replicates: 0.42 ± 0.02
}
