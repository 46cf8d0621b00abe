package inputfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Spec says what file a reader wants, for its messages and its bounds.
type Spec struct {
	// What names the file a reader wants ("a CSV contingency table"); a
	// refusal says "want <What>".
	What string
	// Limit bounds the bytes ReadFile reads (0: no bound, for files that
	// are streamed).
	Limit int64
	// NoFollow refuses a symbolic link instead of reading its target.
	NoFollow bool
}

// ErrNotRegular marks a file that is not a regular file (or is a link
// where Spec.NoFollow refuses one).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge marks a file over its Spec.Limit.
var ErrTooLarge = errors.New("over the size limit")

// Open opens path for reading if it is a regular file (see the package
// doc) and returns it with its FileInfo. Errors name the path.
func Open(path string, s Spec) (*os.File, fs.FileInfo, error) {
	stat := os.Stat
	if s.NoFollow {
		stat = os.Lstat
	}
	st, err := stat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := s.regular(path, st); err != nil {
		return nil, nil, err
	}
	flags := os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	if s.NoFollow {
		flags |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(path, flags, 0)
	if errors.Is(err, syscall.ELOOP) && s.NoFollow {
		// Became a link since the Lstat.
		if st, lerr := os.Lstat(path); lerr == nil {
			return nil, nil, s.regular(path, st)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	if st, err = f.Stat(); err != nil {
		f.Close()
		return nil, nil, err
	}
	if err := s.regular(path, st); err != nil {
		f.Close()
		return nil, nil, err
	}
	if s.Limit > 0 && st.Size() > s.Limit {
		f.Close()
		return nil, nil, s.tooLarge(path, st.Size())
	}
	return f, st, nil
}

// ReadFile reads a regular file of at most s.Limit bytes whole.
func ReadFile(path string, s Spec) ([]byte, error) {
	f, _, err := Open(path, s)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := io.Reader(f)
	if s.Limit > 0 {
		// The file may have grown since its Stat: one byte past the limit
		// tells.
		r = io.LimitReader(f, s.Limit+1)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if s.Limit > 0 && int64(len(b)) > s.Limit {
		return nil, s.tooLarge(path, -1)
	}
	return b, nil
}

func (s Spec) regular(path string, st fs.FileInfo) error {
	if st.Mode().IsRegular() {
		return nil
	}
	what := s.What
	if what == "" {
		what = "a regular file"
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		target, _ := os.Readlink(path)
		return fmt.Errorf("%s: %w: a symbolic link (to %s), which is not followed here (put the file itself in its place): want %s", path, ErrNotRegular, target, what)
	}
	return fmt.Errorf("%s: %w (%s): want %s", path, ErrNotRegular, Kind(st.Mode()), what)
}

func (s Spec) tooLarge(path string, size int64) error {
	what := s.What
	if what == "" {
		what = "this file"
	}
	if size >= 0 {
		return fmt.Errorf("%s: %w: %d bytes, over the limit of %s for %s", path, ErrTooLarge, size, Size(s.Limit), what)
	}
	return fmt.Errorf("%s: %w: more than %s, the limit for %s", path, ErrTooLarge, Size(s.Limit), what)
}

// Size writes a byte count for a message: "64 MiB", "1 GiB", "512 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Kind names a file's type for a message.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}
