package schema

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"kcalab/records"
)

// Input is what a method analyses; a method may take several.
type Input uint8

const (
	// TableInput is a labelled contingency table (data.source fisher or csv).
	TableInput Input = 1 << iota
	// CorpusInput is a text corpus (data.source corpus, synthetic or tables).
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
// reports: what a method is, never how it runs (package harness runs it).
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
	// InSampleSet, when set, names the word-similarity set a trial was
	// tuned on and scored on (reports mark that score: it is not held out).
	InSampleSet func(Settings) string
	// Axes says the method's word vectors are principal coordinates of a
	// correspondence analysis, so their first two components are axes a
	// word map may draw; a neural embedding's are not.
	Axes bool
	// Reference says the method runs another program (the reference
	// implementations, gensim or the fastText CLI): reports pair its trials
	// with the Go trials of the same name.
	Reference bool
	// ZeroMeans spells, for settings whose 0 means "the method's own
	// default", what that default is ("train.window" → "15").
	ZeroMeans map[string]string
	// Baseline says the method is one of the paper's neural baselines (SGNS,
	// CBOW, GloVe, fastText), trained on one core: the verdicts of a tuned
	// page set the best CA design against the best of them, and its search
	// budget counts one core per trial.
	Baseline bool
	// Similarity is how the method's own users compare its word vectors
	// (records.SimDot, records.SimCosine; "" for a method without them):
	// score tables rank it at that similarity unless a spec says
	// otherwise (report.similarity).
	Similarity records.Similarity
}

var (
	methodsMu sync.RWMutex
	methods   = map[string]MethodInfo{}
)

// RegisterMethod adds a method's description and returns a function that
// removes it again (for tests). Package harness calls it when a method
// registers; the decoder allows the registered names. Registering a name
// twice, or a method without a name or input, is a programming error and
// panics.
func RegisterMethod(info MethodInfo) (unregister func()) {
	if info.Name == "" || info.Inputs == 0 {
		panic("schema: a method needs a name and at least one input")
	}
	methodsMu.Lock()
	defer methodsMu.Unlock()
	if _, dup := methods[info.Name]; dup {
		panic("schema: method " + info.Name + " registered twice")
	}
	methods[info.Name] = info
	return func() {
		methodsMu.Lock()
		defer methodsMu.Unlock()
		delete(methods, info.Name)
	}
}

// LookupMethod returns a registered method's description.
func LookupMethod(name string) (MethodInfo, bool) {
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
		out = append(out, m)
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

// MethodsTaking lists the methods that accept an input, for messages.
func MethodsTaking(in Input) []string {
	var out []string
	for _, m := range Methods() {
		if m.Inputs&in != 0 {
			out = append(out, m.Name)
		}
	}
	return out
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

// OwnSimilarity is the similarity a record's method declares (its users'
// own), else the one the trial scored its plain keys at (eval.similarity).
func OwnSimilarity(rec records.Record) records.Similarity {
	if m, ok := LookupMethod(fmt.Sprint(rec.Settings[KeyMethod])); ok && m.Similarity != "" {
		return m.Similarity
	}
	return records.Similarity(RecordSettings(rec.Settings).Eval.Similarity)
}
