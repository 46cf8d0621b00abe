package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kcalab/records"
	"kcalab/schema"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/corpus"
	"kcalab/harness"
	"kcalab/methods/vectors"
)

// rowProfile is a method defined only in this test file: a word's vector is
// its row profile over the d most frequent words in the N^1 table. It
// proves that a method is one file: the spec accepts it, the runner
// dispatches to it, its record keeps the settings it reads and the report
// labels it, with no other file edited.
type rowProfile struct{}

func (rowProfile) Info() schema.MethodInfo {
	return schema.MethodInfo{Name: "rowprofile", Label: "Row profile", Rank: 99, Inputs: schema.CorpusInput,
		Doc:         "test method: row profiles over the most frequent words",
		CorpusReads: []string{"svd.rank", "eval"}}
}

func (rowProfile) Run(ctx context.Context, tr *harness.TrialRun) error {
	wd, err := tr.Words(ctx)
	if err != nil {
		return err
	}
	n, err := tr.CountTable(ctx, wd, corpus.Spec{Kind: corpus.Flat, Window: 1})
	if err != nil {
		return err
	}
	v, _ := n.Dims()
	d := min(tr.Trial.SVD.Rank, v)
	m := mat.NewDense(v, d, nil)
	for i := 0; i < v; i++ {
		cols, vals := n.Row(i)
		sum := 0.0
		for _, x := range vals {
			sum += x
		}
		for k, j := range cols {
			if int(j) < d && sum > 0 {
				m.Set(i, int(j), vals[k]/sum)
			}
		}
	}
	vs, err := vectors.New(wd.Vocab.Words, m)
	if err != nil {
		return err
	}
	return tr.Score(vs)
}

func TestRegisteredMethodEndToEnd(t *testing.T) {
	t.Cleanup(harness.RegisterMethod(rowProfile{}))

	dir := t.TempDir()
	spec := filepath.Join(dir, "rp.yaml")
	require.NoError(t, os.WriteFile(spec, []byte(`name: rp
data: {source: synthetic}
synthetic: {tokens: 20000}
eval: {sets: [synthetic], similarity: cosine}
variants:
  - {method: rowprofile, svd: {rank: [8, 16]}}
  - {method: ca, svd: {rank: 8}}
`), 0o644))
	out := filepath.Join(dir, "out")
	stdout, stderr, err := runCLI(t, "-out", out, spec)
	require.NoError(t, err, stderr)
	assert.Contains(t, stdout, "rp: 3 trials")

	recs, _, err := records.Read(filepath.Join(out, records.FileName))
	require.NoError(t, err)
	require.Len(t, recs, 3)
	for _, rec := range recs[:2] {
		assert.Equal(t, "ok", rec.Status, rec.Error)
		assert.Equal(t, "rowprofile", rec.Settings[schema.KeyMethod])
		assert.Contains(t, rec.Metrics, "spearman.zero.synthetic")
		assert.Contains(t, rec.Settings, "svd.rank", "the record keeps what the method reads")
		assert.NotContains(t, rec.Settings, "svd.backend", "and nothing it does not read")
		assert.NotContains(t, rec.Settings, "vectors.alpha")
		assert.Contains(t, rec.Settings, "synthetic.tokens", "and what its data source reads")
	}
	// Planted clusters are visible in raw row profiles.
	assert.Greater(t, recs[1].Metrics["spearman.zero.synthetic"], 0.3)
	assert.Contains(t, recs[2].Settings, "vectors.alpha", "CA reads vectors.*")

	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	require.NoError(t, err)
	assert.Contains(t, string(page), "Row profile · d=8", "the report labels the method from the registry")
	assert.Contains(t, string(page), "Row profile · d=16")

	// The settings reference lists it while it is registered.
	ref, _, err := runCLI(t, "-settings")
	require.NoError(t, err)
	assert.Contains(t, ref, "rowprofile: test method")
	assert.True(t, strings.Contains(ref, "| `rowprofile` | Row profile | corpus |"))
}

func TestUnregisteredMethodRefused(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "rp.yaml")
	require.NoError(t, os.WriteFile(spec, []byte("name: rp\nmethod: rowprofile\n"), 0o644))
	_, _, err := runCLI(t, "-out", filepath.Join(dir, "out"), spec)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"rowprofile" is not allowed (allowed: ca, lca, gini, kca, sca, sgns, cbow, glove, fasttext, ppmi-svd, external, corpusstats)`)
}
