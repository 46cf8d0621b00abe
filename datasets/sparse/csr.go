package sparse

import (
	"fmt"
	"sort"
	"sync"
)

// CSR is an immutable compressed-sparse-row matrix of float64 values.
// Within a row, column indices are strictly increasing and no stored value is zero.
type CSR struct {
	rows, cols int
	indptr     []int64 // len rows+1
	indices    []int32 // column of each stored value
	data       []float64

	tOnce sync.Once // guards t
	t     *CSR      // cached transpose, built on first MulTDense
}

// New builds a CSR from its raw arrays, checking every invariant.
// The slices are owned by the matrix afterwards.
func New(rows, cols int, indptr []int64, indices []int32, data []float64) (*CSR, error) {
	if rows < 0 || cols < 0 {
		return nil, fmt.Errorf("sparse: negative dimensions %d×%d", rows, cols)
	}
	if len(indptr) != rows+1 {
		return nil, fmt.Errorf("sparse: indptr has %d entries, want rows+1 = %d", len(indptr), rows+1)
	}
	if indptr[0] != 0 || int(indptr[rows]) != len(indices) || len(indices) != len(data) {
		return nil, fmt.Errorf("sparse: indptr/indices/data lengths disagree (%d, %d, %d)", indptr[rows], len(indices), len(data))
	}
	for i := 0; i < rows; i++ {
		lo, hi := indptr[i], indptr[i+1]
		if hi < lo {
			return nil, fmt.Errorf("sparse: indptr decreases at row %d", i)
		}
		if hi > int64(len(indices)) {
			return nil, fmt.Errorf("sparse: indptr[%d] = %d exceeds the %d stored values", i+1, hi, len(indices))
		}
		prev := int32(-1)
		for p := lo; p < hi; p++ {
			j := indices[p]
			if j <= prev || int(j) >= cols {
				return nil, fmt.Errorf("sparse: row %d: column %d out of order or range [0,%d)", i, j, cols)
			}
			if data[p] == 0 {
				return nil, fmt.Errorf("sparse: row %d column %d: explicit zero stored", i, j)
			}
			prev = j
		}
	}
	return &CSR{rows: rows, cols: cols, indptr: indptr, indices: indices, data: data}, nil
}

// FromDense builds a CSR from a row-major dense array, dropping zeros.
func FromDense(rows, cols int, vals []float64) *CSR {
	if len(vals) != rows*cols {
		panic(fmt.Sprintf("sparse: FromDense: %d values for %d×%d", len(vals), rows, cols))
	}
	indptr := make([]int64, rows+1)
	var indices []int32
	var data []float64
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			if v := vals[i*cols+j]; v != 0 {
				indices = append(indices, int32(j))
				data = append(data, v)
			}
		}
		indptr[i+1] = int64(len(indices))
	}
	return &CSR{rows: rows, cols: cols, indptr: indptr, indices: indices, data: data}
}

// Triplet is one (row, column, value) entry.
type Triplet struct {
	I, J int32
	V    float64
}

// FromTriplets builds a CSR from entries in any order; duplicates are summed and
// entries that sum to zero are dropped.
func FromTriplets(rows, cols int, ts []Triplet) (*CSR, error) {
	s := make([]Triplet, len(ts))
	copy(s, ts)
	for _, t := range s {
		if t.I < 0 || int(t.I) >= rows || t.J < 0 || int(t.J) >= cols {
			return nil, fmt.Errorf("sparse: entry (%d,%d) outside %d×%d", t.I, t.J, rows, cols)
		}
	}
	sort.Slice(s, func(a, b int) bool {
		if s[a].I != s[b].I {
			return s[a].I < s[b].I
		}
		return s[a].J < s[b].J
	})
	indptr := make([]int64, rows+1)
	indices := make([]int32, 0, len(s))
	data := make([]float64, 0, len(s))
	for k := 0; k < len(s); {
		i, j, v := s[k].I, s[k].J, s[k].V
		k++
		for k < len(s) && s[k].I == i && s[k].J == j {
			v += s[k].V
			k++
		}
		if v != 0 {
			indices = append(indices, j)
			data = append(data, v)
			indptr[i+1]++
		}
	}
	for i := 0; i < rows; i++ {
		indptr[i+1] += indptr[i]
	}
	return &CSR{rows: rows, cols: cols, indptr: indptr, indices: indices, data: data}, nil
}

// Dims returns the number of rows and columns.
func (m *CSR) Dims() (rows, cols int) { return m.rows, m.cols }

// NNZ returns the number of stored (non-zero) values.
func (m *CSR) NNZ() int { return len(m.data) }

// Raw exposes the internal arrays (read-only by contract) for fast kernels and serialisation.
func (m *CSR) Raw() (indptr []int64, indices []int32, data []float64) {
	return m.indptr, m.indices, m.data
}

// Row returns the column indices and values stored in row i (read-only).
func (m *CSR) Row(i int) (cols []int32, vals []float64) {
	lo, hi := m.indptr[i], m.indptr[i+1]
	return m.indices[lo:hi], m.data[lo:hi]
}

// At returns element (i, j).
func (m *CSR) At(i, j int) float64 {
	cols, vals := m.Row(i)
	k := sort.Search(len(cols), func(k int) bool { return int(cols[k]) >= j })
	if k < len(cols) && int(cols[k]) == j {
		return vals[k]
	}
	return 0
}

// Sum returns the sum of all values.
func (m *CSR) Sum() float64 {
	var s float64
	for _, v := range m.data {
		s += v
	}
	return s
}

// RowSums returns the sum of each row.
func (m *CSR) RowSums() []float64 {
	out := make([]float64, m.rows)
	for i := range out {
		_, vals := m.Row(i)
		for _, v := range vals {
			out[i] += v
		}
	}
	return out
}

// ColSums returns the sum of each column.
func (m *CSR) ColSums() []float64 {
	out := make([]float64, m.cols)
	for p, j := range m.indices {
		out[j] += m.data[p]
	}
	return out
}

// Bytes is the memory held by the matrix's arrays (without a cached transpose).
func (m *CSR) Bytes() int64 {
	return int64(len(m.indptr))*8 + int64(len(m.indices))*4 + int64(len(m.data))*8
}
