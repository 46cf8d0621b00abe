package reports

import (
	"fmt"
	"kcalab/records"
)

// replicateSpread is what a table cell says of a trial's replicates.
type replicateSpread struct {
	n  int
	sd map[string]float64
}

// text is "± sd (n = N)" for a metric, or "(n = N)" when it has no spread.
func (s replicateSpread) text(metric string) string {
	if sd, ok := s.sd[metric]; ok {
		return fmt.Sprintf("± %s (n = %d)", sig(sd, 2), s.n)
	}
	return fmt.Sprintf("(n = %d)", s.n)
}

// foldReplicates replaces each group of replicates (trials that differ
// only in their seed) by one record holding the means, numbered as its
// first replicate, and returns the spreads by that record's id.
func foldReplicates(recs []records.Record, nums []int) ([]records.Record, []int, map[string]replicateSpread) {
	merged := records.MergeReplicates(recs)
	if len(merged) == len(recs) {
		return recs, nums, nil
	}
	first := map[string]int{}
	for i, r := range recs {
		if _, ok := first[r.ID]; !ok {
			first[r.ID] = nums[i]
		}
	}
	out := make([]records.Record, len(merged))
	outNums := make([]int, len(merged))
	spread := map[string]replicateSpread{}
	for i, m := range merged {
		out[i], outNums[i] = m.Record, first[m.Record.ID]
		spread[m.Record.ID] = replicateSpread{n: m.N, sd: m.SD}
	}
	return out, outNums, spread
}
