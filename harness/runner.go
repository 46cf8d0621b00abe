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

	logOnce sync.Once
	logW    io.Writer // Log behind a lock (log)
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
	r.logOnce.Do(func() {
		r.logW = io.Discard
		if r.Log != nil {
			r.logW = &lockedWriter{w: r.Log}
		}
	})
	return r.logW
}

// lockedWriter serialises writes: trials run on several goroutines and
// each line they log must reach Runner.Log whole, whatever writer it is.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
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
	judge := NewJudge(JudgeOptions{Spec: spec, DataDir: r.DataDir, Fresh: r.Fresh, Untraced: r.Untraced, WritesVectors: r.writesVectors})
	prev, err := prepareOutput(dir, spec, judge, r.Prune, r.Log)
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

	log := r.log()
	prog := NewProgress(log, len(trials))
	defer prog.Finish()

	out := &Run{Spec: spec, Dir: dir, Records: make([]records.Record, len(trials))}
	done := make([]bool, len(trials))
	reused := make([]bool, len(trials))
	var todo []schema.Trial
	reusedWords := 0 // reused trials that make word vectors
	logf := func(format string, args ...any) { fmt.Fprintf(log, format+"\n", args...) }
	noted := map[string]bool{} // inputs found nowhere, said once each
	siblings := &siblingRecords{own: dir}
	// reuse puts a record made by an earlier run in t's place.
	reuse := func(t schema.Trial, rec records.Record) {
		out.Records[t.Index] = rec
		done[t.Index] = true
		reused[t.Index] = true
		out.Reused++
		if t.Data.Source.Input() == schema.CorpusInput {
			reusedWords++
		}
		prog.Done(t, rec, true)
	}
	// compute puts t on the list to compute, unless (with Share) another
	// spec's results beside this one hold a record the judge lets stand
	// for it (takeSibling); -fresh computes every trial.
	compute := func(t schema.Trial) {
		if r.Share && !r.Fresh {
			if rec, ok := r.takeSibling(spec, t, siblings, judge, logf); ok {
				reuse(t, rec)
				return
			}
		}
		todo = append(todo, t)
	}
	// Each trial with a record is decided by the judge (Judge.Decide):
	// reused, computed again (saying why), or refused; a refusal stops the
	// run before any trial is computed or taken from another spec.
	var refused []string
	var toCompute []schema.Trial
	for _, t := range trials {
		old, ok := byID[t.ID]
		if !ok {
			toCompute = append(toCompute, t)
			continue
		}
		d := judge.Decide(old, t, Own, dir)
		switch d.Verdict {
		case Reuse:
			for _, p := range d.Missing {
				if !noted[p] {
					noted[p] = true
					logf("kcalab: note: %s, an input of earlier records, is not here to check against its recorded SHA-256; those records are reused as they are", termsafe.Text(p))
				}
			}
			for _, n := range d.Notes {
				logf("kcalab: trial %s: %s", t.ID, termsafe.Text(n))
			}
			reuse(t, d.Record)
		case Refuse:
			refused = append(refused, fmt.Sprintf("trial %s (%s): %s", t.ID, termsafe.Text(cmp.Or(t.Title, "the only trial")), d.Why))
		default:
			if !d.Routine {
				logf("kcalab: trial %s: %s: computing it again", t.ID, termsafe.Text(d.Why))
			}
			toCompute = append(toCompute, t)
		}
	}
	if len(refused) > 0 {
		return nil, refusedSeeds(path, spec, refused)
	}
	for _, t := range toCompute {
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
	// A recomputation that did not end ok (a mistyped -data with -fresh, a
	// tool gone, over its budget) never replaces a good record of the
	// trial: the old result is kept, not appended again, and the failure is
	// reported apart.
	var kept []string
	// The record kept is the one that stood for the trial: the reused
	// record (respelled as this spec resolves it) when the second round
	// recomputes a chosen design, else the file's.
	standing := func(t schema.Trial) (records.Record, bool) {
		if done[t.Index] {
			return out.Records[t.Index], true
		}
		old, ok := byID[t.ID]
		return old, ok
	}
	keepOld := func(t schema.Trial, rec *records.Record) bool {
		old, ok := standing(t)
		if !ok || old.Status != records.StatusOK || rec.Status == records.StatusOK {
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
	save := func(t schema.Trial, rec *records.Record) bool {
		if writeErr != nil {
			return false
		}
		if keepOld(t, rec) {
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
	// saves each record as it finishes. more, called (with mu held) after
	// each trial is saved, returns trials that result makes runnable (a
	// rung of a successive halving): they join the queue at once, so no
	// core idles while another group's rung still runs.
	// The workers are as many as the trials the run may compute (sizing),
	// not only the first few a halving can start with.
	runRound := func(todo []schema.Trial, more func() []schema.Trial, sizing []schema.Trial) {
		jobs := workers(r.Jobs, sizing, log)
		var wg sync.WaitGroup
		var queue, measured []schema.Trial
		// Measured trials run one at a time after the others, each in its own
		// process, so no other trial competes with them for the cores.
		// The queue stays in grid order: a trial a halving promotes runs
		// before the later groups' trials, so groups finish one after
		// another (a stopped run leaves whole groups, not a bit of each).
		enqueue := func(ts []schema.Trial) {
			for _, t := range ts {
				if t.Measure.Process {
					measured = append(measured, t)
				} else {
					queue = append(queue, t)
				}
			}
			slices.SortStableFunc(queue, func(a, b schema.Trial) int { return cmp.Compare(a.Index, b.Index) })
		}
		enqueue(todo)
		inflight := 0
		changed := sync.NewCond(&mu)
		// A worker takes the queue's first trial only when it is free, so a
		// trial promoted meanwhile goes before the later groups' trials.
		// It stops when the queue is empty and no trial that could add to
		// it is running, or the run is stopped.
		for w := 0; w < jobs; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					mu.Lock()
					for len(queue) == 0 && inflight > 0 && ctx.Err() == nil {
						changed.Wait()
					}
					if len(queue) == 0 || ctx.Err() != nil {
						changed.Broadcast()
						mu.Unlock()
						return
					}
					t := queue[0]
					queue = queue[1:]
					inflight++
					mu.Unlock()
					rec := encodable(testHookExecute(r, ctx, spec, t, prog))
					mu.Lock()
					inflight--
					if ctx.Err() != nil && rec.Status == "error" {
						changed.Broadcast()
						mu.Unlock()
						continue // interrupted: leave it for the next run
					}
					stored := rec
					if !save(t, &stored) {
						changed.Broadcast()
						mu.Unlock()
						continue
					}
					out.Records[t.Index] = stored
					done[t.Index] = true
					if more != nil && writeErr == nil && ctx.Err() == nil {
						enqueue(more())
					}
					changed.Broadcast()
					mu.Unlock()
					prog.Done(t, rec, false)
				}
			}()
		}
		// A trial that ends this run's context (an interrupt) wakes the
		// waiting workers too.
		stop := context.AfterFunc(ctx, func() {
			mu.Lock()
			changed.Broadcast()
			mu.Unlock()
		})
		wg.Wait()
		stop()
		for i := 0; i < len(measured); i++ {
			t := measured[i]
			if ctx.Err() != nil {
				break
			}
			rec := encodable(r.executeMeasured(ctx, spec, t, prog))
			if ctx.Err() != nil && rec.Status == "error" {
				break
			}
			mu.Lock()
			stored := rec
			ok := save(t, &stored)
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
	// others' results: the plan runs what it can now, and each result may
	// promote more (replan, called as each trial finishes); the trials it
	// does not promote are not run.
	notPromoted := 0
	queued := map[int]bool{}
	r.countShared(nil) // this run's trials are added as they are queued
	replan := func() []schema.Trial {
		now, skip := planRound(trials, todo, out.Records, done)
		for _, s := range skip {
			out.Records[s.trial.Index] = s.rec
			done[s.trial.Index] = true
		}
		notPromoted += len(skip)
		prog.NotRun(len(skip))
		var fresh []schema.Trial
		for _, t := range now {
			if !queued[t.Index] {
				queued[t.Index] = true
				fresh = append(fresh, t)
			}
		}
		r.addShared(fresh)
		return fresh
	}
	for round := 0; writeErr == nil && ctx.Err() == nil; round++ {
		mu.Lock()
		now := replan()
		mu.Unlock()
		if len(now) == 0 {
			break
		}
		if round > 0 {
			logf("kcalab: tune: successive halving: %d more trial(s) promoted by the results so far", len(now))
		}
		runRound(now, replan, todo)
	}
	if notPromoted > 0 {
		logf("kcalab: tune: successive halving: %d trial(s) of the grid not promoted, so not run (the report lists why)", notPromoted)
	}
	// A candidate whose record was cut to the search (records.Slim) and
	// that the choice now picks (a rule or a grid changed) is computed
	// again: a compared row needs its replicates and word map.
	if writeErr == nil && ctx.Err() == nil {
		if again := chosenAgain(judge, trials, out.Records, done, dir); len(again) > 0 {
			logf("kcalab: tune: %d chosen trial(s) hold only their search scores: computing them again for their replicates", len(again))
			prog.Again(len(again))
			for _, t := range again {
				// Computed by this run now, not reused.
				if reused[t.Index] {
					reused[t.Index] = false
					out.Reused--
				}
			}
			r.countShared(again)
			runRound(again, nil, again)
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
	comp, err := compactResults(path, judge, trials, out.Records, done, prev, r.Prune)
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

// testHookExecute runs an unmeasured trial of a run; tests replace it to
// fail a recomputation.
var testHookExecute = (*Runner).executeWithin

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
// traced to a commit (a binary built from a tree with changes, or one
// that carries no commit, as go run's):
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
			"to commit them as reference results, commit the code first, then build kcalab in the clean clone (go build -buildvcs=true -o kcalab .) and run the spec with it (-untraced); see docs/provenance.md", n, why)
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
		fmt.Fprintf(r.log(), "kcalab: note: %s: %s runs as trial %s, %s: it differs only in %s, which a trial id leaves out because the numbers do not depend on it; to compare the values, run the spec once with each\n",
			termsafe.Text(spec.Name), termsafe.Text(m.String()), m.Into.ID, termsafe.Text(cmp.Or(m.Into.Title, "the first")), strings.Join(m.Keys, ", "))
	}
}
