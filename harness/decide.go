package harness

import (
	"fmt"
	"strings"

	"kcalab/records"
	"kcalab/schema"
)

// The reuse decision: may this record stand for this trial, with these
// inputs, from this code? It is answered here alone (Judge.Decide), and
// asked by the run of a spec (its own records, Runner.Run), by -share
// (another spec's, takeSibling), by -untraced (JudgeOptions.Untraced), by
// the second round of a tuned grid (a chosen design cut to the search,
// chosenAgain), by -prune and the compaction (which records are of the
// grid at all, TrialOf) and by the page (a record that no longer holds is
// shown stale, never as current: StaleRecords). docs/reuse.md lists the
// rules and the cases they answer.

// Verdict is what a run does with a record for a trial.
type Verdict int

const (
	// Reuse: the record stands for the trial (Decision.Record).
	Reuse Verdict = iota
	// Recompute: the trial is computed (again); Decision.Why says why. A
	// spec's own record is kept should that fail (a run deletes no
	// result); another spec's is not taken.
	Recompute
	// Refuse: the run stops before any trial is computed; Decision.Why
	// says why and what to do.
	Refuse
)

func (v Verdict) String() string {
	switch v {
	case Reuse:
		return "reuse"
	case Recompute:
		return "recompute"
	case Refuse:
		return "refuse"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Origin is where a record comes from.
type Origin int

const (
	// Own: the spec's own results file.
	Own Origin = iota
	// Sibling: another spec's results beside the spec's (-share). Only a
	// record that proves everything is taken: ok, traced, every input
	// found here unchanged, its files intact.
	Sibling
)

// Decision is the answer of Judge.Decide.
type Decision struct {
	Verdict Verdict
	// Why says why the record does not stand (Recompute, Refuse); "" for
	// Reuse.
	Why string
	// Stale says the record no longer holds for the trial: computed with
	// another seed or other settings, or from an input that has changed
	// since. A page shows such a record marked stale with Why, never as
	// current. Other reasons (-fresh, -untraced, a backend auto resolves
	// otherwise in this build, fewer σ kept than the trial keeps) leave its
	// numbers true of what it says it is.
	Stale bool
	// Routine says the recompute is one the user asked for or expects of
	// every such record (-fresh, a failed or skipped trial): the run does
	// not say it trial by trial.
	Routine bool
	// Notes are what the run says of a record it reuses all the same: an
	// input not here to check, a vectors file no longer as written.
	Notes []string
	// Missing are the recorded inputs found nowhere (see inputCheck).
	Missing []string
	// Record is the record ready to stand for the trial (Reuse): named
	// after the deciding spec, its settings spelled as that spec resolves
	// them, σ cut to what the trial keeps.
	Record records.Record
}

// JudgeOptions are what a Judge decides with.
type JudgeOptions struct {
	Spec *schema.Spec
	// DataDir is the data directory the trials read (-data; "" =
	// $KCALAB_DATA, else ./data).
	DataDir string
	// Fresh recomputes every trial (-fresh); Untraced every trial whose
	// record cannot be traced to a commit of the checkout's history
	// (-untraced).
	Fresh, Untraced bool
	// WritesVectors says a trial computed now writes its vectors (-vectors,
	// vectors.save): a record whose vectors file changed is then computed
	// again rather than reused without a link. nil: never.
	WritesVectors func(schema.Trial) bool
	// InHistory reports whether a full commit hash is in the checkout's
	// history; nil asks git (merge-base --is-ancestor), once per commit.
	InHistory func(commit string) bool
}

// Judge decides, for one spec, whether records may stand for its trials.
// A Judge is not safe for concurrent use.
type Judge struct {
	opts   JudgeOptions
	grid   map[string]schema.Trial // the spec's trials by id
	inputs *inputCheck
	traced historyMemo
	// needFull are the trials whose records are cut to the search
	// (records.SearchOnly) that their tuning group now chooses.
	needFull map[string]bool
}

// NewJudge returns a Judge for opts.Spec.
func NewJudge(opts JudgeOptions) *Judge {
	path := ""
	if opts.Spec != nil {
		path = opts.Spec.Path
	}
	j := &Judge{opts: opts, inputs: newInputCheck(opts.DataDir, path), traced: historyMemo{}, grid: map[string]schema.Trial{}}
	if opts.Spec != nil {
		for _, t := range opts.Spec.Trials() {
			j.grid[t.ID] = t
		}
	}
	return j
}

// TrialOf is the trial of the spec's grid a record is of (by its id), and
// false for a record of no trial of today's grid (an axis narrowed, a
// variant removed): a run keeps those aside, -prune removes them once every
// trial finished, and a page leaves them out, saying how many. Whether a
// record of a trial may stand for it is Decide's.
func (j *Judge) TrialOf(rec records.Record) (schema.Trial, bool) {
	t, ok := j.grid[rec.ID]
	return t, ok
}

// NeedFull marks trials whose tuning group chooses them while their
// records hold only their search scores (records.NeedsFull): Decide then
// recomputes them, since a compared row needs its replicates.
func (j *Judge) NeedFull(ids []string) {
	if j.needFull == nil {
		j.needFull = map[string]bool{}
	}
	for _, id := range ids {
		j.needFull[id] = true
	}
}

// traces is records.Untraced with this judge's history.
func (j *Judge) traces(rec records.Record) string {
	in := j.opts.InHistory
	if in == nil {
		in = j.traced.inHistory
	}
	return records.Untraced(rec, in)
}

// Decide says whether rec, from dir (the output directory holding it, for
// the files it names), may stand for trial t. The rules, in order:
//
//   - -fresh recomputes every trial; a record that failed or was skipped is
//     computed again; another spec's record is taken only when ok.
//   - Same trial: the seed must be the trial's (a spec's own record of
//     another seed is refused: the run would replace a result by one of
//     another seed; -fresh says that is meant), the settings the same
//     (schema.TrialDiff), the SVD backend the one the trial resolves to in
//     this build, and σ kept at least as many as the trial keeps.
//   - Code: a record that cannot be traced to a full commit of this
//     history built from a clean tree (records.Untraced) is recomputed
//     under -untraced, and never taken from another spec.
//   - Inputs: every recorded input must have its recorded content in the
//     file this run reads (inputCheck); a changed one makes the record
//     stale. One found nowhere is a note for an own record, a reason not
//     to take another spec's.
//   - Files: a vectors file no longer as the trial wrote it recomputes the
//     trial when it would write vectors now (else a note: the page names it
//     without a link); another spec's record is then not taken.
//   - A record cut to the search that its tuning group now chooses (see
//     NeedFull) is computed again for its replicates; another spec's cut
//     record is not taken for a trial this spec does not tune.
func (j *Judge) Decide(rec records.Record, t schema.Trial, from Origin, dir string) Decision {
	recompute := func(why string) Decision { return Decision{Verdict: Recompute, Why: why} }
	stale := func(why string) Decision { return Decision{Verdict: Recompute, Why: why, Stale: true} }
	if j.opts.Fresh {
		return Decision{Verdict: Recompute, Why: "-fresh computes every trial", Routine: true}
	}
	switch {
	case from == Sibling && rec.Status != records.StatusOK:
		return Decision{Verdict: Recompute, Why: fmt.Sprintf("its record there has status %s", rec.Status), Routine: true}
	case rec.Status == records.StatusError, rec.Status == records.StatusSkipped:
		return Decision{Verdict: Recompute, Why: fmt.Sprintf("its record has status %s: computing it again", rec.Status), Routine: true}
	}
	if rec.Seed != t.Seed {
		why := fmt.Sprintf("its record was computed with seed %d, and this spec gives the trial seed %d", rec.Seed, t.Seed)
		if from == Own {
			return Decision{Verdict: Refuse, Why: why, Stale: true}
		}
		return recompute(why)
	}
	if diff := schema.TrialDiff(rec.Settings, t); len(diff) > 0 {
		return stale("its record was made with other settings (" + settingsDiff(rec.Settings, t, diff) + ")")
	}
	if !sameBackend(rec, t) {
		want := t.SVD.Backend
		if b, ok := AutoBackend(rec, t); ok && want == "auto" {
			want = "auto, which resolves to " + b + " in this build"
		}
		return recompute(fmt.Sprintf("its record was decomposed by backend %s, and the trial's is %s", rec.Backend, want))
	}
	if !keepsSigma(&rec, t) {
		return recompute(fmt.Sprintf("its record keeps %d singular value(s) of %d, fewer than the trial keeps", len(rec.SVD.S), rec.SVD.K))
	}
	if from == Sibling || j.opts.Untraced {
		if why := j.traces(rec); why != "" {
			if from == Sibling {
				return recompute(why)
			}
			return recompute(why + " (-untraced)")
		}
	}
	d := Decision{Verdict: Reuse}
	f := j.inputs.check(rec, t)
	switch f.state {
	case inputChanged:
		return stale(f.why)
	case inputNotInData, inputUnreadable:
		return recompute(f.why)
	}
	d.Missing = f.missing
	if len(f.missing) > 0 {
		if from == Sibling {
			return recompute(fmt.Sprintf("its input %s is not here to check against its recorded SHA-256", f.missing[0]))
		}
	}
	if why := changedFile(dir, rec); why != "" {
		switch {
		case from == Sibling:
			return recompute(why)
		case j.opts.WritesVectors != nil && j.opts.WritesVectors(t):
			return recompute(why)
		}
		d.Notes = append(d.Notes, why+"; its report does not link it (run with -vectors, or vectors.save, and -fresh to write it again)")
	}
	if j.needFull[t.ID] && rec.SearchOnly {
		return recompute("its tuning group chooses it, but its record holds only its search scores: computing it again for its replicates")
	}
	if from == Sibling && rec.SearchOnly && len(t.Tune.Axes) == 0 {
		// Here the trial is a compared row, shown with what the cut
		// record lacks (replicates, Pearson r, neighbours).
		return recompute("its record there holds only its search scores (a candidate its tuning group did not choose), and here it is compared")
	}
	if j.opts.Spec != nil {
		rec.Spec = j.opts.Spec.Name
	}
	// Equivalent settings: record them as the spec now resolves them (new
	// keys, other methods' defaults), so the file and report show one set
	// of settings.
	rec.Settings = t.RecordSettings()
	d.Record = rec
	return d
}

// settingsDiff spells the settings a record differs in, "svd.rank 100 → 300".
func settingsDiff(old map[string]any, t schema.Trial, keys []string) string {
	parts := make([]string, 0, min(len(keys), 4))
	for i, k := range keys {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("%d more", len(keys)-3))
			break
		}
		was, ok := old[k]
		if !ok {
			was = "(default)"
		}
		now, ok := t.Values[k]
		if !ok {
			now = "(none)"
		}
		parts = append(parts, fmt.Sprintf("%s %v → %v", k, short(fmt.Sprint(was)), short(fmt.Sprint(now))))
	}
	return strings.Join(parts, ", ")
}

func short(s string) string {
	if len(s) > 60 {
		return s[:57] + "…"
	}
	return s
}

// StaleRecords decides every record of recs that is of a trial of spec's
// grid as its own record (Judge.Decide, with nothing asked but to see it),
// and returns why each one that no longer holds is stale, by id: a page
// shows those marked stale, never as current.
func StaleRecords(spec *schema.Spec, recs []records.Record, dataDir, dir string) map[string]string {
	j := NewJudge(JudgeOptions{Spec: spec, DataDir: dataDir})
	out := map[string]string{}
	for _, rec := range recs {
		t, ok := j.TrialOf(rec)
		if !ok {
			continue
		}
		if d := j.Decide(rec, t, Own, dir); d.Stale {
			out[rec.ID] = d.Why
		}
	}
	return out
}

// chosenAgain are the trials of a finished tuned grid that their group
// chooses while their records hold only their search scores
// (records.NeedsFull, by fullAgain): the judge recomputes them.
func chosenAgain(judge *Judge, trials []schema.Trial, recs []records.Record, done []bool, dir string) []schema.Trial {
	cands := fullAgain(trials, recs, done)
	ids := make([]string, len(cands))
	for i, t := range cands {
		ids[i] = t.ID
	}
	judge.NeedFull(ids)
	var out []schema.Trial
	for _, t := range cands {
		if judge.Decide(recs[t.Index], t, Own, dir).Verdict == Recompute {
			out = append(out, t)
		}
	}
	return out
}

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

// refusedSeeds is the error of a run whose results file holds records of
// its trials computed with other seeds (Decide refused them): the same
// spec with its seed changed, or another spec of the name with another
// seed. Recomputing would replace each of those results by one of another
// seed, so the run asks first.
func refusedSeeds(path string, spec *schema.Spec, refused []string) error {
	shown := refused
	if len(shown) > 5 {
		shown = append(append([]string(nil), refused[:5]...), fmt.Sprintf("… and %d more", len(refused)-5))
	}
	return fmt.Errorf("%s holds %d record(s) of trials of %q computed with another seed, which this run would replace:\n  %s\n"+
		"the spec's seed (now %d) changed, or another spec of that name has another seed; no trial was run. "+
		"Run with -fresh to compute them again with this seed (their records are replaced), "+
		"or give this spec another output directory (-out or output:) to keep both",
		path, len(refused), spec.Name, strings.Join(shown, "\n  "), spec.Seed)
}
