package sca_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/datasets/corpus"
	"kcalab/datasets/sparse"
	"kcalab/datasets/synth"
	"kcalab/datasets/wordsim"
	"kcalab/methods/ca"
	"kcalab/methods/eval"
	"kcalab/methods/sca"
	"kcalab/methods/svd"
	"kcalab/methods/vectors"
)

var tuningCorpus = synth.Options{Clusters: 6, WordsPerCluster: 10, Tokens: 40000, Noise: 0.3, Seed: 21}

// fixture is a synthetic corpus's vocabulary and N^flat, and a judged set
// whose scores hold a relation the corpus lacks: clusters 2m and 2m+1 are
// "related" (score 5) though their words never co-occur beyond noise;
// words of one cluster score 9, others 1.
type fixture struct {
	vocab *corpus.Vocab
	n     *sparse.CSR
	set   *wordsim.Set
	pairs []sca.Pair
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	toks, clusterOf, err := synth.Corpus(tuningCorpus)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "synth.txt")
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(toks, " ")), 0o644))
	ctx := context.Background()
	c, err := corpus.Open(ctx, "", path, corpus.Options{})
	require.NoError(t, err)
	v, ids, err := corpus.Build(ctx, c, corpus.VocabOptions{MinCount: 1})
	require.NoError(t, err)
	tabs, err := corpus.NewTables(v, ids, corpus.TableOptions{})
	require.NoError(t, err)
	n, err := tabs.Table(ctx, corpus.Spec{Kind: corpus.Flat, Window: 5})
	require.NoError(t, err)

	rng := rand.New(rand.NewPCG(8, 9))
	set := &wordsim.Set{Name: "synthetic judgements"}
	seen := map[[2]int]bool{}
	for len(set.Pairs) < 300 {
		a, b := rng.IntN(v.Size()), rng.IntN(v.Size())
		if a == b || seen[[2]int{min(a, b), max(a, b)}] {
			continue
		}
		seen[[2]int{min(a, b), max(a, b)}] = true
		ca, cb := clusterOf[v.Words[a]], clusterOf[v.Words[b]]
		score := 1.0
		switch {
		case ca == cb:
			score = 9
		case ca/2 == cb/2:
			score = 5
		}
		score += rng.Float64() // break ties, as human scores do
		set.Pairs = append(set.Pairs, wordsim.Pair{W1: v.Words[a], W2: v.Words[b], Score: score})
	}
	pairs := make([]sca.Pair, len(set.Pairs))
	for i, p := range set.Pairs {
		a, _ := v.ID(p.W1)
		b, _ := v.ID(p.W2)
		pairs[i] = sca.Pair{A: int(a), B: int(b), Score: p.Score}
	}
	return &fixture{vocab: v, n: n, set: set, pairs: pairs}
}

// forms are the SCA forms with their default-like weights (for paper, the
// strength λ of DefaultPaperOptions).
var forms = []struct {
	name   string
	weight float64
}{{"blend", 0.5}, {"sum", 1}, {"paper", sca.DefaultPaperOptions().Strength}}

// vectorsOf is CA of the SCA table tuned by pairs in the given form
// (weight 0: plain CA).
func (fx *fixture) vectorsOf(t *testing.T, form string, pairs []sca.Pair, weight float64) *vectors.Set {
	t.Helper()
	var tuned *sparse.CSR
	if form == "paper" {
		opt := sca.DefaultPaperOptions()
		opt.Strength = weight
		dec, err := sca.DecomposePaper(context.Background(), fx.n, pairs, opt, svd.DSSVD{}, svd.DefaultOptions(tuningCorpus.Clusters-1))
		require.NoError(t, err)
		f, err := vectors.Coordinates(dec.U, dec.S, dec.RowMass, vectors.Principal)
		require.NoError(t, err)
		vs, err := vectors.New(fx.vocab.Words, f)
		require.NoError(t, err)
		return vs
	}
	if form == "blend" {
		var err error
		tuned, err = sca.Blend(fx.n, pairs, weight)
		require.NoError(t, err)
	} else {
		g, err := sca.Gamma(fx.vocab.Size(), pairs, weight)
		require.NoError(t, err)
		tuned, err = sca.Apply(fx.n, g)
		require.NoError(t, err)
	}
	dec, err := ca.Decompose(context.Background(), tuned, ca.KernelCA, svd.DSSVD{}, svd.DefaultOptions(tuningCorpus.Clusters-1))
	require.NoError(t, err)
	f, err := vectors.Coordinates(dec.U, dec.S, dec.RowMass, vectors.Principal)
	require.NoError(t, err)
	vs, err := vectors.New(fx.vocab.Words, f)
	require.NoError(t, err)
	return vs
}

// TestSCAInSampleRaisesSpearman: tuning on a set raises its ρ (the paper's
// in-sample SCA rows), for dot and cosine similarity.
func TestSCAInSampleRaisesSpearman(t *testing.T) {
	fx := newFixture(t)
	for _, form := range forms {
		for _, sim := range vectors.Similarities {
			t.Run(form.name+"/"+string(sim), func(t *testing.T) {
				base, err := eval.Evaluate(fx.vectorsOf(t, form.name, fx.pairs, 0), fx.set, sim, eval.Zero)
				require.NoError(t, err)
				tuned, err := eval.Evaluate(fx.vectorsOf(t, form.name, fx.pairs, form.weight), fx.set, sim, eval.Zero)
				require.NoError(t, err)
				t.Logf("ρ: CA %.3f, SCA in-sample %.3f", base.Rho, tuned.Rho)
				assert.Greater(t, tuned.Rho, base.Rho+0.1)
			})
		}
	}
}

// TestSCAFoldsHeldOut: with k folds, each pair scored by the model that
// did not tune on it, SCA still beats CA here, because the planted
// relation between clusters is learnt from other pairs of the same
// clusters: the honest counterpart of the test above.
func TestSCAFoldsHeldOut(t *testing.T) {
	fx := newFixture(t)
	for _, form := range forms {
		t.Run(form.name, func(t *testing.T) { fx.heldOut(t, form.name, form.weight) })
	}
}

func (fx *fixture) heldOut(t *testing.T, form string, weight float64) {
	const k = 5
	folds, err := sca.Folds(len(fx.pairs), k, 1)
	require.NoError(t, err)
	human := make([]float64, len(fx.pairs))
	model := make([]float64, len(fx.pairs))
	for f := range folds {
		vs := fx.vectorsOf(t, form, sca.TrainPairs(fx.pairs, folds, f), weight)
		for _, i := range folds[f] {
			p := fx.set.Pairs[i]
			a, _ := vs.Vector(p.W1)
			b, _ := vs.Vector(p.W2)
			human[i], model[i] = p.Score, vectors.DotSim(a, b)
		}
	}
	held, err := eval.Spearman(human, model)
	require.NoError(t, err)
	base, err := eval.Evaluate(fx.vectorsOf(t, form, nil, 0), fx.set, vectors.Dot, eval.Zero)
	require.NoError(t, err)
	t.Logf("ρ: CA %.3f, SCA %d-fold held out %.3f", base.Rho, k, held)
	assert.Greater(t, held, base.Rho+0.05)
}

func Example() {
	// A 3-word table: word 0 and word 2 share no context; a judgement that
	// they are similar (γ = 1) gives word 0 the contexts of word 2.
	n := sparse.FromDense(3, 3, []float64{
		0, 4, 0,
		1, 0, 1,
		0, 0, 2,
	})
	g, err := sca.Gamma(3, []sca.Pair{{A: 0, B: 2, Score: 8}}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	tuned, err := sca.Apply(n, g)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < 3; i++ {
		fmt.Println(tuned.At(i, 0), tuned.At(i, 1), tuned.At(i, 2))
	}
	// Output:
	// 2 4 2
	// 2 0 2
	// 2 4 2
}
