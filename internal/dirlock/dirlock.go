package dirlock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"kcalab/internal/inputfile"
)

// ErrBusy says that another process held the lock for all of the wait.
var ErrBusy = errors.New("in use by another process")

// Options say how long to wait for the lock.
type Options struct {
	// Wait bounds the wait for another holder; 0 means do not wait.
	Wait time.Duration
	// Waiting, if set, is called once when the lock is taken, with the
	// holder's pid (0 when it cannot be read), before the wait starts.
	Waiting func(pid int)
}

// Lock is a held lock.
type Lock struct {
	f    *os.File
	path string
}

// poll is how often a waiter tries again: flock has no timeout, and a
// blocking flock could not be interrupted by ctx.
const poll = 50 * time.Millisecond

// Acquire takes the lock file at path (created if needed), waiting up to
// opt.Wait, or until ctx ends, for the process that holds it.
func Acquire(ctx context.Context, path string, opt Options) (*Lock, error) {
	deadline := time.Now().Add(opt.Wait)
	told := false
	for {
		l, err := try(path)
		if err == nil {
			return l, nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if !told && opt.Waiting != nil && opt.Wait > 0 {
			opt.Waiting(Holder(path))
			told = true
		}
		if !time.Now().Before(deadline) {
			return nil, fmt.Errorf("%w (pid %d holds %s)", ErrBusy, Holder(path), path)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for %s (held by pid %d): %w", path, Holder(path), ctx.Err())
		case <-time.After(min(poll, time.Until(deadline)+time.Millisecond)):
		}
	}
}

// try takes the lock without waiting: EWOULDBLOCK when it is held.
func try(path string) (*Lock, error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
		if err != nil {
			return nil, err
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			f.Close()
			return nil, err
		}
		// The holder before us may have removed the file between our open
		// and our flock: then we hold a lock on a name nobody else sees,
		// and must lock the file now at path instead.
		var held, now unix.Stat_t
		if err := unix.Fstat(int(f.Fd()), &held); err != nil {
			f.Close()
			return nil, err
		}
		if err := unix.Lstat(path, &now); err != nil || now.Ino != held.Ino || now.Dev != held.Dev {
			f.Close()
			continue
		}
		if err := f.Truncate(0); err == nil {
			_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		}
		return &Lock{f: f, path: path}, nil
	}
}

// Holder is the pid written in the lock file at path, 0 if none. Only a
// regular file of a few bytes is read, not through a link: a FIFO or a
// link to a device planted at path neither blocks nor fills memory.
func Holder(path string) int {
	b, err := inputfile.ReadFile(path, inputfile.Spec{What: "a lock file", Limit: 64, NoFollow: true})
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// Release removes the lock file and lets the lock go. Removing first is
// what makes a waiter that locked the old file try again (see try).
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	rerr := os.Remove(l.path)
	cerr := l.f.Close() // closing the last descriptor releases the flock
	l.f = nil
	if errors.Is(rerr, os.ErrNotExist) {
		rerr = nil
	}
	return errors.Join(rerr, cerr)
}

// Path is the lock file.
func (l *Lock) Path() string { return l.path }
