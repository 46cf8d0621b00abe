package baselines

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"kcalab/datasets/sparse"
	"kcalab/methods/vectors"
)

// buildCorpus turns a word sequence into a Corpus: vocabulary of words with
// count ≥ minCount ordered by count (ties alphabetical), the rest mapped to
// a final "<unk>" id (SkipID) when any exist.
func buildCorpus(text []string, minCount int64) Corpus {
	freq := map[string]int64{}
	for _, w := range text {
		freq[w]++
	}
	var words []string
	for w, n := range freq {
		if n >= minCount {
			words = append(words, w)
		}
	}
	sort.Slice(words, func(a, b int) bool {
		if freq[words[a]] != freq[words[b]] {
			return freq[words[a]] > freq[words[b]]
		}
		return words[a] < words[b]
	})
	id := make(map[string]int32, len(words))
	for i, w := range words {
		id[w] = int32(i)
	}
	c := Corpus{Words: words, SkipID: -1, Tokens: make([]int32, len(text))}
	unk := int32(len(words))
	for p, w := range text {
		if i, ok := id[w]; ok {
			c.Tokens[p] = i
		} else {
			c.Tokens[p] = unk
			c.SkipID = int(unk)
		}
	}
	if c.SkipID >= 0 {
		c.Words = append(c.Words, "<unk>")
	}
	c.Counts = make([]int64, len(c.Words))
	for _, t := range c.Tokens {
		c.Counts[t]++
	}
	return c
}

// clusterCorpus generates nClusters clusters of perCluster words; each
// "sentence" of 8–16 words is drawn from one cluster, with Zipf-like word
// frequencies inside the cluster. Word names are stem+suffix with one stem
// per cluster and suffixes shared across clusters, so clusters share
// character n-grams inside only (for fastText). rare adds that many
// singleton noise words, mapped to <unk> by minCount 2.
func clusterCorpus(seed uint64, nClusters, perCluster, nTokens, rare int) (Corpus, [][]string) {
	stems := []string{"zork", "mipa", "tulv", "bexe", "qodi", "hafu"}
	suffixes := []string{"an", "ber", "cot", "dum", "eli", "fon", "gir", "hap", "iko", "jus", "kel", "lom"}
	r := rand.New(rand.NewPCG(seed, 7))
	clusters := make([][]string, nClusters)
	for c := range clusters {
		for k := 0; k < perCluster; k++ {
			clusters[c] = append(clusters[c], stems[c]+suffixes[k])
		}
	}
	var text []string
	for len(text) < nTokens {
		c := r.IntN(nClusters)
		n := 8 + r.IntN(9)
		for i := 0; i < n; i++ {
			// Zipf-ish: word k with weight 1/(k+2).
			k := 0
			for u := r.Float64() * zipfNorm(perCluster); k < perCluster-1; k++ {
				u -= 1 / float64(k+2)
				if u < 0 {
					break
				}
			}
			text = append(text, clusters[c][k])
		}
		if rare > 0 && r.IntN(4) == 0 {
			text = append(text, fmt.Sprintf("noise%d", rare))
			rare--
		}
	}
	return buildCorpus(text, 2), clusters
}

func zipfNorm(n int) float64 {
	var s float64
	for k := 0; k < n; k++ {
		s += 1 / float64(k+2)
	}
	return s
}

// cooccur builds GloVe's symmetric co-occurrence matrix: each pair at
// distance d ≤ window adds 1/d to (i,j) and (j,i); tokens of skip are
// dropped first, as glove's cooccur drops out-of-vocabulary words.
func cooccur(t testing.TB, c Corpus, window int) *sparse.CSR {
	var toks []int32
	for _, w := range c.Tokens {
		if int(w) != c.SkipID {
			toks = append(toks, w)
		}
	}
	acc := map[[2]int32]float64{}
	for p, w := range toks {
		for d := 1; d <= window && p-d >= 0; d++ {
			u := toks[p-d]
			acc[[2]int32{u, w}] += 1 / float64(d)
			acc[[2]int32{w, u}] += 1 / float64(d)
		}
	}
	ts := make([]sparse.Triplet, 0, len(acc))
	for k, v := range acc {
		ts = append(ts, sparse.Triplet{I: k[0], J: k[1], V: v})
	}
	m, err := sparse.FromTriplets(len(c.Words), len(c.Words), ts)
	require.NoError(t, err)
	return m
}

// cosine of two vectors.
func cosine(a, b []float64) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += a[i] * b[i]
		aa += a[i] * a[i]
		bb += b[i] * b[i]
	}
	return ab / math.Sqrt(aa*bb)
}

// clusterSeparation returns the mean cosine within clusters and between.
func clusterSeparation(t testing.TB, s *vectors.Set, clusters [][]string) (within, between float64) {
	var nw, nb int
	for c1, ws1 := range clusters {
		for c2, ws2 := range clusters {
			for _, a := range ws1 {
				for _, b := range ws2 {
					if a >= b && c1 == c2 {
						continue
					}
					va, ok := s.Vector(a)
					require.True(t, ok, a)
					vb, ok := s.Vector(b)
					require.True(t, ok, b)
					if c1 == c2 {
						within += cosine(va, vb)
						nw++
					} else {
						between += cosine(va, vb)
						nb++
					}
				}
			}
		}
	}
	return within / float64(nw), between / float64(nb)
}

// nearest returns the vocabulary word with the largest cosine to v.
func nearest(s *vectors.Set, v []float64, exclude string) string {
	best, bw := math.Inf(-1), ""
	for i, w := range s.Words {
		if w == exclude {
			continue
		}
		if c := cosine(v, s.Row(i)); c > best {
			best, bw = c, w
		}
	}
	return bw
}

// hashSet is a SHA-256 of the words and vector bits.
func hashSet(s *vectors.Set) string {
	h := sha256.New()
	for i, w := range s.Words {
		io.WriteString(h, w)
		for _, v := range s.Row(i) {
			binary.Write(h, binary.LittleEndian, math.Float64bits(v))
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// text8Prefix reads $KCALAB_DATA/text8_prefix.zip, skipping the test when
// the variable or the file is missing. maxTokens > 0 keeps that many tokens.
func text8Prefix(tb testing.TB, maxTokens int) []string {
	dir := os.Getenv("KCALAB_DATA")
	if dir == "" {
		tb.Skip("KCALAB_DATA is not set: skipping the text8_prefix run (set it to the shared data directory, e.g. /work/shared/data)")
	}
	path := filepath.Join(dir, "text8_prefix.zip")
	zr, err := zip.OpenReader(path)
	if os.IsNotExist(err) {
		tb.Skipf("%s not found: skipping the text8_prefix run", path)
	}
	require.NoError(tb, err)
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name != "text8_prefix" {
			continue
		}
		rc, err := f.Open()
		require.NoError(tb, err)
		b, err := io.ReadAll(rc)
		rc.Close()
		require.NoError(tb, err)
		toks := strings.Fields(string(b))
		if maxTokens > 0 && len(toks) > maxTokens {
			toks = toks[:maxTokens]
		}
		return toks
	}
	tb.Fatalf("%s has no member text8_prefix", path)
	return nil
}
