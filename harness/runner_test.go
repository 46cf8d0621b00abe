package harness_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"kcalab/harness"
	_ "kcalab/harness/builtin"
	"kcalab/records"
	"kcalab/schema"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const fisherSpec = `
name: fisher
seed: 3
data: {source: fisher}
svd:
  backend: [dense, randomized, dssvd]
  rank: 2
`

func writeSpec(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "spec.yaml")
	require.NoError(t, os.WriteFile(path, []byte(body), 0o644))
	return path
}

func loadSpecTo(t *testing.T, path, out string) *schema.Spec {
	t.Helper()
	s, err := schema.LoadSpec(path)
	require.NoError(t, err)
	s.Output = out
	return s
}

// stable strips what legitimately differs between runs: timings, env and
// run metadata.
// Records pass through JSON so in-memory and on-disk ones compare equal.
func stable(recs []records.Record) []records.Record {
	out := make([]records.Record, len(recs))
	for i, r := range recs {
		r.Timings, r.Env, r.Run = nil, nil, nil
		b, err := json.Marshal(r)
		if err != nil {
			panic(err)
		}
		if err := json.Unmarshal(b, &out[i]); err != nil {
			panic(err)
		}
	}
	return out
}

func TestRunnerFisherResumeFresh(t *testing.T) {
	ctx := context.Background()
	out := t.TempDir()
	spec := loadSpecTo(t, writeSpec(t, fisherSpec), out)
	var log bytes.Buffer
	r := &harness.Runner{Jobs: 2, Log: &log}

	first, err := r.Run(ctx, spec)
	require.NoError(t, err)
	require.Len(t, first.Records, 3)
	assert.Equal(t, 0, first.Reused)
	for i, rec := range first.Records {
		assert.Equal(t, "ok", rec.Status, rec.Error)
		require.NotNil(t, rec.CA)
		assert.InDelta(t, 0.4464, rec.CA.SingularValues[0], 5e-5)
		assert.InDelta(t, 0.1735, rec.CA.SingularValues[1], 5e-5)
		assert.Equal(t, []string{"blue", "light", "medium", "dark"}, rec.CA.RowLabels)
		assert.Equal(t, spec.Trials()[i].ID, rec.ID)
	}
	onDisk, _, err := records.Read(filepath.Join(out, records.FileName))
	require.NoError(t, err)
	assert.Equal(t, stable(first.Records), stable(onDisk))

	// A rerun reuses every trial and leaves the file unchanged.
	before, err := os.ReadFile(filepath.Join(out, records.FileName))
	require.NoError(t, err)
	second, err := r.Run(ctx, spec)
	require.NoError(t, err)
	assert.Equal(t, 3, second.Reused)
	after, err := os.ReadFile(filepath.Join(out, records.FileName))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))

	// -fresh recomputes, with identical results.
	fresh := &harness.Runner{Jobs: 1, Fresh: true}
	third, err := fresh.Run(ctx, spec)
	require.NoError(t, err)
	assert.Equal(t, 0, third.Reused)
	assert.Equal(t, stable(first.Records), stable(third.Records))
}

// A trial whose settings changed is recomputed; the others are reused.
func TestRunnerReusesOnlyMatchingTrials(t *testing.T) {
	ctx := context.Background()
	out := t.TempDir()
	spec := loadSpecTo(t, writeSpec(t, fisherSpec), out)
	_, err := (&harness.Runner{}).Run(ctx, spec)
	require.NoError(t, err)
	grown := loadSpecTo(t, writeSpec(t, fisherSpec+"  oversample: [10, 20]\n"), out)
	res, err := (&harness.Runner{}).Run(ctx, grown)
	require.NoError(t, err)
	assert.Len(t, res.Records, 6)
	assert.Equal(t, 3, res.Reused, "the oversample=10 trials are the old ones (default value, same id)")
}

func TestRunnerJobsDoNotChangeResults(t *testing.T) {
	ctx := context.Background()
	path := writeSpec(t, fisherSpec+"method: [ca, gini]\n")
	var runs [][]records.Record
	for _, jobs := range []int{1, 4} {
		res, err := (&harness.Runner{Jobs: jobs}).Run(ctx, loadSpecTo(t, path, t.TempDir()))
		require.NoError(t, err)
		runs = append(runs, stable(res.Records))
	}
	assert.Equal(t, runs[0], runs[1])
}

// A results file with a corrupt line is refused, with advice that works:
// -fresh reads the file too (hostile round 5, m11: the message advised
// -fresh, which then refused the same way).
func TestRunnerBadResultsFile(t *testing.T) {
	out := t.TempDir()
	spec := loadSpecTo(t, writeSpec(t, fisherSpec), out)
	_, err := (&harness.Runner{}).Run(context.Background(), spec)
	require.NoError(t, err)
	path := filepath.Join(out, records.FileName)
	good, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(good), "\n")
	require.NoError(t, os.WriteFile(path, []byte(lines[0]+"{not json\n"+lines[1]), 0o644))
	for _, fresh := range []bool{false, true} {
		_, err = (&harness.Runner{Fresh: fresh}).Run(context.Background(), spec)
		require.Error(t, err)
		assert.Contains(t, err.Error(), path+":2")
		assert.Contains(t, err.Error(), "-fresh too")
		assert.Contains(t, err.Error(), "mend the line named, or move "+path+" away")
		assert.Contains(t, err.Error(), "-out")
	}
	// The advice works: mended, the run reuses the two records left.
	require.NoError(t, os.WriteFile(path, []byte(lines[0]+lines[1]), 0o644))
	res, err := (&harness.Runner{}).Run(context.Background(), spec)
	require.NoError(t, err)
	assert.Equal(t, 2, res.Reused)
}

func TestRunnerInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := t.TempDir()
	res, err := (&harness.Runner{}).Run(ctx, loadSpecTo(t, writeSpec(t, fisherSpec), out))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "run again to resume")
	require.NotNil(t, res)
	// Nothing half-written: the file is absent or holds complete records only.
	recs, _, rerr := records.Read(filepath.Join(out, records.FileName))
	require.NoError(t, rerr)
	for _, r := range recs {
		assert.NotEqual(t, "error", r.Status)
	}
}

func TestRunnerOverBudget(t *testing.T) {
	spec := loadSpecTo(t, writeSpec(t, fisherSpec+"budget: {memory_mb: 0.00001}\n"), t.TempDir())
	res, err := (&harness.Runner{}).Run(context.Background(), spec)
	require.NoError(t, err, "over budget is a result, not a failure")
	assert.Equal(t, "over_budget", res.Records[0].Status) // dense
	assert.Contains(t, res.Records[0].Error, "budget")
	assert.Equal(t, "over_budget", res.Records[1].Status) // randomized materialises too
	// dssvd never builds the dense matrix, but its sketch blocks do not
	// fit 10 bytes either: refused before allocating, the plan named.
	assert.Equal(t, "over_budget", res.Records[2].Status)
	assert.Contains(t, res.Records[2].Error, "dssvd SVD of a 4×5 operator at rank 2 plans")

	spec = loadSpecTo(t, writeSpec(t, fisherSpec+"budget: {memory_mb: 64}\n"), t.TempDir())
	res, err = (&harness.Runner{}).Run(context.Background(), spec)
	require.NoError(t, err)
	for _, rec := range res.Records {
		assert.Equal(t, "ok", rec.Status, rec.Error)
	}
}

// A word trial with svd.backend auto is decomposed by krylov; a record made
// by another backend (dssvd) carries the same id but is recomputed, not
// reused.
func TestRunnerAutoBackendChange(t *testing.T) {
	ctx := context.Background()
	out := t.TempDir()
	body := "name: auto\nseed: 2\ndata: {source: synthetic, table: flat, window: 5}\nsynthetic: {tokens: 200000, words: 200}\n" +
		"eval: {sets: [synthetic]}\nmethod: lca\nsvd: {rank: 20}\n"
	spec := loadSpecTo(t, writeSpec(t, body), out)
	res, err := (&harness.Runner{}).Run(ctx, spec)
	require.NoError(t, err)
	require.Len(t, res.Records, 1)
	first := res.Records[0]
	require.Equal(t, "ok", first.Status, first.Error)
	assert.Equal(t, "krylov", first.Backend)
	assert.Equal(t, "auto", first.Settings["svd.backend"])

	res, err = (&harness.Runner{}).Run(ctx, spec)
	require.NoError(t, err)
	assert.Equal(t, 1, res.Reused, "a krylov record of an auto trial is reused")

	// Rewrite the record as if another backend had decomposed it.
	path := filepath.Join(out, "results.jsonl")
	old := first
	old.Backend = "dssvd"
	old.Metrics = map[string]float64{"spearman.zero.synthetic": -1}
	b, err := json.Marshal(old)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, append(b, '\n'), 0o644))
	res, err = (&harness.Runner{}).Run(ctx, spec)
	require.NoError(t, err)
	assert.Equal(t, 0, res.Reused, "a dssvd record of an auto trial is not this trial's result")
	assert.Equal(t, "krylov", res.Records[0].Backend)
	assert.Equal(t, first.Metrics, res.Records[0].Metrics)
}

// svd.backend auto resolves by the table's shape and rank: krylov for a
// word table, the dense SVD for Fisher's 5×4 table; the log says which and
// why, and the record made is reused.
func TestRunnerAutoBackendByShape(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct{ body, want string }{
		{"name: auto\nseed: 2\ndata: {source: synthetic, table: flat, window: 5}\nsynthetic: {tokens: 200000, words: 200}\n" +
			"eval: {sets: [synthetic]}\nmethod: lca\nsvd: {rank: 20}\n", "krylov"},
		{"name: auto\nseed: 2\ndata: {source: fisher}\neval: {sets: []}\nmethod: ca\nsvd: {rank: 3}\n", "dense"},
	} {
		t.Run(tt.want, func(t *testing.T) {
			spec := loadSpecTo(t, writeSpec(t, tt.body), t.TempDir())
			var log bytes.Buffer
			res, err := (&harness.Runner{Log: &log}).Run(ctx, spec)
			require.NoError(t, err)
			require.Len(t, res.Records, 1)
			rec := res.Records[0]
			require.Equal(t, "ok", rec.Status, rec.Error)
			assert.Equal(t, tt.want, rec.Backend)
			assert.Contains(t, log.String(), "svd.backend auto: "+tt.want+" (cost model: krylov ")

			res, err = (&harness.Runner{}).Run(ctx, spec)
			require.NoError(t, err)
			assert.Equal(t, 1, res.Reused, "the record auto made is this trial's")
		})
	}
}

// Method corpusstats records the growth series over five prefixes and the
// tail-cut spectrum of a text-like synthetic corpus, deterministically.
func TestCorpusStatsMethod(t *testing.T) {
	ctx := context.Background()
	body := "name: cs\nseed: 1\ndata: {source: synthetic, window: 5}\nsynthetic: {model: zipf, tokens: 300000}\n" +
		"eval: {sets: []}\nmethod: corpusstats\nsvd: {rank: 10}\n"
	run := func() records.Record {
		res, err := (&harness.Runner{}).Run(ctx, loadSpecTo(t, writeSpec(t, body), t.TempDir()))
		require.NoError(t, err)
		require.Len(t, res.Records, 1)
		require.Equal(t, "ok", res.Records[0].Status, res.Records[0].Error)
		return res.Records[0]
	}
	rec := run()
	cs := rec.Corpus
	require.NotNil(t, cs)
	assert.Equal(t, 5, cs.Window)
	require.Len(t, cs.Points, 5, "1/16 … all of the corpus")
	assert.EqualValues(t, 300000, cs.Points[4].Tokens)
	for i := 1; i < len(cs.Points); i++ {
		p, q := cs.Points[i-1], cs.Points[i]
		assert.Less(t, p.Tokens, q.Tokens)
		assert.Less(t, p.Types, q.Types, "more text, more types")
		assert.LessOrEqual(t, q.NNZCut, q.NNZFlat, "the tail cut only removes entries")
	}
	require.Len(t, cs.Sigma, 10)
	assert.True(t, sort.IsSorted(sort.Reverse(sort.Float64Slice(cs.Sigma))))
	assert.Greater(t, cs.TotalInertia, 0.0)
	assert.Equal(t, "krylov", rec.Backend)
	assert.Equal(t, float64(cs.Points[4].Vocab), rec.Metrics[records.MetricVocab])
	assert.Equal(t, cs, run().Corpus, "same spec, same statistics")

	bad := "name: cs\ndata: {source: synthetic}\neval: {sets: []}\nmethod: corpusstats\n"
	_, err := (&harness.Runner{}).Run(ctx, loadSpecTo(t, writeSpec(t, bad), t.TempDir()))
	assert.ErrorContains(t, err, "use zipf")
}
