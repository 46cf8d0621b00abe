package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"

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
	spec    *schema.Spec
	path    string // the spec file
	dir     string // ROOT/<name>
	results string // dir/results.jsonl, "" when there is none
}

// siteSpecs loads every spec in specDir (*.yaml, by name), each with its
// results in root/<name>; a spec that does not load is skipped with a
// warning.
func siteSpecs(specDir, root string, stderr io.Writer) ([]siteSpec, error) {
	paths, err := filepath.Glob(filepath.Join(specDir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var out []siteSpec
	for _, p := range paths {
		spec, err := schema.LoadSpec(p)
		if err != nil {
			fmt.Fprintf(stderr, "kcalab: warning: index: %s\n", termsafe.Text(err.Error()))
			continue
		}
		s := siteSpec{spec: spec, path: p, dir: filepath.Join(root, spec.Name)}
		if _, err := os.Stat(filepath.Join(s.dir, records.FileName)); err == nil {
			s.results = filepath.Join(s.dir, records.FileName)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
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
	specs, err := siteSpecs(specDir, root, io.Discard)
	if err != nil {
		fmt.Fprintf(stderr, "kcalab: warning: index: %s\n", termsafe.Text(err.Error()))
		return
	}
	var names []string
	has := map[string]bool{}
	for _, s := range specs {
		names = append(names, s.spec.Name)
		has[s.spec.Name] = s.results != ""
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
// index's path.
func writeSite(specDir, root string, done map[string]bool, js reports.Script, stderr io.Writer) (string, error) {
	specs, err := siteSpecs(specDir, root, stderr)
	if err != nil {
		return "", err
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.spec.Name)
	}
	ix := reports.Index{Title: "KCA lab: every experiment", Command: "go run . " + filepath.ToSlash(filepath.Join(specDir, "NAME.yaml"))}
	for _, s := range specs {
		e := reports.IndexEntry{Name: s.spec.Name, Spec: rel(root, s.path), Related: relatedNames(s.spec, names)}
		if s.results != "" {
			warn := stderr
			if done[s.spec.Name] {
				warn = io.Discard // its run has warned already
			}
			recs, err := readResults(s.results, warn)
			if err != nil && len(done) > 0 {
				// After a run, another spec's unreadable results cost
				// that spec's page, not the index of the rest.
				fmt.Fprintf(stderr, "kcalab: warning: index: %s: %s (listed without results)\n", termsafe.Text(s.spec.Name), termsafe.Text(err.Error()))
				ix.Entries = append(ix.Entries, e)
				continue
			}
			if err != nil {
				return "", err
			}
			// A page rendered here from the results alone has no earlier
			// results to check against: its reference is itself.
			r := buildReport(s.spec, recs, recs, js, s.dir)
			siteLinks(&r, s.spec, specDir, root, stderr)
			if !done[s.spec.Name] {
				// A sibling's directory that is a link would take its page
				// wherever it points.
				if err := atomicfile.CheckNoLinkBelow(root, s.dir); err != nil {
					return "", fmt.Errorf("%s: report: %w", s.spec.Name, err)
				}
				if err := reports.WriteFile(filepath.Join(s.dir, reportName), r); err != nil {
					return "", fmt.Errorf("%s: report: %w", s.spec.Name, err)
				}
			}
			if e.Summary, err = reports.Summarize(r); err != nil {
				return "", fmt.Errorf("%s: %w", s.spec.Name, err)
			}
			e.Ran, e.Report, e.Results = true, rel(root, filepath.Join(s.dir, reportName)), rel(root, s.results)
		}
		ix.Entries = append(ix.Entries, e)
	}
	path := filepath.Join(root, indexName)
	if err := reports.WriteIndexFile(path, ix); err != nil {
		return "", err
	}
	return path, nil
}
