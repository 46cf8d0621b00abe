package schema_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/schema"
)

// Only a regular file of at most 1 MiB is read as a spec: a device, a FIFO
// (which would block the open until a writer came) or a huge file is
// refused at once, naming the file and what a spec must be.
func TestLoadSpecReadsRegularFilesOnly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	big := filepath.Join(dir, "big.yaml")
	require.NoError(t, os.WriteFile(big, []byte("name: big\n"+strings.Repeat("# padding\n", (1<<20)/10+1)), 0o644))
	ok := filepath.Join(dir, "ok.yaml")
	require.NoError(t, os.WriteFile(ok, []byte("name: ok\n"), 0o644))
	link := filepath.Join(dir, "link.yaml")
	require.NoError(t, os.Symlink(ok, link))

	tests := []struct {
		name, path, want string
	}{
		{"a FIFO", fifo, "fifo.yaml: not a regular file (a FIFO): want a spec (a YAML file)"},
		{"/dev/zero", "/dev/zero", "/dev/zero: not a regular file (a character device)"},
		{"a directory", dir, "not a regular file (a directory)"},
		{"over 1 MiB", big, "over the limit of 1 MiB for a spec (a YAML file)"},
		{"a regular file", ok, ""},
		{"a link to a regular file", link, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := os.Stat(tt.path); err != nil {
				t.Skip(err)
			}
			type result struct {
				spec *schema.Spec
				err  error
			}
			done := make(chan result, 1)
			go func() {
				s, err := schema.LoadSpec(tt.path)
				done <- result{s, err}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(3 * time.Second):
				t.Fatalf("LoadSpec(%s) did not return", tt.path)
			}
			if tt.want == "" {
				require.NoError(t, r.err)
				return
			}
			require.Error(t, r.err)
			assert.Contains(t, r.err.Error(), tt.want)
		})
	}
}
