package sparse

import (
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
)

// minParallelWork is the amount of work (about one unit per stored value
// touched, plus one per row) below which a kernel runs on the calling
// goroutine: spawning workers costs more.
const minParallelWork = 1 << 16

// chunksPerWorker over-splits the rows so that a slow worker (the machine is
// shared) does not hold up the others.
const chunksPerWorker = 4

// Every parallel kernel of the package splits its output rows into ranges
// and gives each range to one goroutine, which writes only those rows. The
// value of a row never depends on the split or on which goroutine computes
// it, so results are the same bits whatever GOMAXPROCS is; the split only
// balances the load.

// splitRows cuts rows [0, rows) into ranges of about equal cost, where
// cum(i) is the cost of rows [0, i) (non-decreasing, cum(0) = 0). It
// returns one range when the total is below minParallelWork or only one
// worker runs.
func splitRows(rows int, cum func(i int) int64) [][2]int {
	workers := runtime.GOMAXPROCS(0)
	total := cum(rows)
	if workers == 1 || total < minParallelWork || rows < 2 {
		return [][2]int{{0, rows}}
	}
	parts := min(rows, workers*chunksPerWorker)
	ranges := make([][2]int, 0, parts)
	lo := 0
	for c := 1; c <= parts; c++ {
		hi := rows
		if c < parts {
			target := total * int64(c) / int64(parts)
			hi = sort.Search(rows, func(i int) bool { return cum(i) >= target })
		}
		if hi > lo {
			ranges = append(ranges, [2]int{lo, hi})
			lo = hi
		}
	}
	return ranges
}

// forRanges runs fn over every range, on up to GOMAXPROCS goroutines that
// each take the next range in turn and keep their own state from newState
// (scratch space, reused across ranges). A single range runs on the caller.
func forRanges[S any](ranges [][2]int, newState func() S, fn func(state S, lo, hi int)) {
	if len(ranges) == 1 {
		fn(newState(), ranges[0][0], ranges[0][1])
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(ranges)) {
		wg.Go(func() {
			state := newState()
			for {
				q := int(next.Add(1) - 1)
				if q >= len(ranges) {
					return
				}
				fn(state, ranges[q][0], ranges[q][1])
			}
		})
	}
	wg.Wait()
}

// noState is the state of kernels that need no scratch space.
func noState() struct{} { return struct{}{} }

// parallelRows runs body over row ranges covering all rows of a matrix with
// the given indptr, for a product with k columns. The ranges balance stored
// values plus rows (an empty row still costs clearing its output).
func parallelRows(indptr []int64, k int, body func(lo, hi int)) {
	rows := len(indptr) - 1
	ranges := splitRows(rows, func(i int) int64 { return (indptr[i] + int64(i)) * int64(k) })
	forRanges(ranges, noState, func(_ struct{}, lo, hi int) { body(lo, hi) })
}
