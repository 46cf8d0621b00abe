package corpus

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/datasets/sparse"
)

// zipfIDs is a reproducible Zipf-distributed id stream over v words.
func zipfIDs(seed uint64, n, v int) []int32 {
	r := rand.New(rand.NewPCG(seed, 1))
	z := rand.NewZipf(r, 1.1, 2, uint64(v-1))
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(z.Uint64())
	}
	return ids
}

// inMemoryOffsets counts N^1 … N^w with the in-memory path.
func inMemoryOffsets(t *testing.T, v int, ids []int32, w int) []*sparse.CSR {
	t.Helper()
	tb, err := NewTables(syntheticVocab(v), ids, TableOptions{})
	require.NoError(t, err)
	offs, err := tb.Offsets(context.Background(), w)
	require.NoError(t, err)
	return offs
}

func syntheticVocab(v int) *Vocab {
	words := make([]string, v)
	for i := range words {
		words[i] = "w" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
	}
	return &Vocab{Words: words, Unk: -1}
}

// countStreamed counts ks with a Counter, feeding ids in pieces of random
// size, and returns the tables in the order of ks.
func countStreamed(t *testing.T, v int, ids []int32, ks []int, o CounterOptions, seed uint64) ([]*sparse.CSR, CounterStats) {
	t.Helper()
	c, err := NewCounter(v, ks, o)
	require.NoError(t, err)
	defer func() { require.NoError(t, c.Close()) }()
	r := rand.New(rand.NewPCG(seed, 2))
	for at := 0; at < len(ids); {
		n := min(len(ids)-at, 1+r.IntN(3000))
		require.NoError(t, c.Add(context.Background(), ids[at:at+n]))
		at += n
	}
	var out []*sparse.CSR
	require.NoError(t, c.Finish(context.Background(), func(k int, m *sparse.CSR) error {
		require.Equal(t, ks[len(out)], k)
		out = append(out, m)
		return nil
	}))
	return out, c.Stats()
}

// The spilled tables are the in-memory tables, bit for bit, whatever the
// budget, the worker count and how the stream is cut into pieces.
func TestCounterSpilledEqualsInMemory(t *testing.T) {
	const v, n, w = 700, 60_000, 7
	ids := zipfIDs(1, n, v)
	want := inMemoryOffsets(t, v, ids, w)
	ks := []int{1, 2, 3, 4, 5, 6, 7}
	for _, tc := range []struct {
		name    string
		budget  func(min int64) int64
		workers int
		spills  bool
	}{
		{"minimum budget, 1 worker", func(m int64) int64 { return m }, 1, true},
		{"minimum budget, 2 workers", func(m int64) int64 { return m }, 2, true},
		{"a little more, 3 workers", func(m int64) int64 { return m + 100_000 }, 3, true},
		{"no spill", func(int64) int64 { return 256 << 20 }, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := PlanCounter(1<<40, v, w, min(tc.workers, len(ks)))
			require.NoError(t, err)
			o := CounterOptions{MemoryBytes: tc.budget(p.MinimumBudget), TempDir: t.TempDir(), Workers: tc.workers}
			got, st := countStreamed(t, v, ids, ks, o, 7)
			assert.EqualValues(t, n, st.Tokens)
			if tc.spills {
				assert.Greater(t, st.Spills, 1, "the budget should force spills")
				assert.Greater(t, st.Chunks, 1)
			} else {
				assert.Zero(t, st.Spills)
			}
			for i := range ks {
				equalCSR(t, want[i], got[i], "N^%d", ks[i])
			}
			entries, err := os.ReadDir(o.TempDir)
			require.NoError(t, err)
			assert.Empty(t, entries, "spill directory removed")
		})
	}
}

// Offsets given out of order and with gaps; a stream shorter than the
// window; an empty offset table.
func TestCounterEdgeCases(t *testing.T) {
	ids := zipfIDs(3, 5000, 50)
	want := inMemoryOffsets(t, 50, ids, 30)
	p, err := PlanCounter(1<<40, 50, 30, 1)
	require.NoError(t, err)
	got, _ := countStreamed(t, 50, ids, []int{30, 2, 17}, CounterOptions{MemoryBytes: p.MinimumBudget, TempDir: t.TempDir(), Workers: 1}, 1)
	equalCSR(t, want[29], got[0])
	equalCSR(t, want[1], got[1])
	equalCSR(t, want[16], got[2])

	short := []int32{0, 1, 0}
	want = inMemoryOffsets(t, 2, short, 5)
	got, _ = countStreamed(t, 2, short, []int{1, 2, 3, 4, 5}, CounterOptions{MemoryBytes: 64 << 20, TempDir: t.TempDir()}, 1)
	for k := range 5 {
		equalCSR(t, want[k], got[k], "N^%d", k+1)
	}
	assert.Zero(t, got[4].NNZ())
}

func TestCounterRefusesSmallBudget(t *testing.T) {
	_, err := NewCounter(100_000, []int{1, 2}, CounterOptions{MemoryBytes: 1 << 20, TempDir: t.TempDir(), Workers: 2})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "too small for a vocabulary of 100000 words")
	assert.Contains(t, err.Error(), "needs at least")

	c, err := NewCounter(10, []int{1}, CounterOptions{MemoryBytes: 1 << 20, TempDir: t.TempDir()})
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.Add(context.Background(), []int32{1, 2, 10}), "a partial chunk is counted by Finish")
	err = c.Finish(context.Background(), func(int, *sparse.CSR) error { return nil })
	require.Error(t, err)
	assert.Contains(t, err.Error(), "outside the vocabulary")
}

// Tables with a budget below what in-memory counting needs take the
// streamed path, store what they count in the cache, and load the same.
func TestTablesMemoryBudget(t *testing.T) {
	const v, n, w = 400, 40_000, 5
	ids := zipfIDs(5, n, v)
	want := inMemoryOffsets(t, v, ids, w)
	voc := syntheticVocab(v)
	p, err := PlanCounter(1<<40, v, w+2, 2)
	require.NoError(t, err)
	dir := t.TempDir()
	tb, err := NewTables(voc, ids, TableOptions{CacheDir: dir, Workers: 2, MemoryBytes: p.MinimumBudget})
	require.NoError(t, err)
	require.Greater(t, tb.inMemoryBytes(w), p.MinimumBudget, "the budget must force the streamed path")
	got, err := tb.Offsets(context.Background(), w)
	require.NoError(t, err)
	for k := range w {
		equalCSR(t, want[k], got[k], "N^%d", k+1)
	}
	// From the cache now, and a wider window counts only N^6, N^7.
	got, err = tb.Offsets(context.Background(), w+2)
	require.NoError(t, err)
	want = inMemoryOffsets(t, v, ids, w+2)
	for k := range w + 2 {
		equalCSR(t, want[k], got[k], "N^%d", k+1)
	}
	m, err := tb.Table(context.Background(), Spec{Kind: Cut, Window: w + 2})
	require.NoError(t, err)
	wantCut, err := Combine(want, Spec{Kind: Cut, Window: w + 2})
	require.NoError(t, err)
	equalCSR(t, wantCut, m)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.False(t, e.IsDir(), "spill directory %s left behind", e.Name())
	}
	_, err = NewTables(voc, ids, TableOptions{MemoryBytes: -1})
	assert.Error(t, err)
}

// On text8_prefix (2.1 M tokens, V = 22,542), the paper's 24 offsets
// counted within a 64 MiB budget (spilling) are the in-memory tables.
func TestText8PrefixSpilledEqualsInMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("counts 24 offsets of 2.1M tokens twice")
	}
	c := prefixCorpus(t, Options{})
	v, ids, err := Build(context.Background(), c, VocabOptions{MinCount: 5})
	require.NoError(t, err)
	tb, err := NewTables(v, ids, TableOptions{})
	require.NoError(t, err)
	want, err := tb.Offsets(context.Background(), 24)
	require.NoError(t, err)
	ks := make([]int, 24)
	for i := range ks {
		ks[i] = i + 1
	}
	cn, err := NewCounter(v.Size(), ks, CounterOptions{MemoryBytes: 64 << 20, TempDir: t.TempDir()})
	require.NoError(t, err)
	defer cn.Close()
	require.NoError(t, cn.Add(context.Background(), ids))
	i := 0
	require.NoError(t, cn.Finish(context.Background(), func(k int, m *sparse.CSR) error {
		equalCSR(t, want[i], m, "N^%d", k)
		i++
		return nil
	}))
	require.Equal(t, 24, i)
	st := cn.Stats()
	t.Logf("text8_prefix within 64 MiB: %d chunks of %d tokens, %d spills, %.1f MiB of shards", st.Chunks, st.Plan.ChunkTokens, st.Spills, float64(st.ShardBytes)/(1<<20))
	assert.Greater(t, st.Spills, 1, "64 MiB should force spills")
}
