package harness_test

import (
	"context"
	"fmt"
	"kcalab/harness"
	_ "kcalab/harness/builtin"
	"kcalab/records"
	"kcalab/schema"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
