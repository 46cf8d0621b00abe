package harness

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An input's hash is taken of a regular file only: a path a record names
// that is now a FIFO or a device gives an error at once, not a wait or an
// endless read.
func TestFileSHA256RegularOnly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	ok := filepath.Join(dir, "ok")
	require.NoError(t, os.WriteFile(ok, []byte("abc"), 0o644))
	for _, tc := range []struct{ path, want string }{
		{fifo, "not a regular file (a FIFO): want a data file"},
		{"/dev/zero", "not a regular file (a character device)"},
		{ok, ""},
	} {
		done := make(chan error, 1)
		go func() { _, err := fileSHA256(tc.path); done <- err }()
		select {
		case err := <-done:
			if tc.want == "" {
				assert.NoError(t, err)
			} else {
				assert.ErrorContains(t, err, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("hashing %s did not return", tc.path)
		}
	}
}
