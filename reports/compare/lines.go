package compare

import "math"

// Estimates gives each x of the line its Estimate: the trials at x folded
// as replicates into one Row (their mean, with Row.Estimate's replicates),
// under the metric key names for that row ("" for none). An x whose trials
// do not fold into one row (they differ in more than the replicate
// setting) or lack the metric has no estimate, nor has an unknown (NaN) x.
func (pr Projection) Estimates(l Line, key func(r Row) string) map[float64]Estimate {
	at := map[float64][]Trial{}
	for k, t := range l.Trials {
		if x := l.Xs[k]; !math.IsNaN(x) {
			at[x] = append(at[x], t)
		}
	}
	out := map[float64]Estimate{}
	for x, trials := range at {
		rows := pr.With(trials).Rows(true)
		if len(rows) != 1 {
			continue
		}
		k := key(rows[0])
		if _, ok := rows[0].Metrics[k]; k == "" || !ok {
			continue
		}
		out[x] = rows[0].Estimate(k)
	}
	return out
}
