package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// Mode is the permission of every file written.
const Mode os.FileMode = 0o644

// File is a file being written that replaces its destination only on
// Commit. Until then the destination is untouched.
type File struct {
	pending *renameio.PendingFile
	path    string
}

// Create starts writing path, creating its directory if needed. Call
// Commit to put the file in place, and defer Discard to remove the
// temporary file on any error path.
func Create(path string) (*File, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	f, err := renameio.NewPendingFile(path, renameio.WithTempDir(dir), renameio.WithStaticPermissions(Mode))
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return &File{pending: f, path: path}, nil
}

// Write writes to the temporary file.
func (f *File) Write(b []byte) (int, error) {
	n, err := f.pending.Write(b)
	if err != nil {
		err = fmt.Errorf("writing %s: %w", f.path, err)
	}
	return n, err
}

// ReadAt reads back what was written, to check it before Commit.
func (f *File) ReadAt(b []byte, off int64) (int, error) {
	return f.pending.ReadAt(b, off)
}

// Commit syncs and closes the temporary file, renames it over the
// destination and syncs the directory, so the rename itself survives a
// crash (renameio syncs the file, not its directory).
func (f *File) Commit() error {
	if err := f.pending.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("writing %s: %w", f.path, err)
	}
	if d, err := os.Open(filepath.Dir(f.path)); err == nil {
		// A directory that cannot be synced (some file systems refuse)
		// still holds the renamed file: the write itself succeeded.
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// Discard closes and removes the temporary file unless Commit succeeded,
// when it does nothing; so it can always be deferred.
func (f *File) Discard() {
	// A failure to remove the temporary file leaves only a hidden stray file
	// next to the destination; the caller is already reporting the error
	// that brought it here.
	_ = f.pending.Cleanup()
}

// WriteFile writes data to path atomically.
func WriteFile(path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Discard()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Commit()
}
