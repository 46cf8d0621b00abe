package corpus

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/datasets/datatest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), got)
}

// prefixCorpus opens text8_prefix from $KCALAB_DATA; without it the test
// skips with a message (fails under KCALAB_REQUIRE_DATA=1, as in CI).
func prefixCorpus(t testing.TB, opts Options) *Corpus {
	t.Helper()
	path := datatest.File(t, "text8_prefix.zip")
	c, err := Open(context.Background(), filepath.Dir(path), "text8_prefix", opts)
	require.NoError(t, err)
	return c
}

func TestText8Prefix(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 2.1M tokens")
	}
	ctx := context.Background()
	c := prefixCorpus(t, Options{})
	id, err := c.Identity()
	require.NoError(t, err)
	assert.Equal(t, "crc32=015c7c5d,size=12549840", id)

	v, ids, err := Build(ctx, c, VocabOptions{MinCount: 5})
	require.NoError(t, err)
	const tokens = 2_139_749
	assert.EqualValues(t, tokens, v.Tokens)
	require.Len(t, ids, tokens)
	assert.Equal(t, 22_542, v.Size(), "vocabulary with <unk>")
	assert.EqualValues(t, 22_541, v.Unk, "<unk> last")
	assert.Equal(t, "the", v.Words[0])
	for i := 1; i < int(v.Unk); i++ {
		require.True(t, v.Counts[i-1] > v.Counts[i] || (v.Counts[i-1] == v.Counts[i] && v.Words[i-1] < v.Words[i]),
			"order at %d: %s %d, %s %d", i, v.Words[i-1], v.Counts[i-1], v.Words[i], v.Counts[i])
		require.GreaterOrEqual(t, v.Counts[i], int64(5))
	}
	var sum int64
	for _, n := range v.Counts {
		sum += n
	}
	assert.EqualValues(t, tokens, sum)

	var g strings.Builder
	fmt.Fprintf(&g, "# text8_prefix, min count 5: the 40 most frequent words and <unk>\n")
	for i := range 40 {
		fmt.Fprintf(&g, "%d\t%s\t%d\n", i, v.Words[i], v.Counts[i])
	}
	fmt.Fprintf(&g, "%d\t%s\t%d\n", v.Unk, v.Words[v.Unk], v.Counts[v.Unk])

	tb, err := NewTables(v, ids, TableOptions{})
	require.NoError(t, err)
	const W = 24
	offs, err := tb.Offsets(ctx, W)
	require.NoError(t, err)
	// Margins of N^k: row i counts the occurrences of i before position
	// n−k, column j those from position k on.
	for k := 1; k <= W; k++ {
		rows, cols := offs[k-1].RowSums(), offs[k-1].ColSums()
		wantRows := make([]float64, v.Size())
		wantCols := make([]float64, v.Size())
		for i, n := range v.Counts {
			wantRows[i], wantCols[i] = float64(n), float64(n)
		}
		for t := tokens - k; t < tokens; t++ {
			wantRows[ids[t]]--
		}
		for t := range k {
			wantCols[ids[t]]--
		}
		for i := range rows {
			if rows[i] != wantRows[i] || cols[i] != wantCols[i] {
				t.Fatalf("N^%d word %d: margins %v, %v, want %v, %v", k, i, rows[i], cols[i], wantRows[i], wantCols[i])
			}
		}
	}
	// Through the cache: stored, then loaded, the same bits.
	cache := t.TempDir()
	ct, err := NewTables(v, ids, TableOptions{CacheDir: cache})
	require.NoError(t, err)
	for range 2 {
		got, err := ct.Offsets(ctx, 2)
		require.NoError(t, err)
		equalCSR(t, offs[0], got[0])
		equalCSR(t, offs[1], got[1])
	}

	flat, err := Combine(offs, Spec{Kind: Flat, Window: W})
	require.NoError(t, err)
	var want float64
	for k := 1; k <= W; k++ {
		want += float64(tokens - k)
	}
	assert.Equal(t, want, flat.Sum(), "N^flat total = Σ_k (tokens − k)")
	sym, err := Combine(offs, Spec{Kind: Flat, Window: W, Symmetric: true})
	require.NoError(t, err)
	assert.Equal(t, 2*want, sym.Sum())
	cut, err := Combine(offs, Spec{Kind: Cut, Window: W})
	require.NoError(t, err)
	assert.Less(t, cut.Sum(), flat.Sum())
	assert.Less(t, cut.NNZ(), flat.NNZ())
	fmt.Fprintf(&g, "# nnz of N^1, N^2, N^24; N^flat, N^cut (W = 24)\n%d %d %d\n%d %d\n",
		offs[0].NNZ(), offs[1].NNZ(), offs[W-1].NNZ(), flat.NNZ(), cut.NNZ())
	fmt.Fprintf(&g, "# N^cut total\n%.0f\n", cut.Sum())
	golden(t, "text8_prefix.golden", g.String())
	t.Logf("N^flat W=24: nnz %d; N^cut: nnz %d, mass %.3f of flat; offsets nnz N^1 %d, N^24 %d",
		flat.NNZ(), cut.NNZ(), cut.Sum()/flat.Sum(), offs[0].NNZ(), offs[W-1].NNZ())
}

// The scaling experiment's sections: each fraction has its own vocabulary.
func TestText8PrefixFractions(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 2.1M tokens")
	}
	prev := 0
	for _, f := range []float64{1.0 / 64, 1.0 / 8, 1.0 / 2} {
		c := prefixCorpus(t, Options{Fraction: f})
		v, ids, err := Build(context.Background(), c, VocabOptions{})
		require.NoError(t, err)
		assert.EqualValues(t, int64(2_139_749*f), v.Tokens, "fraction %v", f)
		assert.Len(t, ids, int(v.Tokens))
		assert.Greater(t, v.Size(), prev)
		prev = v.Size()
		t.Logf("fraction %v: %d tokens, V = %d", f, v.Tokens, v.Size())
	}
}
