package schema

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"kcalab/datasets"
	"kcalab/datasets/corpus"
	"kcalab/datasets/wordsim"
)

// dataSetting is a setting whose value names data: a file path (relative
// to the spec file) or, where it has built-in names, one of those. This
// table is the one place that says which settings name files and which
// names are built in; IsPath and SetKey read it.
type dataSetting struct {
	key   string
	names *builtinNames // nil: the value is always a file
}

func dataSettings() []dataSetting {
	sets := setNames()
	sets.known = append(sets.known, SCASetDev) // the dev parts of eval.sets together
	evalSets := setNames()
	evalSets.known = append(evalSets.known, "synthetic") // a synthetic corpus's own pairs
	return []dataSetting{
		{key: "data.csv"},
		{key: "data.tables"},
		{key: "data.corpus", names: &builtinNames{what: "corpus", whats: "corpora", known: corpus.Names()}},
		{key: "sca.set", names: &sets},
		{key: "eval.sets", names: &evalSets},
		{key: "eval.analogies", names: &builtinNames{what: "analogy set", whats: "analogy sets", known: wordsim.AnalogyNames()}},
	}
}

func lookupDataSetting(key string) (dataSetting, bool) {
	for _, d := range dataSettings() {
		if d.key == key {
			return d, true
		}
	}
	return dataSetting{}, false
}

// isPath reports whether a value of the setting is a file path rather than
// a built-in name.
func (d dataSetting) isPath(value string) bool {
	if d.names == nil {
		return value != ""
	}
	return datasets.IsPath(value, d.names.accepts)
}

// IsPath reports whether a value of a data setting (data.corpus, eval.sets,
// eval.analogies, sca.set, data.csv, data.tables) is a file path rather
// than a built-in name; false for other keys.
func IsPath(key, value string) bool {
	d, ok := lookupDataSetting(key)
	return ok && d.isPath(value)
}

// SetKey is the key a word-similarity or analogy set's metrics carry: a
// built-in set's name, or a file's base name with its extension.
func SetKey(name string) string {
	sets := setNames()
	return datasets.Key(name, func(s string) bool {
		return sets.accepts(s) || s == "synthetic" || slices.Contains(wordsim.AnalogyNames(), s)
	})
}

// SetLabel is a word-similarity set's display name: the paper's name for a
// built-in set ("M.Turk"), the key itself otherwise.
func SetLabel(key string) string {
	if in, err := wordsim.Lookup(key); err == nil && in.Short == key {
		return in.Display
	}
	return key
}

// builtinNames describes the built-in names a data setting may take instead
// of a path (data.corpus: text8; eval.sets: men): such a name is checked
// when the spec is decoded, so a typo fails at once, with its line, rather
// than when the trial runs, maybe hours later.
type builtinNames struct {
	what  string   // "corpus", "set"
	whats string   // its plural
	known []string // accepted names, in their usual order
	// aliases maps other spellings a user may type (the file's name, the
	// paper's column header) to the name to suggest.
	aliases map[string]string
	// accept reports whether name is accepted as is besides the known
	// names (case-insensitive display names); nil means none.
	accept func(string) bool
}

// accepts reports whether name is one of the built-in names.
func (b builtinNames) accepts(name string) bool {
	return slices.Contains(b.known, name) || (b.accept != nil && b.accept(name))
}

func setNames() builtinNames {
	b := builtinNames{what: "set", whats: "sets", known: wordsim.Names(), aliases: map[string]string{}}
	for _, in := range wordsim.Sets() {
		b.aliases[strings.ToLower(strings.TrimSuffix(in.File, filepath.Ext(in.File)))] = in.Short
		b.aliases[strings.ToLower(in.Display)] = in.Short
	}
	b.accept = func(s string) bool { _, err := wordsim.Lookup(s); return err == nil }
	return b
}

// checkBuiltinNames checks the values of a data setting that are names,
// not paths. It returns the line of the first unknown name and what is
// wrong with it.
func checkBuiltinNames(key string, v *yaml.Node) (int, error) {
	d, ok := lookupDataSetting(key)
	if !ok || d.names == nil {
		return 0, nil
	}
	b := *d.names
	nodes := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		nodes = v.Content
	}
	for _, n := range nodes {
		name := n.Value
		if n.Kind != yaml.ScalarNode || name == "" || b.accepts(name) || d.isPath(name) {
			continue
		}
		msg := fmt.Sprintf("%s: unknown %s %q", key, b.what, name)
		if s := b.suggest(name); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		msg += fmt.Sprintf(" (known %s: %s; a file path needs a slash or an extension, e.g. ./%s.txt)", b.whats, strings.Join(b.known, ", "), name)
		return n.Line, fmt.Errorf("%s", msg)
	}
	return 0, nil
}

// suggest returns the known name closest to name, when one is close: by
// edit distance to a name or an alias, or as the start of one ("simlex" of
// "simlex999").
func (b builtinNames) suggest(name string) string {
	l := strings.ToLower(name)
	type cand struct{ spelling, name string }
	var cands []cand
	for _, k := range b.known {
		cands = append(cands, cand{k, k})
	}
	for a, k := range b.aliases {
		cands = append(cands, cand{a, k})
	}
	best, bestD := "", 3 // at most two edits away
	for _, c := range cands {
		d := editDistance(l, c.spelling)
		if len(l) >= 3 && strings.HasPrefix(c.spelling, l) {
			d = 1
		}
		// Ties go to the earlier known name (a map's order is random).
		if d < bestD || (d == bestD && best != "" && indexOf(b.known, c.name) < indexOf(b.known, best)) {
			best, bestD = c.name, d
		}
	}
	return best
}

func indexOf(list []string, s string) int {
	if i := slices.Index(list, s); i >= 0 {
		return i
	}
	return len(list)
}
