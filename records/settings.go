package records

import (
	"encoding/json"
	"reflect"
)

// Normalize maps a value through JSON so ints and float64s compare by value
// (settings read back from a results file have float64 numbers).
func Normalize(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// SameSettings reports whether two settings maps are equal after a JSON
// round trip.
func SameSettings(a, b map[string]any) bool {
	return reflect.DeepEqual(Normalize(a), Normalize(b))
}

// Setting keys every record's settings may hold, read by the format's own
// rules (replicates, check messages); package spec declares them.
const (
	KeyMethod    = "method"
	KeyLabel     = "label"
	KeyReplicate = "replicate" // absent on replicate 0, the trial itself
)
