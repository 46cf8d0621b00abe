package corpus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const tableDirText = "the cat sat on the mat the dog sat on the log a cat and a dog " +
	"sat on the mat <unk> the end zebra the cat sat"

// Every table a spec can ask for reads back from a table directory with
// the same bits as counted from the tokens.
func TestTableDirRoundTrip(t *testing.T) {
	ctx := context.Background()
	for _, vo := range []VocabOptions{
		{MinCount: 1},
		{MinCount: 2, OOV: OOVUnk},
		{MinCount: 2, OOV: OOVDrop},
		{MinCount: 1, MaxSize: 4},
	} {
		t.Run(string(vo.OOV)+"/"+strings.Repeat("x", int(vo.MinCount)), func(t *testing.T) {
			v, ids := buildText(t, tableDirText, vo)
			counted, err := NewTables(v, ids, TableOptions{})
			require.NoError(t, err)
			const w = 3
			dir := t.TempDir()
			require.NoError(t, WriteTableDir(ctx, dir, counted, w, "test"))
			stored, err := OpenTableDir(dir)
			require.NoError(t, err)
			assert.Equal(t, dir, stored.Dir())
			assert.Empty(t, counted.Dir())
			sv := stored.Vocab()
			assert.Equal(t, v.Words, sv.Words)
			assert.Equal(t, v.Counts, sv.Counts)
			assert.Equal(t, v.Index, sv.Index)
			assert.Equal(t, [3]int64{int64(v.Unk), v.Tokens, v.Dropped}, [3]int64{int64(sv.Unk), sv.Tokens, sv.Dropped})
			assert.Equal(t, v.Options, sv.Options)
			for win := 1; win <= w; win++ {
				for _, kind := range Kinds {
					for _, s := range []Spec{
						{Kind: kind, Window: win},
						{Kind: kind, Window: win, Symmetric: true},
						{Kind: kind, Window: win, CutN1Twice: true},
					} {
						if s.Validate() != nil {
							continue
						}
						want, err := counted.Table(ctx, s)
						require.NoError(t, err)
						got, err := stored.Table(ctx, s)
						require.NoError(t, err)
						equalCSR(t, want, got, "%+v", s)
					}
				}
			}
			_, err = stored.Table(ctx, Spec{Kind: Flat, Window: w + 1})
			require.ErrorContains(t, err, "holds offsets 1..3")
		})
	}
}

// A damaged or incomplete directory is refused with the file named.
func TestTableDirDamage(t *testing.T) {
	ctx := context.Background()
	v, ids := buildText(t, tableDirText, VocabOptions{MinCount: 1})
	counted, err := NewTables(v, ids, TableOptions{})
	require.NoError(t, err)
	write := func(t *testing.T) string {
		dir := t.TempDir()
		require.NoError(t, WriteTableDir(ctx, dir, counted, 2, "test"))
		return dir
	}
	t.Run("flipped byte", func(t *testing.T) {
		dir := write(t)
		p := filepath.Join(dir, TableFileName("offset", 2))
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		b[len(b)-1] ^= 1
		require.NoError(t, os.WriteFile(p, b, 0o644))
		tb, err := OpenTableDir(dir)
		require.NoError(t, err)
		_, err = tb.Offset(ctx, 2)
		require.ErrorContains(t, err, "offset-002.csr fails its CRC-32C check")
		_, err = tb.Table(ctx, Spec{Kind: Glove, Window: 2})
		require.ErrorContains(t, err, "offset-002.csr")
		_, err = tb.Table(ctx, Spec{Kind: Flat, Window: 2}) // stored, unharmed
		require.NoError(t, err)
	})
	t.Run("truncated", func(t *testing.T) {
		dir := write(t)
		p := filepath.Join(dir, "cut.csr")
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(p, b[:len(b)-8], 0o644))
		tb, err := OpenTableDir(dir)
		require.NoError(t, err)
		_, err = tb.Table(ctx, Spec{Kind: Cut, Window: 2})
		require.ErrorContains(t, err, "cut.csr has")
	})
	// Nothing in a table directory is read but a regular file: a FIFO or
	// a link to a device in a file's place is refused without waiting or
	// reading, and the manifest is at most 1 MiB.
	for _, tc := range []struct{ name, file, want string }{
		{"manifest FIFO", ManifestFile, "manifest.json: not a regular file (a FIFO): want a table directory's manifest"},
		{"manifest /dev/zero", ManifestFile, "manifest.json: not a regular file (a character device)"},
		{"manifest over 1 MiB", ManifestFile, "manifest.json: over the size limit: 1048577 bytes, over the limit of 1 MiB"},
		{"vocabulary FIFO", VocabFile, "vocab.txt: not a regular file (a FIFO): want a table directory's file"},
		{"table /dev/zero", "cut.csr", "cut.csr: not a regular file (a character device)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := write(t)
			p := filepath.Join(dir, tc.file)
			require.NoError(t, os.Remove(p))
			switch {
			case strings.Contains(tc.name, "FIFO"):
				require.NoError(t, syscall.Mkfifo(p, 0o644))
			case strings.Contains(tc.name, "/dev/zero"):
				require.NoError(t, os.Symlink("/dev/zero", p))
			default:
				require.NoError(t, os.WriteFile(p, make([]byte, MaxManifestBytes+1), 0o644))
			}
			done := make(chan error, 1)
			go func() {
				tb, err := OpenTableDir(dir)
				if err == nil {
					_, err = tb.Table(ctx, Spec{Kind: Cut, Window: 2})
				}
				done <- err
			}()
			select {
			case err := <-done:
				require.ErrorContains(t, err, tc.want)
			case <-time.After(10 * time.Second):
				t.Fatal("reading the table directory did not return")
			}
		})
	}
	// Hostile round 5, serious 5: a 400-byte manifest with "words":
	// 4000000000 and empty files made the reader size a map by it (4.1 GB,
	// then "fatal error: out of memory"). Every count of a manifest is
	// checked against the bytes that are there first.
	for _, tc := range []struct{ name, manifest, want string }{
		{"4e9 words, empty files", `{"format":%q,"window":1,"min_count":1,"max_size":0,"oov":"unk","tokens":4000000000,"dropped":0,"words":4000000000,"unk":0,` +
			`"files":[{"name":"vocab.txt","bytes":0,"crc32c":0},{"name":"offset-001.csr","bytes":0,"crc32c":0}]}`,
			"manifest has 4000000000 words, but its vocab.txt has 0 bytes, room for at most 0"},
		{"4e9 words, the file says fewer", `{"format":%q,"window":1,"min_count":1,"max_size":0,"oov":"unk","tokens":4000000000,"dropped":0,"words":4000000000,"unk":0,` +
			`"files":[{"name":"vocab.txt","bytes":4000000000000,"crc32c":0},{"name":"offset-001.csr","bytes":0,"crc32c":0}]}`,
			"vocab.txt has 0 bytes, the manifest says 4000000000000"},
		{"a window of 4e9", `{"format":%q,"window":4000000000,"min_count":1,"max_size":0,"oov":"unk","tokens":1,"dropped":0,"words":1,"unk":0,` +
			`"files":[{"name":"vocab.txt","bytes":0,"crc32c":0}]}`,
			"manifest has window 4000000000 but lists 1 files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, ManifestFile), []byte(fmt.Sprintf(tc.manifest, TableDirFormat)), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, VocabFile), nil, 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, TableFileName("offset", 1)), nil, 0o644))
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := OpenTableDir(dir)
			runtime.ReadMemStats(&after)
			require.ErrorContains(t, err, tc.want)
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "nothing sized by the manifest's counts")
		})
	}
	t.Run("no manifest", func(t *testing.T) {
		dir := write(t)
		require.NoError(t, os.Remove(filepath.Join(dir, ManifestFile)))
		_, err := OpenTableDir(dir)
		require.ErrorContains(t, err, "no manifest")
	})
	t.Run("vocabulary", func(t *testing.T) {
		dir := write(t)
		p := filepath.Join(dir, VocabFile)
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		b[0] = 'T'
		require.NoError(t, os.WriteFile(p, b, 0o644))
		_, err = OpenTableDir(dir)
		require.ErrorContains(t, err, "vocab.txt fails its CRC-32C check")
	})
}

// VocabFromCounts makes the vocabulary Build makes of the same text.
func TestVocabFromCounts(t *testing.T) {
	counts := map[string]int64{}
	for _, w := range strings.Fields(tableDirText) {
		counts[w]++
	}
	for _, vo := range []VocabOptions{
		{MinCount: 1},
		{MinCount: 2},
		{MinCount: 2, OOV: OOVDrop},
		{MinCount: 1, MaxSize: 3},
		{},
	} {
		want, _ := func() (*Vocab, []int32) {
			c, err := Open(context.Background(), "", writeFile(t, "c.txt", tableDirText), Options{})
			require.NoError(t, err)
			v, ids, err := Build(context.Background(), c, vo)
			if err != nil {
				return nil, nil
			}
			return v, ids
		}()
		got, err := VocabFromCounts(counts, vo)
		if want == nil {
			require.Error(t, err, "%+v", vo)
			continue
		}
		require.NoError(t, err)
		want.Key = ""
		assert.Equal(t, want, got, "%+v", vo)
	}
	_, err := VocabFromCounts(map[string]int64{"a": 1}, VocabOptions{MinCount: 1, MinSize: 2})
	require.ErrorContains(t, err, "fewer than the 2 asked for")
}
