package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// results.jsonl is an append log while a run is under way: each finished
// trial's record is appended with one write and synced, so a kill at any
// moment loses at most the line being written. At the end of the run the
// file is compacted (one record per trial, grid order) by an atomic
// rename. A reader therefore sees, after any crash, a sequence of complete
// lines, possibly with repeated ids (a -fresh result after the old one) and
// a torn last line; readResultsLog copes with both.

// ErrResultsWrite marks a failure to write results.jsonl: the run stops at
// once, since every later trial's work would be lost too.
var ErrResultsWrite = errors.New("writing results failed")

// resultsRead is what readResultsLog found besides the records.
type resultsRead struct {
	torn   bool // a final line without its newline was dropped
	repair bool // the file is not in appendable form (torn tail, no final newline, repeated ids)
}

// ReadResultsWarn reads results.jsonl like ReadResults and writes a warning
// to warn (nil = none) when it drops a torn last line.
func ReadResultsWarn(path string, warn io.Writer) ([]Record, error) {
	recs, info, err := readResultsLog(path)
	if err == nil && info.torn && warn != nil {
		fmt.Fprintf(warn, "kcalab: warning: %s: dropped an incomplete last line (a run was killed while writing it; that trial will run again)\n", path)
	}
	return recs, err
}

// readResultsLog reads an append log. A last line without its newline that
// is not complete JSON is the trace of a kill mid-append and is dropped; a
// malformed line anywhere else is an error naming the line. When an id
// repeats, the last record wins (a later -fresh result), at the place of
// the first.
func readResultsLog(path string) ([]Record, resultsRead, error) {
	var info resultsRead
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, info, nil
	}
	if err != nil {
		return nil, info, fmt.Errorf("results: %w", err)
	}
	lines := bytes.Split(b, []byte("\n"))
	last := len(lines) - 1 // the segment after the final newline ("" when the file ends with one)
	var recs []Record
	at := map[string]int{}
	for i, line := range lines {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r Record
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		err := dec.Decode(&r)
		if err == nil && dec.More() {
			err = errors.New("more than one record on the line")
		}
		if err != nil {
			if i == last {
				info.torn, info.repair = true, true
				break
			}
			return nil, info, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		if i == last {
			info.repair = true // complete, but the next append would join it
		}
		if j, ok := at[r.ID]; ok {
			recs[j] = r
			info.repair = true
			continue
		}
		at[r.ID] = len(recs)
		recs = append(recs, r)
	}
	return recs, info, nil
}

// appendWrite writes a line; tests replace it to fail a write mid-run.
var appendWrite = func(f *os.File, b []byte) (int, error) { return f.Write(b) }

// resultsLog appends records to results.jsonl.
type resultsLog struct {
	path string
	f    *os.File
}

func openResultsLog(path string) (*resultsLog, error) {
	// O_APPEND: each record lands at the end even if something else has
	// grown the file, and one write per line keeps lines whole.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrResultsWrite, err)
	}
	return &resultsLog{path: path, f: f}, nil
}

// append writes one record as a line and syncs it to disk.
func (l *resultsLog) append(rec Record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("%w: encoding trial %s: %w", ErrResultsWrite, rec.ID, err)
	}
	b = append(b, '\n')
	if _, err := appendWrite(l.f, b); err != nil {
		return fmt.Errorf("%w: %w", ErrResultsWrite, err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrResultsWrite, l.path, err)
	}
	return nil
}

func (l *resultsLog) close() error {
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrResultsWrite, l.path, err)
	}
	return nil
}

// prepareOutput makes sure dir can take this spec's results before any
// trial runs, and returns the records already there. It refuses a
// directory whose results.jsonl holds another spec's trials, repairs a log
// left by a killed run, and removes temporary files a killed compaction
// left behind.
func prepareOutput(dir, specName string, warn io.Writer) ([]Record, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("output directory: %w (give a writable directory with -out)", err)
	}
	if err := checkWritable(dir); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, ResultsFile)
	if stale, err := filepath.Glob(filepath.Join(dir, "."+ResultsFile+"*")); err == nil {
		for _, s := range stale {
			os.Remove(s)
		}
	}
	prev, info, err := readResultsLog(path)
	if err != nil {
		return nil, fmt.Errorf("reading earlier results (delete the file or run with -fresh): %w", err)
	}
	for _, rec := range prev {
		if rec.Spec != specName {
			return nil, fmt.Errorf("%s holds results of spec %q (trial %s), not of %q: an output directory belongs to one spec; "+
				"give this spec another directory (-out or output:), or move that file away to start over", path, rec.Spec, rec.ID, specName)
		}
	}
	if info.torn && warn != nil {
		fmt.Fprintf(warn, "kcalab: warning: %s: dropped an incomplete last line (a run was killed while writing it; that trial will run again)\n", path)
	}
	if info.repair {
		if err := WriteResults(path, prev); err != nil {
			return nil, fmt.Errorf("%w: repairing %s: %w", ErrResultsWrite, path, err)
		}
	}
	return prev, nil
}

// compactResults rewrites results.jsonl atomically with one record per
// trial in grid order. A trial this run did not finish keeps its earlier
// record: an interrupted (or -fresh) run replaces an old record only by a
// new result. Only a run that finished every trial drops the records of
// trials no longer in the grid.
func compactResults(path string, trials []Trial, recs []Record, done []bool, prev []Record) error {
	byID := make(map[string]Record, len(prev))
	for _, rec := range prev {
		byID[rec.ID] = rec
	}
	inGrid := make(map[string]bool, len(trials))
	all := true
	var out []Record
	for _, t := range trials {
		inGrid[t.ID] = true
		if done[t.Index] {
			out = append(out, recs[t.Index])
		} else if old, ok := byID[t.ID]; ok {
			out = append(out, old)
			all = false
		} else {
			all = false
		}
	}
	if !all {
		for _, rec := range prev {
			if !inGrid[rec.ID] {
				out = append(out, rec)
			}
		}
	}
	if err := WriteResults(path, out); err != nil {
		return fmt.Errorf("%w: compacting: %w", ErrResultsWrite, err)
	}
	return nil
}

// checkWritable creates and removes a file in dir, so an unwritable output
// directory is found before hours of trials, not after.
func checkWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".kcalab-write-check-*")
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
