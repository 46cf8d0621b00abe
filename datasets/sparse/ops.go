package sparse

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// T returns the transpose of m as a new matrix (a counting sort by column, so
// the rows of the result come out sorted without comparisons).
// It panics when m has more than math.MaxInt32 rows, which cannot be column
// indices of the transpose.
func (m *CSR) T() *CSR {
	if m.rows > math.MaxInt32 {
		panic(fmt.Sprintf("sparse: T: %d rows do not fit int32 column indices", m.rows))
	}
	indptr := make([]int64, m.cols+1)
	for _, j := range m.indices {
		indptr[j+1]++
	}
	for j := 0; j < m.cols; j++ {
		indptr[j+1] += indptr[j]
	}
	next := make([]int64, m.cols)
	copy(next, indptr[:m.cols])
	indices := make([]int32, len(m.indices))
	data := make([]float64, len(m.data))
	for i := 0; i < m.rows; i++ {
		for p := m.indptr[i]; p < m.indptr[i+1]; p++ {
			j := m.indices[p]
			q := next[j]
			next[j]++
			indices[q] = int32(i)
			data[q] = m.data[p]
		}
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

// Add returns a + b[0] + b[1] + … for matrices of the same shape. Each sum
// is taken in argument order, so the result does not depend on anything but
// the inputs; entries that cancel to zero are dropped.
func Add(a *CSR, b ...*CSR) (*CSR, error) {
	ms := append([]*CSR{a}, b...)
	for k, m := range ms {
		if m == nil {
			return nil, fmt.Errorf("sparse: Add: operand %d is nil", k)
		}
		if m.rows != a.rows || m.cols != a.cols {
			return nil, fmt.Errorf("sparse: Add: operand %d is %d×%d, operand 0 is %d×%d", k, m.rows, m.cols, a.rows, a.cols)
		}
	}
	total := 0
	for _, m := range ms {
		total += len(m.data)
	}
	capHint := total
	if len(ms) > 1 {
		// Overlap is usual (offset tables share their frequent pairs); grow if needed.
		capHint = max(total/2, len(a.data))
	}
	indptr := make([]int64, a.rows+1)
	indices := make([]int32, 0, capHint)
	data := make([]float64, 0, capHint)
	// Dense accumulator over columns: acc[j] holds the running sum for column
	// j of the current row, seen[j] whether j is in touched.
	acc := make([]float64, a.cols)
	seen := make([]bool, a.cols)
	var touched []int32
	for i := 0; i < a.rows; i++ {
		touched = touched[:0]
		for _, m := range ms {
			for p := m.indptr[i]; p < m.indptr[i+1]; p++ {
				j := m.indices[p]
				if !seen[j] {
					seen[j] = true
					touched = append(touched, j)
					acc[j] = m.data[p]
				} else {
					acc[j] += m.data[p]
				}
			}
		}
		slices.Sort(touched)
		for _, j := range touched {
			if v := acc[j]; v != 0 {
				indices = append(indices, j)
				data = append(data, v)
			}
			seen[j] = false
		}
		indptr[i+1] = int64(len(indices))
	}
	return &CSR{rows: a.rows, cols: a.cols, indptr: indptr, indices: slices.Clip(indices), data: slices.Clip(data)}, nil
}
