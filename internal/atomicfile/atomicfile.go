package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"kcalab/internal/tmpfiles"
)

// Mode is the permission of every file written.
const Mode os.FileMode = 0o644

// ErrLink marks a destination that is a symbolic link: it is neither
// written through (which would change the file it points to, anywhere)
// nor replaced (which would silently drop a link the user made).
var ErrLink = errors.New("is a symbolic link; kcalab does not write through or replace links (remove the link, or write elsewhere)")

// File is a file being written that replaces its destination only on
// Commit. Until then the destination is untouched.
type File struct {
	f         *os.File
	path, tmp string
	done      bool
}

// Create starts writing path, creating its directory if needed. Call
// Commit to put the file in place, and defer Discard to remove the
// temporary file on any error path. The temporary file is in the same
// directory, named by tmpfiles.AtomicName, so one a killed process left
// is removed by a later tmpfiles.Clean.
func Create(path string) (*File, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	if err := CheckNotLink(path); err != nil {
		return nil, err
	}
	for range 100 {
		tmp := filepath.Join(dir, tmpfiles.AtomicName(filepath.Base(path)))
		f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, Mode)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("writing %s: %w", path, err)
		}
		// The mode must not depend on the umask.
		if err := f.Chmod(Mode); err != nil {
			f.Close()
			os.Remove(tmp)
			return nil, fmt.Errorf("writing %s: %w", path, err)
		}
		return &File{f: f, path: path, tmp: tmp}, nil
	}
	return nil, fmt.Errorf("writing %s: no free temporary name", path)
}

// CheckNotLink fails with ErrLink when path is a symbolic link.
func CheckNotLink(path string) error {
	st, err := os.Lstat(path)
	if err == nil && st.Mode()&fs.ModeSymlink != 0 {
		target, _ := os.Readlink(path)
		return fmt.Errorf("writing %s (a link to %s): %w", path, target, ErrLink)
	}
	return nil
}

// CheckNoLinkBelow fails with ErrLink when path, or a directory between
// dir and it, is a symbolic link: writing there would land wherever the
// link points. dir itself is not checked (its caller chose it); a path
// not below dir has only its last component checked.
func CheckNoLinkBelow(dir, path string) error {
	rel, err := filepath.Rel(dir, path)
	if err != nil || !filepath.IsLocal(rel) {
		return CheckNotLink(path)
	}
	p := dir
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, part)
		st, err := os.Lstat(p)
		if err != nil {
			return nil // not there yet: what is created below it is real
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			return CheckNotLink(p)
		}
	}
	return nil
}

// Write writes to the temporary file.
func (f *File) Write(b []byte) (int, error) {
	n, err := f.f.Write(b)
	if err != nil {
		err = fmt.Errorf("writing %s: %w", f.path, err)
	}
	return n, err
}

// ReadAt reads back what was written, to check it before Commit.
func (f *File) ReadAt(b []byte, off int64) (int, error) {
	return f.f.ReadAt(b, off)
}

// Commit syncs and closes the temporary file, renames it over the
// destination and syncs the directory, so the rename itself survives a
// crash. A destination that became a link meanwhile is refused.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("writing %s: committed or discarded already", f.path)
	}
	err := f.f.Sync()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = CheckNotLink(f.path)
	}
	if err == nil {
		err = os.Rename(f.tmp, f.path)
	}
	f.done = true
	if err != nil {
		os.Remove(f.tmp)
		if errors.Is(err, ErrLink) {
			return err
		}
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

// Discard closes and removes the temporary file unless Commit ran, when
// it does nothing; so it can always be deferred.
func (f *File) Discard() {
	if f.done {
		return
	}
	f.done = true
	// A failure to remove the temporary file leaves a hidden stray file
	// that a later tmpfiles.Clean removes; the caller is already reporting
	// the error that brought it here.
	f.f.Close()
	os.Remove(f.tmp)
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
