package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"kcalab/datasets/corpus"
	"kcalab/datasets/wordsim"
	"kcalab/records"
	"kcalab/schema"
)

// inputCheck decides whether a record's inputs are still the files a
// rerun would read: a record stands only when every data file it read
// (records.RunInfo.Inputs, path → SHA-256) has the recorded content in the
// file this run would read in its place (see Judge).
//
// A data set the trial names (a corpus such as text8_prefix, a registered
// word-similarity or analogy set) is read from this run's data directory
// (-data, $KCALAB_DATA, else ./data): its recorded input is compared with
// the file there, whatever directory the record was made from, so a run on
// another data directory never reuses a score of other data. When that
// directory exists but lacks the set, or was given and is not there, the
// record is of other data: the trial is computed (and fails, saying what
// is missing).
//
// A recorded path that no longer exists is looked for where the data may
// have moved with its directory (the same trailing path under the data
// directory, the spec file's directory or the working directory: another
// checkout, CI's copy of the data); found, it is checked there. Found
// nowhere (a fresh clone without the data), the input is missing: a
// spec's own record is kept with a note, since the trial could not be
// recomputed without the file either; another spec's is not taken. An
// input recorded with an error instead of a hash (a temporary file already
// gone when the record was made) and a record without inputs (one made
// before inputs were recorded) have nothing to compare.
type inputCheck struct {
	bases   []string // where moved data is looked for, in order
	dataDir string   // this run's data directory ("" when it does not resolve)
	// dataHere says dataDir is a directory: a named set missing from it is
	// missing from this run's data, not merely absent from a fresh clone.
	dataHere bool
	// dataErr is why a data directory given by -data or $KCALAB_DATA
	// cannot be used.
	dataErr error

	mu     sync.Mutex
	hashes map[string]string
}

func newInputCheck(dataDirFlag, specPath string) *inputCheck {
	c := &inputCheck{hashes: map[string]string{}}
	d, err := corpus.DataDir(dataDirFlag)
	switch {
	case err == nil:
		c.bases = append(c.bases, d)
		c.dataDir = d
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			c.dataHere = true
		}
	case dataDirFlag != "" || os.Getenv(corpus.EnvData) != "":
		c.dataErr = err
	}
	if specPath != "" {
		c.bases = append(c.bases, filepath.Dir(specPath))
	}
	c.bases = append(c.bases, ".")
	return c
}

// inputState is what inputCheck found of a record's inputs.
type inputState int

const (
	inputsHold      inputState = iota // every input found has its recorded content
	inputChanged                      // an input's content changed: the record is stale
	inputNotInData                    // a named set is not in this run's data directory
	inputUnreadable                   // an input is there but cannot be read
)

// inputFinding is inputCheck's answer: the state, why (for a state other
// than inputsHold), and the recorded inputs found nowhere.
type inputFinding struct {
	state   inputState
	why     string
	missing []string
}

// check compares rec's recorded inputs with the files this run reads for
// trial t.
func (c *inputCheck) check(rec records.Record, t schema.Trial) inputFinding {
	var f inputFinding
	if rec.Run == nil {
		return f
	}
	named := c.namedInputs(t)
	for _, path := range sortedKeys(rec.Run.Inputs) {
		want := rec.Run.Inputs[path]
		if !isSHA256(want) {
			continue
		}
		at := ""
		if rel, ok := named.match(path); ok {
			now := ""
			if c.dataDir != "" {
				now = filepath.Join(c.dataDir, rel)
			}
			switch {
			case c.dataErr != nil:
				return inputFinding{state: inputNotInData, why: fmt.Sprintf("its input %s is a data set of this run's data directory, which cannot be used (%v)", rel, c.dataErr)}
			case now != "" && isRegular(now):
				at = now
			case c.dataHere:
				return inputFinding{state: inputNotInData, why: fmt.Sprintf("its input %s is not in this run's data directory %s (the record was made from %s): a score of other data", rel, c.dataDir, path)}
			}
		} else {
			at = c.locate(path)
		}
		if at == "" {
			f.missing = append(f.missing, path)
			continue
		}
		got, err := c.hash(at)
		if err != nil {
			return inputFinding{state: inputUnreadable, why: fmt.Sprintf("its input %s cannot be read to check it (%v)", at, err)}
		}
		if got != want {
			where := at
			if at != path {
				where = fmt.Sprintf("%s (recorded as %s)", at, path)
			}
			return inputFinding{state: inputChanged, why: fmt.Sprintf("its input %s changed since the record was made (SHA-256 %.12s… then, %.12s… now)", where, want, got)}
		}
	}
	return f
}

func (c *inputCheck) hash(path string) (string, error) {
	c.mu.Lock()
	sum, ok := c.hashes[path]
	c.mu.Unlock()
	if ok {
		return sum, nil
	}
	sum, err := fileSHA256(path)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	c.hashes[path] = sum
	c.mu.Unlock()
	return sum, nil
}

// dataFiles are the files a trial reads from the data directory by name,
// relative to it ("wordsim/men.txt").
type dataFiles []string

// namedInputs lists the data sets t names (its corpus, registered
// word-similarity, SCA tuning and analogy sets), relative to a data
// directory.
func (c *inputCheck) namedInputs(t schema.Trial) dataFiles {
	var out dataFiles
	add := func(rel string) { out = append(out, filepath.ToSlash(rel)) }
	if t.Data.Source == schema.SourceCorpus {
		if f, ok := corpus.NamedFile(t.Data.Corpus); ok {
			add(f)
		}
	}
	sets := append([]string{t.SCA.Set}, t.Eval.Sets...)
	for _, name := range sets {
		if in, err := wordsim.Lookup(name); err == nil && name != "" {
			add(filepath.Join("wordsim", in.File))
		}
	}
	for _, name := range t.Eval.Analogies {
		if rel, ok := wordsim.AnalogyFile(name); ok {
			add(rel)
		}
	}
	return out
}

// match is the named data set a recorded input is, relative to a data
// directory: the recorded path ends with the set's path. false for any
// other input (a file the spec names by its path).
func (d dataFiles) match(recorded string) (string, bool) {
	rec := filepath.ToSlash(filepath.Clean(recorded))
	for _, rel := range d {
		if rec == rel || strings.HasSuffix(rec, "/"+rel) {
			return filepath.FromSlash(rel), true
		}
	}
	return "", false
}

func isRegular(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// locate is where a recorded input is now: the path itself, else the
// longest trailing part of it under one of the bases; "" when nowhere.
func (c *inputCheck) locate(path string) string {
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		return path
	}
	parts := strings.Split(filepath.ToSlash(filepath.Clean(path)), "/")
	for i := 1; i < len(parts); i++ {
		rest := filepath.Join(parts[i:]...)
		for _, b := range c.bases {
			p := filepath.Join(b, rest)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p
			}
		}
	}
	return ""
}

func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
