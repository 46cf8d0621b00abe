package corpusstats

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/datasets/datatest"
	"kcalab/datasets/zipf"
)

// Tolerances of the calibration test: relative error of each statistic
// of the calibrated model against text8_prefix at the same token counts.
const (
	tolTypes = 0.10 // types (Heaps' law)
	tolVocab = 0.10 // words with count ≥ 5
	tolNNZ   = 0.10 // non-zeros of N^flat and N^cut, W = 24
	// The singular values are matched only in level, not in decay (see the
	// package documentation): the mean of σ_5..σ_15 within 20 %, and every
	// σ_k of the 50 within a factor 2 of text8_prefix's.
	tolSigmaMid    = 0.20
	tolSigmaFactor = 2.0
)

func TestCalibration(t *testing.T) {
	dir := datatest.Dir(t)
	if testing.Short() {
		t.Skip("counts W = 24 tables of two 2 M-token corpora: not in -short")
	}
	ctx := context.Background()
	cache := t.TempDir()
	o := StatsOptions{CacheDir: cache}
	real, err := Measure(ctx, dir, "text8_prefix", o)
	require.NoError(t, err)
	last := real.Points[len(real.Points)-1]
	path := filepath.Join(t.TempDir(), "synthetic.txt")
	require.NoError(t, zipf.WriteFile(ctx, path, zipf.Calibrated(), last.Tokens))
	o.Prefixes = nil
	synth, err := Measure(ctx, dir, path, o)
	require.NoError(t, err)
	require.Len(t, synth.Points, len(real.Points))
	for i, r := range real.Points {
		s := synth.Points[i]
		t.Logf("tokens %d: types %d / %d, vocab %d / %d, nnz flat %d / %d, nnz cut %d / %d (synthetic / text8_prefix)",
			r.Tokens, s.Types, r.Types, s.Vocab, r.Vocab, s.NNZFlat, r.NNZFlat, s.NNZCut, r.NNZCut)
		assert.Equal(t, r.Tokens, s.Tokens)
		assert.InEpsilon(t, r.Types, s.Types, tolTypes, "types at %d tokens", r.Tokens)
		assert.InEpsilon(t, r.Vocab, s.Vocab, tolVocab, "vocabulary at %d tokens", r.Tokens)
		assert.InEpsilon(t, r.NNZFlat, s.NNZFlat, tolNNZ, "nnz flat at %d tokens", r.Tokens)
		assert.InEpsilon(t, r.NNZCut, s.NNZCut, tolNNZ, "nnz cut at %d tokens", r.Tokens)
	}
	require.Len(t, synth.Sigma, DefaultRank)
	t.Logf("σ synthetic %.3f", synth.Sigma)
	t.Logf("σ text8_prefix %.3f", real.Sigma)
	var rm, sm float64
	for k := 4; k < 15; k++ {
		rm, sm = rm+real.Sigma[k], sm+synth.Sigma[k]
	}
	assert.InEpsilon(t, rm, sm, tolSigmaMid, "mean of σ_5..σ_15")
	for k, r := range real.Sigma {
		s := synth.Sigma[k]
		assert.True(t, s <= tolSigmaFactor*r && r <= tolSigmaFactor*s, "σ_%d: %.3f, text8_prefix %.3f", k+1, s, r)
	}
}
