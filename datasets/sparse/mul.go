package sparse

import (
	"fmt"
	"unsafe"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// MulDense sets dst = m·x, where x is c×k and m is r×c. A zero-value (empty)
// dst is resized to r×k; otherwise it must be r×k. dst must not share memory
// with x.
//
// Each row of dst is computed by exactly one goroutine, summing the row's
// stored values in column order, so the result is bit-identical whatever
// GOMAXPROCS is. It panics on mismatched shapes, like gonum's mat.
func (m *CSR) MulDense(dst, x *mat.Dense) {
	m.MulDenseScaled(dst, x, nil, nil)
}

// MulDenseScaled sets dst = D(s)·m·D(t)·x: the product with m's rows scaled
// by s (length r) and its columns by t (length c), without building the
// scaled matrix or a scaled copy of x. A nil s or t means no scaling. It
// follows the rules of MulDense.
func (m *CSR) MulDenseScaled(dst, x *mat.Dense, s, t []float64) {
	checkScale("MulDenseScaled", s, m.rows, t, m.cols)
	if k := m.checkMul("MulDense", dst, x, m.cols, m.rows); k > 0 {
		m.mul(dst, x, k, s, t)
	}
}

// MulTDense sets dst = mᵀ·x, where x is r×k and m is r×c; dst (c×k) follows
// the rules of MulDense.
//
// It multiplies by the transpose of m, built on the first call and kept for
// the life of m: this doubles the memory m holds (Bytes() more, about
// 12 bytes per stored value) but makes mᵀ·x a row-parallel product that is
// as fast as m·x and bit-identical whatever GOMAXPROCS is. Safe for
// concurrent use.
func (m *CSR) MulTDense(dst, x *mat.Dense) {
	m.MulTDenseScaled(dst, x, nil, nil)
}

// MulTDenseScaled sets dst = D(s)·mᵀ·D(t)·x with s of length c and t of
// length r (nil: no scaling), like MulTDense.
func (m *CSR) MulTDenseScaled(dst, x *mat.Dense, s, t []float64) {
	checkScale("MulTDenseScaled", s, m.cols, t, m.rows)
	if k := m.checkMul("MulTDense", dst, x, m.rows, m.cols); k > 0 {
		m.tOnce.Do(func() { m.t = m.T() })
		m.t.mul(dst, x, k, s, t)
	}
}

func checkScale(name string, s []float64, ns int, t []float64, nt int) {
	if s != nil && len(s) != ns {
		panic(fmt.Sprintf("sparse: %s: %d output scales, want %d", name, len(s), ns))
	}
	if t != nil && len(t) != nt {
		panic(fmt.Sprintf("sparse: %s: %d input scales, want %d", name, len(t), nt))
	}
}

// mul sets dst = D(s)·m·D(t)·x for checked shapes, k columns; nil scales
// are skipped. Every dst[i][l] sums v·x[j][l] over row i's stored values in
// column order, rounding each product and sum as an axpy does; stored
// values go four at a time through addScaled4, which loads and stores each
// output row a quarter as often and gives the same bits.
func (m *CSR) mul(dst, x *mat.Dense, k int, s, t []float64) {
	if k <= rowKernelMaxK {
		m.mulRows(dst, x, k, s, t)
		return
	}
	xs := x.RawMatrix()
	ds := dst.RawMatrix()
	parallelRows(m.indptr, k, func(lo, hi int) {
		xrow := func(p int64) []float64 {
			j := int(m.indices[p])
			return xs.Data[j*xs.Stride : j*xs.Stride+k]
		}
		scale := func(p int64) float64 {
			if t != nil {
				return m.data[p] * t[m.indices[p]]
			}
			return m.data[p]
		}
		var v [4]float64
		for i := lo; i < hi; i++ {
			d := ds.Data[i*ds.Stride : i*ds.Stride+k]
			clear(d)
			p, end := m.indptr[i], m.indptr[i+1]
			for ; p+4 <= end; p += 4 {
				v = [4]float64{scale(p), scale(p + 1), scale(p + 2), scale(p + 3)}
				addScaled4(d, &v, xrow(p), xrow(p+1), xrow(p+2), xrow(p+3))
			}
			for ; p < end; p++ {
				floats.AddScaled(d, scale(p), xrow(p))
			}
			if s != nil {
				floats.Scale(s[i], d)
			}
		}
	})
}

// checkMul validates a product into dst (outRows×k) of x (inRows×k) and
// returns k, or 0 when there is nothing to compute.
func (m *CSR) checkMul(name string, dst, x *mat.Dense, inRows, outRows int) int {
	if x.IsEmpty() {
		panic(fmt.Sprintf("sparse: %s: empty x", name))
	}
	xr, k := x.Dims()
	if xr != inRows {
		panic(fmt.Sprintf("sparse: %s: x has %d rows, want %d", name, xr, inRows))
	}
	if outRows == 0 {
		return 0
	}
	if dst.IsEmpty() {
		dst.ReuseAs(outRows, k)
	} else if dr, dc := dst.Dims(); dr != outRows || dc != k {
		panic(fmt.Sprintf("sparse: %s: dst is %d×%d, want %d×%d", name, dr, dc, outRows, k))
	}
	if overlaps(dst.RawMatrix().Data, x.RawMatrix().Data) {
		panic(fmt.Sprintf("sparse: %s: dst and x share memory", name))
	}
	return k
}

func overlaps(a, b []float64) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	a0, a1 := uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&a[len(a)-1]))
	b0, b1 := uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&b[len(b)-1]))
	return a0 <= b1 && b0 <= a1
}

// rowKernelMaxK is the widest product mulRows takes: up to 64 columns its
// register sums beat addScaled4's (which loads and stores the output row
// every four stored values); wider blocks stream whole x rows better.
const rowKernelMaxK = 64

// mulRows is mul for narrow blocks: each output row is summed in
// registers by mulRow, 32 columns at a time, over the row's stored values,
// each scaled by its column's t as it is read. Every output element
// receives its terms one at a time in column order, so the bits are those
// of mul.
func (m *CSR) mulRows(dst, x *mat.Dense, k int, s, t []float64) {
	xs := x.RawMatrix()
	ds := dst.RawMatrix()
	parallelRows(m.indptr, k, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			d := ds.Data[i*ds.Stride : i*ds.Stride+k]
			p0, p1 := m.indptr[i], m.indptr[i+1]
			mulRow(d, m.indices[p0:p1], m.data[p0:p1], t, xs.Data, xs.Stride)
			if s != nil {
				floats.Scale(s[i], d)
			}
		}
	})
}
