package page

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// FormatValue prints a setting value as the spec would write it: lists
// and maps in YAML's flow style ("[king, france]", "{a: 1}", keys sorted).
func FormatValue(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return t
	case bool:
		return strconv.FormatBool(t)
	case float64:
		// A whole number is written out, as a spec writes it
		// (17005207, not 1.7005207e+07); others take the shortest form.
		if t == math.Trunc(t) && math.Abs(t) < 1e15 {
			return strconv.FormatFloat(t, 'f', 0, 64)
		}
		return strconv.FormatFloat(t, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(t), 'g', -1, 32)
	case int:
		return strconv.Itoa(t)
	case int64:
		return strconv.FormatInt(t, 10)
	case uint64:
		return strconv.FormatUint(t, 10)
	case []string:
		return "[" + strings.Join(t, ", ") + "]"
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = FormatValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		parts := make([]string, 0, len(t))
		for _, k := range sortedKeys(t) {
			parts = append(parts, k+": "+FormatValue(t[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	return fmt.Sprint(v)
}

// Sig prints v with n significant digits ("0.4464", "8.59e-05").
func Sig(v float64, n int) string {
	if math.IsNaN(v) {
		return "—" // a page never prints NaN: the dash is its "none"
	}
	return strconv.FormatFloat(v, 'g', n, 64)
}

// Percent prints a share (0.8656) as a percentage with the given decimals.
func Percent(share float64, decimals int) string {
	if !finite(share) {
		return "—" // never "NaN%"
	}
	return strconv.FormatFloat(100*share, 'f', decimals, 64) + "%"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
