package sparse

import "fmt"

// Mul returns the sparse product a·b (Gustavson's row-by-row algorithm):
// row i of the result is Σ_k a[i][k]·b[k,:], summed in the order of a's
// row. A first pass counts each row's columns so the result is allocated
// once at its exact size (no second copy of it, however large); a second
// pass fills it. Each row is computed by one goroutine, so the result does
// not depend on GOMAXPROCS. Entries that cancel to exactly zero are
// dropped.
func Mul(a, b *CSR) (*CSR, error) {
	if a == nil || b == nil {
		return nil, fmt.Errorf("sparse product: nil operand")
	}
	if a.cols != b.rows {
		return nil, fmt.Errorf("sparse product of %d×%d and %d×%d: inner dimensions differ", a.rows, a.cols, b.rows, b.cols)
	}
	// Work of row i: the stored values of b it reads.
	work := make([]int64, a.rows)
	for i := range work {
		for _, k := range a.indices[a.indptr[i]:a.indptr[i+1]] {
			work[i] += b.indptr[k+1] - b.indptr[k]
		}
	}
	// The columns row i can reach: an upper bound on its stored values,
	// exact unless terms cancel.
	count := func(s *rowAcc, i int) int64 {
		aCols, _ := a.Row(i)
		for _, k := range aCols {
			bCols, _ := b.Row(int(k))
			for _, j := range bCols {
				s.mark(j)
			}
		}
		return s.count()
	}
	fill := func(s *rowAcc, i int, indices []int32, data []float64) int64 {
		aCols, aVals := a.Row(i)
		for p, k := range aCols {
			x := aVals[p]
			bCols, bVals := b.Row(int(k))
			for q, j := range bCols {
				s.mark(j)
				s.acc[j] += x * bVals[q]
			}
		}
		return s.drain(indices, data, 1)
	}
	return build(a.rows, b.cols, work, func() *rowAcc { return newRowAcc(b.cols) }, count, fill)
}
