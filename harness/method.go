package harness

import (
	"context"
	"fmt"
	"kcalab/records"
	"sort"
	"strings"
	"sync"

	"kcalab/datasets/wordsim"
)

// Input is what a method analyses; a method may take several.
type Input uint8

const (
	// TableInput is a labelled contingency table (data.source fisher or csv).
	TableInput Input = 1 << iota
	// CorpusInput is a text corpus (data.source corpus or synthetic).
	CorpusInput
)

func (in Input) String() string {
	var parts []string
	if in&TableInput != 0 {
		parts = append(parts, "table")
	}
	if in&CorpusInput != 0 {
		parts = append(parts, "corpus")
	}
	return strings.Join(parts, " or ")
}

// MethodInfo describes a method to the spec decoder, the runner and the
// reports.
type MethodInfo struct {
	Name  string // the spec's method value ("sgns")
	Label string // display label in reports ("SGNS")
	Doc   string // one line for the settings reference
	// Rank orders methods in lists (the paper's order); ties by name.
	Rank   int
	Inputs Input
	// TableReads and CorpusReads are the namespaces ("svd") or keys
	// ("train.dim") the method reads with each input. A record keeps only
	// those (and the data source's and the general ones), so a reader sees
	// what mattered, and reuse of a recorded trial ignores the rest.
	TableReads, CorpusReads []string
	// InSampleSet, when set, names the word-similarity set a recorded trial
	// was tuned on and scored on (reports mark that score: it is not held out).
	InSampleSet func(settings map[string]any) string
}

// Method is an analysis a trial can run. Each method registers itself, in
// its own file, with RegisterMethod; the spec's allowed values, the
// dispatch and the reports' labels derive from the registry.
type Method interface {
	Info() MethodInfo
	// Run analyses the trial's input (TrialRun.Table or TrialRun.Words) and
	// writes its results into TrialRun.Record (metrics, CA result), or
	// scores word vectors with TrialRun.Score.
	Run(ctx context.Context, tr *TrialRun) error
}

var (
	methodsMu sync.RWMutex
	methods   = map[string]Method{}
)

// RegisterMethod adds a method to the registry and returns a function that
// removes it again (for tests). Registering a name twice is a programming
// error and panics.
func RegisterMethod(m Method) (unregister func()) {
	info := m.Info()
	if info.Name == "" || info.Inputs == 0 {
		panic("harness: a method needs a name and at least one input")
	}
	methodsMu.Lock()
	defer methodsMu.Unlock()
	if _, dup := methods[info.Name]; dup {
		panic("harness: method " + info.Name + " registered twice")
	}
	methods[info.Name] = m
	return func() {
		methodsMu.Lock()
		defer methodsMu.Unlock()
		delete(methods, info.Name)
	}
}

// LookupMethod returns a registered method.
func LookupMethod(name string) (Method, bool) {
	methodsMu.RLock()
	defer methodsMu.RUnlock()
	m, ok := methods[name]
	return m, ok
}

// Methods lists the registered methods by rank, then name.
func Methods() []MethodInfo {
	methodsMu.RLock()
	out := make([]MethodInfo, 0, len(methods))
	for _, m := range methods {
		out = append(out, m.Info())
	}
	methodsMu.RUnlock()
	sort.Slice(out, func(i, j int) bool {
		if out[i].Rank != out[j].Rank {
			return out[i].Rank < out[j].Rank
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// MethodNames lists the registered methods' names in order.
func MethodNames() []string {
	var out []string
	for _, m := range Methods() {
		out = append(out, m.Name)
	}
	return out
}

// MethodLabel is a method's display label, or the name itself when no
// method of that name is registered (an old record).
func MethodLabel(name string) string {
	if m, ok := LookupMethod(name); ok && m.Info().Label != "" {
		return m.Info().Label
	}
	return name
}

// methodsTaking lists the methods that accept an input, for messages.
func methodsTaking(in Input) []string {
	var out []string
	for _, m := range Methods() {
		if m.Inputs&in != 0 {
			out = append(out, m.Name)
		}
	}
	return out
}

// InSampleSet names the set a recorded trial was tuned on ("" when its
// method tunes on none).
func InSampleSet(rec records.Record) string {
	name, _ := rec.Settings["method"].(string)
	m, ok := LookupMethod(name)
	if !ok || m.Info().InSampleSet == nil {
		return ""
	}
	return m.Info().InSampleSet(rec.Settings)
}

// SetLabel is a word-similarity set's display name: the paper's name for a
// built-in set ("M.Turk"), the key itself otherwise.
func SetLabel(key string) string {
	if in, err := wordsim.Lookup(key); err == nil && in.Short == key {
		return in.Display
	}
	return key
}

// methodDoc is the settings reference's text for the method key: one entry
// per registered method.
func methodDoc() string {
	var parts []string
	for _, m := range Methods() {
		parts = append(parts, fmt.Sprintf("%s: %s", m.Name, m.Doc))
	}
	return strings.Join(parts, "; ")
}

// MeasuredInChild reports whether a recorded trial ran (or was to run) in a
// measured child process (measure.process).
func MeasuredInChild(rec records.Record) bool {
	b, _ := rec.Settings["measure.process"].(bool)
	return b
}
