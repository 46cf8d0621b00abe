package ca

import (
	"reflect"

	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/sparse"
)

// Table is a count table as the decompositions read it: its rows in order
// and its products, which is all DSSVD and krylov need, so the table may
// stay in a file (*sparse.FileCSR) when it does not fit in memory; the
// dense and randomized backends materialise the operator from its rows.
// *sparse.CSR is the in-memory table.
type Table interface {
	Dims() (r, c int)
	// EachRow calls fn with each row in order, its columns increasing.
	EachRow(fn func(i int, cols []int32, vals []float64) error) error
	MulDenseScaled(dst, x *mat.Dense, s, t []float64)
	MulTDenseScaled(dst, x *mat.Dense, s, t []float64)
}

var (
	_ Table = (*sparse.CSR)(nil)
	_ Table = (*sparse.FileCSR)(nil)
)

// isNil reports a nil table, also a typed nil pointer in the interface.
func isNil(n Table) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// tableErr returns the read error a file-backed table kept while its
// products ran (they cannot return one), nil for an in-memory table.
func tableErr(n Table) error {
	if e, ok := n.(interface{ Err() error }); ok {
		return e.Err()
	}
	return nil
}
