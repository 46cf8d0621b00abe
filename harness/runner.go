package harness

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"kcalab/methods/eval"
	"kcalab/records"
	"kcalab/schema"

	"kcalab/datasets/corpus"
	"kcalab/datasets/wordsim"
	"kcalab/internal/atomicfile"
	"kcalab/internal/termsafe"
)

// Runner executes a spec's trials.
type Runner struct {
	Jobs    int    // trials run at once; ≤ 0 means runtime.NumCPU()
	Fresh   bool   // recompute trials even when results.jsonl has them
	DataDir string // data directory for corpora and word-sim sets ("" = $KCALAB_DATA, else ./data)
	// CacheDir keeps vocabularies and offset tables between runs ("" = no cache).
	CacheDir string
	// VectorsDir, when set, receives every word-vector trial's vectors
	// (word2vec text format, <spec>-<label>-<trial id>.txt, see VectorsFileName).
	VectorsDir string
	Log        io.Writer // progress and warnings (stderr); nil = silent
	// LockWait bounds the wait for another run writing the same output
	// directory (0 = refuse at once); see LockOutput.
	LockWait time.Duration
	// Prune removes, once every trial of the grid has finished, the records
	// of trials outside it; without it they are kept (Run.Aside). It also
	// lets a spec take over a directory of records none of which is in its
	// grid.
	Prune bool
	// Untraced recomputes the trials whose records cannot be traced to a
	// commit of the checkout's history (records.Untraced): a dirty tree,
	// no commit, a commit not in the history. Other trials are reused.
	Untraced bool
	// Share takes a trial this spec's results lack (or hold only in a form
	// it cannot reuse) from another spec's results beside its own, when
	// that record is of the same trial and traces to a commit of this
	// history (takeSibling): a trial two specs share is computed once.
	// Off, only this spec's own results are reused.
	Share bool

	cacheChecked bool   // usableCache ran
	runID        string // this Run's records.RunInfo.ID

	shared   sharedDecs // decompositions trials share (svd.shared_rank)
	vecs     sharedVecs // word vectors retrofitted trials share (retrofit.*)
	wordMemo memo[*WordData]
	// subsampleMemo holds the subsampled tables of a corpus section, shared
	// by the trials that draw the same (data.subsample).
	subsampleMemo memo[*corpus.Tables]
	setMemo       memo[*wordsim.Set]
	resampMemo    memo[[][]int]
}

// resamples are the bootstrap resamples of a set of n pairs (shared by
// every trial, so computed once per runner).
func (r *Runner) resamples(key string, n int) [][]int {
	idx, _ := r.resampMemo.get(fmt.Sprintf("%s\x00%d", key, n), func() ([][]int, error) {
		return eval.ResampleIndices(key, n, eval.Resamples), nil
	})
	return idx
}

func (r *Runner) log() io.Writer {
	if r.Log == nil {
		return io.Discard
	}
	return r.Log
}

// Run is the outcome of running a spec.
type Run struct {
	Spec    *schema.Spec
	Dir     string           // output directory
	Records []records.Record // one per trial that has a result, in grid order
	Reused  int              // trials taken from an earlier run
	// NotPromoted counts the trials of the grid that successive halving
	// did not run (records.PlanHalving); Records leaves them out.
	NotPromoted int
	// Aside counts the records of trials outside the grid that the results
	// file keeps; Pruned those Runner.Prune removed.
	Aside, Pruned int
}

// Run executes every trial of the spec that is not already complete in the
// output directory, appending each finished trial's record to results.jsonl
// (synced) and compacting the file at the end. Trials that fail are
// recorded with status "error" (a trial that already has an ok record
// keeps that one) and make Run return an error after all other trials
// finished; a failure to write results stops the run at once.
// The output directory is held for the whole run (LockOutput), unless ctx
// already carries its lock (WithOutputLock).
func (r *Runner) Run(ctx context.Context, spec *schema.Spec) (*Run, error) {
	r.runID = newRunID()
	trials := spec.Trials()
	r.noteMerged(spec)
	dir := spec.Output
	path := filepath.Join(dir, records.FileName)
	if !holdsOutput(ctx, dir) {
		lock, err := r.LockOutput(ctx, dir)
		if err != nil {
			return nil, err
		}
		defer lock.Release()
	}
	prev, err := prepareOutput(dir, spec, trials, r.Prune, r.Log)
	if err != nil {
		return nil, err
	}
	r.usableCache(trials)
	if err := r.checkVectorsDir(); err != nil {
		return nil, err
	}
	byID := map[string]records.Record{}
	for _, rec := range prev {
		byID[rec.ID] = rec
	}

	log := r.Log
	if log == nil {
		log = io.Discard
	}
	prog := NewProgress(log, len(trials))
	defer prog.Finish()

	out := &Run{Spec: spec, Dir: dir, Records: make([]records.Record, len(trials))}
	done := make([]bool, len(trials))
	var todo []schema.Trial
	inputs := newInputCheck(r, spec)
	traced := historyMemo{} // one git call per commit the records name
	reusedWords := 0        // reused trials that make word vectors
	logf := func(format string, args ...any) { fmt.Fprintf(log, format+"\n", args...) }
	siblings := &siblingRecords{own: dir}
	// compute puts t on the list to compute, unless (with Share) another
	// spec's results beside this one hold the same trial, computed from a
	// commit of this history (takeSibling); -fresh computes every trial.
	// reuse puts a record made by an earlier run in t's place.
	reuse := func(t schema.Trial, rec records.Record) {
		out.Records[t.Index] = rec
		done[t.Index] = true
		out.Reused++
		if t.Data.Source.Input() == schema.CorpusInput {
			reusedWords++
		}
		prog.Done(t, rec, true)
	}
	compute := func(t schema.Trial) {
		if r.Share && !r.Fresh {
			if rec, ok := r.takeSibling(spec, t, siblings, traced, inputs, logf); ok {
				reuse(t, rec)
				return
			}
		}
		todo = append(todo, t)
	}
	for _, t := range trials {
		if old, ok := byID[t.ID]; ok && !r.Fresh && old.Status != "error" && old.Status != "skipped" && old.Seed == t.Seed && schema.SameTrial(old.Settings, t) && sameBackend(old, t) && keepsSigma(&old, t) {
			if r.Untraced {
				if why := records.Untraced(old, traced.inHistory); why != "" {
					logf("kcalab: trial %s: %s: computing it again (-untraced)", t.ID, why)
					compute(t)
					continue
				}
			}
			if why := inputs.stale(old, t, logf); why != "" {
				logf("kcalab: trial %s: %s: computing it again", t.ID, termsafe.Text(why))
				compute(t)
				continue
			}
			if why := changedFile(spec.Output, old); why != "" {
				if r.writesVectors(t) {
					logf("kcalab: trial %s: %s: computing it again", t.ID, termsafe.Text(why))
					compute(t)
					continue
				}
				logf("kcalab: trial %s: %s; its report does not link it (run with -vectors, or vectors.save, and -fresh to write it again)", t.ID, termsafe.Text(why))
			}
			old.Spec = spec.Name
			// Equivalent settings: record them as the spec now resolves them
			// (new keys, other methods' defaults), so the file and report
			// show one set of settings.
			old.Settings = t.RecordSettings()
			reuse(t, old)
			continue
		}
		compute(t)
	}

	// Where a trial to compute would write its vectors must not be a link:
	// refused now, not after its decomposition.
	for _, t := range todo {
		if base, vpath := r.vectorsPath(spec, t); vpath != "" {
			if err := atomicfile.CheckNoLinkBelow(base, vpath); err != nil {
				return nil, fmt.Errorf("trial %s: vectors: %w (no trial was run)", t.ID, err)
			}
		}
	}

	rlog, err := testHookOpenLog(path)
	if err != nil {
		return nil, err
	}
	// A write failure cancels the trials still running: their results could
	// not be kept either.
	parent := ctx
	ctx, stopTrials := context.WithCancel(ctx)
	defer stopTrials()
	var mu sync.Mutex
	var writeErr error
	finished := 0 // trials computed by this run and saved
	// A recomputation that failed (a mistyped -data with -fresh, a tool
	// gone) never replaces a good record of the trial: the old result is
	// kept, not appended again, and the failure is reported apart.
	var kept []string
	keepOld := func(rec *records.Record) bool {
		old, ok := byID[rec.ID]
		if !ok || old.Status != "ok" || (rec.Status != "error" && rec.Status != "skipped") {
			return false
		}
		when := "an earlier run"
		if old.Run != nil && old.Run.End != "" {
			when = "the run that ended " + old.Run.End
		}
		kept = append(kept, fmt.Sprintf("trial %s: computing it again failed: %s; its older result, from %s, is kept", rec.ID, rec.Error, when))
		*rec = old
		return true
	}
	// save appends a finished trial's record, or keeps its older one in
	// *rec (see keepOld); false when results can no longer be written.
	save := func(rec *records.Record) bool {
		if writeErr != nil {
			return false
		}
		if keepOld(rec) {
			return true
		}
		if err := rlog.Append(*rec); err != nil {
			writeErr = err
			stopTrials()
			return false
		}
		finished++
		return true
	}

	// runRound computes trials (measured ones last, one at a time) and
	// saves each record as it finishes.
	runRound := func(todo []schema.Trial) {
		jobs := workers(r.Jobs, todo, log)
		work := make(chan schema.Trial)
		var wg sync.WaitGroup
		for w := 0; w < jobs; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for t := range work {
					rec := encodable(r.executeWithin(ctx, spec, t, prog))
					mu.Lock()
					if ctx.Err() != nil && rec.Status == "error" {
						mu.Unlock()
						continue // interrupted: leave it for the next run
					}
					stored := rec
					if !save(&stored) {
						mu.Unlock()
						continue
					}
					out.Records[t.Index] = stored
					done[t.Index] = true
					mu.Unlock()
					prog.Done(t, rec, false)
				}
			}()
		}
		// Measured trials run one at a time after the others, each in its own
		// process, so no other trial competes with them for the cores.
		var measured []schema.Trial
	feed:
		for _, t := range todo {
			if t.Measure.Process {
				measured = append(measured, t)
				continue
			}
			select {
			case work <- t:
			case <-ctx.Done():
				break feed
			}
		}
		close(work)
		wg.Wait()
		for _, t := range measured {
			if ctx.Err() != nil {
				break
			}
			rec := encodable(r.executeMeasured(ctx, spec, t, prog))
			if ctx.Err() != nil && rec.Status == "error" {
				break
			}
			mu.Lock()
			stored := rec
			ok := save(&stored)
			if ok {
				out.Records[t.Index] = stored
				done[t.Index] = true
			}
			mu.Unlock()
			if !ok {
				break
			}
			prog.Done(t, rec, false)
		}
	}
	// Successive halving (tune.halving) decides some trials only from
	// others' results: each round computes what the plan runs now, until
	// it runs nothing more; the trials it does not promote are not run.
	notPromoted := 0
	for round := 0; writeErr == nil && ctx.Err() == nil; round++ {
		now, skip := planRound(trials, todo, out.Records, done)
		for _, s := range skip {
			out.Records[s.trial.Index] = s.rec
			done[s.trial.Index] = true
		}
		notPromoted += len(skip)
		prog.NotRun(len(skip))
		if len(now) == 0 {
			break
		}
		if round > 0 {
			logf("kcalab: tune: successive halving: %d more trial(s) promoted by the results so far", len(now))
		}
		r.countShared(now)
		runRound(now)
		todo = slices.DeleteFunc(todo, func(t schema.Trial) bool { return done[t.Index] })
	}
	if notPromoted > 0 {
		logf("kcalab: tune: successive halving: %d trial(s) of the grid not promoted, so not run (the report lists why)", notPromoted)
	}
	// A candidate whose record was cut to the search (records.Slim) and
	// that the choice now picks (a rule or a grid changed) is computed
	// again: a compared row needs its replicates and word map.
	if writeErr == nil && ctx.Err() == nil {
		if again := fullAgain(trials, out.Records, done); len(again) > 0 {
			logf("kcalab: tune: %d chosen trial(s) hold only their search scores: computing them again for their replicates", len(again))
			prog.Again(len(again))
			r.countShared(again)
			runRound(again)
		}
	}
	cerr := rlog.Close()
	if writeErr == nil && cerr != nil {
		writeErr = cerr
	}
	if writeErr != nil {
		return out, fmt.Errorf("%w; the run stopped at once: %d trial(s) finished before it are saved in %s (fix the disk or give another -out, then run again to resume)", writeErr, finished, path)
	}
	if n := slimDone(trials, out.Records, done); n > 0 {
		logf("kcalab: tune: %d record(s) of tuned trials keep only what a page uses (no replicates of in-sample scores; candidates not chosen keep their scores alone)", n)
	}
	comp, err := compactResults(path, trials, out.Records, done, prev, r.Prune)
	if err != nil {
		return out, fmt.Errorf("%w; the records are kept in the uncompacted %s, run again to resume", err, path)
	}
	out.Aside, out.Pruned = comp.Aside, comp.Pruned
	out.NotPromoted = notPromoted
	out.Records = slices.DeleteFunc(out.Records, func(rec records.Record) bool { return rec.Status == records.StatusNotPromoted })
	switch {
	case comp.Pruned > 0:
		logf("kcalab: -prune: removed %d record(s) of trials outside this spec's grid from %s", comp.Pruned, termsafe.Text(path))
	case comp.Aside > 0 && r.Prune:
		logf("kcalab: -prune: %s keeps %d record(s) of trials outside this spec's grid: not every trial of the grid finished", termsafe.Text(path), comp.Aside)
	case comp.Aside > 0:
		logf("kcalab: %s keeps %d record(s) of trials outside this spec's grid (a run deletes no result); the report shows today's grid; -prune removes them", termsafe.Text(path), comp.Aside)
	}
	if err := parent.Err(); err != nil {
		return out, fmt.Errorf("interrupted: %d trial(s) finished in this run, %d reused, %d of %d not done; completed trials are saved in %s; run again to resume: %w",
			finished, out.Reused, len(trials)-finished-out.Reused-notPromoted, len(trials)-notPromoted, path, err)
	}
	r.noteVectorsNotWritten(spec, reusedWords)
	r.noteUntraced(out.Records, logf)
	noteChoices(out.Records, logf)
	failed := kept
	for _, rec := range out.Records {
		if rec.Status == "error" {
			failed = append(failed, fmt.Sprintf("trial %s: %s", rec.ID, rec.Error))
		}
	}
	if len(failed) > 0 {
		sort.Strings(failed)
		return out, errors.New(strings.Join(failed, "\n"))
	}
	return out, nil
}

// encodable is rec, or when rec holds a value no results line can hold
// (records.ErrEncode: a NaN, a record over records.MaxLineBytes) an error
// record of the trial saying so: the trial failed, not the disk, and the
// run goes on.
func encodable(rec records.Record) records.Record {
	_, err := records.Encode(rec)
	if !errors.Is(err, records.ErrEncode) {
		return rec
	}
	return records.Record{ID: rec.ID, Spec: rec.Spec, Seed: rec.Seed, Settings: rec.Settings, Status: records.StatusError,
		Error: err.Error(), Env: rec.Env, Run: rec.Run}
}

// execute runs one trial and never panics: a panic in method code becomes an
// error record, so one bad trial cannot take the others down.
func (r *Runner) execute(ctx context.Context, spec *schema.Spec, t schema.Trial, prog *Progress) (rec records.Record) {
	start := time.Now()
	run := r.beginRun()
	var tr *TrialRun
	rec = records.Record{
		ID:       t.ID,
		Spec:     spec.Name,
		Seed:     t.Seed,
		Settings: t.RecordSettings(),
		Metrics:  map[string]float64{},
		Timings:  map[string]float64{},
		Env:      CurrentEnv(),
	}
	defer func() {
		if p := recover(); p != nil {
			buf := make([]byte, 4096)
			buf = buf[:runtime.Stack(buf, false)]
			rec.Status, rec.Error = "error", fmt.Sprintf("internal error (please report): %v\n%s", p, buf)
		}
		rec.Timings["total"] = time.Since(start).Seconds()
		rec.Run = endRun(run, tr.Inputs())
	}()
	// A one-core trial (a baseline's training) keeps its thread, so the
	// thread's CPU time is its cost, however many trials share the cores:
	// its wall time is not, beside other work.
	if m, ok := lookupMethod(t.Method); ok && m.Info().Baseline {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if c0, ok := threadCPU(); ok {
			defer func() {
				if c1, ok := threadCPU(); ok && rec.Status == records.StatusOK {
					rec.Metrics[records.MetricThreadCPU] = c1 - c0
				}
			}()
		}
	}
	tr = &TrialRun{runner: r, Spec: spec, Trial: t, Record: &rec, prog: prog}
	if err := tr.run(ctx); err != nil {
		rec.Status = "error"
		rec.Error = err.Error()
		switch {
		case errors.Is(err, ErrOverBudget):
			rec.Status = "over_budget"
		case errors.Is(err, ErrSkipped):
			rec.Status = "skipped"
		}
		return rec
	}
	rec.Status = "ok"
	return rec
}

// ErrOverBudget marks a trial that would exceed its budget
// (budget.seconds, budget.memory_mb): a method returns an error wrapping
// it, and the trial is recorded with status "over_budget".
var ErrOverBudget = errors.New("over budget")

// ErrSkipped marks a trial that cannot run on this machine (a missing
// program, a build without the lapack backend): a method returns an error
// wrapping it, and the trial is recorded with status "skipped", not as a
// failure.
var ErrSkipped = errors.New("skipped")

// testHookOpenLog opens the results log; tests replace it to fail a write
// mid-run.
var testHookOpenLog = records.OpenLog

// sameBackend reports whether a record was decomposed by the backend the
// trial resolves to: what "auto" means depends on this build (lapack or
// not) and on the table's shape, not on the trial id, and another
// backend's result is not this trial's. A record that does not say its
// table's shape is taken when an exact backend made it.
func sameBackend(old records.Record, t schema.Trial) bool {
	if old.Backend == "" || old.Backend == t.SVD.Backend {
		return true
	}
	if t.SVD.Backend != "auto" {
		return false
	}
	if b, ok := AutoBackend(old, t); ok {
		return old.Backend == b
	}
	return exactBackends[old.Backend]
}

// keepsSigma says a record holds every singular value trial t keeps
// (svd.record_sigma, not part of the trial id), and cuts a longer list to
// them; a record that kept fewer is computed again rather than reused. A
// candidate cut to the search (records.Slim) keeps σ_1 and σ_k alone by
// design: it is reused, and computed again only if a choice picks it.
func keepsSigma(rec *records.Record, t schema.Trial) bool {
	if rec.SVD == nil || rec.SearchOnly {
		return true
	}
	want := t.SVD.RecordSigma
	if rec.SVD.K > len(rec.SVD.S) && (want == 0 || want > len(rec.SVD.S)) {
		return false
	}
	if want > 0 && want < len(rec.SVD.S) {
		cut := *rec.SVD
		cut.Keep(want)
		rec.SVD = &cut
	}
	return true
}

// workers is the number of goroutines that run the unmeasured trials of
// todo: jobs (≤ 0: one per core), but never more than there are such
// trials, so no -jobs value allocates beyond the work; a cap of an
// explicit -jobs is said on the log.
func workers(jobs int, todo []schema.Trial, log io.Writer) int {
	n := 0
	for _, t := range todo {
		if !t.Measure.Process {
			n++
		}
	}
	if jobs <= 0 {
		return max(1, min(runtime.NumCPU(), n))
	}
	if jobs > n {
		if n > 0 {
			fmt.Fprintf(log, "kcalab: -jobs %d: %d trial(s) to compute, so %d worker(s)\n", jobs, n, n)
		}
		return max(1, n)
	}
	return jobs
}

// checkVectorsDir makes sure -vectors can take files before any trial
// runs, so a bad directory fails at once, not after every decomposition.
func (r *Runner) checkVectorsDir() error {
	if r.VectorsDir == "" {
		return nil
	}
	if err := os.MkdirAll(r.VectorsDir, 0o755); err != nil {
		return fmt.Errorf("-vectors: %w (no trial was run)", err)
	}
	if err := checkWritable(r.VectorsDir); err != nil {
		return fmt.Errorf("-vectors: %w", err)
	}
	return nil
}

// writesVectors says the trial, when computed by this run, writes its
// vectors (-vectors, or vectors.save).
func (r *Runner) writesVectors(t schema.Trial) bool {
	return r.VectorsDir != "" || t.Vectors.Save
}

// changedFile says why a file a record names no longer holds what its
// trial wrote (a link in its place, another file, other content), ""
// when every one does or is missing: exported vectors are build outputs,
// absent from a fresh clone, so a missing one does not stop reuse (the
// report names it without a link).
func changedFile(dir string, rec records.Record) string {
	for _, f := range rec.Files {
		if _, wrong := records.CheckWrittenFile(dir, f, rec.FileHashes[f]); wrong != "" {
			return fmt.Sprintf("its vectors file %s %s", f, wrong)
		}
	}
	return ""
}

// vectorsPath is the file the trial's vectors are written to when it is
// computed ("" when they are not) and the directory it is checked below
// for links: -vectors DIR (the user's), else the output directory
// (vectors.save writes to its vectors/).
func (r *Runner) vectorsPath(spec *schema.Spec, t schema.Trial) (base, path string) {
	dir, base := r.VectorsDir, r.VectorsDir
	if dir == "" {
		if !t.Vectors.Save {
			return "", ""
		}
		dir, base = outputVectorsDir(spec), spec.Output
	}
	return base, filepath.Join(dir, VectorsFileName(spec.Name, t.Label, t.Method, t.ID))
}

// outputVectorsDir is where vectors.save writes a spec's vectors: vectors/
// in its output directory.
func outputVectorsDir(spec *schema.Spec) string {
	return filepath.Join(spec.Output, "vectors")
}

// noteVectorsNotWritten says when -vectors wrote nothing for reused word
// trials: a record keeps scores, not vectors.
func (r *Runner) noteVectorsNotWritten(spec *schema.Spec, reusedWords int) {
	if r.VectorsDir == "" || reusedWords == 0 {
		return
	}
	fmt.Fprintf(r.log(), "kcalab: -vectors: %d word-vector trial(s) of %s were reused from earlier results, so no vectors were computed for them and none written to %s; run with -fresh to write them\n",
		reusedWords, termsafe.Text(spec.Name), termsafe.Text(r.VectorsDir))
}

// noteUntraced says, at the end of a run, when trials it computed cannot be
// traced to a commit (a tree with uncommitted changes, no git checkout):
// such results are fine to look at, but not to commit as reference
// numbers, which a reader must be able to rebuild.
func (r *Runner) noteUntraced(recs []records.Record, logf func(format string, args ...any)) {
	n, why := 0, ""
	for _, rec := range recs {
		if rec.Run == nil || rec.Run.ID != r.runID {
			continue // reused
		}
		if w := records.Untraced(rec, func(string) bool { return true }); w != "" {
			n++
			why = w
		}
	}
	if n > 0 {
		logf("kcalab: note: %d trial(s) computed by this run cannot be traced to code a reader can rebuild (%s); "+
			"to commit them as reference results, commit the code first, then run the spec from the clean tree (-fresh)", n, why)
	}
}

// noteMerged says which grid points run as an earlier trial although their
// settings differ (schema.Spec.Merged): the settings they differ in do not
// enter a trial id, so the run would otherwise drop them without a word.
func (r *Runner) noteMerged(spec *schema.Spec) {
	if r.Log == nil {
		return
	}
	for _, m := range spec.Merged() {
		fmt.Fprintf(r.Log, "kcalab: note: %s: %s runs as trial %s, %s: it differs only in %s, which a trial id leaves out because the numbers do not depend on it; to compare the values, run the spec once with each\n",
			termsafe.Text(spec.Name), termsafe.Text(m.String()), m.Into.ID, termsafe.Text(cmp.Or(m.Into.Title, "the first")), strings.Join(m.Keys, ", "))
	}
}
