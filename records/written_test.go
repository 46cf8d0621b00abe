package records

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A file a record names holds what its trial wrote only while it is a
// regular file, reached through no link, with the recorded SHA-256; a
// missing one is missing, not wrong (exported vectors are build outputs).
func TestCheckWrittenFile(t *testing.T) {
	const f = "vectors/v.txt"
	sum := func(t *testing.T, b string) string {
		p := filepath.Join(t.TempDir(), "x")
		require.NoError(t, os.WriteFile(p, []byte(b), 0o644))
		s, err := FileSHA256(p)
		require.NoError(t, err)
		return s
	}
	tests := []struct {
		name        string
		make        func(t *testing.T, dir, outside string) // makes dir/vectors/v.txt (or not)
		sha         string                                  // "" = none recorded; "wrote" = of the bytes "wrote"
		wantMissing bool
		wantWrong   string
	}{
		{"as written", func(t *testing.T, dir, _ string) { write(t, dir, f, "wrote") }, "wrote", false, ""},
		{"no hash recorded: a regular file is trusted", func(t *testing.T, dir, _ string) { write(t, dir, f, "other") }, "", false, ""},
		{"missing", func(*testing.T, string, string) {}, "wrote", true, ""},
		{"changed", func(t *testing.T, dir, _ string) { write(t, dir, f, "changed") }, "wrote", false, "has changed since the trial wrote it"},
		{"replaced by a link to the same bytes", func(t *testing.T, dir, outside string) {
			write(t, outside, "v.txt", "wrote")
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "vectors"), 0o755))
			require.NoError(t, os.Symlink(filepath.Join(outside, "v.txt"), filepath.Join(dir, f)))
		}, "wrote", false, "is now a symbolic link (to "},
		{"its directory replaced by a link", func(t *testing.T, dir, outside string) {
			write(t, outside, "v.txt", "wrote")
			require.NoError(t, os.Symlink(outside, filepath.Join(dir, "vectors")))
		}, "wrote", false, "is reached through a symbolic link"},
		{"a directory in its place", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.MkdirAll(filepath.Join(dir, f), 0o755))
		}, "wrote", false, "is no longer a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			tt.make(t, dir, outside)
			sha := tt.sha
			if sha != "" {
				sha = sum(t, sha)
			}
			missing, wrong := CheckWrittenFile(dir, f, sha)
			assert.Equal(t, tt.wantMissing, missing)
			if tt.wantWrong == "" {
				assert.Empty(t, wrong)
				return
			}
			assert.Contains(t, wrong, tt.wantWrong)
		})
	}
}

func write(t *testing.T, dir, f, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(f))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}
