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
// row. A first pass counts each row's columns so the result is allocated
// once at its exact size (no second copy of it, however large); a second
// pass fills it. Each row is computed by one goroutine, so the result does
// not depend on GOMAXPROCS. Entries that cancel to exactly zero are
// dropped.
func Mul(a, b *sparse.CSR) (*sparse.CSR, error) {
	if a == nil || b == nil {
		return nil, fmt.Errorf("sparse product: nil operand")
	}
	ar, ac := a.Dims()
	br, bc := b.Dims()
	if ac != br {
		return nil, fmt.Errorf("sparse product of %d×%d and %d×%d: inner dimensions differ", ar, ac, br, bc)
	}
	// Pass 1: the columns row i can reach (an upper bound on its stored
	// values: exact unless terms cancel).
	indptr := make([]int64, ar+1)
	forChunks(ar, bc, func(s *rowScratch, i int) {
		s.touch(a, b, i, false)
		indptr[i+1] = int64(len(s.touched))
		s.reset()
	})
	for i := 0; i < ar; i++ {
		indptr[i+1] += indptr[i]
	}
	indices := make([]int32, indptr[ar])
	data := make([]float64, indptr[ar])
	// Pass 2: values, each row into its own slot; counts shrink when
	// terms cancel to zero.
	counts := make([]int64, ar)
	forChunks(ar, bc, func(s *rowScratch, i int) {
		s.touch(a, b, i, true)
		slices.Sort(s.touched)
		p := indptr[i]
		for _, j := range s.touched {
			if v := s.acc[j]; v != 0 {
				indices[p] = j
				data[p] = v
				p++
			}
		}
		counts[i] = p - indptr[i]
		s.reset()
	})
	// Close the gaps left by cancellations, in row order (a no-op when
	// nothing cancelled, which is the rule for count tables).
	var w int64
	for i := 0; i < ar; i++ {
		lo := indptr[i]
		copy(indices[w:], indices[lo:lo+counts[i]])
		copy(data[w:], data[lo:lo+counts[i]])
		indptr[i] = w
		w += counts[i]
	}
	indptr[ar] = w
	return sparse.New(ar, bc, indptr, slices.Clip(indices[:w]), slices.Clip(data[:w]))
}

// rowScratch is a dense accumulator over the columns of the product.
type rowScratch struct {
	acc     []float64
	seen    []bool
	touched []int32
}

// touch marks the columns of row i of a·b and, when values is set, sums
// their values into acc.
func (s *rowScratch) touch(a, b *sparse.CSR, i int, values bool) {
	aCols, aVals := a.Row(i)
	for p, k := range aCols {
		x := aVals[p]
		bCols, bVals := b.Row(int(k))
		for q, j := range bCols {
			if !s.seen[j] {
				s.seen[j] = true
				s.touched = append(s.touched, j)
				if values {
					s.acc[j] = x * bVals[q]
				}
			} else if values {
				s.acc[j] += x * bVals[q]
			}
		}
	}
}

func (s *rowScratch) reset() {
	for _, j := range s.touched {
		s.seen[j] = false
	}
	s.touched = s.touched[:0]
}

// forChunks runs row(s, i) for every row i < rows, in chunks of rows
// handed to GOMAXPROCS workers, each with its own scratch over cols columns.
func forChunks(rows, cols int, row func(s *rowScratch, i int)) {
	nChunks := (rows + rowsPerChunk - 1) / rowsPerChunk
	workers := min(runtime.GOMAXPROCS(0), nChunks)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			s := &rowScratch{acc: make([]float64, cols), seen: make([]bool, cols)}
			for {
				c := int(next.Add(1) - 1)
				if c >= nChunks {
					return
				}
				for i := c * rowsPerChunk; i < min((c+1)*rowsPerChunk, rows); i++ {
					row(s, i)
				}
			}
		})
	}
	wg.Wait()
}
