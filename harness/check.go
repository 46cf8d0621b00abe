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

// CheckScores compares a run against reference records: every reference
// trial must be present and ok, and none of its scores may fall by more
// than tol below the reference. It returns one message per failure, sorted.
func CheckScores(ref, got []Record, tol float64) []string {
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
			if !ParseMetric(m).Checked {
				continue
			}
			w := want.Metrics[m]
			h, ok := have.Metrics[m]
			switch {
			case !ok || math.IsNaN(h):
				fails = append(fails, fmt.Sprintf("%s: %s: no score (reference %.4f)", trialName(want), MetricLabel(m), w))
			case h < w-tol:
				fails = append(fails, fmt.Sprintf("%s: %s fell to %.4f from the reference %.4f (by %.4f, tolerance %g)",
					trialName(want), MetricLabel(m), h, w, w-h, tol))
			}
		}
	}
	sort.Strings(fails)
	return fails
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
