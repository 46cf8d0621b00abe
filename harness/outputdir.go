package harness

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"kcalab/schema"

	"kcalab/internal/atomicfile"
	"kcalab/internal/termsafe"
	"kcalab/internal/tmpfiles"
	"kcalab/records"
)

// prepareOutput makes sure dir can take this spec's results before any
// trial runs, and returns the records already there. It refuses a
// directory whose results.jsonl holds another spec's trials (by name, or
// by content: records of this name none of which is a trial of today's
// grid, unless prune), repairs a log left by a killed run, and removes
// temporary files a killed compaction left behind.
func prepareOutput(dir string, spec *schema.Spec, judge *Judge, prune bool, warn io.Writer) ([]records.Record, error) {
	specName := spec.Name
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("output directory: %w (give a writable directory with -out)", err)
	}
	if err := checkWritable(dir); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, records.FileName)
	for _, name := range []string{records.FileName, records.CompressedFileName, ReportFileName} {
		if err := atomicfile.CheckNotLink(filepath.Join(dir, name)); err != nil {
			return nil, fmt.Errorf("output directory: %w", err)
		}
	}
	removeStaleTemp(dir)
	prev, info, err := records.Read(path)
	if err != nil {
		// -fresh reads the file too (it keeps every record it does not
		// replace), so it is no way out: the file must be mended or moved.
		return nil, fmt.Errorf("reading earlier results: %w; a run reads them first, -fresh too, to keep every record it does not replace: "+
			"mend the line named, or move %s away (its other records are lost to this spec unless put back), or give this spec another output directory (-out)", err, path)
	}
	for _, rec := range prev {
		if rec.Spec != specName {
			return nil, fmt.Errorf("%s holds results of spec %q (trial %s), not of %q: an output directory belongs to one spec; "+
				"give this spec another directory (-out or output:), or move that file away to start over", path, rec.Spec, rec.ID, specName)
		}
	}
	if err := sameContent(path, spec, judge, prev, prune); err != nil {
		return nil, err
	}
	if warn != nil {
		for _, w := range info.Warnings(path) {
			fmt.Fprintf(warn, "kcalab: warning: %s\n", termsafe.Text(w))
		}
		switch _, inGrid := judge.TrialOf(records.Record{ID: info.TornID}); {
		case info.TornID == "":
		case inGrid:
			fmt.Fprintf(warn, "kcalab: trial %s, whose last line was torn, is in this spec's grid: this run computes it again\n", info.TornID)
		default:
			fmt.Fprintf(warn, "kcalab: warning: trial %s, whose last line was torn, is not in this spec's grid: no record of it is left, and this run does not compute it (run the spec whose grid has it)\n", info.TornID)
		}
	}
	if info.NeedsRepair {
		if err := records.Write(path, prev); err != nil {
			return nil, fmt.Errorf("%w: repairing %s: %w", records.ErrWrite, path, err)
		}
	}
	return prev, nil
}

// ReportFileName is the report page inside an output directory.
const ReportFileName = "report.html"

// legacyTemp matches the temporary files of the atomic writer of earlier
// versions (renameio: "." + name + random digits) of the files a run
// writes in its output directory.
var legacyTemp = regexp.MustCompile(`^\.(` + regexp.QuoteMeta(records.FileName) + `|` + regexp.QuoteMeta(ReportFileName) + `)[0-9]+$`)

// removeStaleTemp removes the temporary files that killed runs left in an
// output directory: the atomic writer's, by the pid in their names
// (internal/tmpfiles), and earlier versions' by their exact pattern; the
// caller holds the directory, so no live run is writing them. Any other
// file (a user's .results.jsonl.backup) stays.
func removeStaleTemp(dir string) {
	tmpfiles.Clean(dir)
	es, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range es {
		if legacyTemp.MatchString(e.Name()) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// sameContent refuses an output directory whose records carry this spec's
// name but none of which is a trial of its grid: another spec of the same
// name (a tweaked copy of a committed spec), or a grid changed throughout.
// Its results would otherwise be mixed with, or under -prune replaced by,
// this spec's; only -prune says that is meant.
func sameContent(path string, spec *schema.Spec, judge *Judge, prev []records.Record, prune bool) error {
	if len(prev) == 0 || prune {
		return nil
	}
	for _, rec := range prev {
		if _, ok := judge.TrialOf(rec); ok {
			return nil
		}
	}
	from := "this spec"
	if spec.Path != "" {
		from = spec.Path
	}
	return fmt.Errorf("%s holds %d record(s) of a spec named %q, none of them a trial of the grid of %s: another spec of that name, or a grid changed throughout; "+
		"give this spec its own directory (-out or output:), or run with -prune to replace those records (they are deleted)", path, len(prev), spec.Name, from)
}

// Compaction is what compactResults wrote.
type Compaction struct {
	Aside  int // records of trials outside today's grid, kept
	Pruned int // such records removed (-prune, every trial finished)
}

// compactResults rewrites results.jsonl atomically with one record per
// trial: today's grid in grid order, then every other record the file held,
// in its order. A run never deletes a result by itself: a trial this run did
// not finish keeps its earlier record, and records of trials outside
// today's grid (a narrowed axis, a removed variant) are kept too, unless
// prune and the run finished every trial.
func compactResults(path string, judge *Judge, trials []schema.Trial, recs []records.Record, done []bool, prev []records.Record, prune bool) (Compaction, error) {
	byID := make(map[string]records.Record, len(prev))
	for _, rec := range prev {
		byID[rec.ID] = rec
	}
	all := true
	var out []records.Record
	for _, t := range trials {
		if done[t.Index] {
			if recs[t.Index].Status != records.StatusNotPromoted { // a plan's, not a result
				out = append(out, recs[t.Index])
			}
		} else if old, ok := byID[t.ID]; ok {
			out = append(out, old)
			all = false
		} else {
			all = false
		}
	}
	var c Compaction
	for _, rec := range prev {
		if _, ok := judge.TrialOf(rec); ok {
			continue
		}
		if prune && all {
			c.Pruned++
			continue
		}
		out = append(out, rec)
		c.Aside++
	}
	if err := records.Write(path, out); err != nil {
		return c, fmt.Errorf("%w: compacting: %w", records.ErrWrite, err)
	}
	return c, nil
}

// checkWritable creates and removes a file in dir, so an unwritable output
// directory is found before hours of trials, not after.
func checkWritable(dir string) error {
	f, err := os.CreateTemp(dir, tmpfiles.Pattern("writecheck"))
	if err != nil {
		return fmt.Errorf("output directory %s is not writable: %w (give a writable directory with -out; no trial was run)", dir, err)
	}
	name := f.Name()
	f.Close()
	if err := os.Remove(name); err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	return nil
}
