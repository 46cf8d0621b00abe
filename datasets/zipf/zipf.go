package zipf

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Params are the generator's parameters (see the package documentation
// for the model). Calibrated returns the fitted defaults.
type Params struct {
	// Vocab is the number of word types the generator draws from (ranks
	// 0..Vocab-1); choose it well above the types wanted in the corpus,
	// since a Zipf tail is never exhausted at realistic lengths.
	Vocab int
	// Exponent a and Offset b of the Zipf–Mandelbrot law
	// p(r) ∝ 1/(r + b)^a, r = 1..Vocab.
	Exponent, Offset float64
	// Knee > 0 makes the law steeper past rank Knee: p(r) ∝
	// (Knee+b)^(TailExponent−a) / (r+b)^TailExponent for r > Knee,
	// continuous at the knee. Real vocabularies have this second regime
	// (an exponent near 1 for the common words, near 2 for the rare ones);
	// it is what makes the types grow as slowly as in text. 0 means one
	// regime.
	Knee         int
	TailExponent float64
	// Head is the number of most frequent words that belong to no topic
	// (function words: "the", "of"); they are drawn from the global law
	// in every context.
	Head int
	// Topics is the number of topics the other words are partitioned in.
	Topics int
	// Leak is the probability that a content (non-head) token ignores the
	// current topic and is drawn from the global content law instead.
	Leak float64
	// Spread ≥ 0 makes topics unequally focused: in a segment of topic t
	// (0-based) a content token keeps to the topic with probability
	// (1−Leak)·(t+1)^−Spread, else it is drawn from the global content
	// law. Segments of the less focused topics are drawn more often, in
	// proportion, so the word frequencies stay those of the law. Focus
	// falling as a power of t gives singular values falling as a power
	// of their index, as in text; 0 gives equal topics.
	Spread float64
	// Segment is the mean length in tokens of a topic segment (a
	// "document"): after every token the topic is redrawn with
	// probability 1/Segment.
	Segment float64
	// Repeat is the probability that a content token repeats one of the
	// last Memory content tokens (uniformly), instead of a fresh draw:
	// burstiness, the way a name or a term recurs within an article.
	// Copying a random earlier token leaves the word frequencies as they
	// are (a copy of a stationary stream has the stream's law).
	Repeat float64
	// Memory is how many recent content tokens a repeat chooses from;
	// ≥ 1 when Repeat > 0.
	Memory int
	// Seed selects the corpus: the same parameters and seed give the same
	// tokens.
	Seed uint64
}

// Validate reports the first parameter out of its range.
func (p Params) Validate() error {
	switch {
	case p.Vocab < 2 || p.Vocab > math.MaxInt32:
		return fmt.Errorf("zipf: Vocab = %d: want 2..%d", p.Vocab, math.MaxInt32)
	case !(p.Exponent > 0) || math.IsInf(p.Exponent, 0):
		return fmt.Errorf("zipf: Exponent = %v: want a finite number > 0", p.Exponent)
	case !(p.Offset > -1) || math.IsInf(p.Offset, 0):
		return fmt.Errorf("zipf: Offset = %v: want a finite number > -1 (so r + b > 0 for r ≥ 1)", p.Offset)
	case p.Knee < 0 || (p.Knee > 0 && (!(p.TailExponent > 0) || math.IsInf(p.TailExponent, 0))):
		return fmt.Errorf("zipf: Knee = %d, TailExponent = %v: want Knee ≥ 0 and, with a knee, a finite TailExponent > 0", p.Knee, p.TailExponent)
	case p.Head < 0 || p.Head >= p.Vocab:
		return fmt.Errorf("zipf: Head = %d: want 0..Vocab-1 = %d", p.Head, p.Vocab-1)
	case p.Topics < 1 || p.Topics > p.Vocab-p.Head:
		return fmt.Errorf("zipf: Topics = %d: want 1..Vocab-Head = %d", p.Topics, p.Vocab-p.Head)
	case !(p.Leak >= 0 && p.Leak <= 1):
		return fmt.Errorf("zipf: Leak = %v: want a probability in [0, 1]", p.Leak)
	case !(p.Repeat >= 0 && p.Repeat < 1):
		return fmt.Errorf("zipf: Repeat = %v: want a probability in [0, 1)", p.Repeat)
	case p.Repeat > 0 && (p.Memory < 1 || p.Memory > 1<<24):
		return fmt.Errorf("zipf: Memory = %d with Repeat = %v: want 1..%d", p.Memory, p.Repeat, 1<<24)
	case !(p.Spread >= 0) || math.IsInf(p.Spread, 0):
		return fmt.Errorf("zipf: Spread = %v: want a finite number ≥ 0", p.Spread)
	case !(p.Segment >= 1) || math.IsInf(p.Segment, 0):
		return fmt.Errorf("zipf: Segment = %v: want a finite mean length ≥ 1", p.Segment)
	}
	return nil
}

// Weight returns the unnormalised probability 1/(r+b)^a of the word of
// rank r (0-based, so r+1 is its Zipf rank), with the tail regime past
// the knee.
func (p Params) Weight(r int) float64 {
	x := float64(r+1) + p.Offset
	if p.Knee <= 0 || r+1 <= p.Knee {
		return math.Pow(x, -p.Exponent)
	}
	k := float64(p.Knee) + p.Offset
	return math.Pow(k, p.TailExponent-p.Exponent) * math.Pow(x, -p.TailExponent)
}

// Word returns the name of the word of rank r: "w" and r in decimal, so
// frequent words are short, as in real text.
func Word(r int) string { return string(AppendWord(nil, r)) }

// AppendWord appends Word(r) to b.
func AppendWord(b []byte, r int) []byte {
	return strconv.AppendInt(append(b, 'w'), int64(r), 10)
}

// Rank parses a word made by Word; ok is false for any other string.
func Rank(word string) (r int, ok bool) {
	if len(word) < 2 || word[0] != 'w' || (word[1] == '0' && len(word) > 2) {
		return 0, false
	}
	n, err := strconv.ParseUint(word[1:], 10, 31)
	if err != nil {
		return 0, false
	}
	return int(n), true
}

// Generator draws the tokens of one corpus. It holds O(Vocab) tables
// (8 bytes per word) and never the corpus.
type Generator struct {
	p   Params
	rng *rand.Rand

	head    alias // ranks 0..Head-1
	topic   alias // topics, by their share of the content mass
	perTop  []alias
	block   int     // topic words per block of ranks = Topics
	content float64 // probability that a token is a content word
	rot     []int32 // rotation of each block: see rankOf

	recent []int32 // ring of the last Memory content tokens
	filled int     // tokens in recent so far (≤ Memory)
	next   int     // where the next content token goes in recent

	segment alias     // a segment's topic
	focus   []float64 // per topic: probability a content token keeps to it
	cur     int       // current topic
	pSwitch float64
}

// pcgStream keeps this package's draws apart from other seeded users of
// the same seed.
const pcgStream = 0x7a6970662d636f72 // "zipf-cor"

// New builds the sampling tables of p. Building is O(Vocab) time and
// memory; the topic partition is fixed by the parameters (not the seed),
// so two seeds give two corpora of the same language.
func New(p Params) (*Generator, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	g := &Generator{p: p, block: p.Topics, pSwitch: 1 / p.Segment}
	// Head words: their own table.
	hw := make([]float64, p.Head)
	var headMass float64
	for r := range hw {
		hw[r] = p.Weight(r)
		headMass += hw[r]
	}
	g.head = newAlias(hw)
	// Content words: ranks Head.. in blocks of Topics consecutive ranks;
	// each block gives each topic exactly one word, at a pseudo-random
	// rotation, so every topic has a Zipf–Mandelbrot-like law over its own
	// words and the topics' masses are nearly equal (rank order inside a
	// block decides only small differences).
	nc := p.Vocab - p.Head
	nb := (nc + p.Topics - 1) / p.Topics
	g.rot = make([]int32, nb)
	rs := rand.New(rand.NewPCG(0x726f746174696f6e, uint64(p.Topics))) // "rotation"
	for j := range g.rot {
		g.rot[j] = int32(rs.IntN(p.Topics))
	}
	g.perTop = make([]alias, p.Topics)
	tw := make([]float64, p.Topics)
	w := make([]float64, nb)
	for t := range g.perTop {
		var m float64
		for j := range w {
			r := g.rankOf(t, j)
			if r < p.Vocab {
				w[j] = p.Weight(r)
			} else {
				w[j] = 0
			}
			m += w[j]
		}
		tw[t] = m
		g.perTop[t] = newAlias(w)
	}
	var contentMass float64
	for _, m := range tw {
		contentMass += m
	}
	// topic draws a topic by content mass (the leak's law); segment
	// draws a segment's topic by mass/focus, so that focused and leaked
	// draws together give each word its global frequency.
	g.topic = newAlias(tw)
	g.focus = make([]float64, p.Topics)
	sw := make([]float64, p.Topics)
	for t := range g.focus {
		g.focus[t] = (1 - p.Leak) * math.Pow(float64(t+1), -p.Spread)
		sw[t] = tw[t]
		if g.focus[t] > 0 {
			sw[t] = tw[t] / g.focus[t]
		}
	}
	g.segment = newAlias(sw)
	g.content = contentMass / (contentMass + headMass)
	if p.Repeat > 0 {
		g.recent = make([]int32, p.Memory)
	}
	g.rng = rand.New(rand.NewPCG(p.Seed, pcgStream))
	g.cur = g.segment.draw(g.rng.Uint64())
	return g, nil
}

// rankOf is the rank of topic t's word in block j (may be ≥ Vocab in the
// last, partial block).
func (g *Generator) rankOf(t, j int) int {
	return g.p.Head + j*g.block + (t+int(g.rot[j]))%g.block
}

// Next returns the rank of the next token.
func (g *Generator) Next() int {
	u := g.rng.Float64()
	if u < g.pSwitch {
		g.cur = g.segment.draw(g.rng.Uint64())
	}
	u = g.rng.Float64()
	if u >= g.content {
		return g.head.draw(g.rng.Uint64())
	}
	var r int
	if g.filled > 0 && g.rng.Float64() < g.p.Repeat {
		r = int(g.recent[int((g.rng.Uint64()>>32)*uint64(g.filled)>>32)])
	} else {
		t := g.cur
		if g.rng.Float64() >= g.focus[t] {
			t = g.topic.draw(g.rng.Uint64())
		}
		r = g.rankOf(t, g.perTop[t].draw(g.rng.Uint64()))
	}
	if g.recent != nil {
		g.recent[g.next] = int32(r)
		g.next++
		if g.next == len(g.recent) {
			g.next = 0
		}
		g.filled = min(g.filled+1, len(g.recent))
	}
	return r
}

// Generate draws tokens tokens of the corpus of p and passes their ranks
// to emit, stopping at its first error or when ctx is done.
func Generate(ctx context.Context, p Params, tokens int64, emit func(rank int) error) error {
	if tokens < 0 {
		return fmt.Errorf("zipf: %d tokens: want ≥ 0", tokens)
	}
	g, err := New(p)
	if err != nil {
		return err
	}
	for i := range tokens {
		if i&(1<<20-1) == 0 && ctx.Err() != nil {
			return fmt.Errorf("zipf: generating token %d of %d: %w", i, tokens, context.Cause(ctx))
		}
		if err := emit(g.Next()); err != nil {
			return err
		}
	}
	return nil
}

// Write writes tokens tokens of the corpus of p to w as text8 is written:
// words separated by single spaces, no line end. Memory is the
// generator's tables and a write buffer, whatever the length.
func Write(ctx context.Context, w io.Writer, p Params, tokens int64) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	var buf []byte
	first := true
	err := Generate(ctx, p, tokens, func(r int) error {
		buf = buf[:0]
		if !first {
			buf = append(buf, ' ')
		}
		first = false
		buf = AppendWord(buf, r)
		_, err := bw.Write(buf)
		return err
	})
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return fmt.Errorf("zipf: writing %d tokens: %w", tokens, err)
	}
	return nil
}

// WriteFile writes the corpus (see Write) to path, through a temporary
// file renamed into place, so an interrupted run leaves no partial corpus
// under the final name.
func WriteFile(ctx context.Context, path string, p Params, tokens int64) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("zipf: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := Write(ctx, f, p, tokens); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("zipf: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("zipf: %w", err)
	}
	return nil
}

// alias is Walker's alias table (Vose's construction): draw picks bucket
// i uniformly and keeps it with probability keep[i]/2^32, else takes
// other[i]. Integer thresholds keep draws exact and platform-independent.
type alias struct {
	keep  []uint32
	other []int32
}

func newAlias(w []float64) alias {
	n := len(w)
	a := alias{keep: make([]uint32, n), other: make([]int32, n)}
	if n == 0 {
		return a
	}
	var sum float64
	for _, x := range w {
		sum += x
	}
	// Scaled weights, mean 1; small and large are stacks of indices.
	q := make([]float64, n)
	small := make([]int32, 0, n)
	large := make([]int32, 0, n)
	for i, x := range w {
		q[i] = float64(x * float64(n) / sum)
		if q[i] < 1 {
			small = append(small, int32(i))
		} else {
			large = append(large, int32(i))
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s := small[len(small)-1]
		small = small[:len(small)-1]
		l := large[len(large)-1]
		a.keep[s] = threshold(q[s])
		a.other[s] = l
		q[l] = float64(q[l] + q[s] - 1) // explicit rounding: no fused multiply-add
		if q[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	// Leftovers are 1 up to rounding: always kept.
	for _, i := range large {
		a.keep[i], a.other[i] = math.MaxUint32, i
	}
	for _, i := range small {
		a.keep[i], a.other[i] = math.MaxUint32, i
	}
	return a
}

func threshold(q float64) uint32 {
	return uint32(min(max(q, 0), 1) * math.MaxUint32)
}

// draw maps 64 random bits to an index: the high 32 pick the bucket
// (multiply-shift, bias below n/2^32), the low 32 decide keep or alias.
func (a alias) draw(u uint64) int {
	i := int((u >> 32) * uint64(len(a.keep)) >> 32)
	if uint32(u) < a.keep[i] {
		return i
	}
	return int(a.other[i])
}

// Calibrated returns the parameters fitted to text8_prefix (see the
// package documentation for the fit and its numbers), with seed 1.
func Calibrated() Params {
	return Params{
		Vocab:        4_000_000,
		Exponent:     1.0,
		Offset:       2.7,
		Knee:         3000,
		TailExponent: 1.6,
		Head:         100,
		Topics:       100,
		Leak:         0.2,
		Spread:       0,
		Segment:      1000,
		Repeat:       0.35,
		Memory:       1000,
		Seed:         1,
	}
}
