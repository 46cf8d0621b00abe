package harness

import (
	"fmt"
	"math"
	"sort"
)

// trialName describes a trial in check messages: its label or method and
// the settings that tell it apart.
func trialName(rec Record) string {
	if l, _ := rec.Settings["label"].(string); l != "" {
		return fmt.Sprintf("%s (trial %s)", l, rec.ID)
	}
	return fmt.Sprintf("%v (trial %s)", rec.Settings["method"], rec.ID)
}

// CATolerance is the relative tolerance of -check on CA quantities
// (singular values, inertias): a rerun reproduces them to rounding, so any
// larger change is a change of the analysis, not noise.
const CATolerance = 1e-6

// CheckScores compares a run against reference records: every reference
// trial must be present and ok; none of its scores may fall by more than
// tol below the reference; its CA quantities (the CA result's singular
// values and inertias, and the inertia metrics) must equal the reference's
// within CATolerance, relative. It returns one message per failure, sorted.
func CheckScores(ref, got []Record, tol float64) []string {
	// Replicates are compared by their means: one seed's draw is noise.
	ref, got = means(ref), means(got)
	byID := map[string]Record{}
	for _, r := range got {
		byID[r.ID] = r
	}
	var fails []string
	for _, want := range ref {
		if want.Status != "ok" {
			continue
		}
		have, ok := byID[want.ID]
		switch {
		case !ok:
			fails = append(fails, fmt.Sprintf("%s: in the reference results but not in this run (did the spec change?)", trialName(want)))
			continue
		case have.Status != "ok":
			fails = append(fails, fmt.Sprintf("%s: status %s: %s", trialName(want), have.Status, have.Error))
			continue
		}
		for _, m := range sortedKeys(want.Metrics) {
			info := ParseMetric(m)
			if !info.Checked {
				continue
			}
			w := want.Metrics[m]
			h, ok := have.Metrics[m]
			switch {
			case !ok || math.IsNaN(h):
				fails = append(fails, fmt.Sprintf("%s: %s: no value (reference %.4f)", trialName(want), MetricLabel(m), w))
			case info.HigherIsBetter && h < w-tol:
				fails = append(fails, fmt.Sprintf("%s: %s fell to %.4f from the reference %.4f (by %.4f, tolerance %g)",
					trialName(want), MetricLabel(m), h, w, w-h, tol))
			case !info.HigherIsBetter && !closeRel(h, w):
				fails = append(fails, fmt.Sprintf("%s: %s is %.10g, the reference %.10g (relative tolerance %g)",
					trialName(want), MetricLabel(m), h, w, CATolerance))
			}
		}
		fails = append(fails, checkCA(want, have)...)
	}
	sort.Strings(fails)
	return fails
}

// means folds replicates into one record each (MergeReplicates).
func means(recs []Record) []Record {
	out := make([]Record, 0, len(recs))
	for _, r := range MergeReplicates(recs) {
		out = append(out, r.Record)
	}
	return out
}

// checkCA compares the CA results of a reference trial and a rerun.
func checkCA(want, have Record) []string {
	if want.CA == nil {
		return nil
	}
	if have.CA == nil {
		return []string{fmt.Sprintf("%s: no CA result (the reference has one)", trialName(want))}
	}
	var fails []string
	for _, q := range []struct {
		name     string
		want, is []float64
	}{
		{"singular values", want.CA.SingularValues, have.CA.SingularValues},
		{"principal inertias", want.CA.Inertias, have.CA.Inertias},
		{"total inertia", []float64{want.CA.TotalInertia}, []float64{have.CA.TotalInertia}},
	} {
		if len(q.is) != len(q.want) {
			fails = append(fails, fmt.Sprintf("%s: %d %s, the reference %d", trialName(want), len(q.is), q.name, len(q.want)))
			continue
		}
		for i := range q.want {
			if !closeRel(q.is[i], q.want[i]) {
				name := q.name
				if len(q.want) > 1 {
					name = fmt.Sprintf("%s[%d]", q.name, i+1)
				}
				fails = append(fails, fmt.Sprintf("%s: %s is %.10g, the reference %.10g (relative tolerance %g)",
					trialName(want), name, q.is[i], q.want[i], CATolerance))
			}
		}
	}
	return fails
}

// closeRel reports whether a equals b within CATolerance relative to |b|
// (absolute for values near zero).
func closeRel(a, b float64) bool {
	return math.Abs(a-b) <= CATolerance*math.Max(math.Abs(b), 1e-3)
}

// CheckedCounts counts what -check compares in a run: scores (guarded
// against a fall) and CA quantities (guarded against any change).
func CheckedCounts(recs []Record) (scores, ca int) {
	for _, r := range recs {
		for m := range r.Metrics {
			info := ParseMetric(m)
			switch {
			case info.Checked && info.HigherIsBetter:
				scores++
			case info.Checked:
				ca++
			}
		}
		if r.CA != nil {
			ca += len(r.CA.SingularValues) + len(r.CA.Inertias) + 1
		}
	}
	return scores, ca
}

// CompareRuns checks that two runs of the same spec produced identical
// results: the same trials, statuses and metrics bit for bit (time and
// memory measurements excepted).
func CompareRuns(a, b []Record) []string {
	byID := map[string]Record{}
	for _, r := range b {
		byID[r.ID] = r
	}
	var fails []string
	if len(a) != len(b) {
		fails = append(fails, fmt.Sprintf("the rerun has %d trials, the first run %d", len(b), len(a)))
	}
	for _, x := range a {
		y, ok := byID[x.ID]
		if !ok {
			fails = append(fails, fmt.Sprintf("%s: missing from the rerun", trialName(x)))
			continue
		}
		if x.Status != y.Status {
			fails = append(fails, fmt.Sprintf("%s: status %s, rerun %s", trialName(x), x.Status, y.Status))
			continue
		}
		keys := sortedKeys(x.Metrics)
		for _, k := range sortedKeys(y.Metrics) {
			if _, ok := x.Metrics[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, m := range keys {
			if ParseMetric(m).Kind == MeasurementMetric {
				continue
			}
			u, okU := x.Metrics[m]
			v, okV := y.Metrics[m]
			if okU != okV || math.Float64bits(u) != math.Float64bits(v) {
				fails = append(fails, fmt.Sprintf("%s: %s is %v in the first run and %v in the rerun: the run is not deterministic",
					trialName(x), MetricLabel(m), u, v))
			}
		}
	}
	sort.Strings(fails)
	return fails
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
