package harness

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Trial is one point of a spec's grid with every setting resolved.
type Trial struct {
	Index    int            // position in the grid (first axis varies slowest)
	ID       string         // stable: derived from the settings that differ from their defaults
	Seed     uint64         // derived from the spec seed and ID only
	Label    string         // the axis values, e.g. "svd.backend=dense"
	Settings map[string]any // every per-trial key
}

// Trials expands the spec's grid: the cartesian product of its axes, in file order.
func (s *Spec) Trials() []Trial {
	n := 1
	for _, a := range s.axes {
		n *= len(s.values[a])
	}
	trials := make([]Trial, 0, n)
	for idx := 0; idx < n; idx++ {
		settings := make(map[string]any, len(s.values))
		for k, v := range s.values {
			settings[k] = v[0]
		}
		var label []string
		rem := idx
		for i := len(s.axes) - 1; i >= 0; i-- {
			a := s.axes[i]
			vals := s.values[a]
			settings[a] = vals[rem%len(vals)]
			rem /= len(vals)
		}
		for _, a := range s.axes {
			label = append(label, fmt.Sprintf("%s=%v", a, settings[a]))
		}
		id := TrialID(settings)
		trials = append(trials, Trial{
			Index:    idx,
			ID:       id,
			Seed:     TrialSeed(s.Seed, id),
			Label:    strings.Join(label, " "),
			Settings: settings,
		})
	}
	return trials
}

// TrialID hashes the settings that differ from their defaults, so adding a
// new setting (with a default) to the project does not change existing ids,
// and neither does spelling out a default in a spec.
func TrialID(settings map[string]any) string {
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		if s, ok := lookupSetting(k); ok && reflect.DeepEqual(normalise(s.Default), normalise(settings[k])) {
			continue
		}
		b, _ := json.Marshal(settings[k])
		fmt.Fprintf(h, "%s=%s\n", k, b)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// TrialSeed derives a trial's seed from the spec seed and the trial id alone.
func TrialSeed(specSeed uint64, id string) uint64 {
	h := sha256.Sum256([]byte(fmt.Sprintf("kcalab-seed/%d/%s", specSeed, id)))
	return binary.LittleEndian.Uint64(h[:8])
}

// normalise maps a value through JSON so ints and float64s compare by value
// (settings read back from results.jsonl have float64 numbers).
func normalise(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// SameSettings reports whether two settings maps are equal after a JSON round trip.
func SameSettings(a, b map[string]any) bool {
	return reflect.DeepEqual(normalise(a), normalise(b))
}

// Typed accessors. The spec decoder guarantees the types; a wrong key is a
// programming error and panics with the key named.

func (t Trial) Str(key string) string    { return get[string](t, key) }
func (t Trial) Int(key string) int       { return get[int](t, key) }
func (t Trial) Float(key string) float64 { return get[float64](t, key) }
func (t Trial) Bool(key string) bool     { return get[bool](t, key) }
func (t Trial) List(key string) []string { return get[[]string](t, key) }

func get[T any](t Trial, key string) T {
	v, ok := t.Settings[key].(T)
	if !ok {
		panic(fmt.Sprintf("harness: setting %q is %T, not %T", key, t.Settings[key], *new(T)))
	}
	return v
}
