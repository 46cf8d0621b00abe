package baselines

import (
	"fmt"
	"strings"
	"unicode"

	"gonum.org/v1/gonum/mat"

	"kcalab/methods/vectors"
)

// Corpus is the training input of word2vec and fastText: a token stream over
// a vocabulary.
type Corpus struct {
	// Tokens is the corpus as word ids, each in [0, len(Words)).
	Tokens []int32
	// Words is the vocabulary (ordered by count upstream; the order is not
	// relied on).
	Words []string
	// Counts[i] is the number of times word i occurs in Tokens; nil means
	// count them here. When given it must match Tokens, which catches a
	// stream and a vocabulary built from different texts.
	Counts []int64
	// SkipID is the id of tokens dropped before training (the shared <unk>
	// of out-of-vocabulary words), as word2vec.c and fastText drop words
	// missing from their vocabulary: windows close over the gap. -1 = none.
	// The skipped word gets no vector.
	SkipID int
}

// corpus is a checked Corpus.
type corpus struct {
	tokens  []int32
	words   []string
	counts  []int64
	skip    int32 // −1 = none
	nonSkip int64 // tokens other than skip
}

func (c Corpus) check() (*corpus, error) {
	v := len(c.Words)
	if v == 0 {
		return nil, fmt.Errorf("corpus: empty vocabulary")
	}
	if c.SkipID < -1 || c.SkipID >= v {
		return nil, fmt.Errorf("corpus: SkipID = %d, want -1 (none) or a word id in [0, %d)", c.SkipID, v)
	}
	if c.Counts != nil && len(c.Counts) != v {
		return nil, fmt.Errorf("corpus: %d counts for %d words", len(c.Counts), v)
	}
	if err := checkWords(c.Words, c.SkipID); err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	counts := make([]int64, v)
	for p, t := range c.Tokens {
		if t < 0 || int(t) >= v {
			return nil, fmt.Errorf("corpus: token %d has id %d, want [0, %d)", p, t, v)
		}
		counts[t]++
	}
	if c.Counts != nil {
		for i, n := range c.Counts {
			if n != counts[i] {
				return nil, fmt.Errorf("corpus: Counts[%d] (%q) = %d but the word occurs %d times in Tokens", i, c.Words[i], n, counts[i])
			}
		}
	}
	out := &corpus{tokens: c.Tokens, words: c.Words, counts: counts, skip: int32(c.SkipID)}
	out.nonSkip = int64(len(c.Tokens))
	if c.SkipID >= 0 {
		out.nonSkip -= counts[c.SkipID]
	}
	if out.nonSkip == 0 {
		return nil, fmt.Errorf("corpus: no tokens to train on (%d tokens, all skipped)", len(c.Tokens))
	}
	return out, nil
}

// checkWords fails early on words the output set would reject: empty,
// holding whitespace (vectors.Set's rule, for the word2vec text format) or
// repeated. The skipped word is not output and may be anything.
func checkWords(words []string, skip int) error {
	seen := make(map[string]int, len(words))
	for i, w := range words {
		if i == skip {
			continue
		}
		if w == "" {
			return fmt.Errorf("word %d is empty", i)
		}
		if strings.IndexFunc(w, unicode.IsSpace) >= 0 {
			return fmt.Errorf("word %d %q contains whitespace", i, w)
		}
		if j, dup := seen[w]; dup {
			return fmt.Errorf("word %d %q repeats word %d", i, w, j)
		}
		seen[w] = i
	}
	return nil
}

// output builds the vector set of every word but the skipped one; row(i, dst)
// writes word i's vector.
func output(words []string, skip int32, dim int, row func(i int, dst []float64)) (*vectors.Set, error) {
	n := len(words)
	if skip >= 0 {
		n--
	}
	out := make([]string, 0, n)
	m := mat.NewDense(n, dim, nil)
	for i, w := range words {
		if int32(i) == skip {
			continue
		}
		row(i, m.RawRowView(len(out)))
		out = append(out, w)
	}
	return vectors.New(out, m)
}

func rowTo64(dst []float64, src []float32) {
	for i, v := range src {
		dst[i] = float64(v)
	}
}
