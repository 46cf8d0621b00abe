package svd

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// forChunks runs f over [0, n) cut into chunks of at most size, on up to
// GOMAXPROCS goroutines that take the next chunk in turn. f must write
// only outputs that belong to its chunk, so that the result does not
// depend on the number of goroutines or on which one runs which chunk.
func forChunks(n, size int, f func(lo, hi int)) {
	if n <= 0 {
		return
	}
	chunks := (n + size - 1) / size
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		f(0, n)
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				f(c*size, min(n, (c+1)*size))
			}
		})
	}
	wg.Wait()
}

// maxProcs is the number of goroutines a parallel kernel may use.
func maxProcs() int { return runtime.GOMAXPROCS(0) }
