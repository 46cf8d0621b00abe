package baselines

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/methods/vectors"
)

// method is one baseline trained on the planted-cluster corpus.
type method struct {
	name  string
	train func(t testing.TB, c Corpus, seed uint64) *vectors.Set
}

func smallSGNS() Word2VecConfig {
	cfg := DefaultSGNS()
	cfg.Dim, cfg.Epochs = 16, 5
	return cfg
}

func smallCBOW() Word2VecConfig {
	cfg := DefaultCBOW()
	cfg.Dim, cfg.Epochs = 16, 5
	return cfg
}

func smallGloVe() GloVeConfig {
	cfg := DefaultGloVe()
	cfg.Dim, cfg.Epochs, cfg.XMax = 16, 25, 10
	return cfg
}

func smallFastText() FastTextConfig {
	cfg := DefaultFastText()
	cfg.Dim, cfg.Bucket = 16, 10000
	return cfg
}

var methods = []method{
	{"sgns", func(t testing.TB, c Corpus, seed uint64) *vectors.Set {
		cfg := smallSGNS()
		cfg.Seed = seed
		s, err := TrainWord2Vec(context.Background(), c, cfg)
		require.NoError(t, err)
		return s
	}},
	{"cbow", func(t testing.TB, c Corpus, seed uint64) *vectors.Set {
		cfg := smallCBOW()
		cfg.Seed = seed
		s, err := TrainWord2Vec(context.Background(), c, cfg)
		require.NoError(t, err)
		return s
	}},
	{"glove", func(t testing.TB, c Corpus, seed uint64) *vectors.Set {
		cfg := smallGloVe()
		cfg.Seed = seed
		s, err := TrainGloVe(context.Background(), cooccur(t, c, 5), c.Words, c.SkipID, cfg)
		require.NoError(t, err)
		return s
	}},
	{"fasttext", func(t testing.TB, c Corpus, seed uint64) *vectors.Set {
		cfg := smallFastText()
		cfg.Seed = seed
		s, err := TrainFastText(context.Background(), c, cfg)
		require.NoError(t, err)
		return s
	}},
}

// Each baseline separates planted clusters: 4 clusters of 10 words, every
// sentence drawn inside one cluster.
func TestPlantedClusters(t *testing.T) {
	c, clusters := clusterCorpus(1, 4, 10, 30000, 200)
	require.GreaterOrEqual(t, c.SkipID, 0, "the corpus exercises the skip id")
	for _, m := range methods {
		t.Run(m.name, func(t *testing.T) {
			s := m.train(t, c, 1)
			assert.Equal(t, 40, s.Len(), "every word but <unk> has a vector")
			_, ok := s.Index("<unk>")
			assert.False(t, ok)
			within, between := clusterSeparation(t, s, clusters)
			t.Logf("%s: mean cosine within %.3f, between %.3f", m.name, within, between)
			assert.Greater(t, within-between, 0.3)
			// Every word's nearest neighbour is in its own cluster.
			for _, ws := range clusters {
				for _, w := range ws {
					v, _ := s.Vector(w)
					assert.Contains(t, ws, nearest(s, v, w), "nearest neighbour of %s", w)
				}
			}
		})
	}
}

// Same seed → identical bits (whatever GOMAXPROCS); another seed → other vectors.
func TestDeterminism(t *testing.T) {
	c, _ := clusterCorpus(2, 4, 10, 8000, 50)
	for _, m := range methods {
		t.Run(m.name, func(t *testing.T) {
			h1 := hashSet(m.train(t, c, 7))
			prev := runtime.GOMAXPROCS(1)
			h2 := hashSet(m.train(t, c, 7))
			runtime.GOMAXPROCS(prev)
			h3 := hashSet(m.train(t, c, 8))
			assert.Equal(t, h1, h2, "same seed, GOMAXPROCS %d vs 1", prev)
			assert.NotEqual(t, h1, h3, "different seeds")
		})
	}
}

// fastText gives an unseen word a vector from its n-grams, nearest to the
// words sharing its stem.
func TestFastTextOOV(t *testing.T) {
	c, clusters := clusterCorpus(1, 4, 10, 30000, 0)
	s := methods[3].train(t, c, 1)
	for k, unseen := range []string{"zorkquy", "mipaquy", "tulvquy", "bexequy"} {
		_, in := s.Index(unseen)
		require.False(t, in)
		v, ok := s.Vector(unseen)
		require.True(t, ok, unseen)
		require.Len(t, v, s.Dim())
		assert.Contains(t, clusters[k], nearest(s, v, ""), "nearest word to %s", unseen)
	}
	// The hook agrees with the stored vectors' construction: the n-gram part
	// of an in-vocabulary word is close to its vector.
	v, ok := s.OOV("zorkan")
	require.True(t, ok)
	w, _ := s.Vector("zorkan")
	assert.Greater(t, cosine(v, w), 0.5)
	// Without n-grams there is nothing to build from.
	cfg := smallFastText()
	cfg.MaxN = 0
	s0, err := TrainFastText(context.Background(), c, cfg)
	require.NoError(t, err)
	_, ok = s0.Vector("zorkquy")
	assert.False(t, ok)
}

func TestConfigErrors(t *testing.T) {
	c, _ := clusterCorpus(3, 2, 5, 500, 0)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		run  func() error
		want string
	}{
		{"w2v dim", func() error {
			cfg := DefaultSGNS()
			cfg.Dim = 0
			_, err := TrainWord2Vec(ctx, c, cfg)
			return err
		}, "word2vec sgns: config: Dim = 0, want ≥ 1"},
		{"w2v alpha", func() error {
			cfg := DefaultCBOW()
			cfg.Alpha = 0
			_, err := TrainWord2Vec(ctx, c, cfg)
			return err
		}, "word2vec cbow: config: Alpha = 0, want finite > 0"},
		{"token range", func() error {
			bad := c
			bad.Tokens = append([]int32{99}, c.Tokens...)
			bad.Counts = nil
			_, err := TrainWord2Vec(ctx, bad, DefaultSGNS())
			return err
		}, "word2vec sgns: corpus: token 0 has id 99, want [0, 10)"},
		{"counts mismatch", func() error {
			bad := c
			bad.Counts = append([]int64{}, c.Counts...)
			bad.Counts[0]++
			_, err := TrainFastText(ctx, bad, DefaultFastText())
			return err
		}, "fasttext: corpus: Counts[0]"},
		{"skip id", func() error {
			bad := c
			bad.SkipID = 10
			_, err := TrainFastText(ctx, bad, DefaultFastText())
			return err
		}, "fasttext: corpus: SkipID = 10, want -1 (none) or a word id in [0, 10)"},
		{"duplicate word", func() error {
			bad := c
			bad.Words = append([]string{}, c.Words...)
			bad.Words[1] = bad.Words[0]
			_, err := TrainWord2Vec(ctx, bad, DefaultSGNS())
			return err
		}, "word2vec sgns: corpus: word 1 \"" + c.Words[0] + "\" repeats word 0"},
		{"space in word", func() error {
			bad := c
			bad.Words = append([]string{}, c.Words...)
			bad.Words[2] = "a b"
			_, err := TrainGloVe(ctx, cooccur(t, c, 2), bad.Words, -1, DefaultGloVe())
			return err
		}, `glove: word 2 "a b" contains whitespace`},
		{"ft minn", func() error {
			cfg := DefaultFastText()
			cfg.MinN = 7
			_, err := TrainFastText(ctx, c, cfg)
			return err
		}, "fasttext: config: MinN = 7, want 1 ≤ MinN ≤ MaxN = 6"},
		{"glove dims", func() error {
			_, err := TrainGloVe(ctx, cooccur(t, c, 2), c.Words[:3], -1, DefaultGloVe())
			return err
		}, "glove: co-occurrence matrix is 10×10, want 3×3"},
		{"glove nil", func() error {
			_, err := TrainGloVe(ctx, nil, c.Words, -1, DefaultGloVe())
			return err
		}, "glove: nil co-occurrence matrix"},
		{"glove xmax", func() error {
			cfg := DefaultGloVe()
			cfg.XMax = -1
			_, err := TrainGloVe(ctx, cooccur(t, c, 2), c.Words, -1, cfg)
			return err
		}, "glove: config: XMax = -1, want finite > 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestCancel(t *testing.T) {
	c, _ := clusterCorpus(3, 2, 5, 500, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := TrainWord2Vec(ctx, c, DefaultSGNS())
	assert.ErrorIs(t, err, context.Canceled)
	_, err = TrainFastText(ctx, c, DefaultFastText())
	assert.ErrorIs(t, err, context.Canceled)
	_, err = TrainGloVe(ctx, cooccur(t, c, 2), c.Words, -1, DefaultGloVe())
	assert.ErrorIs(t, err, context.Canceled)
}

// The inner loops allocate nothing.
func TestNoAllocsPerStep(t *testing.T) {
	c, _ := clusterCorpus(4, 4, 10, 3000, 0)
	cp, err := c.check()
	require.NoError(t, err)
	for _, cbow := range []bool{false, true} {
		cfg := smallSGNS()
		cfg.CBOW = cbow
		w, err := newW2V(cp, cfg)
		require.NoError(t, err)
		w.sen = append(w.sen[:0], cp.tokens[:200]...)
		assert.Zero(t, testing.AllocsPerRun(5, func() {
			if cbow {
				w.cbowSentence()
			} else {
				w.sgSentence()
			}
		}), "word2vec cbow=%v", cbow)
	}
	fcfg := smallFastText()
	tr, err := newFTTrainer(cp, newFTModel(cp, fcfg), fcfg)
	require.NoError(t, err)
	assert.Zero(t, testing.AllocsPerRun(5, func() {
		_, _ = tr.readLine(0)
		tr.skipgram(0.05)
	}), "fasttext")
	g, err := newGloVe(cooccur(t, c, 3), c.Words, c.SkipID, smallGloVe())
	require.NoError(t, err)
	assert.Zero(t, testing.AllocsPerRun(5, func() {
		for _, p := range g.perm[:100] {
			g.step(int(g.rowOf[p]), int(g.indices[p]), g.data[p])
		}
	}), "glove")
}

// Progress goes to the given writer: a final words/s line (and GloVe's
// per-epoch cost, as glove.c prints it).
func TestProgress(t *testing.T) {
	c, _ := clusterCorpus(4, 2, 5, 3000, 0)
	ctx := context.Background()
	var b strings.Builder
	cfg := smallSGNS()
	cfg.Progress = &b
	_, err := TrainWord2Vec(ctx, c, cfg)
	require.NoError(t, err)
	assert.Regexp(t, `^word2vec sgns: 100\.0%  lr 0\.\d+  [\d.]+k words/s\n$`, b.String())

	b.Reset()
	fcfg := smallFastText()
	fcfg.Progress = &b
	_, err = TrainFastText(ctx, c, fcfg)
	require.NoError(t, err)
	assert.Regexp(t, `^fasttext: 100\.0%  lr 0\.\d+  [\d.]+k words/s\n$`, b.String())

	b.Reset()
	gcfg := smallGloVe()
	gcfg.Epochs, gcfg.Progress = 2, &b
	_, err = TrainGloVe(ctx, cooccur(t, c, 3), c.Words, c.SkipID, gcfg)
	require.NoError(t, err)
	assert.Regexp(t, `^glove: iter 001, cost [\d.]+, \d+k nnz/s\nglove: iter 002, cost [\d.]+, \d+k nnz/s\n$`, b.String())
}
