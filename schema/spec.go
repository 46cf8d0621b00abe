package schema

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"kcalab/internal/inputfile"
	"kcalab/internal/termsafe"
	"kcalab/records"

	"go.yaml.in/yaml/v3"
)

// Spec is a decoded experiment specification.
type Spec struct {
	Path        string // file the spec came from ("" when decoded from bytes without a name)
	Name        string
	Description string
	Question    string // one line; "" = the description's first sentence (reports)
	Seed        uint64
	Output      string  // output directory
	Tolerance   float64 // -check: allowed fall of a score below the reference
	Report      ReportSettings

	// OutputLine is the line of the output: key in the file (0 = not
	// given: the default, results/<name>).
	OutputLine int

	// values holds, for every per-trial key, the list of values the spec gives
	// (one element unless the key is a grid axis); defaults are filled in.
	values map[string][]any
	// axes lists the keys given as lists, in the order they appear in the file.
	axes []string
	// variants are the entries of the spec's variants: list, each a set of
	// overrides (values and axes) applied on top of the shared settings.
	variants []variant
	// idPaths maps each data path as resolved against the spec file's
	// directory to the form a trial id hashes (idPath): how the spec file's
	// path was spelled must not change an id.
	idPaths map[string]string
}

// idPath is the form of a data path p, as the spec writes it, that a trial
// id hashes: relative to the spec file's directory when it lies there
// (written relative, or absolute below specDir), else absolute; cleaned,
// '/'-separated. It depends neither on how the spec file's path is spelled
// (relative or absolute) nor on the working directory.
func idPath(specDir, p string) string {
	if !filepath.IsAbs(p) {
		return filepath.ToSlash(filepath.Clean(p))
	}
	if r, err := filepath.Rel(specDir, filepath.Clean(p)); err == nil && filepath.IsLocal(r) {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(filepath.Clean(p))
}

// variant is one entry of a spec's variants: list.
type variant struct {
	line   int
	values map[string][]any
	axes   []string
}

// Axes returns the grid axes in file order.
func (s *Spec) Axes() []string { return append([]string(nil), s.axes...) }

// Values returns the values a key takes in the grid.
func (s *Spec) Values(key string) []any { return s.values[key] }

// MaxSpecBytes bounds a spec file: a spec is a page of YAML, and anything
// larger (a device, a runaway generator) is refused rather than read.
const MaxSpecBytes = 1 << 20

// LoadSpec reads and decodes a spec file. Only a regular file of at most
// MaxSpecBytes is read: a device (/dev/zero), a FIFO or a directory is
// refused before it is opened for reading, so nothing can make the read
// unbounded or block.
func LoadSpec(path string) (*Spec, error) {
	b, err := readSpecFile(path)
	if err != nil {
		return nil, err
	}
	return DecodeSpec(b, path)
}

func readSpecFile(path string) ([]byte, error) {
	b, err := inputfile.ReadFile(path, inputfile.Spec{What: "a spec (a YAML file)", Limit: MaxSpecBytes})
	if err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	return b, nil
}

// SpecError is a problem at a line of a spec file.
type SpecError struct {
	File string
	Line int
	Msg  string
}

func (e *SpecError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// DecodeSpec decodes a spec strictly: unknown keys, wrong types and
// out-of-range values are errors naming the line and what is allowed.
func DecodeSpec(b []byte, path string) (*Spec, error) {
	name := path
	if name == "" {
		name = "spec"
	}
	fail := func(line int, format string, args ...any) error {
		return &SpecError{File: name, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, fail(0, "empty spec: want at least a name")
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fail(root.Line, "a spec is a mapping of keys (name:, data:, svd: …), not a %s", kindName(root))
	}
	spec := &Spec{Path: path, values: map[string][]any{}}
	given := map[string]bool{}
	values, axes := spec.values, &spec.axes
	inVariant := false
	// tunedLines are the lines of tuned_on's names, by scope: -1 the top
	// level, i the i-th variant (checkTunedOn).
	scope, variantNo := -1, -1
	tunedLines := map[int]map[string]int{}
	var walk func(prefix string, m *yaml.Node) error
	walk = func(prefix string, m *yaml.Node) error {
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := m.Content[i], m.Content[i+1]
			key := k.Value
			if prefix != "" {
				key = prefix + "." + k.Value
			}
			if given[key] {
				return fail(k.Line, "key %q given twice", key)
			}
			given[key] = true
			if key == "variants" && !inVariant {
				vs, err := decodeVariants(v, walk, func(vals map[string][]any, ax *[]string, g map[string]bool) func() {
					saved, savedAxes, savedGiven := values, axes, given
					values, axes, given, inVariant = vals, ax, g, true
					variantNo++
					scope = variantNo
					return func() { values, axes, given, inVariant, scope = saved, savedAxes, savedGiven, false, -1 }
				}, fail)
				if err != nil {
					return err
				}
				if err := distinctLabels(vs, fail); err != nil {
					return err
				}
				spec.variants = vs
				continue
			}
			if isSection(key) {
				if v.Kind != yaml.MappingNode {
					return fail(v.Line, "%s is a section: want a mapping of %s", key, strings.Join(sectionKeys(key), ", "))
				}
				if err := walk(key, v); err != nil {
					return err
				}
				continue
			}
			set, ok := LookupSetting(key)
			if !ok {
				return fail(k.Line, "unknown key %q%s", key, suggest(prefix, k.Value))
			}
			if inVariant && isRunKey(key) {
				return fail(k.Line, "%s describes the whole run: set it at the top level, not in a variant", key)
			}
			vals, err := decodeValues(set, v, isRunKey(key))
			if err != nil {
				return fail(v.Line, "%s: %v", key, err)
			}
			if line, err := checkBuiltinNames(key, v); err != nil {
				return fail(line, "%v", err)
			}
			if key == "output" {
				spec.OutputLine = k.Line
			}
			if key == "tuned_on" {
				tunedLines[scope] = scalarLines(v)
			}
			if len(vals) > 1 || (v.Kind == yaml.SequenceNode && set.Kind != StringList) {
				*axes = append(*axes, key)
			}
			values[key] = vals
		}
		return nil
	}
	if err := walk("", root); err != nil {
		return nil, err
	}

	nameVals, ok := spec.values["name"]
	if !ok || nameVals[0].(string) == "" {
		return nil, fail(root.Line, "missing required key \"name\"")
	}
	spec.Name = nameVals[0].(string)
	if strings.ContainsAny(spec.Name, `/\`) || strings.HasPrefix(spec.Name, ".") {
		return nil, fail(root.Line, "name %q must be a plain file name (no slashes, not starting with a dot)", spec.Name)
	}
	run := map[string]any{}
	for _, k := range RunKeys() {
		if v, ok := spec.values[k.Key]; ok {
			run[k.Key] = v[0]
		}
		delete(spec.values, k.Key)
	}
	var rs RunSettings
	fill(&rs, RunKeys(), run)
	spec.Description, spec.Question, spec.Seed, spec.Output, spec.Tolerance = rs.Description, rs.Question, uint64(rs.Seed), rs.Output, rs.Tolerance
	spec.Report = rs.Report
	switch {
	case spec.Output == "":
		spec.Output = filepath.Join("results", spec.Name)
	case path != "" && !filepath.IsAbs(spec.Output):
		// Relative to the spec file, like every data path in it.
		spec.Output = filepath.Join(filepath.Dir(path), spec.Output)
	}
	for _, s := range TrialSettings() {
		if _, ok := spec.values[s.Key]; !ok {
			spec.values[s.Key] = []any{s.Default}
		}
	}
	// Data files are relative to the spec file, so a spec can be run from
	// anywhere.
	if path != "" {
		spec.idPaths = map[string]string{}
		specDir, err := filepath.Abs(filepath.Dir(path))
		if err != nil {
			return nil, fail(0, "%v", err)
		}
		maps := []map[string][]any{spec.values}
		for _, v := range spec.variants {
			maps = append(maps, v.values)
		}
		for _, m := range maps {
			for _, d := range dataSettings() {
				rel := func(p string) string {
					if !d.isPath(p) {
						return p
					}
					r := p
					if !filepath.IsAbs(p) {
						r = filepath.Join(filepath.Dir(path), p)
					}
					spec.idPaths[r] = idPath(specDir, p)
					return r
				}
				for i, v := range m[d.key] {
					switch x := v.(type) {
					case string:
						m[d.key][i] = rel(x)
					case []string:
						if len(x) == 0 && d.key != "eval.sets" {
							// Keep [] (the default of eval.analogies): nil would
							// read as a changed default and change trial ids. An
							// empty eval.sets has always become nil, and committed
							// ids hash that.
							continue
						}
						list := append([]string(nil), x...) // never alias the default
						for j := range list {
							list[j] = rel(list[j])
						}
						m[d.key][i] = list
					}
				}
			}
		}
	}
	if err := spec.checkSetKeys(); err != nil {
		return nil, fail(root.Line, "%v", err)
	}
	if line, err := spec.checkTunedOn(tunedLines); err != nil {
		return nil, fail(line, "%v", err)
	}
	if err := spec.checkGridSize(); err != nil {
		return nil, fail(root.Line, "%v", err)
	}
	if err := spec.checkTrials(); err != nil {
		return nil, fail(root.Line, "%v", err)
	}
	return spec, nil
}

// checkTrials refuses what no single setting's range can say: a list of
// replicate counts, and settings that contradict each other in a trial
// (checked on every trial of the grid, which checkGridSize bounded).
func (s *Spec) checkTrials() error {
	for _, m := range append([]map[string][]any{s.values}, variantValues(s.variants)...) {
		if r := m["replicates"]; len(r) > 1 {
			return fmt.Errorf("replicates: %v is a list, but replicates is a count, not a grid axis: give one number (a variant may give another)", r)
		}
	}
	for _, t := range s.Trials() {
		title := "trial " + t.ID
		if t.Title != "" {
			title += " (" + t.Title + ")"
		}
		if t.Subword.MaxN > 0 && t.Subword.MinN > t.Subword.MaxN {
			return fmt.Errorf("%s: subword.min_n = %d is larger than subword.max_n = %d: want min_n ≤ max_n (or max_n = 0, no subwords)", title, t.Subword.MinN, t.Subword.MaxN)
		}
		if t.Method == "fasttext" && t.Train.MaxN > 0 && t.Train.MinN > t.Train.MaxN {
			return fmt.Errorf("%s: train.min_n = %d is larger than train.max_n = %d: want min_n ≤ max_n (or max_n = 0, words only)", title, t.Train.MinN, t.Train.MaxN)
		}
		if err := checkTune(t); err != nil {
			return fmt.Errorf("%s: %w", title, err)
		}
		if err := checkSupervised(t); err != nil {
			return fmt.Errorf("%s: %w", title, err)
		}
		if !t.Data.Source.Table() && (len(t.Data.SupRows) > 0 || len(t.Data.SupCols) > 0) {
			return fmt.Errorf("%s: data.supplementary_rows/cols apply to a table (data.source fisher or csv), not to data.source %s", title, t.Data.Source)
		}
	}
	return nil
}

func variantValues(vs []variant) []map[string][]any {
	out := make([]map[string][]any, len(vs))
	for i, v := range vs {
		out[i] = v.values
	}
	return out
}

// checkSetKeys refuses a list of evaluation sets in which two files would
// record their scores under one key (same base name in two folders): one
// score would silently replace the other.
func (s *Spec) checkSetKeys() error {
	maps := []map[string][]any{s.values}
	for _, v := range s.variants {
		maps = append(maps, v.values)
	}
	for _, m := range maps {
		for _, v := range m["tuned_on"] {
			for _, name := range v.([]string) {
				if _, part := records.SplitSetPart(name); part != "" && part != records.PartDev && part != records.PartTest {
					return fmt.Errorf("tuned_on: %s: a part of a set is %s or %s (SET@dev)", name, records.PartDev, records.PartTest)
				}
			}
		}
		for _, setting := range []string{"eval.sets", "eval.analogies"} {
			for _, v := range m[setting] {
				byKey := map[string]string{}
				for _, name := range v.([]string) {
					key := SetKey(name)
					if other, ok := byKey[key]; ok && other != name {
						return fmt.Errorf("%s: %s and %s would both be scored as %q: give the files different names", setting, other, name, key)
					} else if ok {
						return fmt.Errorf("%s: %s is listed twice", setting, name)
					}
					if err := records.CheckSetKey(key); err != nil && setting == "eval.sets" {
						return fmt.Errorf("eval.sets: %s: %w: rename it", name, err)
					}
					byKey[key] = name
				}
			}
		}
	}
	return nil
}

// scalarLines maps each scalar under v (a list, or a list of lists) to
// the line it is first given on.
func scalarLines(v *yaml.Node) map[string]int {
	lines := map[string]int{}
	var visit func(*yaml.Node)
	visit = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			if _, ok := lines[n.Value]; !ok {
				lines[n.Value] = n.Line
			}
		}
		for _, c := range n.Content {
			visit(c)
		}
	}
	visit(v)
	return lines
}

// checkTunedOn refuses a tuned_on name that is no set a trial scores: an
// eval.sets set, with eval.parts its dev and test parts (SET@dev), or an
// eval.analogies set. A typo there would leave an in-sample score unmarked,
// and ranked. Each variant is checked with the settings it runs with (its
// own, else the top level's), a name against every value an axis gives the
// sets. It returns the line of the bad name (lines: scalarLines of each
// scope's tuned_on, -1 the top level, i the i-th variant).
func (s *Spec) checkTunedOn(lines map[int]map[string]int) (int, error) {
	type scope struct {
		no     int
		values map[string][]any
	}
	scopes := []scope{{-1, map[string][]any{}}}
	if len(s.variants) > 0 {
		scopes = scopes[:0]
		for i, v := range s.variants {
			scopes = append(scopes, scope{i, v.values})
		}
	}
	for _, sc := range scopes {
		get := func(key string) []any {
			if v, ok := sc.values[key]; ok {
				return v
			}
			return s.values[key]
		}
		at := -1 // the scope whose tuned_on the trials take
		if _, ok := sc.values["tuned_on"]; ok {
			at = sc.no
		}
		var sets, allowed []string
		for _, v := range get("eval.sets") {
			for _, name := range v.([]string) {
				if k := SetKey(name); !slices.Contains(sets, k) {
					sets = append(sets, k)
				}
			}
		}
		parts := slices.Contains((get("eval.parts")), any(true))
		allowed = append(allowed, sets...)
		if parts {
			for _, k := range sets {
				allowed = append(allowed, records.SetPart(k, records.PartDev), records.SetPart(k, records.PartTest))
			}
		}
		for _, v := range get("eval.analogies") {
			for _, name := range v.([]string) {
				if k := SetKey(name); !slices.Contains(allowed, k) {
					allowed = append(allowed, k)
				}
			}
		}
		for _, v := range get("tuned_on") {
			for _, name := range v.([]string) {
				set, part := records.SplitSetPart(name)
				key := SetKey(set)
				if part != "" {
					key = records.SetPart(key, part)
				}
				if slices.Contains(allowed, key) {
					continue
				}
				line := lines[at][name]
				msg := fmt.Sprintf("tuned_on: %q is no set this trial scores", name)
				switch {
				case part != "" && slices.Contains(sets, SetKey(set)) && !parts:
					msg += fmt.Sprintf(": %s is scored without its parts (set eval.parts: true to score %s)", set, name)
				case len(allowed) == 0:
					return line, fmt.Errorf("%s: it scores none (eval.sets is empty)", msg)
				default:
					if best := closest(name, allowed); best != "" {
						msg += fmt.Sprintf("; did you mean %q?", best)
					}
				}
				return line, fmt.Errorf("%s (allowed: %s)", msg, strings.Join(allowed, ", "))
			}
		}
	}
	return 0, nil
}

// MaxTrials is the largest grid a spec may expand to. A grid is expanded in
// memory before any trial runs, and a spec whose axes multiply past this is
// almost always a mistake (an axis given a long list by accident). It bounds
// the grid, not the work: a search by successive halving expands every point
// of its grid and runs a fraction of them (at-its-best-d: about 10,300 points,
// its neural baselines' replicates counted at every configuration, about 3,000
// run).
const MaxTrials = 20000

// checkGridSize counts the trials before expanding the grid, so a huge grid
// is refused with its axes named instead of exhausting memory.
func (s *Spec) checkGridSize() error {
	variants := s.variants
	if len(variants) == 0 {
		variants = []variant{{}}
	}
	total := 0
	for _, v := range variants {
		n := 1
		var parts []string
		count := func(key string, vals []any) {
			n = min(n*len(vals), MaxTrials+1) // saturate: no overflow however many axes
			parts = append(parts, fmt.Sprintf("%s: %d", key, len(vals)))
		}
		for _, a := range s.axes {
			if _, over := v.values[a]; !over {
				count(a, s.values[a])
			}
		}
		for _, a := range v.axes {
			count(a, v.values[a])
		}
		reps := s.values["replicates"]
		if r, ok := v.values["replicates"]; ok {
			reps = r
		}
		most := 1
		for _, r := range reps {
			most = max(most, r.(int))
		}
		if most > 1 {
			n = min(n*most, MaxTrials+1)
			parts = append(parts, fmt.Sprintf("replicates: %d", most))
		}
		total = min(total+n, MaxTrials+1)
		if total > MaxTrials {
			where := ""
			if v.line > 0 {
				where = fmt.Sprintf(" (with the variant at line %d)", v.line)
			}
			return fmt.Errorf("the grid has more than %d trials%s: %s values multiply past the limit; shorten an axis or split the spec",
				MaxTrials, where, strings.Join(parts, " × "))
		}
	}
	return nil
}

// decodeVariants decodes the variants: list. Each entry is a mapping with
// the same keys as the spec (not the run keys); enter switches the walk to
// the entry's own maps and returns the function that switches back.
func decodeVariants(v *yaml.Node, walk func(string, *yaml.Node) error,
	enter func(map[string][]any, *[]string, map[string]bool) func(),
	fail func(int, string, ...any) error) ([]variant, error) {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return nil, fail(v.Line, "variants: want a non-empty list of mappings, each overriding settings (e.g. - {method: ca, data: {table: cut}})")
	}
	var out []variant
	for _, e := range v.Content {
		if e.Kind != yaml.MappingNode {
			return nil, fail(e.Line, "variants: each entry is a mapping of settings, not a %s", kindName(e))
		}
		vr := variant{line: e.Line, values: map[string][]any{}}
		leave := enter(vr.values, &vr.axes, map[string]bool{})
		err := walk("", e)
		leave()
		if err != nil {
			return nil, err
		}
		out = append(out, vr)
	}
	return out, nil
}

func isRunKey(key string) bool {
	s, ok := LookupSetting(key)
	return ok && isRunSetting(s) // report.* are run keys in a section
}

// isSection reports whether key is a prefix of some setting key.
func isSection(key string) bool {
	return len(sectionKeys(key)) > 0
}

// sectionKeys lists the direct children of a section, sorted.
func sectionKeys(section string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(k string) {
		var rest string
		if section == "" {
			rest = k
		} else if strings.HasPrefix(k, section+".") {
			rest = k[len(section)+1:]
		} else {
			return
		}
		child, _, _ := strings.Cut(rest, ".")
		if !seen[child] {
			seen[child] = true
			out = append(out, child)
		}
	}
	for _, s := range RunKeys() {
		add(s.Key)
	}
	if section == "" {
		add("variants")
	}
	for _, s := range TrialSettings() {
		add(s.Key)
	}
	sort.Strings(out)
	return out
}

func suggest(section, key string) string {
	allowed := sectionKeys(section)
	where := "at the top level"
	if section != "" {
		where = "in " + section
	}
	best := closest(key, allowed)
	s := fmt.Sprintf(" (allowed %s: %s)", where, strings.Join(allowed, ", "))
	if best != "" {
		s = fmt.Sprintf("; did you mean %q?%s", best, s)
	}
	return s
}

// closest is the allowed name nearest to name, when one is at most two
// edits away; "" otherwise.
func closest(name string, allowed []string) string {
	best, bestD := "", 3
	for _, a := range allowed {
		if d := editDistance(a, name); d < bestD {
			best, bestD = a, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		return fmt.Sprintf("value %q", n.Value)
	}
	return "node"
}

// decodeValues decodes a scalar or a list (grid axis) of scalars.
func decodeValues(s Setting, v *yaml.Node, runKey bool) ([]any, error) {
	if s.Kind == StringList {
		if v.Kind != yaml.SequenceNode {
			return nil, fmt.Errorf("want a list of strings, like [a, b]; got %s", kindName(v))
		}
		list := []string{}
		for _, e := range v.Content {
			x, err := decodeScalar(Setting{Key: s.Key, Kind: String, Enum: s.Enum}, e)
			if err != nil {
				return nil, err
			}
			list = append(list, x.(string))
		}
		return []any{list}, nil
	}
	if v.Kind == yaml.SequenceNode {
		if runKey {
			return nil, fmt.Errorf("want a single %s, not a list (this key describes the whole run, it cannot be a grid axis)", s.Kind)
		}
		if len(v.Content) == 0 {
			return nil, fmt.Errorf("an empty list gives no trials: give at least one value")
		}
		var out []any
		seen := map[string]bool{}
		for _, e := range v.Content {
			x, err := decodeScalar(s, e)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", e.Line, err)
			}
			if k := fmt.Sprint(x); seen[k] {
				return nil, fmt.Errorf("line %d: value %v repeats in the list", e.Line, x)
			}
			seen[fmt.Sprint(x)] = true
			out = append(out, x)
		}
		return out, nil
	}
	x, err := decodeScalar(s, v)
	if err != nil {
		return nil, err
	}
	return []any{x}, nil
}

func decodeScalar(s Setting, v *yaml.Node) (any, error) {
	if v.Kind != yaml.ScalarNode {
		return nil, fmt.Errorf("want a %s, got a %s", s.Kind, kindName(v))
	}
	var x any
	switch s.Kind {
	case String:
		if v.Tag != "!!str" && v.Tag != "!!int" && v.Tag != "!!float" {
			return nil, fmt.Errorf("want a string, got %q", v.Value)
		}
		str := v.Value
		if allowed := s.Allowed(); len(allowed) > 0 && !contains(allowed, str) {
			return nil, fmt.Errorf("%q is not allowed (allowed: %s)", str, strings.Join(allowed, ", "))
		}
		x = str
	case Int:
		n, err := strconv.Atoi(v.Value)
		if err != nil || v.Tag != "!!int" {
			return nil, fmt.Errorf("want an integer, got %q", v.Value)
		}
		if err := checkRange(s, float64(n)); err != nil {
			return nil, err
		}
		x = n
	case Float:
		if v.Tag != "!!int" && v.Tag != "!!float" {
			return nil, fmt.Errorf("want a number, got %q", v.Value)
		}
		f, err := strconv.ParseFloat(v.Value, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("want a finite number, got %q", v.Value)
		}
		if err := checkRange(s, f); err != nil {
			return nil, err
		}
		x = f
	case Bool:
		if v.Tag != "!!bool" {
			return nil, fmt.Errorf("want true or false, got %q", v.Value)
		}
		x = strings.EqualFold(v.Value, "true")
	}
	return x, nil
}

func checkRange(s Setting, f float64) error {
	switch {
	case s.Min != nil && s.Max != nil && (f < *s.Min || f > *s.Max):
		return fmt.Errorf("%v is out of range (allowed: %v to %v)", f, *s.Min, *s.Max)
	case s.Min != nil && f < *s.Min:
		return fmt.Errorf("%v is out of range (allowed: at least %v)", f, *s.Min)
	case s.Max != nil && f > *s.Max:
		return fmt.Errorf("%v is out of range (allowed: at most %v)", f, *s.Max)
	}
	return nil
}

// widensGroup reports whether v differs from f only in the values of the
// axes both tune (their tune blocks equal): every trial of v then falls in
// f's tuning group (records.Choose groups by every setting but the tuned
// axes).
func widensGroup(f, v variant) bool {
	axes := f.values["tune.axes"]
	if len(axes) != 1 || !reflect.DeepEqual(axes, v.values["tune.axes"]) {
		return false
	}
	names, _ := axes[0].([]string)
	if len(names) == 0 {
		return false
	}
	tuned := map[string]bool{}
	for _, a := range names {
		tuned[a] = true
	}
	for _, m := range []map[string][]any{f.values, v.values} {
		for k := range m {
			if !tuned[k] && !reflect.DeepEqual(f.values[k], v.values[k]) {
				return false
			}
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// distinctLabels refuses two different variants with the same label:
// their rows would merge silently in the report. A repeated identical
// variant is harmless (its trials run once), and so is one that widens a
// tuning group: the same tune block and the same settings but the values
// of its tuned axes, so its trials join the group's one choice (a range
// extended around the chosen design without running the whole grid again).
func distinctLabels(vs []variant, fail func(int, string, ...any) error) error {
	first := map[string]variant{}
	for _, v := range vs {
		for _, l := range v.values["label"] {
			label := l.(string)
			if label == "" {
				continue
			}
			if f, ok := first[label]; ok && !reflect.DeepEqual(f.values, v.values) && !widensGroup(f, v) {
				return fail(v.line, "variants: label %q repeats the label of the variant at line %d with other settings: give each variant its own label (a variant that widens a tuning group repeats its label, its tune block and every setting but the values of its tuned axes)", termsafe.String(label), f.line)
			}
			if _, ok := first[label]; !ok {
				first[label] = v
			}
		}
	}
	return nil
}

// notTunable are the keys a tuning group is not chosen over: what names the
// trial or the group, and what says how the choice is made.
var notTunable = map[string]bool{KeyLabel: true, KeyReplicate: true, "tuned_on": true, "tune.axes": true, "tune.on": true, "tune.rule": true, "tune.halving": true, "tune.eta": true}

// checkTune refuses a tune block that cannot choose: an axis that is not
// one of the trial's grid axes, sets it does not score, no dev parts.
func checkTune(t Trial) error {
	if len(t.Tune.Axes) == 0 {
		if len(t.Tune.On) > 0 {
			return errors.New("tune.on names the sets a design is chosen on, but tune.axes names no axis to choose: give tune.axes too")
		}
		return nil
	}
	if !t.Eval.Parts {
		return errors.New("tune.axes chooses a design on the sets' dev parts and compares it on their test parts: set eval.parts: true")
	}
	axes := map[string]bool{}
	for _, a := range t.Axes {
		axes[a] = true
	}
	seen := map[string]bool{}
	for _, a := range t.Tune.Axes {
		switch {
		case seen[a]:
			return fmt.Errorf("tune.axes: %s is named twice", a)
		case notTunable[a]:
			return fmt.Errorf("tune.axes: %s names the trial or the choice, it is no design setting to choose", a)
		case !axes[a]:
			var have []string
			for _, x := range t.Axes {
				if !notTunable[x] {
					have = append(have, x)
				}
			}
			allowed := "none: give a setting as a list to make it an axis"
			if len(have) > 0 {
				allowed = strings.Join(have, ", ")
			}
			return fmt.Errorf("tune.axes: %s is no grid axis of this trial (its axes: %s)", a, allowed)
		}
		seen[a] = true
	}
	if h := t.Tune.Halving; h != "" {
		if !seen[h] {
			return fmt.Errorf("tune.halving: %s is not one of tune.axes (%s): halving spends a tuned axis as its resource", h, strings.Join(t.Tune.Axes, ", "))
		}
		if _, ok := t.Values[h].(float64); !ok {
			if _, isInt := t.Values[h].(int); !isInt {
				return fmt.Errorf("tune.halving: %s is no numeric setting: its values are the rungs' resource, smallest first", h)
			}
		}
	}
	scored := map[string]bool{}
	for _, n := range t.Eval.Sets {
		scored[SetKey(n)] = true
	}
	for _, n := range t.Tune.On {
		if !scored[SetKey(n)] {
			return fmt.Errorf("tune.on: %q is no set of eval.sets (%s): a design is chosen on the dev parts of sets the trial scores", n, strings.Join(t.Eval.Sets, ", "))
		}
	}
	return nil
}
