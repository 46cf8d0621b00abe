package synth

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCorpus(t *testing.T) {
	for _, tc := range []struct {
		name    string
		o       Options
		minSame float64 // share of adjacent tokens from one cluster, at least
		maxSame float64 // and at most
	}{
		// Without noise only sentence ends break a run: 1/8 at most.
		{"no noise", Options{Clusters: 6, WordsPerCluster: 12, Tokens: 20000, Noise: 0, Seed: 1}, 0.87, 1},
		// Each token keeps the cluster with chance 0.5 + 0.5/6.
		{"half noise", Options{Clusters: 6, WordsPerCluster: 12, Tokens: 20000, Noise: 0.5, Seed: 1}, 0.3, 0.45},
		// All noise: two tokens share a cluster by chance, 1/6.
		{"all noise", Options{Clusters: 6, WordsPerCluster: 12, Tokens: 20000, Noise: 1, Seed: 1}, 0.14, 0.2},
		{"tiny", Options{Clusters: 1, WordsPerCluster: 1, Tokens: 3, Seed: 5}, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			toks, clusterOf, err := Corpus(tc.o)
			require.NoError(t, err)
			require.Len(t, toks, tc.o.Tokens)
			require.Len(t, clusterOf, tc.o.Clusters*tc.o.WordsPerCluster)
			same := 0
			for i, w := range toks {
				_, ok := clusterOf[w]
				require.True(t, ok, "token %q has a cluster", w)
				if i > 0 && clusterOf[w] == clusterOf[toks[i-1]] {
					same++
				}
			}
			if len(toks) > 1 {
				share := float64(same) / float64(len(toks)-1)
				assert.GreaterOrEqual(t, share, tc.minSame)
				assert.LessOrEqual(t, share, tc.maxSame)
			}
			again, _, err := Corpus(tc.o)
			require.NoError(t, err)
			assert.Equal(t, toks, again, "deterministic")
		})
	}
	a, _, err := Corpus(Options{Clusters: 3, WordsPerCluster: 5, Tokens: 100, Noise: 0.1, Seed: 1})
	require.NoError(t, err)
	b, _, err := Corpus(Options{Clusters: 3, WordsPerCluster: 5, Tokens: 100, Noise: 0.1, Seed: 2})
	require.NoError(t, err)
	assert.NotEqual(t, a, b, "the seed matters")
}

func TestWriteIsJoinedCorpus(t *testing.T) {
	o := Options{Clusters: 4, WordsPerCluster: 7, Tokens: 5000, Noise: 0.2, Seed: 3}
	toks, clusterOf, err := Corpus(o)
	require.NoError(t, err)
	var buf strings.Builder
	got, err := Write(&buf, o)
	require.NoError(t, err)
	assert.Equal(t, strings.Join(toks, " "), buf.String())
	assert.Equal(t, clusterOf, got)

	_, err = Write(failWriter{}, o)
	require.ErrorContains(t, err, "synth: writing the corpus: disk full")
	_, err = Write(&buf, Options{})
	require.ErrorContains(t, err, "Clusters = 0")
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWords(t *testing.T) {
	for _, tc := range []struct {
		clusters, words int
		first, last     string
	}{
		{6, 12, "c0w00", "c5w11"},
		{12, 5, "c00w00", "c11w04"},
		{2, 150, "c0w000", "c1w149"},
	} {
		ws, err := Words(Options{Clusters: tc.clusters, WordsPerCluster: tc.words, Tokens: 1})
		require.NoError(t, err)
		require.Len(t, ws, tc.clusters)
		assert.Equal(t, tc.first, ws[0][0])
		assert.Equal(t, tc.last, ws[tc.clusters-1][tc.words-1])
	}
}

func TestOptionErrors(t *testing.T) {
	ok := Options{Clusters: 2, WordsPerCluster: 3, Tokens: 10, Noise: 0.1}
	for _, tc := range []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"clusters", func(o *Options) { o.Clusters = 0 }, "Clusters = 0: want ≥ 1"},
		{"words", func(o *Options) { o.WordsPerCluster = -1 }, "WordsPerCluster = -1: want ≥ 1"},
		{"tokens", func(o *Options) { o.Tokens = 0 }, "Tokens = 0: want ≥ 1"},
		{"noise high", func(o *Options) { o.Noise = 1.5 }, "Noise = 1.5: want a probability in [0, 1]"},
		{"noise NaN", func(o *Options) { o.Noise = math.NaN() }, "Noise = NaN"},
		{"too many", func(o *Options) { o.Clusters, o.WordsPerCluster = 1<<20, 1<<20 }, "too many"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := ok
			tc.edit(&o)
			_, _, err := Corpus(o)
			require.ErrorContains(t, err, tc.want)
		})
	}
}

func TestTable(t *testing.T) {
	o := TableOptions{Groups: 3, RowsPerGroup: 4, ColsPerGroup: 5, Total: 3000, Noise: 0.2, Seed: 4}
	tab, err := Table(o)
	require.NoError(t, err)
	require.NoError(t, tab.Validate())
	r, c := tab.N.Dims()
	assert.Equal(t, [2]int{12, 15}, [2]int{r, c})
	assert.Equal(t, 3000.0, tab.N.Sum())
	assert.Equal(t, "g0r00", tab.RowLabels[0])
	assert.Equal(t, "g2r03", tab.RowLabels[11])
	assert.Equal(t, "g1c00", tab.ColLabels[5])
	var within float64
	for i := 0; i < r; i++ {
		cols, vals := tab.N.Row(i)
		for p, j := range cols {
			if i/o.RowsPerGroup == int(j)/o.ColsPerGroup {
				within += vals[p]
			}
		}
	}
	// Expected share inside the groups: 0.8 + 0.2/3.
	assert.InDelta(t, 0.8+0.2/3, within/3000, 0.03)
	again, err := Table(o)
	require.NoError(t, err)
	assert.Equal(t, tab, again)

	for _, tc := range []struct {
		o    TableOptions
		want string
	}{
		{TableOptions{Groups: 0, RowsPerGroup: 1, ColsPerGroup: 1, Total: 1}, "Groups = 0"},
		{TableOptions{Groups: 1, RowsPerGroup: 0, ColsPerGroup: 1, Total: 1}, "RowsPerGroup = 0"},
		{TableOptions{Groups: 1, RowsPerGroup: 1, ColsPerGroup: 1, Total: 0}, "Total = 0"},
		{TableOptions{Groups: 1, RowsPerGroup: 1, ColsPerGroup: 1, Total: 1, Noise: -0.1}, "Noise = -0.1"},
	} {
		_, err := Table(tc.o)
		require.ErrorContains(t, err, tc.want)
	}
}

func ExampleCorpus() {
	toks, clusterOf, err := Corpus(Options{Clusters: 3, WordsPerCluster: 4, Tokens: 24, Noise: 0.1, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Join(toks, " "))
	fmt.Println(len(clusterOf), "words; c2w03 is in cluster", clusterOf["c2w03"])
	// Output:
	// c2w01 c2w01 c2w00 c2w01 c2w00 c2w01 c2w02 c2w01 c2w03 c2w01 c2w02 c2w02 c2w02 c1w03 c1w02 c1w03 c1w03 c1w02 c1w03 c1w01 c1w03 c1w01 c1w03 c1w00
	// 12 words; c2w03 is in cluster 2
}
