package corpus

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSubsample(t *testing.T) {
	ids := zipfIDs(3, 200000, 50)
	counts := make([]int, 50)
	for _, id := range ids {
		counts[id]++
	}
	const thr = 1e-2
	keepProb := func(w int) float64 {
		f := float64(counts[w]) / float64(len(ids))
		return min(1, (math.Sqrt(f/thr)+1)*thr/f)
	}
	got, err := Subsample(ids, 50, thr, 7)
	require.NoError(t, err)
	kept := make([]int, 50)
	for _, id := range got {
		kept[id]++
	}
	for _, tc := range []struct {
		name string
		word int
	}{{"most frequent", 0}, {"frequent", 3}, {"rarer", 20}, {"rarest", 49}} {
		t.Run(tc.name, func(t *testing.T) {
			p, n := keepProb(tc.word), float64(counts[tc.word])
			if p == 1 {
				assert.Equal(t, counts[tc.word], kept[tc.word], "a word under the threshold keeps every token")
				return
			}
			// Binomial: within 5 standard deviations of n·p.
			assert.InDelta(t, n*p, float64(kept[tc.word]), 5*math.Sqrt(n*p*(1-p)), "kept %d of %d, p = %.3f", kept[tc.word], counts[tc.word], p)
		})
	}
	assert.Less(t, keepProb(0), 0.5, "the test draws for the most frequent word")
	assert.Equal(t, 1.0, keepProb(49), "and keeps the rarest whole")

	again, err := Subsample(ids, 50, thr, 7)
	require.NoError(t, err)
	assert.Equal(t, got, again, "the same seed, the same tokens")
	other, err := Subsample(ids, 50, thr, 8)
	require.NoError(t, err)
	assert.NotEqual(t, got, other, "another seed, other draws")

	all, err := Subsample(ids, 50, 1, 7)
	require.NoError(t, err)
	assert.Equal(t, ids, all, "t = 1 keeps every token (f ≤ t)")

	// The kept tokens are a subsequence of the stream: dropped ones close up.
	at := 0
	for _, id := range got {
		for at < len(ids) && ids[at] != id {
			at++
		}
		require.Less(t, at, len(ids), "kept tokens keep the stream's order")
		at++
	}
	small := []int32{0, 1, 0, 2}

	for _, tc := range []struct {
		name string
		ids  []int32
		t    float64
		msg  string
	}{
		{"t 0", small, 0, "0 < t ≤ 1"},
		{"t negative", small, -1e-5, "0 < t ≤ 1"},
		{"t NaN", small, math.NaN(), "0 < t ≤ 1"},
		{"id outside", []int32{0, 5}, 1e-3, "outside the vocabulary"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Subsample(tc.ids, 3, tc.t, 1)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

// TestTablesSubsample: a Tables with Subsample counts the kept tokens (the
// tables of Subsample's stream), under a cache key of its own that names t
// and the seed; without it the key and the tables are as ever.
func TestTablesSubsample(t *testing.T) {
	ctx := context.Background()
	text := strings.Repeat("the cat sat on the mat and the dog sat on the log ", 200)
	dir := t.TempDir()
	c, err := Open(ctx, "", writeFile(t, "c.txt", text), Options{CacheDir: dir})
	require.NoError(t, err)
	v, ids, err := Build(ctx, c, VocabOptions{MinCount: 1})
	require.NoError(t, err)
	require.NotEmpty(t, v.Key)
	spec := Spec{Kind: Cut, Window: 3}

	plain, err := NewTables(v, ids, TableOptions{CacheDir: dir})
	require.NoError(t, err)
	assert.Equal(t, cacheKey("offset v1", v.Key, "1"), plain.offsetKey(1), "no subsampling: the key as ever")
	assert.Equal(t, len(ids), plain.Tokens())

	kept, err := Subsample(ids, v.Size(), 0.05, 11)
	require.NoError(t, err)
	require.Less(t, len(kept), len(ids))
	byHand, err := NewTables(v, kept, TableOptions{}) // no cache: its key would be the vocabulary's
	require.NoError(t, err)
	want, err := byHand.Table(ctx, spec)
	require.NoError(t, err)

	for run := 0; run < 2; run++ { // the second run reads the cache
		sub, err := NewTables(v, ids, TableOptions{CacheDir: dir, Subsample: 0.05, SubsampleSeed: 11})
		require.NoError(t, err)
		assert.Equal(t, len(kept), sub.Tokens())
		got, err := sub.Table(ctx, spec)
		require.NoError(t, err)
		assert.Equal(t, dense(want), dense(got), "run %d", run)
		assert.NotEqual(t, plain.offsetKey(1), sub.offsetKey(1))
		other, err := NewTables(v, ids, TableOptions{CacheDir: dir, Subsample: 0.05, SubsampleSeed: 12})
		require.NoError(t, err)
		assert.NotEqual(t, other.offsetKey(1), sub.offsetKey(1), "the seed is in the key")
		otherT, err := NewTables(v, ids, TableOptions{CacheDir: dir, Subsample: 0.01, SubsampleSeed: 11})
		require.NoError(t, err)
		assert.NotEqual(t, otherT.offsetKey(1), sub.offsetKey(1), "t is in the key")
	}
	all, err := plain.Table(ctx, spec)
	require.NoError(t, err)
	assert.NotEqual(t, dense(all), dense(want), "subsampling changed the table")

	_, err = NewTables(v, ids, TableOptions{Subsample: 2})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "0 < t ≤ 1")
}

// Hostile round 5, m7: a threshold so small that f/t overflows (a
// subnormal t, 5e-324) kept every token, while 1e-300 kept none. Every t
// below what any real threshold is keeps about √(t/f) of a word's tokens:
// none, for both.
func TestSubsampleTinyThreshold(t *testing.T) {
	ids := make([]int32, 10000)
	for i := range ids {
		ids[i] = int32(i % 7)
	}
	for _, th := range []float64{5e-324, 1e-310, 1e-300, 1e-200} {
		kept, err := Subsample(ids, 7, th, 1)
		require.NoError(t, err)
		assert.Empty(t, kept, "t = %g", th)
	}
	kept, err := Subsample(ids, 7, 1e-1, 1)
	require.NoError(t, err)
	assert.NotEmpty(t, kept)
}
