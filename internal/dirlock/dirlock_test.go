package dirlock_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/internal/dirlock"
)

// One holder at a time, across goroutines that each open the file (flock
// locks open file descriptions, so they exclude each other as processes
// do); the lock file is gone once the last holder let go.
func TestAcquireExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".lock")
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				l, err := dirlock.Acquire(context.Background(), path, dirlock.Options{Wait: time.Minute})
				if !assert.NoError(t, err) {
					return
				}
				n := inside.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(time.Millisecond)
				inside.Add(-1)
				assert.NoError(t, l.Release())
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, int32(1), most.Load())
	_, err := os.Stat(path)
	assert.True(t, os.IsNotExist(err), "lock file left behind")
}

func TestAcquireWaitBoundAndCancel(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".lock")
	held, err := dirlock.Acquire(context.Background(), path, dirlock.Options{})
	require.NoError(t, err)
	defer held.Release()
	assert.Equal(t, os.Getpid(), dirlock.Holder(path))

	tests := []struct {
		name string
		wait time.Duration
		ctx  func() (context.Context, context.CancelFunc)
		want string
	}{
		{"no wait", 0, func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }, "in use by another process"},
		{"bounded wait", 100 * time.Millisecond, func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }, "in use by another process"},
		{"cancelled", time.Hour, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 100*time.Millisecond)
		}, "context deadline exceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := tt.ctx()
			defer cancel()
			var told int
			start := time.Now()
			_, err := dirlock.Acquire(ctx, path, dirlock.Options{Wait: tt.wait, Waiting: func(pid int) { told = pid }})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Less(t, time.Since(start), 5*time.Second)
			if tt.wait > 0 {
				assert.Equal(t, os.Getpid(), told, "the waiter is told the holder's pid")
			}
		})
	}
}

// A lock file that is a symbolic link is not followed.
func TestAcquireRefusesLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	require.NoError(t, os.WriteFile(target, []byte("keep"), 0o644))
	path := filepath.Join(dir, ".lock")
	require.NoError(t, os.Symlink(target, path))
	_, err := dirlock.Acquire(context.Background(), path, dirlock.Options{})
	require.Error(t, err)
	b, _ := os.ReadFile(target)
	assert.Equal(t, "keep", string(b))
}

// Holder reads only a small regular lock file, not through a link: a FIFO
// or a link to a device at the lock's path gives no holder, at once.
func TestHolderReadsOnlyALockFile(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(plain, []byte("1234\n"), 0o644))
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	zero := filepath.Join(dir, "zero")
	require.NoError(t, os.Symlink("/dev/zero", zero))
	for path, want := range map[string]int{plain: 1234, fifo: 0, zero: 0} {
		done := make(chan int, 1)
		go func() { done <- dirlock.Holder(path) }()
		select {
		case got := <-done:
			assert.Equal(t, want, got, path)
		case <-time.After(10 * time.Second):
			t.Fatalf("Holder(%s) did not return", path)
		}
	}
}
