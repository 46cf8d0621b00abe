package kca_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/corpus"
	"kcalab/datasets/sparse"
	"kcalab/datasets/synth"
	"kcalab/methods/ca"
	"kcalab/methods/kca"
	"kcalab/methods/svd"
	"kcalab/methods/vectors"
)

// wordTables builds the vocabulary and table counter of a synthetic corpus
// through the same path the harness takes (a text file read by corpus).
func wordTables(t *testing.T, o synth.Options) (*corpus.Vocab, *corpus.Tables, map[string]int) {
	t.Helper()
	toks, clusterOf, err := synth.Corpus(o)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "synth.txt")
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(toks, " ")), 0o644))
	ctx := context.Background()
	c, err := corpus.Open(ctx, "", path, corpus.Options{})
	require.NoError(t, err)
	v, ids, err := corpus.Build(ctx, c, corpus.VocabOptions{MinCount: 1})
	require.NoError(t, err)
	require.Equal(t, o.Clusters*o.WordsPerCluster, v.Size(), "every word occurs, no <unk>")
	tabs, err := corpus.NewTables(v, ids, corpus.TableOptions{})
	require.NoError(t, err)
	return v, tabs, clusterOf
}

// clusterPurity is, averaged over words, the fraction of a word's m
// nearest neighbours (by sim, itself excluded) that are in its cluster;
// m is the number of other words in the cluster, so 1 is perfect.
func clusterPurity(f *mat.Dense, words []string, clusterOf map[string]int, m int, sim func(a, b []float64) float64) float64 {
	type nb struct {
		j int
		s float64
	}
	var total float64
	for i, w := range words {
		var nbs []nb
		for j := range words {
			if j != i {
				nbs = append(nbs, nb{j, sim(f.RawRowView(i), f.RawRowView(j))})
			}
		}
		sort.SliceStable(nbs, func(a, b int) bool { return nbs[a].s > nbs[b].s })
		same := 0
		for _, x := range nbs[:m] {
			if clusterOf[words[x.j]] == clusterOf[w] {
				same++
			}
		}
		total += float64(same) / float64(m)
	}
	return total / float64(len(words))
}

var clusterCorpus = synth.Options{Clusters: 6, WordsPerCluster: 10, Tokens: 40000, Noise: 0.4, Seed: 7}

// TestPlantedClusters: on a corpus with planted clusters, the words of a
// cluster are each other's nearest neighbours, by dot product and by
// cosine, for CA of N^cut (the tail-cut kernel), CA of N^flat (LCA) and
// the plain SVD of SPPMI(N^flat) (the SGNS row).
func TestPlantedClusters(t *testing.T) {
	ctx := context.Background()
	v, tabs, clusterOf := wordTables(t, clusterCorpus)
	const window = 5
	tests := []struct {
		name      string
		kind      corpus.Kind
		transform func(*sparse.CSR) (*sparse.CSR, error)
		kernel    ca.Kernel
		rank      int
		alpha     float64
	}{
		{"tail-cut", corpus.Cut, nil, ca.KernelCA, clusterCorpus.Clusters - 1, vectors.Principal},
		{"lca flat", corpus.Flat, nil, ca.KernelCA, clusterCorpus.Clusters - 1, vectors.Principal},
		{"sppmi flat", corpus.Flat, func(n *sparse.CSR) (*sparse.CSR, error) { return kca.SPPMI(n, 1) }, ca.KernelPlain, clusterCorpus.Clusters, vectors.Symmetric},
		{"sppmi shift 2", corpus.Flat, func(n *sparse.CSR) (*sparse.CSR, error) { return kca.SPPMI(n, 2) }, ca.KernelPlain, clusterCorpus.Clusters, vectors.Symmetric},
		{"glove-log", corpus.Glove, func(n *sparse.CSR) (*sparse.CSR, error) { return kca.GloVeLog(n, 0) }, ca.KernelPlain, clusterCorpus.Clusters, vectors.Symmetric},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, err := tabs.Table(ctx, corpus.Spec{Kind: tc.kind, Window: window})
			require.NoError(t, err)
			if tc.transform != nil {
				n, err = tc.transform(n)
				require.NoError(t, err)
			}
			dec, err := ca.Decompose(ctx, n, tc.kernel, svd.DSSVD{}, svd.DefaultOptions(tc.rank))
			require.NoError(t, err)
			f, err := vectors.Coordinates(dec.U, dec.S, dec.RowMass, tc.alpha)
			require.NoError(t, err)
			m := clusterCorpus.WordsPerCluster - 1
			dot := clusterPurity(f, v.Words, clusterOf, m, vectors.DotSim)
			cos := clusterPurity(f, v.Words, clusterOf, m, vectors.CosineSim)
			t.Logf("purity: dot %.3f, cosine %.3f", dot, cos)
			assert.GreaterOrEqual(t, dot, 0.9, "dot product")
			assert.GreaterOrEqual(t, cos, 0.9, "cosine")
			// Control: against clusters that cut across the planted ones
			// (word w of every cluster in cluster w mod clusters) the same
			// vectors score low.
			words, err := synth.Words(clusterCorpus)
			require.NoError(t, err)
			wrong := map[string]int{}
			for _, ws := range words {
				for w, word := range ws {
					wrong[word] = w % clusterCorpus.Clusters
				}
			}
			assert.Less(t, clusterPurity(f, v.Words, wrong, m, vectors.DotSim), 0.5, "control")
		})
	}
}

// TestDSSVDMatchesDense: word vectors from the delayed sparse randomized
// SVD equal the exact dense SVD's when the sketch spans the whole range
// (oversampling up to min(rows, cols)), for each kernel.
func TestDSSVDMatchesDense(t *testing.T) {
	ctx := context.Background()
	_, tabs, _ := wordTables(t, synth.Options{Clusters: 4, WordsPerCluster: 6, Tokens: 6000, Noise: 0.3, Seed: 3})
	flat, err := tabs.Table(ctx, corpus.Spec{Kind: corpus.Flat, Window: 4})
	require.NoError(t, err)
	sppmi, err := kca.SPPMI(flat, 1)
	require.NoError(t, err)
	for _, tc := range []struct {
		name   string
		n      *sparse.CSR
		kernel ca.Kernel
	}{
		{"ca", flat, ca.KernelCA},
		{"gini", flat, ca.KernelGini},
		{"plain sppmi", sppmi, ca.KernelPlain},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := svd.DefaultOptions(8)
			opt.Oversample = 100 // clamped to min(rows, cols): exact
			want, err := ca.Decompose(ctx, tc.n, tc.kernel, svd.Dense{}, opt)
			require.NoError(t, err)
			got, err := ca.Decompose(ctx, tc.n, tc.kernel, svd.DSSVD{}, opt)
			require.NoError(t, err)
			for l := range want.S {
				assert.InDelta(t, want.S[l], got.S[l], 1e-10*want.S[0], "σ_%d", l+1)
			}
			fw, err := vectors.Coordinates(want.U, want.S, want.RowMass, vectors.Principal)
			require.NoError(t, err)
			fg, err := vectors.Coordinates(got.U, got.S, got.RowMass, vectors.Principal)
			require.NoError(t, err)
			requireEqualUpToSign(t, fw, fg, 1e-8)
		})
	}
}

// requireEqualUpToSign compares column by column, each column allowed to
// flip sign as a whole, relative to the column's largest entry.
func requireEqualUpToSign(t *testing.T, want, got *mat.Dense, rel float64) {
	t.Helper()
	r, k := want.Dims()
	gr, gk := got.Dims()
	require.Equal(t, [2]int{r, k}, [2]int{gr, gk})
	for l := 0; l < k; l++ {
		same, flipped, scale := 0.0, 0.0, 0.0
		for i := 0; i < r; i++ {
			same = max(same, math.Abs(want.At(i, l)-got.At(i, l)))
			flipped = max(flipped, math.Abs(want.At(i, l)+got.At(i, l)))
			scale = max(scale, math.Abs(want.At(i, l)))
		}
		require.LessOrEqual(t, min(same, flipped), rel*scale, "column %d", l)
	}
}
