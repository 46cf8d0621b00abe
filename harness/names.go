package harness

import (
	"fmt"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"kcalab/datasets/corpus"
	"kcalab/datasets/wordsim"
)

// builtinName describes the built-in names a file setting may take instead
// of a path (data.corpus: text8; eval.sets: men): such a name is checked
// when the spec is decoded, so a typo fails at once, with its line, rather
// than when the trial runs, maybe hours later.
type builtinName struct {
	what  string   // "corpus", "set"
	whats string   // its plural
	known []string // accepted names, in their usual order
	// aliases maps other spellings a user may type (the file's name, the
	// paper's column header) to the name to suggest.
	aliases map[string]string
	// accept reports whether name is accepted as is (e.g. case-insensitive
	// display names); nil means exactly the known names.
	accept func(string) bool
}

// builtinNames are the settings naming a built-in corpus or set.
func builtinNames(key string) (builtinName, bool) {
	switch key {
	case "data.corpus":
		return builtinName{what: "corpus", whats: "corpora", known: corpus.Names()}, true
	case "eval.sets":
		b := setNames()
		b.known = append(b.known, "synthetic") // a synthetic corpus's own pairs
		return b, true
	case "sca.set":
		return setNames(), true
	case "eval.analogies":
		return builtinName{what: "analogy set", whats: "analogy sets", known: AnalogySetNames()}, true
	}
	return builtinName{}, false
}

func setNames() builtinName {
	b := builtinName{what: "set", whats: "sets", known: wordsim.Names(), aliases: map[string]string{}}
	for _, in := range wordsim.Sets() {
		b.aliases[strings.ToLower(strings.TrimSuffix(in.File, filepath.Ext(in.File)))] = in.Short
		b.aliases[strings.ToLower(in.Display)] = in.Short
	}
	b.accept = func(s string) bool { _, err := wordsim.Lookup(s); return err == nil }
	return b
}

// checkBuiltinNames checks the values of a file setting that are names, not
// paths (no slash, no extension: see isLocalPath). It returns the line of
// the first unknown name and what is wrong with it.
func checkBuiltinNames(key string, v *yaml.Node) (int, error) {
	b, ok := builtinNames(key)
	if !ok {
		return 0, nil
	}
	nodes := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		nodes = v.Content
	}
	for _, n := range nodes {
		name := n.Value
		if n.Kind != yaml.ScalarNode || name == "" || contains(b.known, name) || (b.accept != nil && b.accept(name)) {
			continue
		}
		// "M.Turk" has an "extension" but is a set: accepted above. A
		// path is anything else with a slash or an extension.
		if isLocalPath(name) {
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
func (b builtinName) suggest(name string) string {
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
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return len(list)
}
