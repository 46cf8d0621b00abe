package records

import (
	"encoding/json"
	"math"
)

// Replicated is a trial with its replicates (trials that differ only in
// their seed) folded into one: Record holds the first replicate's record
// with every metric replaced by its mean over the replicates that have it;
// SD holds the sample standard deviations (for N ≥ 2).
type Replicated struct {
	Record Record
	SD     map[string]float64
	N      int
}

// MergeReplicates folds each group of replicates into one Replicated, in
// the order the groups first appear; a trial without replicates is a group
// of one. Replicates are found by their settings, the replicate number
// aside, so old records need nothing new.
func MergeReplicates(recs []Record) []Replicated {
	var out []Replicated
	var members [][]Record
	index := map[string]int{}
	for _, rec := range recs {
		k := replicateKey(rec)
		if i, ok := index[k]; ok {
			members[i] = append(members[i], rec)
			continue
		}
		index[k] = len(out)
		out = append(out, Replicated{Record: rec})
		members = append(members, []Record{rec})
	}
	for i, group := range members {
		out[i].N = len(group)
		if len(group) == 1 {
			continue
		}
		mean := map[string]float64{}
		sd := map[string]float64{}
		keys := map[string]bool{}
		for _, r := range group {
			for k := range r.Metrics {
				keys[k] = true
			}
		}
		for k := range keys {
			var xs []float64
			for _, r := range group {
				if v, ok := r.Metrics[k]; ok && !math.IsNaN(v) {
					xs = append(xs, v)
				}
			}
			if len(xs) == 0 {
				continue
			}
			m, s := meanSD(xs)
			mean[k] = m
			if len(xs) > 1 {
				sd[k] = s
			}
		}
		rec := out[i].Record
		rec.Metrics = mean
		out[i].Record, out[i].SD = rec, sd
	}
	return out
}

// replicateKey is a record's settings without its replicate number (and
// its status: a failed replicate still belongs to its group).
func replicateKey(rec Record) string {
	s := make(map[string]any, len(rec.Settings))
	for k, v := range rec.Settings {
		if k != KeyReplicate {
			s[k] = v
		}
	}
	b, _ := json.Marshal(Normalize(s)) // encoding/json sorts map keys
	return rec.Spec + "\x00" + string(b)
}

// meanSD is the mean and sample standard deviation of xs (len ≥ 1).
// Identical values give exactly that value and 0: the mean's rounding
// would otherwise show a spread of 1e-17.
func meanSD(xs []float64) (mean, sd float64) {
	same := true
	for _, x := range xs {
		mean += x
		same = same && x == xs[0]
	}
	if same {
		return xs[0], 0
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)-1))
}
