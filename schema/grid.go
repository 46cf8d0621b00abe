package schema

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"kcalab/records"
)

// Trial is one point of a spec's grid with every setting resolved. Code
// reads the typed settings (t.SVD.Rank); Values keeps them by key for the
// trial id and the record.
type Trial struct {
	Index  int            // position in the grid (first axis varies slowest)
	ID     string         // stable: derived from the settings that differ from their defaults
	Seed   uint64         // derived from the spec seed and ID only (SeedID: a retrofitted trial's from its base's)
	Title  string         // the label and axis values, e.g. "tail-cut svd.backend=dense"
	Values map[string]any // every per-trial key
	// Axes are the grid axes of the trial's variant (the keys it was
	// expanded over).
	Axes []string
	Settings
}

// Trials expands the spec's grid: for each variant in file order (or once,
// without variants), the cartesian product of the axes, first axis varying
// slowest. A variant's settings override the shared ones; a key the variant
// sets is no longer a shared axis for it. Trials whose settings coincide
// (say, two variants that resolve to the same settings) run once.
func (s *Spec) Trials() []Trial {
	trials, _ := s.expandGrid()
	return trials
}

// Merged is a grid point that runs as an earlier trial of the grid: its
// settings differ from that trial's only in settings that are not part of
// a trial id (they do not change its numbers: budget.table_mb,
// replicates, tuned_on, …), so it is that trial.
type Merged struct {
	Title   string   // the grid point's label and axis values ("" for a variant without either)
	Variant int      // its variant, from 1 in file order (0: the spec has none)
	Into    Trial    // the trial it runs as
	Keys    []string // the settings it differs in, sorted
	Values  []string // its value of each key, as "key=value"
}

// String names the grid point: its title, else its variant and values.
func (m Merged) String() string {
	if m.Title != "" {
		return m.Title
	}
	if m.Variant > 0 {
		return fmt.Sprintf("variant %d (%s)", m.Variant, strings.Join(m.Values, " "))
	}
	return strings.Join(m.Values, " ")
}

// Merged lists the grid points that run as an earlier trial although their
// settings differ (see Merged), so that a run can say so: a user who made
// two variants to compare, say, a table in memory with one on disk, gets
// one trial and should hear why. Points whose settings coincide exactly
// are not listed.
func (s *Spec) Merged() []Merged {
	_, merged := s.expandGrid()
	return merged
}

func (s *Spec) expandGrid() ([]Trial, []Merged) {
	variants := s.variants
	if len(variants) == 0 {
		variants = []variant{{}}
	}
	var trials []Trial
	var merged []Merged
	seen := map[string]int{}
	variant := 0 // the variant being expanded, from 1 (0: none)
	// add completes a trial (id, seed, index, typed settings) and appends
	// it unless a trial with its settings is already there.
	add := func(t Trial) bool {
		tuneInSample(t.Values)
		t.ID = TrialID(s.idValues(t.Values))
		if i, ok := seen[t.ID]; ok {
			if keys := differingKeys(trials[i].Values, t.Values); len(keys) > 0 {
				m := Merged{Title: strings.TrimSpace(t.Title), Variant: variant, Into: trials[i], Keys: keys}
				for _, k := range keys {
					b, _ := json.Marshal(t.Values[k])
					m.Values = append(m.Values, k+"="+string(b))
				}
				merged = append(merged, m)
			}
			return false
		}
		seen[t.ID] = len(trials)
		t.Seed = TrialSeed(s.Seed, SeedID(s.idValues(t.Values)))
		t.Index = len(trials)
		t.Settings = typedSettings(t.Values)
		t.Title = strings.TrimSpace(t.Title)
		trials = append(trials, t)
		return true
	}
	for vi, v := range variants {
		if len(s.variants) > 0 {
			variant = vi + 1
		}
		values := make(map[string][]any, len(s.values))
		for k, vals := range s.values {
			values[k] = vals
		}
		var axes []string
		for _, a := range s.axes {
			if _, over := v.values[a]; !over {
				axes = append(axes, a)
			}
		}
		for k, vals := range v.values {
			values[k] = vals
		}
		axes = append(axes, v.axes...)
		for _, t := range expand(values, axes) {
			t.Axes = axes
			if t.Values[KeyLabel] != "" {
				t.Title = strings.TrimSpace(fmt.Sprint(t.Values[KeyLabel]) + " " + t.Title)
			}
			if !add(t) {
				continue
			}
			// Replicates differ only in their seed: the replicate number
			// enters the id, and the seed derives from the id.
			for r := 1; r < trials[len(trials)-1].Replicates; r++ {
				rt := Trial{Values: make(map[string]any, len(t.Values)), Title: fmt.Sprintf("%s replicate=%d", t.Title, r), Axes: axes}
				for k, v := range t.Values {
					rt.Values[k] = v
				}
				rt.Values["replicate"] = r
				add(rt)
			}
		}
	}
	return trials, merged
}

// differingKeys are the keys whose values differ between a and b, sorted.
func differingKeys(a, b map[string]any) []string {
	var keys []string
	for k, v := range a {
		if w, ok := b[k]; !ok || !reflect.DeepEqual(records.Normalize(v), records.Normalize(w)) {
			keys = append(keys, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// expand is the cartesian product of the axes over values.
func expand(values map[string][]any, axes []string) []Trial {
	n := 1
	for _, a := range axes {
		n *= len(values[a])
	}
	trials := make([]Trial, 0, n)
	for idx := 0; idx < n; idx++ {
		settings := make(map[string]any, len(values))
		for k, v := range values {
			settings[k] = v[0]
		}
		rem := idx
		for i := len(axes) - 1; i >= 0; i-- {
			a := axes[i]
			vals := values[a]
			settings[a] = vals[rem%len(vals)]
			rem /= len(vals)
		}
		var label []string
		for _, a := range axes {
			label = append(label, fmt.Sprintf("%s=%v", a, settings[a]))
		}
		trials = append(trials, Trial{Title: strings.Join(label, " "), Values: settings})
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
		if s, ok := LookupSetting(k); ok && (s.NoID || reflect.DeepEqual(records.Normalize(s.Default), records.Normalize(settings[k]))) {
			continue
		}
		b, _ := json.Marshal(settings[k])
		fmt.Fprintf(h, "%s=%s\n", k, b)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// idValues is values with every data path in the form a trial id hashes
// (Spec.idPaths); values itself when the spec resolved none.
func (s *Spec) idValues(values map[string]any) map[string]any {
	if len(s.idPaths) == 0 {
		return values
	}
	out := make(map[string]any, len(values))
	for k, v := range values {
		out[k] = v
		if _, ok := lookupDataSetting(k); !ok {
			continue
		}
		switch x := v.(type) {
		case string:
			if p, ok := s.idPaths[x]; ok {
				out[k] = p
			}
		case []string:
			list := make([]string, len(x))
			for i, e := range x {
				list[i] = e
				if p, ok := s.idPaths[e]; ok {
					list[i] = p
				}
			}
			out[k] = list
		}
	}
	return out
}

// SeedID is the id a trial's seed derives from: its id, except for a
// retrofitted trial (retrofit.lexicon not none), whose seed is that of the
// same settings without retrofit.* and without its label. Its method then
// trains the same vectors for every candidate of a retrofitting search
// (they differ in retrofit.* alone), so a choice among them is not a
// choice among training seeds; replicates still differ (the replicate
// number stays in).
func SeedID(values map[string]any) string {
	if lex, ok := values[KeyRetrofitLexicon]; !ok || lex == RetrofitNone {
		return TrialID(values)
	}
	base := make(map[string]any, len(values))
	for k, v := range values {
		if k == KeyLabel || strings.HasPrefix(k, "retrofit.") {
			continue
		}
		base[k] = v
	}
	return TrialID(base)
}

// TrialSeed derives a trial's seed from the spec seed and the trial id alone.
func TrialSeed(specSeed uint64, id string) uint64 {
	h := sha256.Sum256([]byte(fmt.Sprintf("kcalab-seed/%d/%s", specSeed, id)))
	return binary.LittleEndian.Uint64(h[:8])
}

// tuneInSample adds to a tuned trial's tuned_on the dev parts its design is
// chosen on (tune.on, else eval.sets): a candidate's scores there chose it,
// so they are in-sample for it.
func tuneInSample(values map[string]any) {
	axes, _ := values["tune.axes"].([]string)
	if len(axes) == 0 {
		return
	}
	on, _ := values["tune.on"].([]string)
	if len(on) == 0 {
		on, _ = values["eval.sets"].([]string)
	}
	tuned, _ := values["tuned_on"].([]string)
	out := append([]string(nil), tuned...)
	have := map[string]bool{}
	for _, n := range out {
		have[n] = true
	}
	keys := make([]string, 0, len(on))
	for _, name := range on {
		if name == "" {
			continue
		}
		keys = append(keys, SetKey(name))
		dev := records.SetPart(SetKey(name), records.PartDev)
		if !have[dev] {
			out = append(out, dev)
			have[dev] = true
		}
	}
	values["tuned_on"] = out
	// The record names the sets by their metric keys (records.Choose).
	values["tune.on"] = keys
}
