package harness_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kcalab/harness"
	"kcalab/records"
	"kcalab/schema"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sharedSpec = `
name: shared
seed: 5
data: {source: synthetic, table: flat, window: 3}
synthetic: {tokens: 20000, noise: 0.6, words: 40}
eval: {sets: [synthetic]}
method: lca
svd: {backend: krylov, rank: [3, 6, 12], shared_rank: SHARED}
`

// A sweep over d with svd.shared_rank decomposes once: one trial computes
// the decomposition at shared_rank, the others take its leading triplets,
// and every trial's σ equals a direct decomposition at its own rank to
// svd.tol; what a trial gets does not depend on the rest of the grid.
func TestSharedRankSweep(t *testing.T) {
	ctx := context.Background()
	shared, err := (&harness.Runner{Jobs: 2}).Run(ctx, loadSpecTo(t, writeSpec(t, strings.Replace(sharedSpec, "SHARED", "12", 1)), t.TempDir()))
	require.NoError(t, err)
	direct, err := (&harness.Runner{Jobs: 2}).Run(ctx, loadSpecTo(t, writeSpec(t, strings.Replace(sharedSpec, "SHARED", "0", 1)), t.TempDir()))
	require.NoError(t, err)
	require.Len(t, shared.Records, 3)
	computedBy := 0
	for i, rec := range shared.Records {
		require.Equal(t, "ok", rec.Status, rec.Error)
		d := direct.Records[i]
		require.NotNil(t, rec.SVD)
		require.Len(t, rec.SVD.S, len(d.SVD.S))
		for j := range d.SVD.S {
			assert.InDelta(t, d.SVD.S[j], rec.SVD.S[j], 1e-8*d.SVD.S[0], "trial %d σ_%d", i, j+1)
		}
		assert.LessOrEqual(t, rec.Metrics[records.MetricSVDResidual], 1e-8)
		assert.Equal(t, 12.0, rec.Metrics[records.MetricSVDSharedRank])
		assert.Equal(t, shared.Records[0].Metrics[records.MetricSVDSharedSeconds], rec.Metrics[records.MetricSVDSharedSeconds], "every sharer names the one decomposition's time")
		assert.Greater(t, rec.Metrics[records.MetricSVDSharedSeconds], 0.0)
		if rec.Metrics[records.MetricSVDShared] == 0 {
			computedBy++
		}
		assert.InDelta(t, d.Metrics["spearman.zero.synthetic"], rec.Metrics["spearman.zero.synthetic"], 1e-6)
	}
	assert.Equal(t, 1, computedBy, "one decomposition for the sweep")

	// The d = 6 trial alone gets the same bits as in the sweep.
	alone, err := (&harness.Runner{Jobs: 1}).Run(ctx, loadSpecTo(t, writeSpec(t, strings.Replace(strings.Replace(sharedSpec, "SHARED", "12", 1), "[3, 6, 12]", "6", 1)), t.TempDir()))
	require.NoError(t, err)
	assert.Equal(t, shared.Records[1].ID, alone.Records[0].ID)
	assert.Equal(t, shared.Records[1].SVD.S, alone.Records[0].SVD.S)
	assert.Equal(t, shared.Records[1].Metrics["spearman.zero.synthetic"], alone.Records[0].Metrics["spearman.zero.synthetic"])
}

func TestSharedRankRefused(t *testing.T) {
	tests := []struct{ name, spec, want string }{
		{"a sketch", strings.Replace(strings.Replace(sharedSpec, "SHARED", "12", 1), "backend: krylov", "backend: dssvd", 1), "the dssvd backend is a sketch"},
		{"below a trial's rank", strings.Replace(sharedSpec, "SHARED", "6", 1), "svd.shared_rank = 6 is below svd.rank = 12"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := (&harness.Runner{}).Run(context.Background(), loadSpecTo(t, writeSpec(t, tt.spec), t.TempDir()))
			require.Error(t, err)
			found := false
			for _, rec := range res.Records {
				found = found || strings.Contains(rec.Error, tt.want)
			}
			assert.True(t, found, err.Error())
		})
	}
}

// A tuned variant's rule picks a design on the dev parts, says which at the
// end of the run, and marks every candidate's dev parts in-sample.
func TestRunnerTunes(t *testing.T) {
	spec := `
name: tuned
seed: 5
data: {source: synthetic, table: flat, window: [1, 2, 4]}
synthetic: {tokens: 20000, noise: 0.6, words: 40}
eval: {sets: [synthetic], parts: true}
method: lca
svd: {rank: [3, 8], shared_rank: 8}
tune: {axes: [data.window]}
`
	var log strings.Builder
	res, err := (&harness.Runner{Log: &log}).Run(context.Background(), loadSpecTo(t, writeSpec(t, spec), t.TempDir()))
	require.NoError(t, err)
	require.Len(t, res.Records, 6)
	cs := records.Choose(res.Records, func(records.Record) records.Similarity { return records.SimDot })
	require.Len(t, cs, 2, "one group per d")
	for _, c := range cs {
		require.GreaterOrEqual(t, c.Chosen, 0)
		best := c.Candidates[c.Chosen]
		for _, cand := range c.Candidates {
			assert.LessOrEqual(t, cand.Score, best.Score)
			rec := res.Records[0]
			for _, r := range res.Records {
				if r.ID == cand.IDs[0] {
					rec = r
				}
			}
			assert.InDelta(t, rec.Metrics["spearman.zero.synthetic@dev"], cand.Score, 1e-12)
			assert.Equal(t, []string{"synthetic@dev"}, rec.Settings["tuned_on"])
		}
		assert.Contains(t, log.String(), "kcalab: tune: lca ("+c.Shared+"): chose "+harness.Values(best.Values))
	}
	assert.Contains(t, log.String(), "among 3 candidate(s); compare it on the test parts")
}

// A finished tuned grid keeps, in its results file, what a page uses: the
// candidates not chosen their scores alone, the chosen design no
// replicates of its in-sample scores. A chosen trial found cut to the
// search (a choice that moved) is computed again in the same run.
func TestRunnerSlimsTuned(t *testing.T) {
	spec := `
name: tuned
seed: 5
data: {source: synthetic, table: flat, window: [1, 2, 4]}
synthetic: {tokens: 20000, noise: 0.6, words: 40}
eval: {sets: [synthetic], parts: true}
method: lca
svd: {rank: 8}
tune: {axes: [data.window]}
`
	out := t.TempDir()
	s := loadSpecTo(t, writeSpec(t, spec), out)
	var log strings.Builder
	res, err := (&harness.Runner{Log: &log}).Run(context.Background(), s)
	require.NoError(t, err)
	assert.Contains(t, log.String(), "kcalab: tune: 3 record(s) of tuned trials keep only what a page uses")
	path := filepath.Join(out, records.FileName)
	recs, _, err := records.Read(path)
	require.NoError(t, err)
	require.Len(t, recs, 3)
	cs := records.Choose(recs, schema.OwnSimilarity)
	require.Len(t, cs, 1)
	chosen := cs[0].ChosenIDs()[0]
	for _, rec := range recs {
		assert.Equal(t, res.Records[0].Metrics["pairs.synthetic"], rec.Metrics["pairs.synthetic"])
		assert.Contains(t, rec.Metrics, "spearman.zero.synthetic@test", "every score stays")
		if rec.ID != chosen {
			assert.True(t, rec.SearchOnly, rec.ID)
			assert.Nil(t, rec.Bootstrap, rec.ID)
			assert.Nil(t, rec.WordsMap, rec.ID)
			require.NotNil(t, rec.SVD)
			assert.Len(t, rec.SVD.S, 1, "σ_1 alone, with k and σ_k")
			assert.Equal(t, 8, rec.SVD.Rank())
			continue
		}
		assert.False(t, rec.SearchOnly)
		assert.NotNil(t, rec.WordsMap)
		require.NotNil(t, rec.Bootstrap)
		assert.Contains(t, rec.Bootstrap.Scores, "spearman.zero.synthetic@test")
		assert.Contains(t, rec.Bootstrap.Scores, "spearman.cosine.skip.synthetic@test")
		for k := range rec.Bootstrap.Scores {
			assert.True(t, strings.HasSuffix(k, "@test"), "in-sample replicates dropped: %s", k)
		}
	}

	// The chosen record cut to the search, as a run where it lost would
	// leave it: the next run computes it again, and reuses the others.
	for i := range recs {
		if recs[i].ID == chosen {
			recs[i].Bootstrap, recs[i].WordsMap, recs[i].Neighbours, recs[i].NeighboursOther, recs[i].SearchOnly = nil, nil, nil, nil, true
		}
	}
	require.NoError(t, records.Write(path, recs))
	log.Reset()
	again, err := (&harness.Runner{Log: &log}).Run(context.Background(), s)
	require.NoError(t, err)
	assert.Contains(t, log.String(), "kcalab: tune: 1 chosen trial(s) hold only their search scores: computing them again")
	// Hostile round 5, m6: the trial computed again is not also counted
	// reused ("3 trials (3 reused)" before).
	assert.Equal(t, 2, again.Reused, "the two candidates cut to the search are reused, their spectrum cut too; the chosen one is computed")
	final, _, err := records.Read(path)
	require.NoError(t, err)
	for _, rec := range final {
		if rec.ID == chosen {
			assert.False(t, rec.SearchOnly)
			require.NotNil(t, rec.Bootstrap)
			assert.Contains(t, rec.Bootstrap.Scores, "spearman.zero.synthetic@test")
		}
	}
	assert.Equal(t, recs[0].Metrics, final[0].Metrics)
}

// Trials that differ only in how vectors are scaled from a decomposition
// (vectors.alpha, vectors.beta) share it too; w + c keeps V, so it has its
// own.
func TestSharedRankAcrossScaling(t *testing.T) {
	spec := strings.Replace(strings.Replace(sharedSpec, "SHARED", "6", 1), "[3, 6, 12]", "[3, 6]", 1) +
		"vectors: {alpha: [0.5, 1], add_contexts: [false, true]}\n"
	res, err := (&harness.Runner{Jobs: 2}).Run(context.Background(), loadSpecTo(t, writeSpec(t, spec), t.TempDir()))
	require.NoError(t, err)
	require.Len(t, res.Records, 8)
	computed := 0
	for _, rec := range res.Records {
		require.Equal(t, "ok", rec.Status, rec.Error)
		if rec.Metrics[records.MetricSVDShared] == 0 {
			computed++
		}
	}
	assert.Equal(t, 2, computed, "one decomposition without V, one with")
}

// svd.record_sigma keeps the leading singular values in the record, with k
// and σ_k beside them, and changes no number (it is not part of the trial
// id). A record that kept fewer values than a rerun asks for is computed
// again; one that kept more is reused, cut to what is asked.
func TestRecordSigma(t *testing.T) {
	ctx := context.Background()
	spec := func(keep string) string {
		return strings.Replace(strings.Replace(sharedSpec, "SHARED", "0", 1), "shared_rank: 0", "shared_rank: 0, record_sigma: "+keep, 1)
	}
	out := t.TempDir()
	all, err := (&harness.Runner{Jobs: 1}).Run(ctx, loadSpecTo(t, writeSpec(t, spec("0")), t.TempDir()))
	require.NoError(t, err)
	cut, err := (&harness.Runner{Jobs: 1}).Run(ctx, loadSpecTo(t, writeSpec(t, spec("4")), out))
	require.NoError(t, err)
	for i, rec := range cut.Records {
		full := all.Records[i]
		require.Equal(t, "ok", rec.Status, rec.Error)
		assert.Equal(t, full.ID, rec.ID, "the same trial")
		assert.Equal(t, full.Metrics, rec.Metrics, "the same numbers")
		k := len(full.SVD.S)
		assert.Equal(t, k, rec.SVD.Rank())
		assert.Equal(t, full.SVD.S[k-1], rec.SVD.Last())
		assert.Equal(t, full.SVD.S[:min(4, k)], rec.SVD.S)
	}
	assert.Equal(t, 0, all.Records[0].SVD.K, "a record that keeps every value says nothing more")

	var log strings.Builder
	again, err := (&harness.Runner{Jobs: 1, Log: &log}).Run(ctx, loadSpecTo(t, writeSpec(t, spec("0")), out))
	require.NoError(t, err)
	assert.Equal(t, 1, again.Reused, "only d = 3, whose record kept all its values: %s", log.String())
	for i, rec := range again.Records {
		assert.Equal(t, all.Records[i].SVD.S, rec.SVD.S)
	}
	fewer, err := (&harness.Runner{Jobs: 1}).Run(ctx, loadSpecTo(t, writeSpec(t, spec("2")), out))
	require.NoError(t, err)
	assert.Equal(t, 3, fewer.Reused)
	for _, rec := range fewer.Records {
		assert.Len(t, rec.SVD.S, 2)
	}
}

// A setting that is not part of a trial's id changes no number of a shared
// decomposition either: svd.record_sigma leaves its seed, and so its bits,
// as they were.
func TestSharedRankIgnoresNoIDSettings(t *testing.T) {
	ctx := context.Background()
	base := strings.Replace(sharedSpec, "SHARED", "12", 1)
	plain, err := (&harness.Runner{Jobs: 1}).Run(ctx, loadSpecTo(t, writeSpec(t, base), t.TempDir()))
	require.NoError(t, err)
	kept, err := (&harness.Runner{Jobs: 1}).Run(ctx, loadSpecTo(t, writeSpec(t, strings.Replace(base, "shared_rank: 12", "shared_rank: 12, record_sigma: 2", 1)), t.TempDir()))
	require.NoError(t, err)
	for i, rec := range kept.Records {
		p := plain.Records[i]
		assert.Equal(t, p.SVD.S[:2], rec.SVD.S)
		assert.Equal(t, p.SVD.Last(), rec.SVD.Last())
		assert.Equal(t, p.Metrics["spearman.zero.synthetic"], rec.Metrics["spearman.zero.synthetic"])
	}
}

// Hostile round 5, m4: when a choice moves to a candidate cut to the
// search and computing it again fails, the run keeps the record that stood
// for it (a run deletes no result), as this run spelled its settings, not
// the file's older spelling: the group stays one group, its choice the
// same, where it used to split into two "chosen" designs of one candidate.
func TestRunnerSlimmedRecomputeFails(t *testing.T) {
	spec := `
name: tuned
seed: 5
data: {source: synthetic, table: flat, window: [1, 2, 4]}
synthetic: {tokens: 20000, noise: 0.6, words: 40}
eval: {sets: [synthetic], parts: true}
method: lca
svd: {rank: 8}
tune: {axes: [data.window]}
`
	out := t.TempDir()
	s := loadSpecTo(t, writeSpec(t, spec), out)
	_, err := (&harness.Runner{}).Run(context.Background(), s)
	require.NoError(t, err)
	path := filepath.Join(out, records.FileName)
	recs, _, err := records.Read(path)
	require.NoError(t, err)
	chosen := records.Choose(recs, schema.OwnSimilarity)[0].ChosenIDs()[0]
	for i := range recs {
		if recs[i].ID == chosen {
			// Cut to the search, and spelled as a run of a spec that kept
			// 2 σ (a setting outside the id) wrote it.
			recs[i].Bootstrap, recs[i].WordsMap, recs[i].Neighbours, recs[i].NeighboursOther, recs[i].SearchOnly = nil, nil, nil, nil, true
			recs[i].Settings["svd.record_sigma"] = 2
		}
	}
	require.NoError(t, records.Write(path, recs))

	saved := *harness.TestHookExecute
	defer func() { *harness.TestHookExecute = saved }()
	*harness.TestHookExecute = func(r *harness.Runner, ctx context.Context, spec *schema.Spec, tr schema.Trial, prog *harness.Progress) records.Record {
		if tr.ID == chosen {
			return records.Record{ID: tr.ID, Spec: spec.Name, Seed: tr.Seed, Settings: tr.RecordSettings(), Status: records.StatusError, Error: "the disk is gone"}
		}
		return saved(r, ctx, spec, tr, prog)
	}
	var log strings.Builder
	res, err := (&harness.Runner{Log: &log}).Run(context.Background(), s)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "trial "+chosen+": computing it again failed: the disk is gone; its older result")
	assert.Equal(t, 2, res.Reused)
	final, _, err := records.Read(path)
	require.NoError(t, err)
	require.Len(t, final, 3)
	cs := records.Choose(final, schema.OwnSimilarity)
	require.Len(t, cs, 1, "one tuning group, not split")
	assert.Len(t, cs[0].Candidates, 3)
	assert.Equal(t, []string{chosen}, cs[0].ChosenIDs())
	for _, rec := range final {
		assert.NotContains(t, rec.Settings, "svd.record_sigma", "%s: spelled as this spec resolves it", rec.ID)
	}
}

// Hostile round 5, m5: a choice made while a candidate was over its
// budget says it was made among the candidates scored, naming the one that
// was not, once ("chose … among 2 candidate(s)" before).
func TestRunnerChoiceNamesUnscoredCandidates(t *testing.T) {
	spec := `
name: m5
seed: 5
data: {source: synthetic, table: flat, window: 2}
synthetic: {tokens: 20000, noise: 0.6, words: 40}
eval: {sets: [synthetic], parts: true}
method: lca
svd: {rank: [2, 60], backend: krylov}
budget: {memory_mb: 4}
tune: {axes: [svd.rank]}
`
	var log strings.Builder
	res, err := (&harness.Runner{Log: &log}).Run(context.Background(), loadSpecTo(t, writeSpec(t, spec), t.TempDir()))
	require.NoError(t, err)
	require.Equal(t, records.StatusOverBudget, res.Records[1].Status, "rank 60 plans more than 4 MiB")
	line := "kcalab: tune: lca: chose svd.rank=2, mean dev ρ"
	assert.Equal(t, 1, strings.Count(log.String(), line), log.String())
	assert.Contains(t, log.String(), "among the 1 of 2 candidate(s) scored (not scored: svd.rank=60: trial "+res.Records[1].ID+" did not finish (over_budget))")
}

// A group searched by successive halving runs its grid rung by rung: every
// configuration at the smallest resource, the best third at the next, and
// the chosen design's further seeds; the rest never run and leave no
// record (harness.Unrun does not count them missing), and a rerun plans
// the same trials and reuses them all.
func TestRunnerHalves(t *testing.T) {
	spec := `
name: halved
seed: 5
data: {source: synthetic, table: flat, window: [1, 2, 4]}
synthetic: {tokens: 20000, noise: 0.6, words: 40}
eval: {sets: [synthetic], parts: true}
method: lca
svd: {rank: [3, 5, 8]}
replicates: 2
tune: {axes: [svd.rank, data.window], halving: data.window}
`
	out := t.TempDir()
	s := loadSpecTo(t, writeSpec(t, spec), out)
	require.Len(t, s.Trials(), 18)
	var log strings.Builder
	res, err := (&harness.Runner{Log: &log, Jobs: 2}).Run(context.Background(), s)
	require.NoError(t, err)
	assert.Equal(t, 12, res.NotPromoted)
	require.Len(t, res.Records, 6, "3 at W=1, 1 at W=2, 1 at W=4, and the chosen design's second seed")
	firstSeed := map[any]int{} // trials of replicate 0 by window
	for _, rec := range res.Records {
		assert.Equal(t, records.StatusOK, rec.Status)
		if rec.Settings["replicate"] == nil || rec.Settings["replicate"] == 0 {
			firstSeed[rec.Settings["data.window"]]++
		}
	}
	assert.Equal(t, map[any]int{1: 3, 2: 1, 4: 1}, firstSeed)
	assert.Contains(t, log.String(), "successive halving: 12 trial(s) of the grid not promoted")
	cs := records.Choose(res.Records, schema.OwnSimilarity)
	require.Len(t, cs, 1)
	require.GreaterOrEqual(t, cs[0].Chosen, 0)
	assert.Len(t, cs[0].ChosenIDs(), 2, "the chosen design ran both seeds")
	for i, c := range cs[0].Candidates {
		if i != cs[0].Chosen {
			assert.Len(t, c.IDs, 1, "a design not chosen ran one seed")
		}
	}
	recs, _, err := records.Read(filepath.Join(out, records.FileName))
	require.NoError(t, err)
	assert.Len(t, recs, 6, "no record of a trial not run")
	// The finished group is cut to what a page uses, as a grid searched in
	// full is: the trials it did not promote do not keep its choice from
	// being final.
	assert.Contains(t, log.String(), "kcalab: tune: 6 record(s) of tuned trials keep only what a page uses")
	chosen := cs[0].ChosenIDs()
	for _, rec := range recs {
		if slices.Contains(chosen, rec.ID) {
			assert.False(t, rec.SearchOnly, rec.ID)
			assert.NotNil(t, rec.Bootstrap, rec.ID)
			continue
		}
		assert.True(t, rec.SearchOnly, rec.ID)
		assert.Nil(t, rec.Bootstrap, rec.ID)
	}
	_, n := records.Slim(recs, records.Choose(recs, schema.OwnSimilarity))
	assert.Zero(t, n, "nothing left to cut")

	// Unrun names the grid's trials a finished run would hold and the
	// records lack: none after a finished run (the trials not promoted are
	// not missing), the trial whose record is gone, and, before a rung has
	// run, every trial that waits on it.
	trials := s.Trials()
	ids := func(ts []schema.Trial) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.ID)
		}
		return out
	}
	without := func(i int) []records.Record {
		return slices.Delete(slices.Clone(res.Records), i, i+1)
	}
	last := len(res.Records) - 1 // the chosen design's second seed, run last
	assert.Empty(t, harness.Unrun(trials, res.Records), "finished")
	assert.Equal(t, []string{res.Records[last].ID}, ids(harness.Unrun(trials, without(last))), "last seed missing")
	unrun := ids(harness.Unrun(trials, without(0)))
	assert.Contains(t, unrun, res.Records[0].ID, "a rung-0 trial missing")
	assert.Greater(t, len(unrun), 1, "the rungs above wait on it")
	assert.Len(t, harness.Unrun(trials, nil), len(trials), "nothing run: every trial runs or waits")

	log.Reset()
	again, err := (&harness.Runner{Log: &log}).Run(context.Background(), loadSpecTo(t, writeSpec(t, spec), out))
	require.NoError(t, err)
	assert.Equal(t, 6, again.Reused)
	assert.Equal(t, 12, again.NotPromoted)
}

// The run keeps its queue in grid order, so a halving group's promoted
// rungs run before a later group's trials: groups finish one after
// another, and a run stopped midway leaves whole groups.
func TestRunnerHalvesGroupByGroup(t *testing.T) {
	spec := `
name: groups
seed: 5
data: {source: synthetic, table: flat, window: [1, 2, 4]}
synthetic: {tokens: 20000, noise: 0.6, words: 40}
eval: {sets: [synthetic], parts: true}
method: lca
svd: {rank: [3, 5, 8]}
variants:
  - {label: first, tune: {axes: [svd.rank, data.window], halving: data.window}}
  - {label: second, tune: {axes: [svd.rank, data.window], halving: data.window}}
`
	var log strings.Builder
	_, err := (&harness.Runner{Log: &log, Jobs: 1}).Run(context.Background(), loadSpecTo(t, writeSpec(t, spec), t.TempDir()))
	require.NoError(t, err)
	var order []string
	for _, line := range strings.Split(log.String(), "\n") {
		if strings.Contains(line, "): ok") {
			if strings.Contains(line, "(first ") {
				order = append(order, "first")
			} else if strings.Contains(line, "(second ") {
				order = append(order, "second")
			}
		}
	}
	assert.Equal(t, []string{"first", "first", "first", "first", "first", "second", "second", "second", "second", "second"}, order,
		"3 + 1 + 1 trials of the first group, then the second's")
}
