package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"kcalab/records"
	"kcalab/schema"

	"kcalab/internal/atomicfile"
	"kcalab/internal/termsafe"
	"kcalab/reports"
)

// The site: every spec's report and one index of them, all build outputs
// (git-ignored) rendered from the results files, so that a fresh clone
// gets them from the committed results and rerunning changes no tracked
// file. A spec's results live in ROOT/<name>/ (results/<name> by
// default); the index is ROOT/index.html.
const (
	defaultSpecDir    = "experiments"
	defaultResultsDir = "results"
	indexName         = "index.html"
	reportName        = "report.html"
)

// siteRoot is the directory holding the run's output directory and its
// siblings, when the output is ROOT/<spec name> (the default, or -out
// ROOT/<name>); an output directory named otherwise stands alone.
func siteRoot(spec *schema.Spec, dir string) (string, bool) {
	if spec.Path == "" || filepath.Base(filepath.Clean(dir)) != spec.Name {
		return "", false
	}
	return filepath.Dir(filepath.Clean(dir)), true
}

// siteSpec is a spec of the site, with where its files are.
type siteSpec struct {
	spec    *schema.Spec // nil when the spec file does not load
	name    string       // the spec's name, else its file's without .yaml
	path    string       // the spec file
	dir     string       // ROOT/<name>
	results string       // dir/results.jsonl, "" when there is none
	// problem says why the spec or its results cannot be shown as they
	// stand; "" when nothing is wrong so far.
	problem string
}

// siteSpecs loads every spec in specDir (*.yaml, by name), each with its
// results in root/<name>. A spec that does not load, or whose results
// path cannot be looked at, is kept with its problem: one bad spec leaves
// every other one on the index.
func siteSpecs(specDir, root string) ([]siteSpec, error) {
	paths, err := filepath.Glob(filepath.Join(specDir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var out []siteSpec
	for _, p := range paths {
		spec, err := schema.LoadSpec(p)
		if err != nil {
			out = append(out, siteSpec{name: strings.TrimSuffix(filepath.Base(p), ".yaml"), path: p, problem: "the spec does not load: " + err.Error()})
			continue
		}
		s := siteSpec{spec: spec, name: spec.Name, path: p, dir: filepath.Join(root, spec.Name)}
		// Either form of the results file (records.Write) means results;
		// records.Read takes the text form's path and reads both.
		for _, name := range []string{records.FileName, records.CompressedFileName} {
			file := filepath.Join(s.dir, name)
			fi, err := os.Lstat(file)
			switch {
			case err == nil && (fi.Mode().IsRegular() || fi.Mode()&fs.ModeSymlink != 0):
				// A link is refused by records.Read, which names its target.
				s.results = filepath.Join(s.dir, records.FileName)
			case err == nil:
				s.problem = fmt.Sprintf("%s is not a regular file (%s)", file, fi.Mode().Type())
			case !errors.Is(err, fs.ErrNotExist):
				s.problem = "its results cannot be looked at: " + err.Error()
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// relatedNames are the other specs a description names (whole words), in
// the order of names: the specs a report compares with.
func relatedNames(spec *schema.Spec, names []string) []string {
	var out []string
	for _, n := range names {
		if n == spec.Name {
			continue
		}
		re := regexp.MustCompile(`(^|[^A-Za-z0-9_.-])` + regexp.QuoteMeta(n) + `($|[^A-Za-z0-9_-])`)
		if re.MatchString(spec.Description) {
			out = append(out, n)
		}
	}
	return out
}

// rel is target relative to the directory from, '/'-separated; "" when it
// cannot be made relative.
func rel(from, target string) string {
	absFrom, err1 := filepath.Abs(from)
	absTarget, err2 := filepath.Abs(target)
	if err1 != nil || err2 != nil {
		return ""
	}
	r, err := filepath.Rel(absFrom, absTarget)
	if err != nil {
		return ""
	}
	return filepath.ToSlash(r)
}

// siteLinks gives a report of the site its links: the index, its spec
// file and the reports of the specs it compares with that have results.
func siteLinks(r *reports.Report, spec *schema.Spec, specDir, root string, stderr io.Writer) {
	dir := filepath.Join(root, spec.Name)
	r.IndexFile = rel(dir, filepath.Join(root, indexName))
	if spec.Path != "" {
		r.SpecFile = rel(dir, spec.Path)
	}
	specs, err := siteSpecs(specDir, root)
	if err != nil {
		fmt.Fprintf(stderr, "kcalab: warning: index: %s\n", termsafe.Text(err.Error()))
		return
	}
	var names []string
	has := map[string]bool{}
	for _, s := range specs {
		names = append(names, s.name)
		has[s.name] = s.results != ""
	}
	for _, n := range relatedNames(spec, names) {
		if has[n] {
			r.Related = append(r.Related, reports.Link{Text: n, Path: rel(dir, filepath.Join(root, n, reportName))})
		}
	}
}

// writeSite renders, from its results, the report of every spec in
// specDir that has results in root (but those in done, which the caller
// has just written) and the index root/index.html, and returns the
// index's path. A spec whose file or results cannot be shown is marked on
// the index with what is wrong (its report is not rewritten, and the
// index does not link a report that is not of its results); the index is
// written all the same, and the error names every such spec. Only an
// index that cannot be written gives no path.
func writeSite(specDir, root string, done map[string]bool, js reports.Script, stderr io.Writer) (string, error) {
	specs, err := siteSpecs(specDir, root)
	if err != nil {
		return "", err
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.name)
	}
	ix := reports.Index{Title: "KCA lab: every experiment", Command: "go run . " + filepath.ToSlash(filepath.Join(specDir, "NAME.yaml"))}
	// Each spec's page is rendered from its own results into its own
	// directory, so the pages render one per core; what each says on
	// stderr, the index and the errors follow the specs' order, so the
	// output does not depend on the cores.
	type rendered struct {
		e    reports.IndexEntry
		warn bytes.Buffer
		err  error
	}
	out := make([]rendered, len(specs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(specs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				s, o := specs[i], &out[i]
				o.e = reports.IndexEntry{Name: s.name, Spec: rel(root, s.path)}
				if s.spec != nil {
					o.e.Related = relatedNames(s.spec, names)
					// A spec not run yet still says what it asks.
					o.e.Summary.Question = reports.QuestionOf(s.spec.Question, s.spec.Description)
				}
				o.err = siteEntry(&o.e, s, specDir, root, done, js, &o.warn)
			}
		}()
	}
	for i := range specs {
		next <- i
	}
	close(next)
	wg.Wait()
	var bad []error
	for i, s := range specs {
		o := &out[i]
		_, _ = stderr.Write(o.warn.Bytes()) // as fmt.Fprintln to stderr: best effort
		if o.err != nil {
			// Paths relative to the index, which sits in root: the page
			// names no directory of this machine.
			o.e.Problem = strings.ReplaceAll(o.err.Error(), filepath.Clean(root)+string(filepath.Separator), "")
			bad = append(bad, fmt.Errorf("%s: %w", s.name, o.err))
		}
		ix.Entries = append(ix.Entries, o.e)
	}
	path := filepath.Join(root, indexName)
	if err := reports.WriteIndexFile(path, ix); err != nil {
		return "", errors.Join(append(bad, err)...)
	}
	if len(bad) > 0 {
		return path, fmt.Errorf("index: %d spec(s) marked on %s as not shown: %w", len(bad), path, errors.Join(bad...))
	}
	return path, nil
}

// siteEntry fills the index entry of s and writes its report (unless done
// has it), or says why it cannot.
func siteEntry(e *reports.IndexEntry, s siteSpec, specDir, root string, done map[string]bool, js reports.Script, stderr io.Writer) error {
	if s.problem != "" {
		return errors.New(s.problem)
	}
	if s.results == "" {
		return nil
	}
	recs, info, err := records.ReadWith(s.results, shownOptions)
	if err != nil {
		return err
	}
	warn := stderr
	if done[s.name] {
		warn = io.Discard // its run has warned already
	}
	for _, w := range info.Warnings(s.results) {
		fmt.Fprintln(warn, "kcalab: warning:", termsafe.Text(w))
	}
	if info.Torn {
		// The page would show the trials left, but not the file as it is:
		// the reader learns why a trial is missing here, not from a page.
		return errors.New(info.Warnings(s.results)[0])
	}
	if err := belongs(s.spec, recs); err != nil {
		return fmt.Errorf("%s: %w", s.results, err)
	}
	// A page rendered here from the results alone has no earlier results
	// to check against: its reference is itself.
	r := buildReport(s.spec, recs, recs, js, s.dir)
	siteLinks(&r, s.spec, specDir, root, stderr)
	if !done[s.name] {
		// A sibling's directory that is a link would take its page
		// wherever it points.
		if err := atomicfile.CheckNoLinkBelow(root, s.dir); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		if err := reports.WriteFile(filepath.Join(s.dir, reportName), r); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	if e.Summary, err = reports.Summarize(r); err != nil {
		return err
	}
	e.Ran, e.Report, e.Results = true, rel(root, filepath.Join(s.dir, reportName)), rel(root, records.Stored(s.results))
	return nil
}

// belongs says whether recs are the spec's own records: each names the
// spec. Records of trials its grid no longer has are the spec's too (a
// run deletes no result, -prune does): the page shows today's grid and
// says how many it left aside (buildReport); but a file none of whose
// records is of today's grid is another spec's of the same name.
func belongs(spec *schema.Spec, recs []records.Record) error {
	grid := map[string]bool{}
	for _, t := range spec.Trials() {
		grid[t.ID] = true
	}
	var other []string
	inGrid := 0
	for i, rec := range recs {
		if rec.Spec != spec.Name {
			other = append(other, fmt.Sprintf("record %d (trial %s) is of spec %q", i+1, rec.ID, rec.Spec))
		} else if grid[rec.ID] {
			inGrid++
		}
	}
	if len(other) > 0 {
		return fmt.Errorf("not the results of spec %q: %s", spec.Name, strings.Join(first(other, 3), "; "))
	}
	if len(recs) > 0 && inGrid == 0 {
		return fmt.Errorf("none of its %d record(s) is a trial of the grid of %s: another spec of that name, or the grid changed throughout; rerun it (go run . -prune %s) to replace them",
			len(recs), filepath.ToSlash(spec.Path), filepath.ToSlash(spec.Path))
	}
	return nil
}

// first is the first n of xs, "…" standing for the rest.
func first(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(append([]string(nil), xs[:n]...), fmt.Sprintf("… %d more", len(xs)-n))
}
