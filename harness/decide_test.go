package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kcalab/records"
	"kcalab/schema"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// The reuse decision, case by case: every way a record was found to stand
// where it should not (or not stand where it should) in the five hostile
// rounds (issues 12, 25, 30, 40 and the input checks between them), each
// named by its round. A case gives the record as a run would find it, the
// options of the run and where the record comes from, and the verdict.
func TestJudgeDecide(t *testing.T) {
	const (
		commit = "4545571f0e2a8c7f2b1b3c9d4e5f60718293a4b5"
		other  = "1111111111111111111111111111111111111111" // not in the history
	)
	inHistory := func(c string) bool { return c == commit }

	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	require.NoError(t, os.MkdirAll(filepath.Join(data, "wordsim"), 0o755))
	men := []byte("cat\tdog\t5\nmat\tpark\t2\nthe\ta\t7\n")
	require.NoError(t, os.WriteFile(filepath.Join(data, "wordsim", "men.txt"), men, 0o644))
	sparse := filepath.Join(dir, "sparse-data") // a data directory without men.txt
	require.NoError(t, os.MkdirAll(sparse, 0o755))
	table := []byte(",a,b\nx,1,2\ny,3,1\n")
	csvPath := filepath.Join(dir, "t.csv")
	require.NoError(t, os.WriteFile(csvPath, table, 0o644))
	corpusPath := filepath.Join(dir, "c.txt")
	require.NoError(t, os.WriteFile(corpusPath, []byte(strings.Repeat("the cat sat on the mat ", 50)), 0o644))
	specPath := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(specPath, []byte(`name: s
seed: 1
variants:
  - {label: table, method: ca, data: {source: csv, csv: t.csv}, svd: {rank: 1}}
  - {label: words, method: lca, data: {source: corpus, corpus: c.txt, min_count: 1, window: 2}, eval: {sets: [men]}, svd: {rank: 2, backend: krylov}}
`), 0o644))
	spec, err := schema.LoadSpec(specPath)
	require.NoError(t, err)
	spec.Output = filepath.Join(dir, "out")
	trials := spec.Trials()
	require.Len(t, trials, 2)
	tableTrial, wordTrial := trials[0], trials[1]
	tunedWordTrial := wordTrial
	tunedWordTrial.Tune.Axes = []string{"svd.rank"}

	base := func(tr schema.Trial) records.Record {
		rec := records.Record{ID: tr.ID, Spec: "s", Seed: tr.Seed, Settings: tr.RecordSettings(), Status: records.StatusOK,
			Metrics: map[string]float64{"x": 1},
			Run:     &records.RunInfo{Commit: commit, CommitSource: records.CommitFromBuild, Inputs: map[string]string{}}}
		if tr.Data.Source == schema.SourceCSV {
			rec.Run.Inputs[csvPath] = sha(table)
			rec.CA = &records.CAResult{Counts: [][]float64{{1, 2}, {3, 1}}}
			rec.Backend = "dense"
		} else {
			rec.Run.Inputs[corpusPath] = sha([]byte(strings.Repeat("the cat sat on the mat ", 50)))
			rec.Run.Inputs["/elsewhere/shared/data/wordsim/men.txt"] = sha(men)
			rec.Backend = "krylov"
			rec.SVD = &records.SVDAccuracy{S: []float64{0.9, 0.5}}
		}
		return rec
	}
	type opts struct {
		fresh, untraced, vectors bool
		dataDir                  string
		needFull                 bool
	}
	tests := []struct {
		name    string
		trial   schema.Trial
		edit    func(*records.Record)
		opts    opts
		from    Origin
		verdict Verdict
		stale   bool
		why     string // a part of Decision.Why
		missing bool   // an input noted as not here to check
	}{
		// Stands.
		{name: "the same trial, inputs unchanged, clean commit of the history", trial: tableTrial, verdict: Reuse},
		{name: "a word trial whose set was recorded in another data directory (CI's copy): checked in this one", trial: wordTrial, opts: opts{dataDir: data}, verdict: Reuse},
		{name: "over budget stays over budget", trial: tableTrial, edit: func(r *records.Record) { r.Status = records.StatusOverBudget }, verdict: Reuse},
		{name: "round 4: a record older than commit_source (the working directory's checkout), clean: taken by -share", trial: tableTrial,
			edit: func(r *records.Record) { r.Run.CommitSource = "" }, from: Sibling, verdict: Reuse},
		{name: "-untraced keeps a traced record", trial: tableTrial, opts: opts{untraced: true}, verdict: Reuse},
		{name: "a setting that does not change numbers (replicates, budget.table_mb) differs: the same trial", trial: tableTrial,
			edit: func(r *records.Record) { r.Settings["budget.table_mb"] = 64 }, verdict: Reuse},
		{name: "issue 33: a candidate cut to the search, not chosen, keeps σ_1 alone", trial: wordTrial, opts: opts{dataDir: data},
			edit: func(r *records.Record) {
				r.SearchOnly, r.SVD = true, &records.SVDAccuracy{S: []float64{0.9}, K: 2, SK: 0.5}
			}, verdict: Reuse},
		{name: "round 5 m1 door: a fresh clone without any data directory keeps its own record, noted", trial: wordTrial,
			opts: opts{dataDir: ""}, verdict: Reuse, missing: true},

		// Computed again, the record's numbers still true of what it says.
		{name: "round 2: -fresh computes every trial", trial: tableTrial, opts: opts{fresh: true}, verdict: Recompute, why: "-fresh"},
		{name: "round 2: a failed trial is computed again", trial: tableTrial, edit: func(r *records.Record) { r.Status = records.StatusError }, verdict: Recompute, why: "status error"},
		{name: "a skipped trial is computed again", trial: tableTrial, edit: func(r *records.Record) { r.Status = records.StatusSkipped }, verdict: Recompute, why: "status skipped"},
		{name: "round 5 serious 4: the binary was built from a modified tree, -untraced", trial: tableTrial, opts: opts{untraced: true},
			edit: func(r *records.Record) { r.Run.Dirty = true }, verdict: Recompute, why: "with uncommitted changes (-untraced)"},
		{name: "round 5 serious 4: the binary carried no commit (go run), -untraced", trial: tableTrial, opts: opts{untraced: true},
			edit: func(r *records.Record) { r.Run.Commit = records.UnknownCommit }, verdict: Recompute, why: "carries no commit"},
		{name: "round 5 m3: commit HEAD, -untraced", trial: tableTrial, opts: opts{untraced: true},
			edit: func(r *records.Record) { r.Run.Commit = "HEAD" }, verdict: Recompute, why: "not a full commit hash"},
		{name: "round 5 m3: an abbreviated commit, -untraced", trial: tableTrial, opts: opts{untraced: true},
			edit: func(r *records.Record) { r.Run.Commit = commit[:12] }, verdict: Recompute, why: "not a full commit hash"},
		{name: "round 5 m3: markup as the commit, -untraced", trial: tableTrial, opts: opts{untraced: true},
			edit: func(r *records.Record) { r.Run.Commit = "<b>" + commit + "</b>" }, verdict: Recompute, why: "not a full commit hash"},
		{name: "round 4: a commit not in this history, -untraced", trial: tableTrial, opts: opts{untraced: true},
			edit: func(r *records.Record) { r.Run.Commit = other }, verdict: Recompute, why: "not in this history"},
		{name: "round 4: no run metadata, -untraced", trial: tableTrial, opts: opts{untraced: true},
			edit: func(r *records.Record) { r.Run = nil }, verdict: Recompute, why: "no run metadata"},
		{name: "round 5 m1: this run's data directory lacks the set the record read", trial: wordTrial, opts: opts{dataDir: sparse},
			verdict: Recompute, why: "is not in this run's data directory"},
		{name: "round 5 m1: -data names a directory that is not there", trial: wordTrial, opts: opts{dataDir: filepath.Join(dir, "no-such-data")},
			verdict: Recompute, why: "cannot be used"},
		{name: "issue 32: auto resolves to another backend in this build", trial: schemaWith(t, specPath, 0, "svd.backend", "auto"),
			edit: func(r *records.Record) { r.Backend = "krylov" }, verdict: Recompute, why: "backend krylov"},
		{name: "a backend set in the spec differs from the record's", trial: tableTrial, edit: func(r *records.Record) { r.Backend = "randomized" }, verdict: Recompute, why: "backend randomized"},
		{name: "svd.record_sigma: the record kept fewer σ than the trial keeps", trial: wordTrial, opts: opts{dataDir: data},
			edit: func(r *records.Record) { r.SVD = &records.SVDAccuracy{S: []float64{0.9}, K: 2, SK: 0.5} }, verdict: Recompute, why: "fewer than the trial keeps"},
		{name: "round 5 m4, m6: a candidate cut to the search that its group now chooses", trial: wordTrial, opts: opts{dataDir: data, needFull: true},
			edit: func(r *records.Record) { r.SearchOnly = true }, verdict: Recompute, why: "holds only its search scores"},
		{name: "round 4 minor: a vectors file replaced by a link, and the run writes vectors", trial: tableTrial, opts: opts{vectors: true},
			edit: func(r *records.Record) { linkedVectors(t, spec.Output, r) }, verdict: Recompute, why: "vectors file"},

		// Stale: the record is not the trial's any more.
		{name: "round 5 serious 1: the spec's seed changed (or a copy with another seed)", trial: tableTrial,
			edit: func(r *records.Record) { r.Seed++ }, verdict: Refuse, stale: true, why: "computed with seed"},
		{name: "round 5 serious 1 with -fresh: replacing them is meant", trial: tableTrial, opts: opts{fresh: true},
			edit: func(r *records.Record) { r.Seed++ }, verdict: Recompute, why: "-fresh"},
		{name: "round 5 serious 3, round 3 serious 7: the CSV table was edited", trial: tableTrial,
			edit: func(r *records.Record) { r.Run.Inputs[csvPath] = sha([]byte("the table before")) }, verdict: Recompute, stale: true, why: "changed since the record was made"},
		{name: "round 4 serious 2: this run's data directory holds another men.txt", trial: wordTrial, opts: opts{dataDir: data},
			edit: func(r *records.Record) {
				r.Run.Inputs["/elsewhere/shared/data/wordsim/men.txt"] = sha([]byte("reversed scores"))
			}, verdict: Recompute, stale: true, why: "men.txt"},
		{name: "a default changed in the code: the record has other settings", trial: tableTrial,
			edit: func(r *records.Record) { r.Settings["svd.tol"] = 1e-6 }, verdict: Recompute, stale: true, why: "svd.tol"},
		{name: "another method's record under the id", trial: tableTrial,
			edit: func(r *records.Record) { r.Settings["method"] = "gini" }, verdict: Recompute, stale: true, why: "method"},

		// Another spec's record (-share) proves everything or is not taken.
		{name: "round 5 serious 4: -share refuses a record of a binary built from a modified tree", trial: tableTrial, from: Sibling,
			edit: func(r *records.Record) { r.Run.Dirty = true }, verdict: Recompute, why: "uncommitted changes"},
		{name: "round 5 serious 4: -share refuses a record of a binary without a stamp", trial: tableTrial, from: Sibling,
			edit: func(r *records.Record) { r.Run.Commit = records.UnknownCommit }, verdict: Recompute, why: "carries no commit"},
		{name: "round 5 m3: -share refuses commit HEAD", trial: tableTrial, from: Sibling,
			edit: func(r *records.Record) { r.Run.Commit = "HEAD" }, verdict: Recompute, why: "not a full commit hash"},
		{name: "round 4: -share refuses a record whose input is found nowhere", trial: tableTrial, from: Sibling,
			edit: func(r *records.Record) {
				r.Run.Inputs = map[string]string{filepath.Join(dir, "gone", "t-moved.csv"): sha(table)}
			}, verdict: Recompute, why: "not here to check"},
		{name: "round 5 serious 1: -share does not take another seed's record", trial: tableTrial, from: Sibling,
			edit: func(r *records.Record) { r.Seed++ }, verdict: Recompute, why: "computed with seed"},
		{name: "-share takes a candidate cut to the search for a tuned trial: the choice asks for more if it picks it", trial: tunedWordTrial, opts: opts{dataDir: data}, from: Sibling,
			edit: func(r *records.Record) { r.SearchOnly = true }, verdict: Reuse},
		{name: "-share takes no candidate cut to the search for a compared row", trial: wordTrial, opts: opts{dataDir: data}, from: Sibling,
			edit: func(r *records.Record) { r.SearchOnly = true }, verdict: Recompute, why: "here it is compared"},
		{name: "-share takes no failed record", trial: tableTrial, from: Sibling,
			edit: func(r *records.Record) { r.Status = records.StatusOverBudget }, verdict: Recompute, why: "status over_budget"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := base(tt.trial)
			if tt.edit != nil {
				tt.edit(&rec)
			}
			dataDir := tt.opts.dataDir
			if dataDir == "" {
				// No -data, no $KCALAB_DATA, no ./data here: a fresh clone.
				t.Setenv("KCALAB_DATA", "")
				t.Chdir(t.TempDir())
			}
			j := NewJudge(JudgeOptions{Spec: spec, DataDir: dataDir, Fresh: tt.opts.fresh, Untraced: tt.opts.untraced, InHistory: inHistory,
				WritesVectors: func(schema.Trial) bool { return tt.opts.vectors }})
			if tt.opts.needFull {
				j.NeedFull([]string{tt.trial.ID})
			}
			d := j.Decide(rec, tt.trial, tt.from, spec.Output)
			assert.Equal(t, tt.verdict, d.Verdict, d.Why)
			assert.Equal(t, tt.stale, d.Stale, d.Why)
			if tt.why != "" {
				assert.Contains(t, d.Why, tt.why)
			}
			if tt.verdict == Reuse {
				assert.Empty(t, d.Why)
				assert.Equal(t, "s", d.Record.Spec)
				assert.Equal(t, tt.missing, len(d.Missing) > 0, d.Missing)
			}
		})
	}
}

// schemaWith is trial i of the spec at path with key set to value.
func schemaWith(t *testing.T, path string, i int, key string, value any) schema.Trial {
	t.Helper()
	spec, err := schema.LoadSpec(path)
	require.NoError(t, err)
	tr := spec.Trials()[i]
	tr.Values[key] = value
	tr.SVD.Backend = value.(string)
	return tr
}

// linkedVectors makes rec name a vectors file in out that is a link now.
func linkedVectors(t *testing.T, out string, rec *records.Record) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Join(out, "vectors"), 0o755))
	target := filepath.Join(t.TempDir(), "elsewhere.txt")
	require.NoError(t, os.WriteFile(target, []byte("1 1\na 1\n"), 0o644))
	link := filepath.Join(out, "vectors", "v.txt")
	os.Remove(link)
	require.NoError(t, os.Symlink(target, link))
	rec.Files = []string{"vectors/v.txt"}
	rec.FileHashes = map[string]string{"vectors/v.txt": sha([]byte("1 1\na 1\n"))}
}
