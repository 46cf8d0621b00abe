package corpus

import (
	"context"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/datasets/sparse"
	"kcalab/internal/dirlock"
)

// The paper's example (section "Word Representation"): in
// "this is this is this is this is this", #(this *^0 is) = 4,
// #(this *^1 is) = 0, #(this *^2 is) = 3, i.e. N^1, N^2, N^3 [this][is].
func TestPaperSentence(t *testing.T) {
	v, _ := buildText(t, "this is this is this is this is this.", VocabOptions{MinCount: 1})
	// "this." is its own token: whitespace split, as text8 has no punctuation.
	require.Equal(t, []string{"is", "this", "this."}, v.Words)
	v, ids := buildText(t, "this is this is this is this is this", VocabOptions{MinCount: 1})
	require.Equal(t, []string{"this", "is"}, v.Words)
	require.Equal(t, []int64{5, 4}, v.Counts)
	require.EqualValues(t, -1, v.Unk)
	tb, err := NewTables(v, ids, TableOptions{})
	require.NoError(t, err)
	offs, err := tb.Offsets(context.Background(), 3)
	require.NoError(t, err)
	this, is := 0, 1
	assert.Equal(t, 4.0, offs[0].At(this, is), "#(this *^0 is)")
	assert.Equal(t, 0.0, offs[1].At(this, is), "#(this *^1 is)")
	assert.Equal(t, 3.0, offs[2].At(this, is), "#(this *^2 is)")
	assert.Equal(t, [][]float64{{0, 4}, {4, 0}}, dense(offs[0]))
	assert.Equal(t, [][]float64{{4, 0}, {0, 3}}, dense(offs[1]))
	assert.Equal(t, [][]float64{{0, 3}, {3, 0}}, dense(offs[2]))
}

// Hand-checked tables of "a b a a c a b" (see the comments for the counts).
//
//	N^1: (a,b)×2 (b,a) (a,a) (a,c) (c,a); rows a,b,c sums 4,1,1; cols 3,2,1; total 6
//	N^2: (a,a)×2 (b,a) (a,c) (c,b); row sums 3,1,1
//	cut, k=1: (a,a) 1·6 < 4·3 is dropped; all other entries are kept.
func TestTablesHandChecked(t *testing.T) {
	const text = "a b a a c a b"
	for _, tc := range []struct {
		name string
		vo   VocabOptions
		spec Spec
		want [][]float64
	}{
		{"N1", VocabOptions{MinCount: 1}, Spec{Kind: Flat, Window: 1}, [][]float64{{1, 2, 1}, {1, 0, 0}, {1, 0, 0}}},
		{"flat", VocabOptions{MinCount: 1}, Spec{Kind: Flat, Window: 2}, [][]float64{{3, 2, 2}, {2, 0, 0}, {1, 1, 0}}},
		{"flat symmetric", VocabOptions{MinCount: 1}, Spec{Kind: Flat, Window: 2, Symmetric: true}, [][]float64{{6, 4, 3}, {4, 0, 1}, {3, 1, 0}}},
		{"skip", VocabOptions{MinCount: 1}, Spec{Kind: Skip, Window: 2}, [][]float64{{2, 2, 1.5}, {1.5, 0, 0}, {1, 0.5, 0}}},
		{"skip symmetric", VocabOptions{MinCount: 1}, Spec{Kind: Skip, Window: 2, Symmetric: true}, [][]float64{{4, 3.5, 2.5}, {3.5, 0, 0.5}, {2.5, 0.5, 0}}},
		{"cut", VocabOptions{MinCount: 1}, Spec{Kind: Cut, Window: 2}, [][]float64{{2, 2, 2}, {2, 0, 0}, {1, 1, 0}}},
		{"cut N1 twice", VocabOptions{MinCount: 1}, Spec{Kind: Cut, Window: 2, CutN1Twice: true}, [][]float64{{2, 4, 3}, {3, 0, 0}, {2, 1, 0}}},
		{"cut symmetric", VocabOptions{MinCount: 1}, Spec{Kind: Cut, Window: 2, Symmetric: true}, [][]float64{{4, 4, 3}, {4, 0, 1}, {3, 1, 0}}},
		{"glove", VocabOptions{MinCount: 1}, Spec{Kind: Glove, Window: 2}, [][]float64{{4, 3.5, 2.5}, {3.5, 0, 0.5}, {2.5, 0.5, 0}}},
		// c is rare: with min count 2 it becomes <unk>, kept in place, last.
		{"unk flat", VocabOptions{MinCount: 2}, Spec{Kind: Flat, Window: 2}, [][]float64{{3, 2, 2}, {2, 0, 0}, {1, 1, 0}}},
		{"unk cut", VocabOptions{MinCount: 2, OOV: OOVUnk}, Spec{Kind: Cut, Window: 2}, [][]float64{{2, 2, 2}, {2, 0, 0}, {1, 1, 0}}},
		// Dropped, the text reads "a b a a a b".
		{"drop N1", VocabOptions{MinCount: 2, OOV: OOVDrop}, Spec{Kind: Flat, Window: 1}, [][]float64{{2, 2}, {1, 0}}},
		{"drop flat", VocabOptions{MinCount: 2, OOV: OOVDrop}, Spec{Kind: Flat, Window: 2}, [][]float64{{4, 3}, {2, 0}}},
		{"drop skip", VocabOptions{MinCount: 2, OOV: OOVDrop}, Spec{Kind: Skip, Window: 2}, [][]float64{{3, 2.5}, {1.5, 0}}},
		{"drop glove", VocabOptions{MinCount: 2, OOV: OOVDrop}, Spec{Kind: Glove, Window: 2}, [][]float64{{6, 4}, {4, 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, ids := buildText(t, text, tc.vo)
			tb, err := NewTables(v, ids, TableOptions{})
			require.NoError(t, err)
			m, err := tb.Table(context.Background(), tc.spec)
			require.NoError(t, err)
			assert.Equal(t, tc.want, dense(m))
		})
	}
}

func TestVocabUnkModes(t *testing.T) {
	v, ids := buildText(t, "a b a a c a b", VocabOptions{MinCount: 2})
	assert.Equal(t, []string{"a", "b", Unk}, v.Words)
	assert.Equal(t, []int64{4, 2, 1}, v.Counts)
	assert.EqualValues(t, 2, v.Unk)
	assert.Equal(t, []int32{0, 1, 0, 0, 2, 0, 1}, ids)

	v, ids = buildText(t, "a b a a c a b", VocabOptions{MinCount: 2, OOV: OOVDrop})
	assert.Equal(t, []string{"a", "b"}, v.Words)
	assert.EqualValues(t, -1, v.Unk)
	assert.EqualValues(t, 7, v.Tokens)
	assert.EqualValues(t, 1, v.Dropped)
	assert.Equal(t, []int32{0, 1, 0, 0, 0, 1}, ids)
}

// reference counts the tables straight from their definitions, densely.
func reference(ids []int32, v int, s Spec) [][]float64 {
	n := len(ids)
	off := func(k int) [][]int64 {
		m := make([][]int64, v)
		for i := range m {
			m[i] = make([]int64, v)
		}
		for t := k; t < n; t++ {
			m[ids[t-k]][ids[t]]++
		}
		return m
	}
	n1 := off(1)
	col1 := make([]int64, v)
	var total1 int64
	for i := range v {
		for j := range v {
			col1[j] += n1[i][j]
			total1 += n1[i][j]
		}
	}
	out := make([][]float64, v)
	for i := range out {
		out[i] = make([]float64, v)
	}
	W := s.Window
	num := make([][]float64, v) // skip: integer numerators
	for i := range num {
		num[i] = make([]float64, v)
	}
	for k := 1; k <= W; k++ {
		nk := off(k)
		for i := range v {
			var row int64
			for j := range v {
				row += nk[i][j]
			}
			for j := range v {
				x := nk[i][j]
				switch s.Kind {
				case Flat:
					out[i][j] += float64(x)
				case Skip:
					num[i][j] += float64(int64(W-k+1) * x)
				case Glove:
					out[i][j] += float64(x) / float64(k)
				case Cut:
					if x*total1 >= row*col1[j] {
						out[i][j] += float64(x)
						if k == 1 && s.CutN1Twice {
							out[i][j] += float64(x)
						}
					}
				}
			}
		}
	}
	if s.Kind == Skip {
		for i := range v {
			for j := range v {
				out[i][j] = num[i][j] / float64(W)
			}
		}
	}
	if s.Symmetric || s.Kind == Glove {
		sym := make([][]float64, v)
		for i := range v {
			sym[i] = make([]float64, v)
			for j := range v {
				sym[i][j] = out[i][j] + out[j][i]
			}
		}
		out = sym
	}
	return out
}

// Random corpora against the definitions, every kind and direction.
func TestTablesMatchDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 30 {
		n := 1 + rng.IntN(300)
		vsize := 1 + rng.IntN(12)
		ids := make([]int32, n)
		for i := range ids {
			// Skewed, so some words are frequent.
			ids[i] = int32(min(rng.IntN(vsize), rng.IntN(vsize)))
		}
		v := &Vocab{Unk: -1}
		for i := range vsize {
			v.Words = append(v.Words, string(rune('a'+i)))
		}
		tb, err := NewTables(v, ids, TableOptions{Workers: 1 + trial%3})
		require.NoError(t, err)
		w := 1 + rng.IntN(8)
		for _, kind := range Kinds {
			for _, sym := range []bool{false, true} {
				for _, twice := range []bool{false, true} {
					s := Spec{Kind: kind, Window: w, Symmetric: sym, CutN1Twice: twice}
					if s.Validate() != nil {
						continue
					}
					m, err := tb.Table(context.Background(), s)
					require.NoError(t, err)
					require.Equal(t, reference(ids, vsize, s), dense(m), "trial %d spec %+v", trial, s)
				}
			}
		}
	}
}

func TestFlatTotal(t *testing.T) {
	v, ids := buildText(t, strings.Repeat("x y z w y ", 40), VocabOptions{MinCount: 1})
	tb, err := NewTables(v, ids, TableOptions{})
	require.NoError(t, err)
	m, err := tb.Table(context.Background(), Spec{Kind: Flat, Window: 7})
	require.NoError(t, err)
	n := float64(len(ids))
	assert.Equal(t, 7*n-28, m.Sum()) // Σ_{k=1..7} (n − k)
}

func TestTablesSameWhateverParallelism(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ids := make([]int32, 20000)
	for i := range ids {
		ids[i] = int32(min(rng.IntN(500), rng.IntN(500), rng.IntN(500)))
	}
	v := &Vocab{Unk: -1}
	for i := range 500 {
		v.Words = append(v.Words, "w"+string(rune('0'+i%10))+string(rune('a'+i/10)))
	}
	get := func(procs, workers int) []*sparse.CSR {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		tb, err := NewTables(v, ids, TableOptions{Workers: workers})
		require.NoError(t, err)
		var out []*sparse.CSR
		for _, s := range []Spec{{Kind: Flat, Window: 10}, {Kind: Skip, Window: 10, Symmetric: true}, {Kind: Cut, Window: 10}, {Kind: Glove, Window: 10}} {
			m, err := tb.Table(context.Background(), s)
			require.NoError(t, err)
			out = append(out, m)
		}
		return out
	}
	one := get(1, 1)
	four := get(4, 4)
	for i := range one {
		equalCSR(t, one[i], four[i], "table %d", i)
	}
}

func TestTablesCache(t *testing.T) {
	ctx := context.Background()
	path := writeFile(t, "c.txt", strings.Repeat("the cat sat on the mat and the dog sat on the log ", 30))
	cache := t.TempDir()
	c, err := Open(ctx, "", path, Options{CacheDir: cache})
	require.NoError(t, err)
	v, ids, err := Build(ctx, c, VocabOptions{MinCount: 2})
	require.NoError(t, err)

	plain, err := NewTables(v, ids, TableOptions{})
	require.NoError(t, err)
	want, err := plain.Offsets(ctx, 5)
	require.NoError(t, err)

	var log strings.Builder
	cached, err := NewTables(v, ids, TableOptions{CacheDir: cache, Log: &log})
	require.NoError(t, err)
	first, err := cached.Offsets(ctx, 5) // counts and stores
	require.NoError(t, err)
	files, _ := filepath.Glob(filepath.Join(cache, "offset-*.bin"))
	require.Len(t, files, 5)
	second, err := cached.Offsets(ctx, 5) // loads
	require.NoError(t, err)
	for k := range want {
		equalCSR(t, want[k], first[k])
		equalCSR(t, want[k], second[k])
	}
	// A longer window counts only the new offsets.
	_, err = cached.Offsets(ctx, 7)
	require.NoError(t, err)
	files, _ = filepath.Glob(filepath.Join(cache, "offset-*.bin"))
	require.Len(t, files, 7)
	assert.NotContains(t, log.String(), "warning")

	// Damage: a flipped byte, a truncated file, an empty file. Each is
	// reported and rebuilt, and the rebuilt tables are the same.
	k3 := cachePath(cache, "offset", cached.offsetKey(3))
	for _, damage := range []func(b []byte) []byte{
		func(b []byte) []byte { b[len(b)/2] ^= 0x40; return b },
		func(b []byte) []byte { return b[:len(b)-7] },
		func(b []byte) []byte { return nil },
		func(b []byte) []byte { b[len(b)-1] ^= 1; return b },
	} {
		b, err := os.ReadFile(k3)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(k3, damage(b), 0o644))
		log.Reset()
		again, err := cached.Offsets(ctx, 5)
		require.NoError(t, err)
		assert.Contains(t, log.String(), "damaged cache file")
		assert.Contains(t, log.String(), "rebuilding")
		for k := range want {
			equalCSR(t, want[k], again[k])
		}
		_, err = os.Stat(k3)
		require.NoError(t, err, "rebuilt file stored again")
	}
	tmp, _ := filepath.Glob(filepath.Join(cache, ".*")) // temporary files are hidden
	assert.Empty(t, tmp, "no temporary files left")

	// A different vocabulary setting is a different address.
	v2, ids2, err := Build(ctx, c, VocabOptions{MinCount: 3})
	require.NoError(t, err)
	assert.NotEqual(t, v.Key, v2.Key)
	other, err := NewTables(v2, ids2, TableOptions{CacheDir: cache})
	require.NoError(t, err)
	assert.NotEqual(t, cached.offsetKey(1), other.offsetKey(1))
}

func TestTablesErrors(t *testing.T) {
	v, ids := buildText(t, "a b a b", VocabOptions{MinCount: 1})
	tb, err := NewTables(v, ids, TableOptions{})
	require.NoError(t, err)
	ctx := context.Background()
	for _, tc := range []struct {
		spec Spec
		want string
	}{
		{Spec{Kind: "tail", Window: 3}, `table kind "tail": want one of flat, skip, cut, glove`},
		{Spec{Kind: Flat, Window: 0}, "window 0: want ≥ 1"},
		{Spec{Kind: Glove, Window: 2, Symmetric: true}, "symmetric by construction"},
		{Spec{Kind: Skip, Window: 2, CutN1Twice: true}, "CutN1Twice applies to the cut table only"},
	} {
		_, err := tb.Table(ctx, tc.spec)
		require.ErrorContains(t, err, tc.want)
	}
	_, err = NewTables(v, []int32{0, 5}, TableOptions{})
	require.NoError(t, err)
	bad, _ := NewTables(v, []int32{0, 5}, TableOptions{})
	_, err = bad.Offsets(ctx, 1)
	require.ErrorContains(t, err, "token 1 has id 5 outside the vocabulary of 2")
	_, err = NewTables(v, nil, TableOptions{})
	require.ErrorContains(t, err, "no tokens")
	_, err = Combine(nil, Spec{Kind: Flat, Window: 2})
	require.ErrorContains(t, err, "window 2 but 0 offset tables given")

	// A window longer than the corpus gives empty tables, not an error.
	offs, err := tb.Offsets(ctx, 6)
	require.NoError(t, err)
	assert.Equal(t, 0, offs[5].NNZ())

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = tb.Offsets(cancelled, 3)
	require.ErrorIs(t, err, context.Canceled)
}

func TestCacheDirUnusable(t *testing.T) {
	ctx := context.Background()
	file := writeFile(t, "not-a-dir", "x")
	c, err := Open(ctx, "", writeFile(t, "c.txt", "a b a b"), Options{CacheDir: file})
	require.NoError(t, err)
	_, _, err = Build(ctx, c, VocabOptions{MinCount: 1})
	require.ErrorContains(t, err, file+"/vocab-")
	require.ErrorContains(t, err, "not a directory")

	v, ids := buildText(t, "a b a b", VocabOptions{MinCount: 1})
	tb, err := NewTables(v, ids, TableOptions{CacheDir: filepath.Join(file, "sub")})
	require.NoError(t, err)
	_, err = tb.Offsets(ctx, 2)
	require.ErrorContains(t, err, "not a directory")
}

func TestTablesSmallAPI(t *testing.T) {
	ctx := context.Background()
	v, ids := buildText(t, "a b a b c a", VocabOptions{MinCount: 1})
	_, err := NewTables(nil, ids, TableOptions{})
	require.ErrorContains(t, err, "empty vocabulary")
	_, err = NewTables(v, ids, TableOptions{Workers: -1})
	require.ErrorContains(t, err, "Workers = -1: want ≥ 0")

	tb, err := NewTables(v, ids, TableOptions{})
	require.NoError(t, err)
	assert.Same(t, v, tb.Vocab())
	n2, err := tb.Offset(ctx, 2)
	require.NoError(t, err)
	offs, err := tb.Offsets(ctx, 2)
	require.NoError(t, err)
	equalCSR(t, offs[1], n2)
	_, err = tb.Offset(ctx, 0)
	require.ErrorContains(t, err, "offset 0: want ≥ 1")

	// A hand-made vocabulary is cached under the hash of its ids.
	hand := &Vocab{Words: v.Words, Unk: -1}
	cache := t.TempDir()
	var log strings.Builder
	h1, err := NewTables(hand, ids, TableOptions{CacheDir: cache, Log: &log})
	require.NoError(t, err)
	assert.Contains(t, h1.key, "ids-sha256=")
	got, err := h1.Offset(ctx, 2)
	require.NoError(t, err)
	equalCSR(t, n2, got)
	assert.Contains(t, log.String(), "offset table N^2 100%")
	other := append([]int32{}, ids...)
	other[0], other[1] = other[1], other[0]
	h2, err := NewTables(hand, other, TableOptions{CacheDir: cache})
	require.NoError(t, err)
	assert.NotEqual(t, h1.key, h2.key)
}

func TestProgressPlainLines(t *testing.T) {
	var b strings.Builder
	p := newProgress(&b, "reading", "B", 3<<20)
	p.update(1 << 20) // too soon for a line
	p.finish(3 << 20)
	p.finish(3 << 20) // once only
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	require.Len(t, lines, 1)
	assert.Regexp(t, `^reading 100% 3\.0 MiB/3\.0 MiB [0-9.]+ [KMG]?i?B/s [0-9.]+s$`, lines[0])
	var nilp *progress
	nilp.update(1) // a nil progress (no writer) is silent
	nilp.finish(1)
	assert.Nil(t, newProgress(nil, "x", "B", 1))
	c := &progress{unit: "tokens"}
	assert.Equal(t, "1.50G tokens", c.amount(1_500_000_000))
	assert.Equal(t, "2.1k tokens", c.amount(2_100))
	assert.Equal(t, "12 tokens", c.amount(12))
}

// The cache is addressed by the corpus's content, not its path: a corpus
// file edited in place (same name, same size) gets its own vocabulary and
// tables, never those of its old version.
func TestCacheServesNoOldVersionOfAFile(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	path := writeFile(t, "c.txt", strings.Repeat("the cat sat on the mat ", 40))
	tables := func() (*Vocab, []*sparse.CSR) {
		c, err := Open(ctx, "", path, Options{CacheDir: cache})
		require.NoError(t, err)
		v, ids, err := Build(ctx, c, VocabOptions{MinCount: 1})
		require.NoError(t, err)
		tabs, err := NewTables(v, ids, TableOptions{CacheDir: cache})
		require.NoError(t, err)
		n, err := tabs.Offsets(ctx, 2)
		require.NoError(t, err)
		return v, n
	}
	_, before := tables()
	// Same length, other words: "mat" becomes "hat" throughout.
	require.NoError(t, os.WriteFile(path, []byte(strings.Repeat("the cat sat on the hat ", 40)), 0o644))
	v, after := tables()
	assert.Contains(t, v.Words, "hat")
	assert.NotContains(t, v.Words, "mat")

	c, err := Open(ctx, "", path, Options{})
	require.NoError(t, err)
	fv, fids, err := Build(ctx, c, VocabOptions{MinCount: 1})
	require.NoError(t, err)
	fresh, err := NewTables(fv, fids, TableOptions{})
	require.NoError(t, err)
	want, err := fresh.Offsets(ctx, 2)
	require.NoError(t, err)
	for k := range want {
		equalCSR(t, want[k], after[k])
	}
	require.Len(t, before, len(after))
}

// enospc fails every write like a full disk.
type enospc struct{}

func (enospc) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// A cache that cannot take a file (a full disk) costs the cache, not the
// work: vocabulary and tables are computed and returned, with one warning
// each, and nothing half-written is left.
func TestCacheFullDisk(t *testing.T) {
	saved := testHookCacheWriter
	testHookCacheWriter = func(io.Writer) io.Writer { return enospc{} }
	t.Cleanup(func() { testHookCacheWriter = saved })
	ctx := context.Background()
	cache := t.TempDir()
	var log strings.Builder
	c, err := Open(ctx, "", writeFile(t, "c.txt", strings.Repeat("a b c a b ", 20)), Options{CacheDir: cache, Log: &log})
	require.NoError(t, err)
	v, ids, err := Build(ctx, c, VocabOptions{MinCount: 1})
	require.NoError(t, err)
	tb, err := NewTables(v, ids, TableOptions{CacheDir: cache, Log: &log})
	require.NoError(t, err)
	got, err := tb.Offsets(ctx, 3)
	require.NoError(t, err)
	plain, err := NewTables(v, ids, TableOptions{})
	require.NoError(t, err)
	want, err := plain.Offsets(ctx, 3)
	require.NoError(t, err)
	for k := range want {
		equalCSR(t, want[k], got[k])
	}
	assert.Equal(t, 1, strings.Count(log.String(), "going on without caching it"), log.String())
	assert.Equal(t, 1, strings.Count(log.String(), "going on without caching offset tables"), log.String())
	assert.Contains(t, log.String(), "no space left on device")
	left, _ := os.ReadDir(cache)
	assert.Empty(t, left)
}

// The cache is bounded: TrimCache removes the least recently used tables
// (a read counts as a use) and nothing that is not a cache file.
func TestTrimCache(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	v, ids := buildText(t, strings.Repeat("a b c d e a b c ", 50), VocabOptions{MinCount: 1})
	tb, err := NewTables(v, ids, TableOptions{CacheDir: cache})
	require.NoError(t, err)
	_, err = tb.Offsets(ctx, 4)
	require.NoError(t, err)
	other := filepath.Join(cache, "notes.txt")
	require.NoError(t, os.WriteFile(other, []byte("mine"), 0o644))
	files, err := CacheFiles(cache)
	require.NoError(t, err)
	require.Len(t, files, 4)
	old := time.Now().Add(-time.Hour)
	for i, f := range files {
		require.NoError(t, os.Chtimes(f.Path, old, old.Add(time.Duration(i)*time.Minute)))
	}
	// Reading offset 1 makes it the most recently used.
	k1 := cachePath(cache, "offset", tb.offsetKey(1))
	again, err := NewTables(v, ids, TableOptions{CacheDir: cache})
	require.NoError(t, err)
	_, err = again.Offset(ctx, 1)
	require.NoError(t, err)
	var total int64
	for _, f := range files {
		total += f.Size
	}
	n, b, err := TrimCache(cache, total-1)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Positive(t, b)
	assert.FileExists(t, k1, "the table just read stays")
	n, _, err = TrimCache(cache, 0)
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	assert.FileExists(t, other)
}

// A cache entry being built is locked: a second builder waits for the
// first and then takes the entry from the cache instead of counting it
// again.
func TestCacheEntryLocked(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	v, ids := buildText(t, strings.Repeat("a b c d e a b c ", 50), VocabOptions{MinCount: 1})
	first, err := NewTables(v, ids, TableOptions{CacheDir: cache})
	require.NoError(t, err)
	key := first.offsetKey(1)
	held, err := dirlock.Acquire(ctx, filepath.Join(cache, "."+filepath.Base(cachePath(cache, "offset", key))+".lock"), dirlock.Options{})
	require.NoError(t, err)

	var log syncBuffer
	second, err := NewTables(v, ids, TableOptions{CacheDir: cache, Log: &log})
	require.NoError(t, err)
	got := make(chan *sparse.CSR, 1)
	go func() {
		m, err := second.Offset(ctx, 1)
		assert.NoError(t, err)
		got <- m
	}()
	select {
	case <-got:
		t.Fatal("built while another run held the entry")
	case <-time.After(300 * time.Millisecond):
	}
	assert.Contains(t, log.String(), "is building the cached offset")
	// The holder stores the entry and lets go; the waiter loads it.
	want, err := (&Tables{vocab: v, ids: ids, opts: TableOptions{Workers: 1}, key: first.key}).Offset(ctx, 1)
	require.NoError(t, err)
	require.NoError(t, first.store(1, want))
	stored, err := os.Stat(cachePath(cache, "offset", key))
	require.NoError(t, err)
	require.NoError(t, held.Release())
	select {
	case m := <-got:
		equalCSR(t, want, m)
	case <-time.After(5 * time.Second):
		t.Fatal("the waiter did not finish")
	}
	now, err := os.Stat(cachePath(cache, "offset", key))
	require.NoError(t, err)
	assert.True(t, os.SameFile(stored, now), "the waiter counted and stored the entry again instead of loading it")
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
