package harness

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// isScoreMetric reports whether a metric is a quality score that -check
// guards against regressions (higher is better).
func isScoreMetric(name string) bool { return strings.HasPrefix(name, "spearman.") }

// isMeasurement reports whether a metric measures the machine (time,
// memory) rather than the result, so it may differ between identical runs.
func isMeasurement(name string) bool {
	for _, p := range []string{"wall_s", "cpu_s", "max_rss_mb"} {
		if name == p || strings.HasPrefix(name, p+".") {
			return true
		}
	}
	return false
}

// trialName describes a trial in check messages: its label or method and
// the settings that tell it apart.
func trialName(rec Record) string {
	if l, _ := rec.Settings["label"].(string); l != "" {
		return fmt.Sprintf("%s (trial %s)", l, rec.ID)
	}
	return fmt.Sprintf("%v (trial %s)", rec.Settings["method"], rec.ID)
}

// metricName spells a metric for people: "spearman.zero.men" → "men, zero rule".
func metricName(m string) string {
	if rest, ok := strings.CutPrefix(m, "spearman."); ok {
		rule, set, ok := strings.Cut(rest, ".")
		if ok {
			return fmt.Sprintf("%s (%s rule)", set, rule)
		}
	}
	return m
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
			if !isScoreMetric(m) {
				continue
			}
			w := want.Metrics[m]
			h, ok := have.Metrics[m]
			switch {
			case !ok || math.IsNaN(h):
				fails = append(fails, fmt.Sprintf("%s: %s: no score (reference %.4f)", trialName(want), metricName(m), w))
			case h < w-tol:
				fails = append(fails, fmt.Sprintf("%s: %s fell to %.4f from the reference %.4f (by %.4f, tolerance %g)",
					trialName(want), metricName(m), h, w, w-h, tol))
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
			if isMeasurement(m) {
				continue
			}
			u, okU := x.Metrics[m]
			v, okV := y.Metrics[m]
			if okU != okV || math.Float64bits(u) != math.Float64bits(v) {
				fails = append(fails, fmt.Sprintf("%s: %s is %v in the first run and %v in the rerun: the run is not deterministic",
					trialName(x), metricName(m), u, v))
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
