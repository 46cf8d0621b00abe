package corpus

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVocabOrder(t *testing.T) {
	// Counts: the 3, b 2, a 2, zeta 2, q/r/s/u 1 each (4 OOV tokens).
	const text = "zeta b the a q b r the s zeta u a the"
	for _, tc := range []struct {
		name   string
		vo     VocabOptions
		words  []string
		counts []int64
		unk    int32
		ids    []int32
	}{
		{"min count 2, unk last though it is the most frequent", VocabOptions{MinCount: 2},
			[]string{"the", "a", "b", "zeta", Unk}, []int64{3, 2, 2, 2, 4}, 4,
			[]int32{3, 2, 0, 1, 4, 2, 4, 0, 4, 3, 4, 1, 0}},
		{"max size keeps the most frequent, ties alphabetical", VocabOptions{MinCount: 2, MaxSize: 2},
			[]string{"the", "a", Unk}, []int64{3, 2, 8}, 2,
			[]int32{2, 2, 0, 1, 2, 2, 2, 0, 2, 2, 2, 1, 0}},
		{"drop", VocabOptions{MinCount: 2, OOV: OOVDrop},
			[]string{"the", "a", "b", "zeta"}, []int64{3, 2, 2, 2}, -1,
			[]int32{3, 2, 0, 1, 2, 0, 3, 1, 0}},
		{"min count 1: no OOV, no unk", VocabOptions{MinCount: 1},
			[]string{"the", "a", "b", "zeta", "q", "r", "s", "u"}, []int64{3, 2, 2, 2, 1, 1, 1, 1}, -1,
			[]int32{3, 2, 0, 1, 4, 2, 5, 0, 6, 3, 7, 1, 0}},
		{"min count 3: everything OOV but the", VocabOptions{MinCount: 3},
			[]string{"the", Unk}, []int64{3, 10}, 1,
			[]int32{1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, ids := buildText(t, text, tc.vo)
			assert.Equal(t, tc.words, v.Words)
			assert.Equal(t, tc.counts, v.Counts)
			assert.Equal(t, tc.unk, v.Unk)
			assert.Equal(t, tc.ids, ids)
			assert.EqualValues(t, 13, v.Tokens)
			for i, w := range v.Words {
				id, ok := v.ID(w)
				require.True(t, ok)
				assert.EqualValues(t, i, id)
			}
			_, ok := v.ID("nope")
			assert.False(t, ok)
		})
	}
}

func TestVocabDefaultsAndErrors(t *testing.T) {
	v, _ := buildText(t, strings.Repeat("a ", 5)+strings.Repeat("b ", 4), VocabOptions{})
	assert.Equal(t, []string{"a", Unk}, v.Words, "default min count 5")
	assert.Equal(t, VocabOptions{MinCount: 5, OOV: OOVUnk}, v.Options)

	// A literal <unk> token is out of vocabulary, however frequent.
	v, ids := buildText(t, "<unk> <unk> x <unk> x", VocabOptions{MinCount: 1})
	assert.Equal(t, []string{"x", Unk}, v.Words)
	assert.Equal(t, []int64{2, 3}, v.Counts)
	assert.Equal(t, []int32{1, 1, 0, 1, 0}, ids)
	_, ids = buildText(t, "<unk> <unk> x <unk> x", VocabOptions{MinCount: 1, OOV: OOVDrop})
	assert.Equal(t, []int32{0, 0}, ids)

	path := writeFile(t, "c.txt", "a b c a b a")
	c, err := Open(context.Background(), "", path, Options{})
	require.NoError(t, err)
	for _, tc := range []struct {
		vo   VocabOptions
		want string
	}{
		{VocabOptions{MinCount: -1}, "MinCount = -1: want ≥ 1 (0 = default 5)"},
		{VocabOptions{MaxSize: -2}, "MaxSize = -2, MinSize = 0: want ≥ 0"},
		{VocabOptions{MaxSize: 2, MinSize: 3}, "MinSize = 3 exceeds MaxSize = 2"},
		{VocabOptions{OOV: "keep"}, `OOV = "keep": want "unk" or "drop"`},
		{VocabOptions{MinCount: 4}, "no word occurs at least 4 times (MinCount) in its 6 tokens"},
		{VocabOptions{MinCount: 1, MinSize: 4}, "only 3 words occur at least 1 times in 6 tokens, fewer than the 4 asked for (MinSize)"},
		{VocabOptions{MinCount: 2, MinSize: 3}, "only 2 words occur at least 2 times"},
	} {
		_, _, err := Build(context.Background(), c, tc.vo)
		require.ErrorContains(t, err, tc.want)
	}
}

func TestVocabCache(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	var log strings.Builder
	path := writeFile(t, "c.txt", strings.Repeat("a b c d a b a e f ", 10))
	c, err := Open(ctx, "", path, Options{CacheDir: cache, Log: &log})
	require.NoError(t, err)
	want, wantIDs, err := Build(ctx, c, VocabOptions{MinCount: 20})
	require.NoError(t, err)
	files, _ := filepath.Glob(filepath.Join(cache, "vocab-*.bin"))
	require.Len(t, files, 1)

	// Served from the cache even when the text is gone.
	require.NoError(t, os.Remove(path))
	got, ids, err := Build(ctx, c, VocabOptions{MinCount: 20})
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, wantIDs, ids)
	_, _, err = Build(ctx, c, VocabOptions{MinCount: 20, MinSize: 3})
	require.ErrorContains(t, err, "only 2 words occur at least 20 times in 90 tokens")

	// A damaged file is reported and rebuilt from the text.
	require.NoError(t, os.WriteFile(path, []byte(strings.Repeat("a b c d a b a e f ", 10)), 0o644))
	b, err := os.ReadFile(files[0])
	require.NoError(t, err)
	b[len(b)-20] ^= 0x08
	require.NoError(t, os.WriteFile(files[0], b, 0o644))
	log.Reset()
	got, ids, err = Build(ctx, c, VocabOptions{MinCount: 20})
	require.NoError(t, err)
	assert.Contains(t, log.String(), "damaged cache file")
	assert.Contains(t, log.String(), "rebuilding it")
	assert.Equal(t, want, got)
	assert.Equal(t, wantIDs, ids)

	// A FIFO or a link in a cache file's place is damage: refused without
	// waiting or following, and rebuilt.
	for _, plant := range []func(string) error{
		func(p string) error { return syscall.Mkfifo(p, 0o644) },
		func(p string) error { return os.Symlink("/dev/zero", p) },
	} {
		require.NoError(t, os.Remove(files[0]))
		require.NoError(t, plant(files[0]))
		log.Reset()
		done := make(chan error, 1)
		go func() { got, ids, err = Build(ctx, c, VocabOptions{MinCount: 20}); done <- err }()
		select {
		case err = <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("Build waited on the cache file")
		}
		require.NoError(t, err)
		assert.Contains(t, log.String(), "damaged cache file: cache "+files[0]+": not a regular file")
		assert.Contains(t, log.String(), "rebuilding it")
		assert.Equal(t, want, got)
		assert.Equal(t, wantIDs, ids)
		st, err := os.Lstat(files[0])
		require.NoError(t, err)
		assert.True(t, st.Mode().IsRegular(), "rebuilt as a regular file")
	}

	// Other reading options are other keys.
	lc, err := Open(ctx, "", path, Options{CacheDir: cache, Lowercase: true})
	require.NoError(t, err)
	lv, _, err := Build(ctx, lc, VocabOptions{MinCount: 20})
	require.NoError(t, err)
	assert.NotEqual(t, want.Key, lv.Key)
}
