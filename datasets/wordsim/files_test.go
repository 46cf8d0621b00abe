package wordsim

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Word-pair and analogy files are read as a spec is: only a regular file of
// at most MaxFileBytes. A FIFO, a device or a directory is refused at once,
// naming the file and what is wanted, instead of blocking or filling memory.
func TestLoadFilesRegularOnly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.txt")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	big := filepath.Join(dir, "big.txt")
	require.NoError(t, os.WriteFile(big, []byte(strings.Repeat("a b 1\n", MaxFileBytes/6+1)), 0o644))
	pairs := filepath.Join(dir, "pairs.txt")
	require.NoError(t, os.WriteFile(pairs, []byte("a b 1\nc d 2\n"), 0o644))
	questions := filepath.Join(dir, "questions.txt")
	require.NoError(t, os.WriteFile(questions, []byte(": s\na b c d\n"), 0o644))

	load := map[string]func(string) error{
		"pairs":     func(p string) error { _, err := LoadFile(p); return err },
		"analogies": func(p string) error { _, err := LoadAnalogyFile(p); return err },
	}
	for _, tc := range []struct{ name, kind, path, want string }{
		{"pairs FIFO", "pairs", fifo, fifo + ": not a regular file (a FIFO): want a word-similarity set"},
		{"pairs device", "pairs", "/dev/zero", "word-similarity file: /dev/zero: not a regular file (a character device)"},
		{"pairs directory", "pairs", dir, "not a regular file (a directory)"},
		{"pairs over 64 MiB", "pairs", big, "over the limit of 64 MiB for a word-similarity set"},
		{"pairs", "pairs", pairs, ""},
		{"analogies FIFO", "analogies", fifo, "analogy file: " + fifo + ": not a regular file (a FIFO): want an analogy file"},
		{"analogies device", "analogies", "/dev/urandom", "/dev/urandom: not a regular file (a character device)"},
		{"analogies over 64 MiB", "analogies", big, "over the limit of 64 MiB for an analogy file"},
		{"analogies", "analogies", questions, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- load[tc.kind](tc.path) }()
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("reading %s did not return", tc.path)
			}
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// blankLines is a reader that never ends, as a generator or a device
// would be: blank lines, which the parsers skip without keeping anything.
type blankLines struct{}

func (blankLines) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '\n'
	}
	return len(p), nil
}

// The parsers stop after MaxFileBytes whatever reader they are given.
func TestParseBounded(t *testing.T) {
	_, err := Parse(blankLines{}, "gen")
	assert.EqualError(t, err, "gen: more than 64 MiB, the limit for a word-similarity set (a regular text file of at most 64 MiB)")
	_, err = ParseAnalogies(blankLines{}, "gen")
	assert.EqualError(t, err, "gen: more than 64 MiB, the limit for an analogy file (a regular text file of at most 64 MiB)")
}

// limited passes exactly its limit and fails only when there is more.
func TestLimited(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want error
	}{
		{"12345", nil},
		{"1234", nil},
		{"123456", errTooLarge},
	} {
		b, err := io.ReadAll(newLimited(strings.NewReader(tc.in), 5))
		assert.ErrorIs(t, err, tc.want, tc.in)
		if tc.want == nil {
			assert.Equal(t, tc.in, string(b))
		}
	}
}
