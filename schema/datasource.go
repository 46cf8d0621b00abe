package schema

import (
	"reflect"
	"sort"

	"strings"

	"kcalab/records"
)

// Source is a value of data.source: where a trial's input comes from.
type Source string

// The sources.
const (
	SourceFisher    Source = "fisher"    // Fisher's eye × hair table, embedded
	SourceCSV       Source = "csv"       // a CSV table (data.csv)
	SourceCorpus    Source = "corpus"    // a text corpus (data.corpus)
	SourceSynthetic Source = "synthetic" // a corpus generated from the trial seed (synthetic.*)
	SourceTables    Source = "tables"    // word tables counted elsewhere (data.tables)
)

// sourceInfo is what a source gives a method and the settings it reads.
type sourceInfo struct {
	input Input
	reads []string // namespaces or keys
}

// sources are the values of data.source. The word-table keys (data.window,
// data.table, …) belong to the methods that build word tables, not to the
// source.
var sources = map[Source]sourceInfo{
	SourceFisher:    {input: TableInput, reads: supplementaryKeys},
	SourceCSV:       {input: TableInput, reads: append([]string{"data.csv"}, supplementaryKeys...)},
	SourceCorpus:    {input: CorpusInput, reads: append([]string{"data.corpus", "data.fraction", "data.lowercase"}, vocabKeys...)},
	SourceSynthetic: {input: CorpusInput, reads: append([]string{"synthetic"}, vocabKeys...)},
	// Counted tables carry their vocabulary: the vocabulary settings were
	// applied when they were counted.
	SourceTables: {input: CorpusInput, reads: []string{"data.tables"}},
}

// Known reports whether s is a value of data.source.
func (s Source) Known() bool { _, ok := sources[s]; return ok }

// Input is what the source gives a method (0 for an unknown source).
func (s Source) Input() Input { return sources[s].input }

// Table reports whether the source is a labelled contingency table.
func (s Source) Table() bool { return s.Input() == TableInput }

// Tokens reports whether the source is a token stream that methods can
// train on (a corpus or a synthetic corpus), not only counted tables.
func (s Source) Tokens() bool { return s == SourceCorpus || s == SourceSynthetic }

// File reports whether the trial reads the source from a file of the
// user's (a CSV table, a corpus, a table directory), as opposed to
// embedded or generated data.
func (s Source) File() bool { return s == SourceCSV || s == SourceCorpus || s == SourceTables }

// supplementaryKeys are read by every table source.
var supplementaryKeys = []string{"data.supplementary_rows", "data.supplementary_cols"}

// vocabKeys are read by every corpus source (data.memory_mb bounds its
// counting).
var vocabKeys = []string{"data.min_count", "data.max_vocab", "data.oov", "data.memory_mb"}

// WordTableKeys are read by the methods that decompose a CA word table.
var WordTableKeys = []string{"data.window", "data.table", "data.symmetric", "data.cut_n1_twice", "data.subsample"}

// generalKeys matter to every trial.
var generalKeys = []string{KeyLabel, KeyReplicate, KeyMethod, KeySource, "measure", "budget", "tuned_on", "tune"}

// readKeys returns the keys or namespaces a trial's method and data source
// read; nil when the method is unknown (an old record: everything matters).
// An unknown source (a hand-written record without one) reads what the
// method reads from any input, and every data setting.
func readKeys(method string, source Source) []string {
	info, ok := LookupMethod(method)
	if !ok {
		return nil
	}
	out := append([]string(nil), generalKeys...)
	src, ok := sources[source]
	switch {
	case !ok:
		out = append(out, "data", "synthetic")
		out = append(out, info.TableReads...)
		return append(out, info.CorpusReads...)
	case src.input == TableInput:
		out = append(out, src.reads...)
		return append(out, info.TableReads...)
	}
	out = append(out, src.reads...)
	return append(out, info.CorpusReads...)
}

// readsKey reports whether key is one of reads or in one of its namespaces.
func readsKey(reads []string, key string) bool {
	for _, r := range reads {
		if key == r || strings.HasPrefix(key, r+".") {
			return true
		}
	}
	return false
}

// RecordSettings are the settings a trial's record keeps: those its method
// and data source read, and the general ones (label, method, data.source,
// measure.*, budget.*), so a reader sees what mattered. The trial id still
// hashes every non-default setting.
func (t Trial) RecordSettings() map[string]any {
	out := keep(t.Values, readKeys(t.Method, t.Data.Source))
	if t.Replicate == 0 {
		// Replicate 0 is the trial itself: its record has no replicate
		// key, so adding replicates to a spec keeps its first trial.
		delete(out, KeyReplicate)
	}
	for k, v := range out {
		if set, ok := LookupSetting(k); ok && set.OmitDefault && reflect.DeepEqual(records.Normalize(set.Default), records.Normalize(v)) {
			delete(out, k)
		}
	}
	return out
}

// SameTrial reports whether a recorded trial's settings are a new trial's,
// over the settings the new trial's method and data source read: settings
// of another method's namespace cannot change this trial's numbers (a
// changed sca.* default must not recompute a GloVe trial). A key the record
// lacks matches when the new value is the default, so adding a setting to
// the project does not invalidate earlier results.
func SameTrial(old map[string]any, cur Trial) bool {
	return len(TrialDiff(old, cur)) == 0
}

// TrialDiff names the settings in which a recorded trial differs from a new
// trial by SameTrial's rule, sorted; none when it is the same trial. It is
// asked of a record and a trial of one id.
func TrialDiff(old map[string]any, cur Trial) []string {
	if m, _ := old[KeyMethod].(string); m != cur.Method {
		return []string{KeyMethod}
	}
	reads := readKeys(cur.Method, cur.Data.Source)
	o, c := numbered(keep(old, reads)), numbered(keep(cur.Values, reads))
	// Data paths are compared by the trial id, which hashes them as the
	// spec writes them (idPath), not as the path of the spec file made
	// them; what the files hold, by the run's input check.
	for _, d := range dataSettings() {
		delete(o, d.key)
		delete(c, d.key)
	}
	var diff []string
	for k, v := range c {
		ov, ok := o[k]
		if !ok {
			s, known := LookupSetting(k)
			ov = nil
			if known {
				ov = s.Default
			}
			if !known || !records.SameSettings(map[string]any{k: ov}, map[string]any{k: v}) {
				diff = append(diff, k)
			}
			continue
		}
		if !records.SameSettings(map[string]any{k: ov}, map[string]any{k: v}) {
			diff = append(diff, k)
		}
	}
	for k := range o {
		if _, ok := c[k]; !ok {
			diff = append(diff, k)
		}
	}
	sort.Strings(diff)
	return diff
}

// keep returns the settings of s that reads names (all of them when reads
// is nil). A key that is no longer a setting is kept, so a record that has
// one is not taken for a current trial.
func keep(s map[string]any, reads []string) map[string]any {
	if reads == nil {
		return s
	}
	out := make(map[string]any, len(s))
	for k, v := range s {
		if _, known := LookupSetting(k); !known || readsKey(reads, k) {
			out[k] = v
		}
	}
	return out
}

// numbered drops the settings that do not change a trial's numbers (NoID:
// how many replicates, how a table is held, what a design was tuned on):
// a record that differs only in them is the same trial.
func numbered(s map[string]any) map[string]any {
	out := make(map[string]any, len(s))
	for k, v := range s {
		if set, ok := LookupSetting(k); !ok || !set.NoID {
			out[k] = v
		}
	}
	return out
}

// WithDefaults fills the settings a record left out at their defaults
// (omitdefault) into v, a map of setting keys to values (a tuning
// candidate's tuned values): a reader sees the value the trial ran with.
func WithDefaults(v map[string]any) {
	for k, x := range v {
		if x != nil {
			continue
		}
		if set, ok := LookupSetting(k); ok {
			v[k] = set.Default
		}
	}
}
