package reports

import (
	"math"
	"sort"

	"kcalab/reports/page"
)

// The page layer's number formatting (kcalab/reports/page), under the
// names the sections use, so that every page prints a number one way.

func formatValue(v any) string                   { return page.FormatValue(v) }
func sig(v float64, n int) string                { return page.Sig(v, n) }
func percent(share float64, decimals int) string { return page.Percent(share, decimals) }
func csvNumber(v float64) string                 { return page.CSVNumber(v) }
func roundTo(v float64, digits int) float64      { return page.RoundTo(v, digits) }
func formatScore(v float64, digits int) string   { return page.FormatScore(v, digits) }
func tidy(v float64) float64                     { return page.Tidy(v) }

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
