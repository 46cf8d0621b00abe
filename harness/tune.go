package harness

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"kcalab/internal/termsafe"
	"kcalab/records"
	"kcalab/schema"
)

// noteChoices says, at the end of a run, which design each tuning group's
// rule chose (records.Choose, the same computation the pages show).
func noteChoices(recs []records.Record, logf func(format string, args ...any)) {
	for _, c := range records.Choose(recs, schema.OwnSimilarity) {
		for _, cand := range c.Candidates {
			schema.WithDefaults(cand.Values)
		}
		name := c.Label
		if name == "" {
			name = c.Method
		}
		if c.Shared != "" {
			name += " (" + c.Shared + ")"
		}
		if c.Chosen < 0 {
			logf("kcalab: tune: %s: no design chosen among %d candidate(s): %s", termsafe.Text(name), len(c.Candidates), termsafe.Text(c.Why()))
			continue
		}
		ch := c.Candidates[c.Chosen]
		logf("kcalab: tune: %s: chose %s, mean dev ρ %.4f over %s (%s, zero rule) among %d candidate(s); compare it on the test parts",
			termsafe.Text(name), termsafe.Text(Values(ch.Values)), ch.Score, strings.Join(c.On, ", "), c.Similarity, len(c.Candidates))
	}
}

// Values spells a candidate's tuned settings, "data.window=10 vectors.alpha=0.5".
func Values(v map[string]any) string {
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		x := v[k]
		if f, ok := x.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1e15 {
			x = int64(f)
		}
		parts[i] = fmt.Sprintf("%s=%v", k, x)
	}
	return strings.Join(parts, " ")
}
