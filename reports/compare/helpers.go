package compare

import (
	"math"
	"sort"

	"kcalab/reports/page"
)

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func sig(v float64, n int) string                { return page.Sig(v, n) }
func percent(share float64, decimals int) string { return page.Percent(share, decimals) }
func roundTo(v float64, digits int) float64      { return page.RoundTo(v, digits) }
