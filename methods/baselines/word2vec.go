package baselines

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"kcalab/methods/vectors"
)

// word2vec.c constants that are not command-line options there either.
const (
	maxSentenceLength = 1000   // MAX_SENTENCE_LENGTH: kept words per training sentence
	alphaUpdateWords  = 10000  // the learning rate is recomputed after this many words
	minAlphaFraction  = 0.0001 // alpha never falls below starting alpha × this
)

// Word2VecConfig holds word2vec's hyperparameters; defaults (DefaultSGNS,
// DefaultCBOW) are word2vec.c's. Zero values are not defaults.
type Word2VecConfig struct {
	CBOW     bool    // false: skip-gram (SGNS); true: CBOW with the context averaged (word2vec.c -cbow 1)
	Dim      int     // -size: vector dimension; 100
	Window   int     // -window: maximal window; the window actually used is drawn uniformly from 1..Window per position; 5
	Negative int     // -negative: negative samples per positive; 5
	NegPower float64 // exponent of the unigram distribution negatives are drawn from; 0.75
	Sample   float64 // -sample: subsampling threshold; keep prob (√(f/(s·T))+1)·s·T/f; 0 = no subsampling; 1e-3
	Alpha    float64 // -alpha: starting learning rate, decayed linearly to Alpha·1e-4 over all epochs; 0.025 SGNS, 0.05 CBOW
	Epochs   int     // -iter: passes over the corpus; 5
	// ExactSigmoid computes σ(x) = 1/(1+e^−x) instead of looking it up in
	// word2vec.c's 1000-entry table, which also saturates beyond |x| > 6.
	ExactSigmoid bool
	Seed         uint64    // seeds every random draw
	Progress     io.Writer // progress lines (words/s, alpha); nil = silent
}

// DefaultSGNS returns word2vec.c's defaults for skip-gram with negative sampling.
func DefaultSGNS() Word2VecConfig {
	return Word2VecConfig{Dim: 100, Window: 5, Negative: 5, NegPower: 0.75, Sample: 1e-3, Alpha: 0.025, Epochs: 5, Seed: 1}
}

// DefaultCBOW returns word2vec.c's defaults for CBOW with negative sampling.
func DefaultCBOW() Word2VecConfig {
	c := DefaultSGNS()
	c.CBOW, c.Alpha = true, 0.05
	return c
}

func (c Word2VecConfig) name() string {
	if c.CBOW {
		return "cbow"
	}
	return "sgns"
}

func (c Word2VecConfig) check() error {
	switch {
	case c.Dim < 1:
		return fmt.Errorf("config: Dim = %d, want ≥ 1", c.Dim)
	case c.Window < 1:
		return fmt.Errorf("config: Window = %d, want ≥ 1", c.Window)
	case c.Negative < 1:
		return fmt.Errorf("config: Negative = %d, want ≥ 1 (there is no hierarchical softmax)", c.Negative)
	case !(c.NegPower >= 0) || math.IsInf(c.NegPower, 0):
		return fmt.Errorf("config: NegPower = %g, want finite ≥ 0", c.NegPower)
	case !(c.Sample >= 0) || math.IsInf(c.Sample, 0):
		return fmt.Errorf("config: Sample = %g, want finite ≥ 0 (0 = no subsampling)", c.Sample)
	case !(c.Alpha > 0) || math.IsInf(c.Alpha, 0):
		return fmt.Errorf("config: Alpha = %g, want finite > 0", c.Alpha)
	case c.Epochs < 1:
		return fmt.Errorf("config: Epochs = %d, want ≥ 1", c.Epochs)
	}
	return nil
}

// TrainWord2Vec trains SGNS or CBOW as word2vec.c does (single-threaded) and
// returns the input vectors of every word but Corpus.SkipID.
func TrainWord2Vec(ctx context.Context, c Corpus, cfg Word2VecConfig) (*vectors.Set, error) {
	name := "word2vec " + cfg.name()
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	cp, err := c.check()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	t, err := newW2V(cp, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := t.train(ctx, newProgress(cfg.Progress, name)); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	set, err := output(cp.words, cp.skip, cfg.Dim, func(i int, dst []float64) {
		rowTo64(dst, t.syn0[i*cfg.Dim:(i+1)*cfg.Dim])
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return set, nil
}

type w2v struct {
	cfg     Word2VecConfig
	c       *corpus
	dim     int
	syn0    []float32 // input vectors (the output of training)
	syn1neg []float32 // output vectors
	keep    []float32 // subsampling keep probability per word (≥ 1: always kept)
	neg     *alias
	sig     *sigmoid
	r       *rand.Rand
	alpha   float32

	sen           []int32 // current sentence, kept words only
	neu1, neu1e   []float32
	targets       []int32
	words, wordsT int64 // words read so far over all epochs; words to read in total
}

func newW2V(c *corpus, cfg Word2VecConfig) (*w2v, error) {
	v, dim := len(c.words), cfg.Dim
	t := &w2v{
		cfg: cfg, c: c, dim: dim,
		syn0:    alignedFloat32s(v * dim),
		syn1neg: alignedFloat32s(v * dim),
		keep:    make([]float32, v),
		sig:     word2vecSigmoid(cfg.ExactSigmoid),
		r:       rand.New(rand.NewPCG(cfg.Seed, 0x77326376)), // stream "w2cv"
		alpha:   float32(cfg.Alpha),
		sen:     make([]int32, 0, maxSentenceLength),
		neu1:    make([]float32, dim),
		neu1e:   make([]float32, dim),
		targets: make([]int32, 0, cfg.Negative+1),
		wordsT:  int64(cfg.Epochs) * c.nonSkip,
	}
	var err error
	if t.neg, err = newAlias(unigramWeights(c.counts, c.skip, cfg.NegPower)); err != nil {
		return nil, fmt.Errorf("negative sampling: %w", err)
	}
	// word2vec.c: input vectors uniform in [−0.5, 0.5)/dim, output vectors 0.
	for i := 0; i < v; i++ {
		if int32(i) == c.skip {
			continue
		}
		row := t.syn0[i*dim : (i+1)*dim]
		for k := range row {
			row[k] = (t.r.Float32() - 0.5) / float32(dim)
		}
	}
	// T in word2vec.c's formula is train_words, the in-vocabulary token count.
	st := cfg.Sample * float64(c.nonSkip)
	for i, n := range c.counts {
		t.keep[i] = 1
		if cfg.Sample > 0 && n > 0 {
			t.keep[i] = float32((math.Sqrt(float64(n)/st) + 1) * st / float64(n))
		}
	}
	return t, nil
}

func (t *w2v) train(ctx context.Context, p *progress) error {
	start := float32(t.cfg.Alpha)
	for epoch := 0; epoch < t.cfg.Epochs; epoch++ {
		pos, read, lastRead := 0, int64(0), int64(0)
		for pos < len(t.c.tokens) {
			if err := ctx.Err(); err != nil {
				return err
			}
			if read-lastRead > alphaUpdateWords {
				t.words += read - lastRead
				lastRead = read
				t.updateAlpha(start)
				p.update(float64(t.words)/float64(t.wordsT), float64(t.alpha), t.words, "words")
			}
			// Read a sentence: up to maxSentenceLength kept words.
			t.sen = t.sen[:0]
			for pos < len(t.c.tokens) && len(t.sen) < maxSentenceLength {
				w := t.c.tokens[pos]
				pos++
				if w == t.c.skip {
					continue
				}
				read++
				// word2vec.c discards w when keep < u, u uniform in [0,1).
				if k := t.keep[w]; k < 1 && k < t.r.Float32() {
					continue
				}
				t.sen = append(t.sen, w)
			}
			if t.cfg.CBOW {
				t.cbowSentence()
			} else {
				t.sgSentence()
			}
		}
		t.words += read - lastRead
	}
	p.done(float64(t.alpha), t.words, "words")
	return nil
}

func (t *w2v) updateAlpha(start float32) {
	t.alpha = start * (1 - float32(t.words)/float32(t.wordsT+1))
	if min := start * minAlphaFraction; t.alpha < min {
		t.alpha = min
	}
}

// drawTargets returns word then up to Negative negatives; word2vec.c skips
// (does not redraw) a negative equal to the positive word.
func (t *w2v) drawTargets(word int32) []int32 {
	ts := append(t.targets[:0], word)
	for d := 0; d < t.cfg.Negative; d++ {
		if n := t.neg.draw(t.r); n != word {
			ts = append(ts, n)
		}
	}
	t.targets = ts
	return ts
}

// sgSentence is word2vec.c's skip-gram: for each position and each context
// word c within the reduced window, c's input vector predicts the centre word.
func (t *w2v) sgSentence() {
	sen, dim, win := t.sen, t.dim, t.cfg.Window
	for pos, word := range sen {
		b := t.r.IntN(win) // reduced window: win − b, uniform in 1..win
		for a := b; a < 2*win+1-b; a++ {
			c := pos - win + a
			if a == win || c < 0 || c >= len(sen) {
				continue
			}
			l1 := t.syn0[int(sen[c])*dim : int(sen[c])*dim+dim]
			clear(t.neu1e)
			t.sig.negStep(l1, t.neu1e, t.syn1neg, dim, t.drawTargets(word), t.alpha)
			addF32(t.neu1e, l1)
		}
	}
}

// cbowSentence is word2vec.c's CBOW: the mean of the context input vectors
// predicts the centre word; each context vector then gets the whole error
// (word2vec.c does not divide it by the context size; gensim's cbow_mean=1
// does the same).
func (t *w2v) cbowSentence() {
	sen, dim, win := t.sen, t.dim, t.cfg.Window
	for pos, word := range sen {
		b := t.r.IntN(win)
		clear(t.neu1)
		cw := 0
		for a := b; a < 2*win+1-b; a++ {
			c := pos - win + a
			if a == win || c < 0 || c >= len(sen) {
				continue
			}
			addF32(t.syn0[int(sen[c])*dim:int(sen[c])*dim+dim], t.neu1)
			cw++
		}
		if cw == 0 {
			continue
		}
		for k := range t.neu1 {
			t.neu1[k] /= float32(cw)
		}
		clear(t.neu1e)
		t.sig.negStep(t.neu1, t.neu1e, t.syn1neg, dim, t.drawTargets(word), t.alpha)
		for a := b; a < 2*win+1-b; a++ {
			c := pos - win + a
			if a == win || c < 0 || c >= len(sen) {
				continue
			}
			addF32(t.neu1e, t.syn0[int(sen[c])*dim:int(sen[c])*dim+dim])
		}
	}
}
