package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"kcalab/internal/dirlock"
	"kcalab/internal/termsafe"
)

// LockFileName is the lock file of an output directory: while a run holds
// it, no other run writes there (see Runner.LockOutput).
const LockFileName = ".kcalab.lock"

// OutputLock is a held output directory: one run writes there at a time.
type OutputLock struct {
	dir  string // absolute, cleaned
	lock *dirlock.Lock
}

// Release lets the directory go.
func (l *OutputLock) Release() error {
	if l == nil {
		return nil
	}
	return l.lock.Release()
}

// LockOutput takes dir (created if needed) for this run's writing. An
// output directory has one writer at a time: two runs appending to one
// results.jsonl and compacting it in turn would each drop the other's
// records. While another run holds it, this waits up to Runner.LockWait
// (saying so on the log) or until ctx ends, and then fails: it never goes
// on to write beside the other run. The kernel releases the lock of a run
// that dies, however it dies.
func (r *Runner) LockOutput(ctx context.Context, dir string) (*OutputLock, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("output directory %s: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("output directory: %w (give a writable directory with -out)", err)
	}
	l, err := dirlock.Acquire(ctx, filepath.Join(abs, LockFileName), dirlock.Options{
		Wait: r.LockWait,
		Waiting: func(pid int) {
			fmt.Fprintf(r.log(), "kcalab: %s is being written by another kcalab run (pid %d): waiting up to %v for it to finish (-wait; ctrl-C to stop)\n",
				termsafe.Text(dir), pid, r.LockWait)
		},
	})
	switch {
	case errors.Is(err, dirlock.ErrBusy):
		return nil, fmt.Errorf("output directory %s is in use by another kcalab run (pid %d) after waiting %v (-wait): nothing was run or written; "+
			"run again once it has finished, or give another -out", dir, dirlock.Holder(filepath.Join(abs, LockFileName)), r.LockWait)
	case err != nil && ctx.Err() != nil:
		return nil, fmt.Errorf("interrupted while waiting for another kcalab run to finish with %s: nothing was run or written: %w", dir, ctx.Err())
	case err != nil:
		return nil, fmt.Errorf("output directory %s: %w", dir, err)
	}
	return &OutputLock{dir: abs, lock: l}, nil
}

type outputLockKey struct{}

// WithOutputLock passes a held output directory down to Runner.Run, which
// then writes there under it instead of taking the lock itself (a caller
// that also writes the report holds it across both).
func WithOutputLock(ctx context.Context, l *OutputLock) context.Context {
	return context.WithValue(ctx, outputLockKey{}, l)
}

// holdsOutput reports whether ctx carries the lock of dir.
func holdsOutput(ctx context.Context, dir string) bool {
	l, _ := ctx.Value(outputLockKey{}).(*OutputLock)
	if l == nil {
		return false
	}
	abs, err := filepath.Abs(dir)
	return err == nil && abs == l.dir
}

// DefaultLockWait is how long the command line waits for another run
// writing the same output directory.
const DefaultLockWait = time.Hour
