package baselines

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"kcalab/methods/vectors"
)

// fastText constants that are not options there either.
const maxLineSize = 1024 // MAX_LINE_SIZE: a training line ends after this many words are read

// FastTextConfig holds fastText's skip-gram hyperparameters; DefaultFastText
// gives fastText's defaults for `fasttext skipgram`. Zero values are not
// defaults.
type FastTextConfig struct {
	Dim      int     // -dim; 100
	Window   int     // -ws: maximal window; the window used is drawn uniformly from 1..Window per position; 5
	Epochs   int     // -epoch; 5
	LR       float64 // -lr: starting learning rate, decayed linearly to 0; 0.05
	LRUpdate int     // -lrUpdateRate: words between learning-rate updates; 100
	Negative int     // -neg: negatives per positive; 5
	NegPower float64 // exponent of the unigram distribution negatives are drawn from; fastText uses 0.5
	Sample   float64 // -t: subsampling threshold; keep prob √(t/f) + t/f; 0 = no subsampling; 1e-4
	MinN     int     // -minn: shortest character n-gram; 3
	MaxN     int     // -maxn: longest character n-gram; 6; 0 = words only (no n-grams)
	// Bucket is the number of hash buckets n-grams are folded into (-bucket;
	// 2,000,000). Only buckets that some vocabulary word uses get a trained
	// row, so memory is (words + used buckets)·Dim·4 bytes, not
	// (words + Bucket)·Dim·4 (2.4 GB at Dim 300); a smaller Bucket shrinks
	// it further at the price of more collisions, as in fastText.
	Bucket int
	// ExactSigmoid computes σ(x) = 1/(1+e^−x) instead of looking it up in
	// fastText's 512-entry table, which also saturates beyond |x| > 8.
	ExactSigmoid bool
	Seed         uint64    // seeds every random draw
	Progress     io.Writer // progress lines (words/s, lr); nil = silent
}

// DefaultFastText returns fastText's skip-gram defaults.
func DefaultFastText() FastTextConfig {
	return FastTextConfig{Dim: 100, Window: 5, Epochs: 5, LR: 0.05, LRUpdate: 100, Negative: 5, NegPower: 0.5,
		Sample: 1e-4, MinN: 3, MaxN: 6, Bucket: 2000000, Seed: 1}
}

func (c FastTextConfig) check() error {
	switch {
	case c.Dim < 1:
		return fmt.Errorf("config: Dim = %d, want ≥ 1", c.Dim)
	case c.Window < 1:
		return fmt.Errorf("config: Window = %d, want ≥ 1", c.Window)
	case c.Epochs < 1:
		return fmt.Errorf("config: Epochs = %d, want ≥ 1", c.Epochs)
	case !(c.LR > 0) || math.IsInf(c.LR, 0):
		return fmt.Errorf("config: LR = %g, want finite > 0", c.LR)
	case c.LRUpdate < 1:
		return fmt.Errorf("config: LRUpdate = %d, want ≥ 1", c.LRUpdate)
	case c.Negative < 1:
		return fmt.Errorf("config: Negative = %d, want ≥ 1", c.Negative)
	case !(c.NegPower >= 0) || math.IsInf(c.NegPower, 0):
		return fmt.Errorf("config: NegPower = %g, want finite ≥ 0", c.NegPower)
	case !(c.Sample >= 0) || math.IsInf(c.Sample, 0):
		return fmt.Errorf("config: Sample = %g, want finite ≥ 0 (0 = no subsampling)", c.Sample)
	case c.MaxN < 0:
		return fmt.Errorf("config: MaxN = %d, want ≥ 0 (0 = no n-grams)", c.MaxN)
	case c.MaxN > 0 && (c.MinN < 1 || c.MinN > c.MaxN):
		return fmt.Errorf("config: MinN = %d, want 1 ≤ MinN ≤ MaxN = %d", c.MinN, c.MaxN)
	case c.MaxN > 0 && (c.Bucket < 1 || c.Bucket > math.MaxInt32):
		return fmt.Errorf("config: Bucket = %d, want in [1, %d]", c.Bucket, math.MaxInt32)
	}
	return nil
}

// TrainFastText trains fastText's skip-gram with negative sampling
// (single-threaded). Each vocabulary word's vector is the mean of its word
// row and its character n-gram rows; the returned set's OOV hook builds a
// vector for any other word from its n-grams (false when it has none).
func TrainFastText(ctx context.Context, c Corpus, cfg FastTextConfig) (*vectors.Set, error) {
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("fasttext: %w", err)
	}
	cp, err := c.check()
	if err != nil {
		return nil, fmt.Errorf("fasttext: %w", err)
	}
	m := newFTModel(cp, cfg)
	t, err := newFTTrainer(cp, m, cfg)
	if err != nil {
		return nil, fmt.Errorf("fasttext: %w", err)
	}
	if err := t.train(ctx, newProgress(cfg.Progress, "fasttext")); err != nil {
		return nil, fmt.Errorf("fasttext: %w", err)
	}
	buf := make([]float32, cfg.Dim)
	set, err := output(cp.words, cp.skip, cfg.Dim, func(i int, dst []float64) {
		m.average(buf, m.subwords(i))
		rowTo64(dst, buf)
	})
	if err != nil {
		return nil, fmt.Errorf("fasttext: %w", err)
	}
	set.OOV = m.oov
	return set, nil
}

// ftModel is fastText's input matrix (word rows, then one row per used
// bucket) with the subword lists of the vocabulary.
type ftModel struct {
	cfg    FastTextConfig
	dim    int
	nwords int
	in     []float32
	subOff []int32 // word i's input rows are sub[subOff[i]:subOff[i+1]]
	sub    []int32
	bucket map[uint32]int32 // bucket → its row in `in`
}

// Row initialisation streams: each row draws from its own PCG stream so an
// untouched bucket's initial values can be rebuilt on demand (for OOV words)
// without storing 2M rows.
const (
	wordRowStream   = 0x66740000_00000000 // "ft" word rows
	bucketRowStream = 0x66740001_00000000 // "ft" bucket rows
)

func newFTModel(c *corpus, cfg FastTextConfig) *ftModel {
	v := len(c.words)
	m := &ftModel{cfg: cfg, dim: cfg.Dim, nwords: v, subOff: make([]int32, v+1), bucket: map[uint32]int32{}}
	var buckets []uint32
	for i, w := range c.words {
		if int32(i) != c.skip {
			m.sub = append(m.sub, int32(i))
			if cfg.MaxN > 0 {
				forEachNgram(w, cfg.MinN, cfg.MaxN, func(ng string) {
					b := ftHash(ng) % uint32(cfg.Bucket)
					row, ok := m.bucket[b]
					if !ok {
						row = int32(v + len(buckets))
						m.bucket[b] = row
						buckets = append(buckets, b)
					}
					m.sub = append(m.sub, row)
				})
			}
		}
		m.subOff[i+1] = int32(len(m.sub))
	}
	m.in = alignedFloat32s((v + len(buckets)) * cfg.Dim)
	r, src := rowRand()
	for i := 0; i < v; i++ {
		m.initRow(r, src, m.in[i*m.dim:(i+1)*m.dim], wordRowStream|uint64(i))
	}
	for k, b := range buckets {
		m.initRow(r, src, m.in[(v+k)*m.dim:(v+k+1)*m.dim], bucketRowStream|uint64(b))
	}
	return m
}

func rowRand() (*rand.Rand, *rand.PCG) {
	src := rand.NewPCG(0, 0)
	return rand.New(src), src
}

// initRow sets dst uniform in [−1/dim, 1/dim] (fastText's input init).
func (m *ftModel) initRow(r *rand.Rand, src *rand.PCG, dst []float32, stream uint64) {
	src.Seed(m.cfg.Seed, stream)
	a := 1 / float32(m.dim)
	for k := range dst {
		dst[k] = a * (2*r.Float32() - 1)
	}
}

func (m *ftModel) subwords(i int) []int32 { return m.sub[m.subOff[i]:m.subOff[i+1]] }

func (m *ftModel) row(id int32) []float32 {
	return m.in[int(id)*m.dim : int(id)*m.dim+m.dim]
}

// average sets dst to the mean of the given input rows (fastText's
// getWordVector: sum, then multiply by 1/n).
func (m *ftModel) average(dst []float32, ids []int32) {
	clear(dst)
	for _, id := range ids {
		addF32(m.row(id), dst)
	}
	if len(ids) > 0 {
		s := float32(1 / float64(len(ids)))
		for k := range dst {
			dst[k] *= s
		}
	}
}

// oov is the vector of a word outside the vocabulary: the mean of its n-gram
// rows, an untrained bucket contributing its initial values as in fastText.
// Safe for concurrent use.
func (m *ftModel) oov(word string) ([]float64, bool) {
	if m.cfg.MaxN == 0 {
		return nil, false
	}
	sum := make([]float32, m.dim)
	tmp := make([]float32, m.dim)
	var r *rand.Rand
	var src *rand.PCG
	n := 0
	forEachNgram(word, m.cfg.MinN, m.cfg.MaxN, func(ng string) {
		b := ftHash(ng) % uint32(m.cfg.Bucket)
		if row, ok := m.bucket[b]; ok {
			addF32(m.row(row), sum)
		} else {
			if r == nil {
				r, src = rowRand()
			}
			m.initRow(r, src, tmp, bucketRowStream|uint64(b))
			addF32(tmp, sum)
		}
		n++
	})
	if n == 0 {
		return nil, false
	}
	s := float32(1 / float64(n))
	out := make([]float64, m.dim)
	for k, v := range sum {
		out[k] = float64(v * s)
	}
	return out, true
}

// forEachNgram calls fn with the character n-grams (MinN..MaxN characters) of
// "<"+word+">", as fastText's Dictionary::computeSubwords: characters are
// UTF-8 sequences, and a lone "<" or ">" is not an n-gram.
func forEachNgram(word string, minn, maxn int, fn func(string)) {
	w := "<" + word + ">"
	for i := 0; i < len(w); i++ {
		if w[i]&0xC0 == 0x80 {
			continue
		}
		j := i
		for n := 1; j < len(w) && n <= maxn; n++ {
			j++
			for j < len(w) && w[j]&0xC0 == 0x80 {
				j++
			}
			if n >= minn && !(n == 1 && (i == 0 || j == len(w))) {
				fn(w[i:j])
			}
		}
	}
}

// ftHash is fastText's Dictionary::hash: 32-bit FNV-1a, except that each
// byte is sign-extended (int8) before the xor, which changes the hash of
// non-ASCII text.
func ftHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(int32(int8(s[i])))
		h *= 16777619
	}
	return h
}

type ftTrainer struct {
	cfg    FastTextConfig
	c      *corpus
	m      *ftModel
	dim    int
	out    []float32
	pkeep  []float32 // fastText's pdiscard: keep when u ≤ pkeep
	neg    *alias
	sig    *sigmoid
	r      *rand.Rand
	line   []int32
	hidden []float32
	grad   []float32
	tgts   []int32
}

func newFTTrainer(c *corpus, m *ftModel, cfg FastTextConfig) (*ftTrainer, error) {
	v := len(c.words)
	t := &ftTrainer{cfg: cfg, c: c, m: m, dim: cfg.Dim,
		out:    alignedFloat32s(v * cfg.Dim),
		pkeep:  make([]float32, v),
		sig:    fastTextSigmoid(cfg.ExactSigmoid),
		r:      rand.New(rand.NewPCG(cfg.Seed, 0x66747472)), // stream "fttr"
		line:   make([]int32, 0, maxLineSize+1),
		hidden: make([]float32, cfg.Dim),
		grad:   make([]float32, cfg.Dim),
		tgts:   make([]int32, 0, cfg.Negative+1),
	}
	w := unigramWeights(c.counts, c.skip, cfg.NegPower)
	if nz := countPositive(w); nz < 2 {
		// fastText redraws a negative equal to the target: with one word that never ends.
		return nil, fmt.Errorf("negative sampling needs at least 2 words that occur, have %d", nz)
	}
	var err error
	if t.neg, err = newAlias(w); err != nil {
		return nil, fmt.Errorf("negative sampling: %w", err)
	}
	// fastText's f is count / ntokens, ntokens counting every token read,
	// out-of-vocabulary ones included.
	ntokens := float64(len(c.tokens))
	for i, n := range c.counts {
		t.pkeep[i] = 1
		if cfg.Sample > 0 && n > 0 {
			f := float64(n) / ntokens
			t.pkeep[i] = float32(math.Sqrt(cfg.Sample/f) + cfg.Sample/f)
		}
	}
	return t, nil
}

// train follows fastText's trainThread: lines are read cyclically until the
// number of in-vocabulary words read reaches Epochs × (all tokens, skipped
// ones included), so with a skip id it runs slightly past Epochs passes,
// exactly as fastText does with words below -minCount.
func (t *ftTrainer) train(ctx context.Context, p *progress) error {
	budget := int64(t.cfg.Epochs) * int64(len(t.c.tokens))
	var count, local int64
	pos := 0
	lr := float32(t.cfg.LR)
	for count < budget {
		if err := ctx.Err(); err != nil {
			return err
		}
		progress := float32(count) / float32(budget)
		lr = float32(t.cfg.LR * (1 - float64(progress)))
		var n int
		n, pos = t.readLine(pos)
		local += int64(n)
		t.skipgram(lr)
		if local > int64(t.cfg.LRUpdate) {
			count += local
			local = 0
			p.update(float64(progress), float64(lr), count, "words")
		}
	}
	p.done(float64(lr), count, "words")
	return nil
}

// readLine reads the next line from token pos (rewinding at the end, as
// fastText's reset does) into t.line: skipped ids are passed over
// uncounted, each other word is counted and kept unless subsampling discards
// it. It returns the words counted and the new position.
func (t *ftTrainer) readLine(pos int) (int, int) {
	toks := t.c.tokens
	if pos >= len(toks) {
		pos = 0
	}
	t.line = t.line[:0]
	n := 0
	for pos < len(toks) {
		w := toks[pos]
		pos++
		if w == t.c.skip {
			continue
		}
		n++
		if k := t.pkeep[w]; k >= 1 || t.r.Float32() <= k {
			t.line = append(t.line, w)
		}
		if n > maxLineSize {
			break
		}
	}
	return n, pos
}

// skipgram is fastText's FastText::skipgram: the centre word's subwords
// predict each context word within a window drawn from 1..Window.
func (t *ftTrainer) skipgram(lr float32) {
	line := t.line
	for w, word := range line {
		boundary := 1 + t.r.IntN(t.cfg.Window)
		ngrams := t.m.subwords(int(word))
		for c := -boundary; c <= boundary; c++ {
			if c != 0 && w+c >= 0 && w+c < len(line) {
				t.update(ngrams, line[w+c], lr)
			}
		}
	}
}

// update is fastText's Model::update with the negative-sampling loss: the
// hidden vector is the mean of the input rows, and every input row then gets
// the whole gradient (fastText does not divide it by their number for
// unsupervised models). A negative equal to the target is redrawn.
func (t *ftTrainer) update(input []int32, target int32, lr float32) {
	t.m.average(t.hidden, input)
	clear(t.grad)
	ts := append(t.tgts[:0], target)
	for n := 0; n < t.cfg.Negative; n++ {
		x := t.neg.draw(t.r)
		for x == target {
			x = t.neg.draw(t.r)
		}
		ts = append(ts, x)
	}
	t.tgts = ts
	t.sig.negStep(t.hidden, t.grad, t.out, t.dim, ts, lr)
	for _, id := range input {
		addF32(t.grad, t.m.row(id))
	}
}

func countPositive(w []float64) int {
	n := 0
	for _, x := range w {
		if x > 0 {
			n++
		}
	}
	return n
}
