package harness

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"kcalab/internal/atomicfile"
	"kcalab/internal/termsafe"
	"kcalab/records"
	"kcalab/schema"
)

// siblingRecords are the records of the other specs' results beside a
// spec's output directory (results/<other>/results.jsonl), read once, on
// the first trial that has no usable record of its own. A trial two specs
// share (the same id and seed, equivalent settings: one fastText CLI
// training serves three pages) is then computed once: the second spec
// takes the first one's record. Only a record that traces to a commit of
// this history (records.Untraced) is taken, and only when its inputs are
// still the files this run reads, so what it copies is as rebuildable as
// what it would compute.
type siblingRecords struct {
	own    string // the spec's output directory, never read as a sibling
	loaded bool
	byID   map[string][]sibling
}

type sibling struct {
	dir string // its spec's output directory
	rec records.Record
}

// load reads every sibling results file once; one that cannot be read is
// passed over with a warning (it is another spec's business).
func (s *siblingRecords) load(logf func(string, ...any)) {
	if s.loaded {
		return
	}
	s.loaded = true
	s.byID = map[string][]sibling{}
	root := filepath.Dir(s.own)
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	ownAbs, _ := filepath.Abs(s.own)
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		if abs, _ := filepath.Abs(dir); !e.IsDir() || abs == ownAbs {
			continue
		}
		recs, _, err := records.Read(filepath.Join(dir, records.FileName))
		if err != nil {
			logf("kcalab: warning: another spec's results, not searched for shared trials: %s", termsafe.Text(err.Error()))
			continue
		}
		for _, rec := range recs {
			s.byID[rec.ID] = append(s.byID[rec.ID], sibling{dir: dir, rec: rec})
		}
	}
}

// takeSibling returns a sibling's record of trial t ready to stand in
// this spec's results, or false when no sibling holds one the judge lets
// stand (Judge.Decide, Sibling: ok, the same trial, traced to a commit of
// this history, every input found here unchanged, its files intact). The
// record keeps its run (commit, run id, inputs); it is renamed to this
// spec, its settings are spelled as this spec resolves them, and its
// vectors file, when the sibling still holds it unchanged, is copied to
// this spec's vectors/ under this spec's name for it.
func (r *Runner) takeSibling(spec *schema.Spec, t schema.Trial, s *siblingRecords, judge *Judge, logf func(string, ...any)) (records.Record, bool) {
	s.load(logf)
	cands := s.byID[t.ID]
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].dir < cands[j].dir })
	for _, c := range cands {
		d := judge.Decide(c.rec, t, Sibling, c.dir)
		if d.Verdict != Reuse {
			if !d.Routine {
				logf("kcalab: trial %s: %s's record of it: %s; not taken", t.ID, termsafe.Text(filepath.Base(c.dir)), termsafe.Text(d.Why))
			}
			continue
		}
		rec, err := r.adoptFiles(spec, t, c.dir, d.Record)
		if err != nil {
			logf("kcalab: trial %s: %s's record of it: %s; computing it", t.ID, termsafe.Text(filepath.Base(c.dir)), termsafe.Text(err.Error()))
			continue
		}
		logf("kcalab: trial %s: the same trial as in %s (computed at commit %.8s): its record is taken from there", t.ID, termsafe.Text(c.dir), c.rec.Run.Commit)
		return rec, true
	}
	return records.Record{}, false
}

// adoptFiles renames the files a sibling's record names (its saved
// vectors) to where this spec keeps them, copying each one the sibling
// still holds; one it no longer holds is named all the same (vectors are
// build outputs, absent from a fresh clone, as for any reused record).
func (r *Runner) adoptFiles(spec *schema.Spec, t schema.Trial, from string, rec records.Record) (records.Record, error) {
	if len(rec.Files) == 0 {
		return rec, nil
	}
	if len(rec.Files) != 1 {
		return rec, fmt.Errorf("it names %d files, where a trial writes at most one", len(rec.Files))
	}
	src := rec.Files[0]
	if filepath.IsAbs(filepath.FromSlash(src)) {
		return rec, nil // written to a -vectors directory: it stays where it is
	}
	sum := rec.FileHashes[src]
	dst := filepath.ToSlash(filepath.Join("vectors", VectorsFileName(spec.Name, t.Label, t.Method, t.ID)))
	rec.Files = []string{dst}
	rec.FileHashes = map[string]string{dst: sum}
	if missing, _ := records.CheckWrittenFile(from, src, sum); missing {
		return rec, nil
	}
	to := filepath.Join(spec.Output, filepath.FromSlash(dst))
	if err := atomicfile.CheckNoLinkBelow(spec.Output, to); err != nil {
		return rec, fmt.Errorf("vectors: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return rec, fmt.Errorf("vectors: %w", err)
	}
	if err := copyFile(filepath.Join(from, filepath.FromSlash(src)), to); err != nil {
		return rec, fmt.Errorf("vectors: %w", err)
	}
	if _, wrong := records.CheckWrittenFile(spec.Output, dst, sum); wrong != "" {
		return rec, fmt.Errorf("vectors: the copy %s %s", dst, wrong)
	}
	return rec, nil
}

// copyFile copies src to dst, replacing dst whole or not at all.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := atomicfile.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Discard()
		return err
	}
	return out.Commit()
}
