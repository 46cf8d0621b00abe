package harness_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kcalab/harness"
	_ "kcalab/harness/builtin"
	"kcalab/records"
	"kcalab/schema"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A word-vector spec on the synthetic corpus (no data needed): every CA
// method separates the planted clusters, and two runs, with different job
// counts, give identical scores.
func TestWordSpecDeterministic(t *testing.T) {
	dir := t.TempDir()
	// Tuning pairs for SCA: synthetic words are named c<cluster>w<word>.
	var pairs strings.Builder
	for c := 0; c < 4; c++ {
		for w := 0; w+1 < 8; w++ {
			fmt.Fprintf(&pairs, "c%dw%02d\tc%dw%02d\t%d\n", c, w, c, w+1, 5+w%3)
			fmt.Fprintf(&pairs, "c%dw%02d\tc%dw%02d\t%d\n", c, w, (c+1)%4, w, w%2)
		}
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pairs.txt"), []byte(pairs.String()), 0o644))
	spec := `
name: words
seed: 5
data: {source: synthetic, window: 5}
synthetic: {clusters: 4, words: 8, tokens: 20000, noise: 0.3}
eval: {sets: [synthetic]}
svd: {rank: 6}
variants:
  - {label: tail-cut, method: kca, data: {table: cut}}
  - {label: flat, method: lca, data: {table: flat}}
  - {label: skip, method: lca, data: {table: skip}, svd: {backend: [dense, dssvd]}}
  - {label: sppmi, method: kca, kca: {kernel: sppmi}, data: {table: flat}}
  - {label: gini, method: gini, data: {table: flat}}
  - {label: sca in, method: sca, sca: {set: pairs.txt, mode: in-sample}, data: {table: skip}}
  - {label: sca folds, method: sca, sca: {set: pairs.txt, mode: folds, folds: 4}, data: {table: skip}}
  - {label: sca paper, method: sca, sca: {set: pairs.txt, mode: folds, folds: 4, form: paper}, data: {table: skip}}
`
	path := filepath.Join(dir, "words.yaml")
	require.NoError(t, os.WriteFile(path, []byte(spec), 0o644))
	var runs [][]records.Record
	for _, jobs := range []int{1, 3} {
		s, err := schema.LoadSpec(path)
		require.NoError(t, err)
		s.Output = t.TempDir()
		res, err := (&harness.Runner{Jobs: jobs}).Run(context.Background(), s)
		require.NoError(t, err)
		runs = append(runs, res.Records)
	}
	assert.Empty(t, records.CompareRuns(runs[0], runs[1]))
	require.Len(t, runs[0], 9)
	for _, rec := range runs[0] {
		label := rec.Settings["label"]
		require.Equal(t, "ok", rec.Status, "%v: %s", label, rec.Error)
		rho := rec.Metrics["spearman.zero.synthetic"]
		assert.Greater(t, rho, 0.6, "%v separates the clusters", label)
		assert.Equal(t, 1.0, rec.Metrics["coverage.synthetic"])
		assert.Equal(t, 32.0, rec.Metrics["vocab"])
	}
	// dense and dssvd agree on the word vectors' scores.
	assert.InDelta(t, runs[0][2].Metrics["spearman.zero.synthetic"], runs[0][3].Metrics["spearman.zero.synthetic"], 1e-9)
	assert.Equal(t, "dense", runs[0][2].Backend)
	assert.Equal(t, "dssvd", runs[0][3].Backend)
}

// Every word trial is scored at both similarities (its own under the plain
// keys), with a bootstrap of each ρ; eval.parts adds each set's dev and
// test parts; tuned_on is recorded but changes no id. The replicates are the
// same in a second run, and equal the whole set's ρ on average.
func TestScoresBothSimilaritiesAndParts(t *testing.T) {
	body := "name: parts\ndata: {source: synthetic, table: flat, window: 5}\nsynthetic: {tokens: 30000, clusters: 6, words: 30}\n" +
		"eval: {sets: [synthetic], parts: true}\nmethod: lca\nsvd: {rank: 5}\ntuned_on: [synthetic@dev]\n"
	s := loadSpecTo(t, writeSpec(t, body), t.TempDir())
	res, err := (&harness.Runner{Jobs: 1}).Run(context.Background(), s)
	require.NoError(t, err)
	r := res.Records[0]
	require.Equal(t, "ok", r.Status, r.Error)
	for _, set := range []string{"synthetic", "synthetic@dev", "synthetic@test"} {
		for _, rule := range records.Rules {
			own := records.Score(rule, set).Key()
			other := records.Score(rule, set).At(records.SimCosine, records.SimDot).Key()
			require.Contains(t, r.Metrics, own)
			require.Contains(t, r.Metrics, other)
			assert.Equal(t, "spearman.cosine."+string(rule)+"."+set, other)
			reps, ok := r.Bootstrap.Replicates(own, r.Metrics[own])
			require.True(t, ok, own)
			assert.Len(t, reps, r.Bootstrap.B)
			_, _, sd := records.Interval(r.Metrics[own], reps)
			assert.Greater(t, sd, 0.0, "%s: resamples spread", own)
		}
	}
	assert.Equal(t, []string{"synthetic@dev"}, schema.RecordSettings(r.Settings).TunedOn)
	untuned := loadSpecTo(t, writeSpec(t, strings.Replace(body, "tuned_on: [synthetic@dev]\n", "", 1)), t.TempDir())
	assert.Equal(t, s.Trials()[0].ID, untuned.Trials()[0].ID, "tuned_on is not part of the id")
	again, err := (&harness.Runner{Jobs: 1, Fresh: true}).Run(context.Background(), s)
	require.NoError(t, err)
	assert.Equal(t, r.Bootstrap, again.Records[0].Bootstrap, "the same resamples, the same replicates")
}

// A set with fewer covered pairs than records.MinRankedPairs gets its ρ
// recorded with a warning on the trial saying so; a set with enough gets
// none.
func TestFewPairsWarned(t *testing.T) {
	tests := []struct {
		name  string
		pairs int
		want  string // "" = no warning
	}{
		{"three pairs", 3, "p.tsv: only 3 of its 3 pairs covered, fewer than 10: its ρ is shown but never ranked"},
		{"twelve pairs", 12, ""},
	}
	words := []string{"the", "cat", "sat", "on", "mat", "a", "dog", "ran", "in", "park"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := smallVectorsSpec(t)
			var pairs strings.Builder
			for i := range tt.pairs { // distinct pairs: (0,1), (0,2), …
				fmt.Fprintf(&pairs, "%s\t%s\t%d\n", words[i/9], words[i/9+1+i%9], i%7)
			}
			require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(spec), "p.tsv"), []byte(pairs.String()), 0o644))
			res, err := (&harness.Runner{Jobs: 1}).Run(context.Background(), loadSpecTo(t, spec, t.TempDir()))
			require.NoError(t, err)
			w := strings.Join(res.Records[0].Warnings, "\n")
			if tt.want == "" {
				assert.NotContains(t, w, "pairs covered")
				return
			}
			assert.Contains(t, w, tt.want)
		})
	}
}
