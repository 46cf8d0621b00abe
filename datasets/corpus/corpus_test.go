package corpus

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
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

func zipBytes(t testing.TB, members ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i < len(members); i += 2 {
		w, err := zw.Create(members[i])
		require.NoError(t, err)
		_, err = w.Write([]byte(members[i+1]))
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func gzBytes(t testing.TB, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func writeBytes(t testing.TB, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, b, 0o644))
	return p
}

func scanAll(t testing.TB, c *Corpus) []string {
	t.Helper()
	var out []string
	require.NoError(t, c.Scan(context.Background(), func(tok []byte) error {
		out = append(out, string(tok))
		return nil
	}))
	return out
}

func TestDataDir(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvData, "")
	got, err := DataDir(dir)
	require.NoError(t, err)
	assert.Equal(t, dir, got)

	t.Setenv(EnvData, dir)
	got, err = DataDir("")
	require.NoError(t, err)
	assert.Equal(t, dir, got)

	other := t.TempDir()
	got, err = DataDir(other) // the flag wins over the environment
	require.NoError(t, err)
	assert.Equal(t, other, got)

	t.Setenv(EnvData, "")
	got, err = DataDir("")
	require.NoError(t, err)
	wd, _ := os.Getwd()
	assert.Equal(t, filepath.Join(wd, "data"), got)

	_, err = DataDir(filepath.Join(dir, "missing"))
	require.ErrorContains(t, err, "(from -data flag)")
	t.Setenv(EnvData, filepath.Join(dir, "missing"))
	_, err = DataDir("")
	require.ErrorContains(t, err, "(from $KCALAB_DATA)")
	file := writeBytes(t, dir, "f", []byte("x"))
	_, err = DataDir(file)
	require.ErrorContains(t, err, "is not a directory")
}

func TestOpenFormats(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	const text = "the Quick brown\nfox the end"
	want := []string{"the", "Quick", "brown", "fox", "the", "end"}
	for _, tc := range []struct {
		name, file string
		content    []byte
		format     string
		member     string
	}{
		{"plain", "c.txt", []byte(text), "plain text", ""},
		{"plain without extension", "corpus", []byte(text), "plain text", ""},
		{"gzip", "c.txt.gz", gzBytes(t, text), "gzip", ""},
		{"gzip any name", "c.bin", gzBytes(t, text), "gzip", ""},
		{"zip single", "c.zip", zipBytes(t, "c.txt", text), "zip", "c.txt"},
		{"zip: the member named like the archive", "c2.zip", zipBytes(t, "dir/", "", "notes", "other words", "c2", text), "zip", "c2"},
		{"zip: one file besides a folder", "c3.zip", zipBytes(t, "dir/", "", "any", text), "zip", "any"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Open(ctx, "", writeBytes(t, dir, tc.file, tc.content), Options{})
			require.NoError(t, err)
			assert.Equal(t, tc.format, c.Format())
			assert.Equal(t, tc.member, c.Member)
			assert.Equal(t, want, scanAll(t, c))
		})
	}

	// The same text plain and zipped has one identity (CRC-32 and size).
	p, err := Open(ctx, "", writeBytes(t, dir, "same.txt", []byte(text)), Options{})
	require.NoError(t, err)
	z, err := Open(ctx, "", writeBytes(t, dir, "same.zip", zipBytes(t, "same", text)), Options{})
	require.NoError(t, err)
	pi, err := p.Identity()
	require.NoError(t, err)
	zi, err := z.Identity()
	require.NoError(t, err)
	assert.Equal(t, pi, zi)
	assert.Equal(t, "crc32=d441cff6,size=27", pi)
}

func TestOpenNamed(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeBytes(t, dir, "text8_prefix.zip", zipBytes(t, "readme", "not this", "text8_prefix", " anarchism originated as"))
	c, err := Open(ctx, dir, "text8_prefix", Options{})
	require.NoError(t, err)
	assert.Equal(t, "text8_prefix", c.Member)
	assert.Equal(t, []string{"anarchism", "originated", "as"}, scanAll(t, c))

	_, err = Open(ctx, t.TempDir(), "text8_prefix", Options{})
	require.ErrorContains(t, err, "text8_prefix.zip not found: put text8_prefix.zip in the data directory")
	_, err = Open(ctx, t.TempDir(), "text8", Options{Offline: true})
	require.ErrorContains(t, err, "not found and downloads are off: put text8.zip (http://mattmahoney.net/dc/text8.zip) there")

	writeBytes(t, dir, "text8.zip", zipBytes(t, "other", "x"))
	_, err = Open(ctx, dir, "text8", Options{})
	require.ErrorContains(t, err, `zip has no member "text8"`)
}

func TestOpenOptions(t *testing.T) {
	ctx := context.Background()
	path := writeFile(t, "c.txt", "A b C d E f G h I j")
	for _, tc := range []struct {
		name string
		opts Options
		want []string
	}{
		{"all", Options{}, strings.Fields("A b C d E f G h I j")},
		{"lowercase", Options{Lowercase: true}, strings.Fields("a b c d e f g h i j")},
		{"max tokens", Options{MaxTokens: 3}, []string{"A", "b", "C"}},
		{"max tokens beyond", Options{MaxTokens: 30}, strings.Fields("A b C d E f G h I j")},
		{"fraction", Options{Fraction: 0.25}, []string{"A", "b"}}, // floor(2.5)
		{"fraction one", Options{Fraction: 1}, strings.Fields("A b C d E f G h I j")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Open(ctx, "", path, tc.opts)
			require.NoError(t, err)
			assert.Equal(t, tc.want, scanAll(t, c))
			v, ids, err := Build(ctx, c, VocabOptions{MinCount: 1})
			require.NoError(t, err)
			assert.EqualValues(t, len(tc.want), v.Tokens)
			assert.Len(t, ids, len(tc.want))
		})
	}
	c, err := Open(ctx, "", path, Options{Fraction: 0.05})
	require.NoError(t, err)
	_, _, err = Build(ctx, c, VocabOptions{})
	require.ErrorContains(t, err, "Fraction 0.05 of 10 tokens selects no token")
	require.ErrorContains(t, c.Scan(ctx, func([]byte) error { return nil }), "selects no token")
}

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	good := zipBytes(t, "c", strings.Repeat("some words here ", 1000))
	gz := gzBytes(t, strings.Repeat("some words here ", 1000))
	corruptZip := append([]byte(nil), good...)
	corruptZip[60] ^= 0xff // inside the compressed data
	corruptGz := append([]byte(nil), gz...)
	corruptGz[len(corruptGz)-6] ^= 0xff // the CRC trailer
	for _, tc := range []struct {
		name    string
		file    string
		content []byte
		opts    Options
		openErr string // error from Open, or
		readErr string // from Build
	}{
		{"missing", "", nil, Options{}, "no such file or directory", ""},
		{"directory", ".", nil, Options{}, "is a directory, want a text file", ""},
		{"truncated zip", "t.zip", good[:len(good)/2], Options{}, "truncated or corrupt zip", ""},
		{"zip that is text", "t2.zip", []byte("hello world"), Options{}, "named .zip but does not start like zip data", ""},
		{"empty zip", "e.zip", zipBytes(t), Options{}, "zip holds no file", ""},
		{"bad options", "o.txt", []byte("a"), Options{MaxTokens: 5, Fraction: 0.5}, "MaxTokens = 5 and Fraction = 0.5 both set", ""},
		{"bad fraction", "o.txt", []byte("a"), Options{Fraction: 1.5}, "Fraction = 1.5: want a number in (0, 1]", ""},
		{"negative max", "o.txt", []byte("a"), Options{MaxTokens: -1}, "MaxTokens = -1: want ≥ 0", ""},
		{"corrupt zip data", "c.zip", corruptZip, Options{}, "", "corrupt compressed data; replace the file"},
		{"truncated gzip", "t.gz", gz[:len(gz)/2], Options{}, "", "the gzip file is truncated or corrupt; replace it"},
		{"corrupt gzip crc", "c.gz", corruptGz, Options{}, "", "the gzip file is truncated or corrupt; replace it"},
		{"empty file", "empty.txt", []byte{}, Options{}, "", "holds no tokens (empty file?)"},
		{"blank file", "blank.txt", []byte(" \n\n "), Options{}, "", "holds no tokens"},
		{"empty gzip", "empty.gz", gzBytes(t, ""), Options{}, "", "holds no tokens"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			if tc.content != nil {
				path = writeBytes(t, dir, tc.file, tc.content)
			} else if tc.file == "" {
				path = filepath.Join(dir, "nothing.txt")
			}
			c, err := Open(ctx, "", path, tc.opts)
			if tc.openErr != "" {
				require.ErrorContains(t, err, tc.openErr)
				return
			}
			require.NoError(t, err)
			_, _, err = Build(ctx, c, VocabOptions{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.readErr)
		})
	}
}

func TestZipChecksumError(t *testing.T) {
	// A stored (uncompressed) member with one changed byte passes the
	// decompressor and fails the CRC-32 check at the end.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "c", Method: zip.Store})
	require.NoError(t, err)
	_, err = w.Write([]byte("alpha beta gamma"))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	b := buf.Bytes()
	i := bytes.Index(b, []byte("beta"))
	b[i] = 'z'
	c, err := Open(context.Background(), "", writeBytes(t, t.TempDir(), "s.zip", b), Options{})
	require.NoError(t, err)
	_, _, err = Build(context.Background(), c, VocabOptions{MinCount: 1})
	require.ErrorContains(t, err, "fails its CRC-32 check (corrupt file; replace it)")
}

// A zip with several files and none named like the archive is refused,
// naming the files, instead of reading the first one.
func TestOpenZipSeveralMembers(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, file string
		members    []string
		want       string
	}{
		{"two files", "corpus.zip", []string{"a.txt", "x", "b.txt", "y"}, `zip holds 2 files ("a.txt", "b.txt") and none is named "corpus" or "corpus.txt"`},
		{"three files in folders", "c.zip", []string{"d/a", "x", "d/b", "y", "e/c.md", "z"}, `zip holds 3 files ("d/a", "d/b", "e/c.md")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(context.Background(), "", writeBytes(t, dir, tc.file, zipBytes(t, tc.members...)), Options{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), tc.file)
		})
	}
}

// A binary file given as a corpus is refused, not counted as words: its
// text has NUL bytes or is not UTF-8. A device or FIFO is refused unread.
func TestOpenRefusesBinary(t *testing.T) {
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte("a b \x00\x01\x02 c"))
	require.NoError(t, zw.Close())
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	tests := []struct {
		name, path, want string
	}{
		{"NUL bytes", writeBytes(t, dir, "prog", []byte("\x7fELF\x02\x01\x01\x00\x00\x00 rest")), "not a text file: byte 7 of the text is NUL"},
		{"not UTF-8", writeBytes(t, dir, "latin1.txt", []byte("caf\xe9 au lait")), "not a text file: byte 3 of the text is not UTF-8"},
		{"NUL inside gzip", writeBytes(t, dir, "c.gz", gz.Bytes()), "byte 4 of the text is NUL"},
		{"a FIFO", fifo, "is not a regular file"},
		{"/dev/zero", "/dev/zero", "is not a regular file"},
		{"UTF-8 text", writeBytes(t, dir, "ok.txt", []byte("naïve café \u00e9t\u00e9 ")), ""},
		{"a character cut at 64 KiB", writeBytes(t, dir, "long.txt", []byte(strings.Repeat("a", 64<<10-1)+"é and more")), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := Open(context.Background(), "", tt.path, Options{})
				done <- err
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(3 * time.Second):
				t.Fatal("Open did not return")
			}
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// A corpus swapped for a FIFO after it was opened is refused when it is
// read again, not waited on.
func TestCorpusSwappedForFIFO(t *testing.T) {
	dir := t.TempDir()
	p := writeBytes(t, dir, "c.txt", []byte("a b c a b"))
	c, err := Open(context.Background(), "", p, Options{})
	require.NoError(t, err)
	require.NoError(t, os.Remove(p))
	require.NoError(t, syscall.Mkfifo(p, 0o644))
	done := make(chan error, 1)
	go func() { _, err := c.Identity(); done <- err }()
	select {
	case err := <-done:
		require.ErrorContains(t, err, "c.txt: not a regular file (a FIFO): want a corpus")
	case <-time.After(10 * time.Second):
		t.Fatal("Identity waited on the FIFO")
	}
}
