package inputfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadFileRefuses(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "table.csv")
	require.NoError(t, os.WriteFile(regular, []byte("a,b\nx,1\n"), 0o644))
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(regular, link))
	zero := filepath.Join(dir, "zero")
	require.NoError(t, os.Symlink("/dev/zero", zero))
	big := filepath.Join(dir, "big")
	require.NoError(t, os.WriteFile(big, make([]byte, 101), 0o644))

	for _, tc := range []struct {
		name, path string
		spec       Spec
		want       string // "" = read
	}{
		{"regular", regular, Spec{What: "a CSV table", Limit: 100}, ""},
		{"link followed", link, Spec{What: "a CSV table", Limit: 100}, ""},
		{"FIFO", fifo, Spec{What: "a CSV table", Limit: 100}, fifo + ": not a regular file (a FIFO): want a CSV table"},
		{"device", "/dev/urandom", Spec{What: "a CSV table", Limit: 100}, "/dev/urandom: not a regular file (a character device): want a CSV table"},
		{"link to a device", zero, Spec{What: "a CSV table", Limit: 100}, zero + ": not a regular file (a character device)"},
		{"directory", dir, Spec{What: "a CSV table", Limit: 100}, dir + ": not a regular file (a directory)"},
		{"too large", big, Spec{What: "a CSV table", Limit: 100}, big + ": over the size limit: 101 bytes, over the limit of 100 bytes for a CSV table"},
		{"link not followed", link, Spec{What: "a results file", NoFollow: true}, link + ": not a regular file: a symbolic link (to " + regular + ")"},
		{"FIFO not followed", fifo, Spec{What: "a results file", NoFollow: true}, "not a regular file (a FIFO): want a results file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan struct{})
			var b []byte
			var err error
			go func() { b, err = ReadFile(tc.path, tc.spec); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("ReadFile blocked")
			}
			if tc.want == "" {
				require.NoError(t, err)
				assert.Equal(t, "a,b\nx,1\n", string(b))
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{1 << 30: "1 GiB", 64 << 20: "64 MiB", 4096: "4 KiB", 1000: "1000 bytes"} {
		assert.Equal(t, want, Size(n))
	}
}
