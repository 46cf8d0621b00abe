package sca

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"kcalab/datasets/sparse"
)

// rowsPerChunk is the unit of parallel work in Mul: big enough to amortise
// scheduling, small enough to balance uneven rows on a shared machine.
const rowsPerChunk = 256

// Mul returns the sparse product a·b (Gustavson's row-by-row algorithm):
// row i of the result is Σ_k a[i][k]·b[k,:], summed in the order of a's
// row. Rows are computed independently (in parallel chunks) and joined in
// order, so the result does not depend on GOMAXPROCS. Entries that cancel
// to exactly zero are dropped.
func Mul(a, b *sparse.CSR) (*sparse.CSR, error) {
	ar, ac := a.Dims()
	br, bc := b.Dims()
	if ac != br {
		return nil, fmt.Errorf("sparse product of %d×%d and %d×%d: inner dimensions differ", ar, ac, br, bc)
	}
	type chunk struct {
		counts  []int64 // stored values per row
		indices []int32
		data    []float64
	}
	nChunks := (ar + rowsPerChunk - 1) / rowsPerChunk
	chunks := make([]chunk, nChunks)
	work := func(acc []float64, seen []bool, c int) {
		lo, hi := c*rowsPerChunk, min((c+1)*rowsPerChunk, ar)
		ch := chunk{counts: make([]int64, hi-lo)}
		var touched []int32
		for i := lo; i < hi; i++ {
			touched = touched[:0]
			aCols, aVals := a.Row(i)
			for p, k := range aCols {
				x := aVals[p]
				bCols, bVals := b.Row(int(k))
				for q, j := range bCols {
					if !seen[j] {
						seen[j] = true
						touched = append(touched, j)
						acc[j] = x * bVals[q]
					} else {
						acc[j] += x * bVals[q]
					}
				}
			}
			slices.Sort(touched)
			before := len(ch.indices)
			for _, j := range touched {
				if v := acc[j]; v != 0 {
					ch.indices = append(ch.indices, j)
					ch.data = append(ch.data, v)
				}
				seen[j] = false
			}
			ch.counts[i-lo] = int64(len(ch.indices) - before)
		}
		chunks[c] = ch
	}
	workers := min(runtime.GOMAXPROCS(0), nChunks)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			acc := make([]float64, bc)
			seen := make([]bool, bc)
			for {
				c := int(next.Add(1) - 1)
				if c >= nChunks {
					return
				}
				work(acc, seen, c)
			}
		})
	}
	wg.Wait()
	var nnz int
	for _, ch := range chunks {
		nnz += len(ch.data)
	}
	indptr := make([]int64, ar+1)
	indices := make([]int32, 0, nnz)
	data := make([]float64, 0, nnz)
	row := 0
	for _, ch := range chunks {
		for _, cnt := range ch.counts {
			indptr[row+1] = indptr[row] + cnt
			row++
		}
		indices = append(indices, ch.indices...)
		data = append(data, ch.data...)
	}
	return sparse.New(ar, bc, indptr, indices, data)
}
