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
	"kcalab/internal/termsafe"
	"kcalab/records"
	"kcalab/schema"
)

// inputCheck decides whether a record's inputs are still the files a
// rerun would read: a record is reused only when every data file it read
// (records.RunInfo.Inputs, path → SHA-256) has the recorded content in the
// file this run would read in its place.
//
// A data set the trial names (a corpus such as text8_prefix, a registered
// word-similarity or analogy set) is read from this run's data directory
// (-data, $KCALAB_DATA): its recorded input is compared with the file
// there, whatever directory the record was made from, so a run on another
// data directory never reuses a score of other data.
//
// A recorded path that no longer exists is looked for where the data may
// have moved with its directory (the same trailing path under the data
// directory, the spec file's directory or the working directory: another
// checkout, CI's copy of the data); found, it is checked there. Found
// nowhere, the record is kept and the run says it could not check it: the
// trial could not be recomputed without the file either. An input recorded
// with an error instead of a hash (a temporary file already gone when the
// record was made) and a record without inputs (one made before inputs
// were recorded) have nothing to compare, and are reused.
type inputCheck struct {
	bases   []string // where moved data is looked for, in order
	dataDir string   // this run's data directory ("" when it does not resolve)

	mu     sync.Mutex
	noted  map[string]bool // missing inputs already reported
	hashes map[string]string
}

func newInputCheck(r *Runner, spec *schema.Spec) *inputCheck {
	c := &inputCheck{noted: map[string]bool{}, hashes: map[string]string{}}
	if d, err := corpus.DataDir(r.DataDir); err == nil {
		c.bases = append(c.bases, d)
		c.dataDir = d
	}
	if spec.Path != "" {
		c.bases = append(c.bases, filepath.Dir(spec.Path))
	}
	c.bases = append(c.bases, ".")
	return c
}

// stale returns why rec cannot be reused as it stands ("" when it can),
// and writes a note to log for an input it could not find.
func (c *inputCheck) stale(rec records.Record, t schema.Trial, log func(format string, args ...any)) string {
	return c.check(rec, t, log, false)
}

// unverified is stale for a record taken from another spec's results
// (-share): there an input found nowhere is a reason not to take it, not a
// note, since this spec never held the record.
func (c *inputCheck) unverified(rec records.Record, t schema.Trial, log func(format string, args ...any)) string {
	return c.check(rec, t, log, true)
}

func (c *inputCheck) check(rec records.Record, t schema.Trial, log func(format string, args ...any), strict bool) string {
	if rec.Run == nil {
		return ""
	}
	named := c.namedInputs(t)
	for _, path := range sortedKeys(rec.Run.Inputs) {
		want := rec.Run.Inputs[path]
		if !isSHA256(want) {
			continue
		}
		at := ""
		if now, ok := named.current(path); ok {
			at = now
			if !isRegular(now) {
				at = ""
			}
		} else {
			at = c.locate(path)
		}
		if at == "" && strict {
			return fmt.Sprintf("its input %s is not here to check against its recorded SHA-256", path)
		}
		if at == "" {
			c.mu.Lock()
			first := !c.noted[path]
			c.noted[path] = true
			c.mu.Unlock()
			if first {
				log("kcalab: note: %s, an input of earlier records, is not here to check against its recorded SHA-256; those records are reused as they are", termsafe.Text(path))
			}
			continue
		}
		got, err := c.hash(at)
		if err != nil {
			return fmt.Sprintf("its input %s cannot be read to check it (%v)", at, err)
		}
		if got != want {
			where := at
			if at != path {
				where = fmt.Sprintf("%s (recorded as %s)", at, path)
			}
			return fmt.Sprintf("its input %s changed since the record was made (SHA-256 %.12s… then, %.12s… now)", where, want, got)
		}
	}
	return ""
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
// relative to it ("wordsim/men.txt"), each with the path this run reads.
type dataFiles map[string]string

// namedInputs lists the data sets t names (its corpus, registered
// word-similarity, SCA tuning and analogy sets) as this run resolves them.
func (c *inputCheck) namedInputs(t schema.Trial) dataFiles {
	out := dataFiles{}
	if c.dataDir == "" {
		return out
	}
	add := func(rel string) { out[filepath.ToSlash(rel)] = filepath.Join(c.dataDir, rel) }
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

// current is the file this run reads for a recorded input of one of the
// trial's named data sets: the recorded path ends with the set's path in a
// data directory. false for any other input (a file the spec names by
// its path).
func (d dataFiles) current(recorded string) (string, bool) {
	rec := filepath.ToSlash(filepath.Clean(recorded))
	for rel, now := range d {
		if rec == rel || strings.HasSuffix(rec, "/"+rel) {
			return now, true
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
