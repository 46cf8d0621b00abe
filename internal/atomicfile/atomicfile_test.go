package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// entries lists the names in dir, hidden temporary files included.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFile(t *testing.T) {
	old := syscall.Umask(0o077) // the mode must not depend on the umask
	defer syscall.Umask(old)
	tests := []struct {
		name     string
		existing []byte // nil: no file before
		data     []byte
	}{
		{"new file", nil, []byte("hello\n")},
		{"replace", []byte("old contents, longer"), []byte("new")},
		{"empty", []byte("x"), []byte{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "a", "b") // created on the way
			path := filepath.Join(dir, "out.txt")
			if tc.existing != nil {
				require.NoError(t, os.MkdirAll(dir, 0o755))
				require.NoError(t, os.WriteFile(path, tc.existing, 0o600))
			}
			require.NoError(t, WriteFile(path, tc.data))
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, tc.data, got)
			st, err := os.Stat(path)
			require.NoError(t, err)
			assert.Equal(t, Mode, st.Mode().Perm())
			assert.Equal(t, []string{"out.txt"}, entries(t, dir), "no temporary file left")
		})
	}
}

func TestCreateDiscard(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.bin")
	require.NoError(t, os.WriteFile(path, []byte("previous"), 0o644))

	// Written and read back, then dropped: the destination is untouched.
	f, err := Create(path)
	require.NoError(t, err)
	_, err = f.Write([]byte("partial data"))
	require.NoError(t, err)
	buf := make([]byte, 7)
	_, err = f.ReadAt(buf, 0)
	require.NoError(t, err)
	assert.Equal(t, "partial", string(buf))
	assert.Len(t, entries(t, dir), 2, "the temporary file sits next to the destination")
	f.Discard()
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "previous", string(got))
	assert.Equal(t, []string{"big.bin"}, entries(t, dir))

	// Discard after Commit does nothing.
	f, err = Create(path)
	require.NoError(t, err)
	_, err = f.Write([]byte("final"))
	require.NoError(t, err)
	require.NoError(t, f.Commit())
	f.Discard()
	got, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "final", string(got))
}

func TestErrorsNameThePath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	tests := []struct {
		name, path, want string
	}{
		{"directory is a file", filepath.Join(file, "sub", "x"), "creating " + filepath.Join(file, "sub") + ": "},
		{"destination is a directory", dir, "writing " + dir + ": "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := WriteFile(tc.path, []byte("x"))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotNil(t, errors.Unwrap(err), "the cause is wrapped")
		})
	}
	assert.Equal(t, []string{"file"}, entries(t, dir), "no temporary file left")
}

// A destination that is a symbolic link is refused: its target, wherever
// it is, keeps its bytes, and the link stays.
func TestRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "outside.txt")
	require.NoError(t, os.WriteFile(target, []byte("keep"), 0o644))
	link := filepath.Join(dir, "out.txt")
	require.NoError(t, os.Symlink(target, link))
	err := WriteFile(link, []byte("new"))
	require.ErrorIs(t, err, ErrLink)
	assert.Contains(t, err.Error(), "writing "+link+" (a link to "+target+"): is a symbolic link")
	got, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "keep", string(got))
	st, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, st.Mode()&os.ModeSymlink, "the link stays")
	assert.Equal(t, []string{"out.txt"}, entries(t, dir), "no temporary file left")

	// A link put in place while the file was being written is refused too.
	plain := filepath.Join(dir, "late.txt")
	f, err := Create(plain)
	require.NoError(t, err)
	defer f.Discard()
	_, err = f.Write([]byte("new"))
	require.NoError(t, err)
	require.NoError(t, os.Symlink(target, plain))
	require.ErrorIs(t, f.Commit(), ErrLink)
	got, err = os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "keep", string(got))
}

// CheckNoLinkBelow refuses a link at any depth between a directory and a
// path below it, names the link, and lets dir itself and paths not there
// yet pass.
func TestCheckNoLinkBelow(t *testing.T) {
	outside := t.TempDir()
	tests := []struct {
		name  string
		links map[string]string // link (below dir) → target
		path  string            // below dir
		want  string            // the link named, "" when accepted
	}{
		{name: "plain", path: "a/b/file"},
		{name: "not there yet", path: "new/deeper/file"},
		{name: "the file is a link", links: map[string]string{"a/file": "{outside}/f"}, path: "a/file", want: "a/file"},
		{name: "a directory on the way", links: map[string]string{"a/link": "{outside}"}, path: "a/link/file", want: "a/link"},
		{name: "the first directory", links: map[string]string{"vectors": "../victim"}, path: "vectors/x.txt", want: "vectors"},
		{name: "dangling link", links: map[string]string{"gone": "{outside}/nothing"}, path: "gone/x", want: "gone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755))
			for from, to := range tt.links {
				to = strings.ReplaceAll(to, "{outside}", outside)
				require.NoError(t, os.Symlink(to, filepath.Join(dir, from)))
			}
			err := CheckNoLinkBelow(dir, filepath.Join(dir, tt.path))
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrLink)
			assert.Contains(t, err.Error(), "writing "+filepath.Join(dir, tt.want)+" (a link to ")
		})
	}
	// dir itself may be a link: the caller chose it.
	link := filepath.Join(t.TempDir(), "out")
	require.NoError(t, os.Symlink(outside, link))
	require.NoError(t, CheckNoLinkBelow(link, filepath.Join(link, "x.txt")))
}
