package harness_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/harness"
	"kcalab/records"
	"kcalab/schema"
)

// supervisedSpec is a synthetic corpus of planted clusters whose pairs
// (same cluster 1, next cluster 0) are split into dev and test parts: the
// plain CA, SCA tuned on the dev pairs (crossfit), and the same CA
// retrofitted to them, two ways. The plain and retrofitted trials have no
// label, so a retrofitted trial trains with the plain trial's seed.
const supervisedSpec = `name: supervised-synthetic
seed: 3
data: {source: synthetic, table: flat, window: 5}
synthetic: {tokens: 30000, words: 20, clusters: 6, noise: 0.8}
eval: {sets: [synthetic], parts: true, touched: true}
method: lca
svd: {rank: 8}
variants:
  - {}
  - {method: sca, sca: {set: dev, mode: crossfit, folds: 3, form: blend, weight: 0.8}}
  - {retrofit: {lexicon: dev, normalize: false, folds: 3}}
  - {retrofit: {lexicon: dev, edges: one, threshold: 0.5, folds: 3}}
`

func supervisedRun(t *testing.T, jobs int) []records.Record {
	t.Helper()
	spec := loadSpecTo(t, writeSpec(t, supervisedSpec), t.TempDir())
	trials := spec.Trials()
	require.Len(t, trials, 4)
	assert.Equal(t, trials[0].Seed, trials[2].Seed, "a retrofitted trial trains with the seed of its plain twin")
	assert.Equal(t, trials[0].Seed, trials[3].Seed)
	assert.NotEqual(t, trials[0].Seed, trials[1].Seed)
	assert.NotEqual(t, trials[0].ID, trials[2].ID)
	res, err := (&harness.Runner{Jobs: jobs}).Run(context.Background(), spec)
	require.NoError(t, err)
	require.Len(t, res.Records, 4)
	for _, rec := range res.Records {
		require.Equal(t, records.StatusOK, rec.Status, rec.Error)
	}
	return res.Records
}

// The supervised trials learn from the dev pairs and score every part; the
// pairs help on the held-out test part; retrofitting leaves the untouched
// test pairs' scores exactly as they were (their words do not move), and
// with unit-length vectors their cosine too.
func TestSupervisedRunner(t *testing.T) {
	recs := supervisedRun(t, 1)
	plain, scaRec, retro, retroCos := recs[0], recs[1], recs[2], recs[3]
	key := func(part string) string {
		return records.Score(records.RuleZero, records.SetPart("synthetic", part)).Key()
	}
	for _, rec := range recs {
		for _, part := range []string{records.PartDev, records.PartTest, records.PartTestTouched, records.PartTestUntouched} {
			assert.Contains(t, rec.Metrics, key(part), "%s scores %s", rec.ID, part)
		}
		n := func(part string) float64 { return rec.Metrics[records.Pairs(records.SetPart("synthetic", part)).Key()] }
		assert.Equal(t, n(records.PartTest), n(records.PartTestTouched)+n(records.PartTestUntouched), "the test part is split in two")
		assert.Equal(t, rec.Metrics[records.Pairs("synthetic").Key()], n(records.PartDev)+n(records.PartTest))
	}
	assert.NotContains(t, plain.Metrics, records.MetricDevPairs)
	for _, rec := range []records.Record{scaRec, retro} {
		assert.Greater(t, rec.Metrics[records.MetricDevPairs], 10.0, "the final model learned from the dev pairs")
	}
	assert.Greater(t, retro.Metrics[records.MetricRetrofitWords], 10.0)
	// The planted pairs are easy to learn: each supervised model is better
	// on the test part than the plain CA.
	test := key(records.PartTest)
	assert.Greater(t, scaRec.Metrics[test], plain.Metrics[test], "SCA helps on the test part")
	assert.Greater(t, retro.Metrics[test], plain.Metrics[test], "retrofitting helps on the test part")
	// Retrofitting moves only the words of the dev pairs.
	untouched := key(records.PartTestUntouched)
	assert.Equal(t, plain.Metrics[untouched], retro.Metrics[untouched], "untouched pairs keep their scores")
	cos := records.Score(records.RuleZero, records.SetPart("synthetic", records.PartTestUntouched)).At(records.SimCosine, records.SimDot).Key()
	assert.InDelta(t, plain.Metrics[cos], retroCos.Metrics[cos], 1e-12, "unit-length input keeps the untouched pairs' cosine")
	assert.NotEqual(t, plain.Metrics[key(records.PartTestTouched)], retro.Metrics[key(records.PartTestTouched)])
	// The plain trial trained the vectors its two retrofitted twins took.
	assert.NotContains(t, plain.Metrics, records.MetricVectorsShared)
	assert.Equal(t, 1.0, retro.Metrics[records.MetricVectorsShared])
	assert.Equal(t, 1.0, retroCos.Metrics[records.MetricVectorsShared])
	assert.Equal(t, plain.Metrics[records.MetricVocab], retro.Metrics[records.MetricVocab], "what the training recorded comes along")
	assert.NotContains(t, scaRec.Metrics, records.MetricVectorsShared)
	// The held-out parts keep their replicates, for the page's verdicts.
	for _, rec := range recs {
		assert.Contains(t, rec.Bootstrap.Scores, key(records.PartTestUntouched))
	}
}

// Whichever trial trains the shared vectors, every score is the same.
func TestSupervisedRunnerJobs(t *testing.T) {
	one, two := supervisedRun(t, 1), supervisedRun(t, 2)
	for i := range one {
		for k, v := range one[i].Metrics {
			if m := records.ParseMetric(k); m.Kind == records.ScoreMetric {
				assert.Equal(t, v, two[i].Metrics[k], "%s %s", one[i].ID, k)
			}
		}
		assert.Equal(t, one[i].Bootstrap, two[i].Bootstrap)
	}
}

// Settings that could not keep the test parts held out are refused when
// the spec is read.
func TestSupervisedRefused(t *testing.T) {
	const syn, parts = "data: {source: synthetic}\n", "eval: {sets: [synthetic], parts: true}\n"
	for _, tc := range []struct{ name, body, want string }{
		{"dev in-sample", syn + parts + "method: sca\nsca: {set: dev, mode: in-sample}\n", "crossfit"},
		{"dev folds", syn + parts + "method: sca\nsca: {set: dev}\n", "crossfit"},
		{"crossfit of a set", syn + parts + "method: sca\nsca: {set: men, mode: crossfit}\n", "sca.set: dev"},
		{"crossfit without parts", syn + "method: sca\nsca: {set: dev, mode: crossfit}\neval: {sets: [synthetic]}\n", "eval.parts"},
		{"crossfit shared rank", syn + parts + "method: sca\nsca: {set: dev, mode: crossfit}\nsvd: {rank: 5, shared_rank: 10}\n", "shared_rank"},
		{"folds shared rank", syn + parts + "method: sca\nsca: {set: men}\nsvd: {rank: 5, shared_rank: 10}\n", "shared_rank"},
		{"crossfit case", syn + "method: sca\nsca: {set: dev, mode: crossfit}\neval: {sets: [synthetic], parts: true, case_insensitive: true}\n", "case_insensitive"},
		{"crossfit retrofit", syn + parts + "method: sca\nsca: {set: dev, mode: crossfit}\nretrofit: {lexicon: dev}\n", "retrofit"},
		{"retrofit without parts", syn + "method: lca\nretrofit: {lexicon: dev}\neval: {sets: [synthetic]}\n", "eval.parts"},
		{"retrofit case", syn + "method: lca\nretrofit: {lexicon: dev}\neval: {sets: [synthetic], parts: true, case_insensitive: true}\n", "case_insensitive"},
		{"retrofit a table", "method: ca\ndata: {source: fisher}\nretrofit: {lexicon: dev}\n", "word vectors"},
		{"touched without parts", syn + "method: lca\neval: {sets: [synthetic], touched: true}\n", "eval.parts"},
		{"supervise another set", syn + "method: lca\neval: {sets: [synthetic], parts: true, supervise: [men]}\n", "eval.supervise"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schema.LoadSpec(writeSpec(t, "name: x\n"+tc.body))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
