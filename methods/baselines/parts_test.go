package baselines

import (
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

func TestAlias(t *testing.T) {
	w := []float64{0, 5, 1, 0, 3, 1e-3}
	a, err := newAlias(w)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(1, 1))
	const n = 400000
	got := make([]float64, len(w))
	for i := 0; i < n; i++ {
		got[a.draw(r)]++
	}
	var total float64
	for _, x := range w {
		total += x
	}
	for i, x := range w {
		p := x / total
		sd := math.Sqrt(p * (1 - p) / n)
		assert.InDelta(t, p, got[i]/n, 5*sd+1e-9, "word %d", i)
	}
	assert.Zero(t, got[0], "zero weight never drawn")
	assert.Zero(t, got[3], "zero weight never drawn")

	for _, bad := range [][]float64{{0, 0}, {1, -1}, {math.NaN()}, {math.Inf(1)}} {
		_, err := newAlias(bad)
		assert.Error(t, err, "%v", bad)
	}
}

// Subsampling keep probabilities follow the references' formulas.
func TestSubsampling(t *testing.T) {
	// 10 tokens of word 0, 5 of word 1, 1 of word 2 (skipped), 1000 of word 3.
	var toks []int32
	for w, n := range []int{10, 5, 1, 1000} {
		for i := 0; i < n; i++ {
			toks = append(toks, int32(w))
		}
	}
	c, err := Corpus{Tokens: toks, Words: []string{"a", "b", "<unk>", "d"}, SkipID: 2}.check()
	require.NoError(t, err)
	assert.Equal(t, int64(1015), c.nonSkip)

	cfg := DefaultSGNS()
	cfg.Sample = 1e-2
	w, err := newW2V(c, cfg)
	require.NoError(t, err)
	st := 1e-2 * 1015.0 // word2vec.c: sample × train_words (in-vocabulary tokens)
	for i, n := range []float64{10, 5} {
		assert.InDelta(t, (math.Sqrt(n/st)+1)*st/n, float64(w.keep[i]), 1e-6)
	}
	assert.InDelta(t, (math.Sqrt(1000/st)+1)*st/1000, float64(w.keep[3]), 1e-6)
	assert.Less(t, w.keep[3], float32(1))

	fcfg := DefaultFastText()
	fcfg.Sample = 1e-2
	f, err := newFTTrainer(c, newFTModel(c, fcfg), fcfg)
	require.NoError(t, err)
	for i, n := range []float64{10, 5, 1, 1000} {
		fr := n / 1016 // fastText: count / all tokens read
		assert.InDelta(t, math.Sqrt(1e-2/fr)+1e-2/fr, float64(f.pkeep[i]), 1e-6)
	}
}

// word2vec.c's learning rate: linear in words read over all epochs, floored.
func TestWord2VecAlpha(t *testing.T) {
	w := &w2v{wordsT: 999}
	for _, tc := range []struct {
		words int64
		want  float64
	}{{0, 0.025}, {500, 0.0125}, {999, 0.025 * 1e-3}, {2000, 0.025 * 1e-4}} {
		w.words = tc.words
		w.updateAlpha(0.025)
		assert.InDelta(t, math.Max(tc.want, 0.025e-4), float64(w.alpha), 1e-7, "words %d", tc.words)
	}
}

// drawTargets: word2vec.c skips a negative equal to the positive.
func TestDrawTargets(t *testing.T) {
	w := tinyW2V(t, false)
	assert.Equal(t, []int32{1, 2, 2}, w.drawTargets(1))
	assert.Equal(t, []int32{2}, w.drawTargets(2))
}

// fastText's line reading: skipped ids uncounted, a line ends after 1025
// counted words, the stream rewinds at its end.
func TestFastTextReadLine(t *testing.T) {
	toks := make([]int32, 0, 3000)
	for i := 0; i < 3000; i++ {
		toks = append(toks, int32(i%3))
	}
	c, err := Corpus{Tokens: toks, Words: []string{"a", "b", "c"}, SkipID: 2}.check()
	require.NoError(t, err)
	cfg := DefaultFastText()
	cfg.Sample = 0
	tr, err := newFTTrainer(c, newFTModel(c, cfg), cfg)
	require.NoError(t, err)
	n, pos := tr.readLine(0)
	assert.Equal(t, maxLineSize+1, n)
	assert.Len(t, tr.line, maxLineSize+1)
	assert.Equal(t, 1537, pos) // 1025 counted words = 512 (a b c) triples + a
	n, pos = tr.readLine(pos)
	assert.Equal(t, 2000-(maxLineSize+1), n, "the line ends at the end of the stream")
	assert.Equal(t, 3000, pos)
	n, pos = tr.readLine(pos)
	assert.Equal(t, maxLineSize+1, n)
	assert.Equal(t, 1537, pos, "rewinds")
}

// fastText's hash is FNV-1a on ASCII and sign-extends bytes ≥ 0x80.
func TestFTHash(t *testing.T) {
	for _, s := range []string{"", "a", "foobar", "<wh", "here>"} {
		h := fnv.New32a()
		h.Write([]byte(s))
		assert.Equal(t, h.Sum32(), ftHash(s), "%q", s)
	}
	// "é" = c3 a9: each byte xored as 0xffffffc3, 0xffffffa9.
	want := uint32(2166136261)
	for _, b := range []uint32{0xffffffc3, 0xffffffa9} {
		want = (want ^ b) * 16777619
	}
	assert.Equal(t, want, ftHash("é"))
	h := fnv.New32a()
	h.Write([]byte("é"))
	assert.NotEqual(t, h.Sum32(), ftHash("é"))
}

func ngrams(word string, minn, maxn int) []string {
	var out []string
	forEachNgram(word, minn, maxn, func(s string) { out = append(out, s) })
	return out
}

// The n-grams of a few words against testdata/ngrams.golden (run with
// -update to rewrite it after checking the output by hand).
func TestNgramsGolden(t *testing.T) {
	var b strings.Builder
	for _, tc := range []struct {
		word       string
		minn, maxn int
	}{{"where", 3, 6}, {"a", 3, 6}, {"naïve", 3, 4}, {"日本", 1, 2}, {"ab", 1, 3}} {
		fmt.Fprintf(&b, "%s %d %d: %s\n", tc.word, tc.minn, tc.maxn, strings.Join(ngrams(tc.word, tc.minn, tc.maxn), " "))
	}
	path := filepath.Join("testdata", "ngrams.golden")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), b.String())
}

// Any input: each n-gram is a substring of "<"+word+">" starting at a
// character boundary and holding minn..maxn characters, never a lone
// boundary marker (a "<" or ">" of the word itself may be one); valid UTF-8
// stays valid.
func FuzzNgrams(f *testing.F) {
	for _, s := range []string{"", "where", "naïve", "日本語", "\xff\x80a", "<>"} {
		f.Add(s, 3, 6)
	}
	f.Fuzz(func(t *testing.T, word string, minn, maxn int) {
		if minn < 1 || maxn < minn || maxn > 10 || len(word) > 200 {
			return
		}
		w := "<" + word + ">"
		chars := func(s string) int {
			n := 0
			for i := 0; i < len(s); i++ {
				if s[i]&0xC0 != 0x80 {
					n++
				}
			}
			return n
		}
		count := 0
		forEachNgram(word, minn, maxn, func(ng string) {
			count++
			require.Contains(t, w, ng)
			require.NotEqual(t, byte(0x80), ng[0]&0xC0)
			n := chars(ng)
			require.True(t, n >= minn && n <= maxn, "%q has %d chars", ng, n)
			if ng == "<" || ng == ">" {
				require.Contains(t, word, ng, "a boundary marker alone is no n-gram")
			}
			if utf8.ValidString(word) {
				require.True(t, utf8.ValidString(ng), "%q", ng)
			}
		})
		require.LessOrEqual(t, count, chars(w)*(maxn-minn+1))
	})
}
