package sparse

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// T returns the transpose of m as a new matrix, by a counting sort of the
// entries by column, so the rows of the result come out sorted without
// comparisons. Large matrices are transposed in parallel: each worker
// writes the output rows (input columns) of its own range, scanning the
// whole input; positions come from the counts, so the result does not
// depend on the split. It panics when m has more than math.MaxInt32 rows,
// which cannot be column indices of the transpose.
func (m *CSR) T() *CSR {
	if m.rows > math.MaxInt32 {
		panic(fmt.Sprintf("sparse: T: %d rows do not fit int32 column indices", m.rows))
	}
	indptr := make([]int64, m.cols+1)
	for _, j := range m.indices {
		indptr[j+1]++
	}
	for j := range m.cols {
		indptr[j+1] += indptr[j]
	}
	indices := make([]int32, len(m.indices))
	data := make([]float64, len(m.data))
	workers := runtime.GOMAXPROCS(0)
	if int64(len(m.data))+int64(m.rows) < minParallelWork {
		workers = 1
	}
	part := func(lo, hi int32) {
		next := make([]int64, hi-lo)
		copy(next, indptr[lo:hi])
		for i := range m.rows {
			for p := m.indptr[i]; p < m.indptr[i+1]; p++ {
				if j := m.indices[p]; j >= lo && j < hi {
					indices[next[j-lo]] = int32(i)
					data[next[j-lo]] = m.data[p]
					next[j-lo]++
				}
			}
		}
	}
	if workers == 1 {
		part(0, int32(m.cols))
	} else {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() { part(int32(m.cols*w/workers), int32(m.cols*(w+1)/workers)) })
		}
		wg.Wait()
	}
	return &CSR{rows: m.cols, cols: m.rows, indptr: indptr, indices: indices, data: data}
}

// ToDense returns m as a dense matrix. A matrix with a zero dimension gives
// an empty (zero value) mat.Dense, since gonum has no 0×n matrices.
func (m *CSR) ToDense() *mat.Dense {
	if m.rows == 0 || m.cols == 0 {
		return &mat.Dense{}
	}
	d := mat.NewDense(m.rows, m.cols, nil)
	raw := d.RawMatrix()
	for i := 0; i < m.rows; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+m.cols]
		for p := m.indptr[i]; p < m.indptr[i+1]; p++ {
			row[m.indices[p]] = m.data[p]
		}
	}
	return d
}

// Map returns the matrix with entries f(i, j, v) for each stored entry v at
// (i, j), in row-major order. Entries where f returns zero are dropped, so
// the result keeps the no-explicit-zero invariant. Unstored (zero) entries
// are not visited: f should map 0 to 0 for the result to mean "f applied
// elementwise".
func (m *CSR) Map(f func(i, j int, v float64) float64) *CSR {
	indptr := make([]int64, m.rows+1)
	indices := make([]int32, 0, len(m.indices))
	data := make([]float64, 0, len(m.data))
	for i := 0; i < m.rows; i++ {
		for p := m.indptr[i]; p < m.indptr[i+1]; p++ {
			j := m.indices[p]
			if v := f(i, int(j), m.data[p]); v != 0 {
				indices = append(indices, j)
				data = append(data, v)
			}
		}
		indptr[i+1] = int64(len(indices))
	}
	return &CSR{rows: m.rows, cols: m.cols, indptr: indptr, indices: slices.Clip(indices), data: slices.Clip(data)}
}

// Scale returns f·m. Products that underflow to zero are dropped (f = 0 gives
// an empty matrix).
func (m *CSR) Scale(f float64) *CSR {
	return m.Map(func(_, _ int, v float64) float64 { return f * v })
}

// ScaleRows returns D(s)·m: row i multiplied by s[i]. It panics when
// len(s) is not the number of rows.
func (m *CSR) ScaleRows(s []float64) *CSR {
	if len(s) != m.rows {
		panic(fmt.Sprintf("sparse: ScaleRows: %d factors for %d rows", len(s), m.rows))
	}
	return m.Map(func(i, _ int, v float64) float64 { return s[i] * v })
}

// ScaleCols returns m·D(s): column j multiplied by s[j]. It panics when
// len(s) is not the number of columns.
func (m *CSR) ScaleCols(s []float64) *CSR {
	if len(s) != m.cols {
		panic(fmt.Sprintf("sparse: ScaleCols: %d factors for %d columns", len(s), m.cols))
	}
	return m.Map(func(_, j int, v float64) float64 { return s[j] * v })
}
