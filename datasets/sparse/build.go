package sparse

import "math/bits"

// rowAcc accumulates one output row: dense values plus a bitmap of the
// touched columns, drained in column order without sorting.
type rowAcc struct {
	acc    []float64
	bits   []uint64
	lo, hi int // touched bitmap words [lo, hi]
}

func newRowAcc(cols int) *rowAcc {
	nw := cols/64 + 1
	return &rowAcc{acc: make([]float64, cols), bits: make([]uint64, nw), lo: nw, hi: -1}
}

func (a *rowAcc) mark(j int32) {
	wd := int(j >> 6)
	if b := uint64(1) << (j & 63); a.bits[wd]&b == 0 {
		a.bits[wd] |= b
		a.lo, a.hi = min(a.lo, wd), max(a.hi, wd)
	}
}

// count returns the number of touched columns and clears the bitmap.
func (a *rowAcc) count() int64 {
	var n int
	for wd := a.lo; wd <= a.hi; wd++ {
		n += bits.OnesCount64(a.bits[wd])
		a.bits[wd] = 0
	}
	a.lo, a.hi = len(a.bits), -1
	return int64(n)
}

// drain writes the touched columns in order with value/final into indices
// and data, skipping values that are zero (terms that cancelled), clears
// the row and returns the number written. Dividing by final = 1 is exact,
// so it is skipped.
func (a *rowAcc) drain(indices []int32, data []float64, final float64) int64 {
	var p int64
	for wd := a.lo; wd <= a.hi; wd++ {
		b := a.bits[wd]
		for b != 0 {
			j := wd<<6 | bits.TrailingZeros64(b)
			b &= b - 1
			v := a.acc[j]
			a.acc[j] = 0
			if final != 1 {
				v /= final
			}
			if v != 0 {
				indices[p], data[p] = int32(j), v
				p++
			}
		}
		a.bits[wd] = 0
	}
	a.lo, a.hi = len(a.bits), -1
	return p
}

// build makes a rows×cols CSR in two passes over the rows, so the arrays
// are allocated once: count(i) bounds the length of row i, then fill(i, …)
// writes the row into its slot and returns how many values it wrote (fewer
// when terms cancel to zero). work[i] estimates the cost of row i for
// balancing the workers.
func build[S any](rows, cols int, work []int64, newState func() S,
	count func(s S, i int) int64, fill func(s S, i int, indices []int32, data []float64) int64) (*CSR, error) {
	cum := make([]int64, rows+1)
	for i, w := range work {
		cum[i+1] = cum[i] + w + 1
	}
	ranges := splitRows(rows, func(i int) int64 { return cum[i] })
	indptr := make([]int64, rows+1)
	forRanges(ranges, newState, func(s S, lo, hi int) {
		for i := lo; i < hi; i++ {
			indptr[i+1] = count(s, i)
		}
	})
	for i := range rows {
		indptr[i+1] += indptr[i]
	}
	indices := make([]int32, indptr[rows])
	data := make([]float64, indptr[rows])
	lens := make([]int64, rows)
	forRanges(ranges, newState, func(s S, lo, hi int) {
		for i := lo; i < hi; i++ {
			a, b := indptr[i], indptr[i+1]
			lens[i] = fill(s, i, indices[a:b:b], data[a:b:b])
		}
	})
	// Close the gaps left by cancellations, in row order (nothing moves when
	// nothing cancelled, the rule for count tables).
	var w int64
	for i := range rows {
		lo := indptr[i]
		if w != lo {
			copy(indices[w:], indices[lo:lo+lens[i]])
			copy(data[w:], data[lo:lo+lens[i]])
		}
		indptr[i] = w
		w += lens[i]
	}
	indptr[rows] = w
	if w < int64(len(data)) {
		indices, data = indices[:w:w], data[:w:w]
	}
	return New(rows, cols, indptr, indices, data)
}
