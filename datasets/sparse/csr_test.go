package sparse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// randomCSR returns a rows×cols matrix with about nnz stored values spread
// uniformly (columns drawn per row, duplicates merged), values in (−1, 1)
// without zeros, from a fixed seed.
func randomCSR(seed uint64, rows, cols, nnz int) *CSR {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	indptr := make([]int64, rows+1)
	indices := make([]int32, 0, nnz)
	data := make([]float64, 0, nnz)
	perRow := float64(nnz) / float64(rows)
	var rowCols []int32
	for i := 0; i < rows; i++ {
		n := int(perRow)
		if rng.Float64() < perRow-float64(n) {
			n++
		}
		n = min(n, cols)
		rowCols = rowCols[:0]
		for range n {
			rowCols = append(rowCols, int32(rng.IntN(cols)))
		}
		slices.Sort(rowCols)
		rowCols = slices.Compact(rowCols)
		for _, j := range rowCols {
			indices = append(indices, j)
			data = append(data, 2*rng.Float64()-1+1e-9)
		}
		indptr[i+1] = int64(len(indices))
	}
	m, err := New(rows, cols, indptr, indices, data)
	if err != nil {
		panic(err)
	}
	return m
}

func randomDense(seed uint64, rows, cols int) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 0xd))
	d := mat.NewDense(rows, cols, nil)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			d.Set(i, j, rng.NormFloat64())
		}
	}
	return d
}

func requireDenseNear(t *testing.T, want, got mat.Matrix, tol float64) {
	t.Helper()
	wr, wc := want.Dims()
	gr, gc := got.Dims()
	require.Equal(t, [2]int{wr, wc}, [2]int{gr, gc}, "shape")
	require.True(t, mat.EqualApprox(want, got, tol), "want\n%v\ngot\n%v", mat.Formatted(want), mat.Formatted(got))
}

// requireValid checks the CSR invariants through New.
func requireValid(t *testing.T, m *CSR) {
	t.Helper()
	indptr, indices, data := m.Raw()
	_, err := New(m.rows, m.cols, slices.Clone(indptr), slices.Clone(indices), slices.Clone(data))
	require.NoError(t, err)
}

func TestNewRejects(t *testing.T) {
	tests := []struct {
		name    string
		rows    int
		cols    int
		indptr  []int64
		indices []int32
		data    []float64
		want    string
	}{
		{"negative dims", -1, 2, []int64{0}, nil, nil, "negative"},
		{"short indptr", 2, 2, []int64{0, 0}, nil, nil, "rows+1"},
		{"lengths disagree", 1, 2, []int64{0, 2}, []int32{0}, []float64{1}, "disagree"},
		{"indptr beyond values", 2, 2, []int64{0, 5, 1}, []int32{0}, []float64{1}, "exceeds"},
		{"decreasing indptr", 3, 2, []int64{0, 2, 1, 3}, []int32{0, 1, 0}, []float64{1, 1, 1}, "decreases at row 1"},
		{"unsorted", 1, 3, []int64{0, 2}, []int32{2, 1}, []float64{1, 1}, "out of order"},
		{"out of range", 1, 3, []int64{0, 1}, []int32{3}, []float64{1}, "out of order or range"},
		{"negative column", 1, 3, []int64{0, 1}, []int32{-2}, []float64{1}, "out of order or range"},
		{"explicit zero", 1, 3, []int64{0, 1}, []int32{1}, []float64{0}, "explicit zero"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.rows, tc.cols, tc.indptr, tc.indices, tc.data)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestOpsMatchDense(t *testing.T) {
	shapes := []struct {
		name            string
		rows, cols, nnz int
	}{
		{"1x1", 1, 1, 1},
		{"empty rows", 7, 5, 3},
		{"wide", 4, 30, 40},
		{"tall", 40, 3, 50},
		{"square", 50, 50, 600},
	}
	for si, sh := range shapes {
		m := randomCSR(uint64(si), sh.rows, sh.cols, sh.nnz)
		d := m.ToDense()
		t.Run(sh.name, func(t *testing.T) {
			requireValid(t, m)
			var dt mat.Dense
			dt.CloneFrom(d.T())
			tr := m.T()
			requireValid(t, tr)
			requireDenseNear(t, &dt, tr.ToDense(), 0)

			var ds mat.Dense
			ds.Scale(2.5, d)
			requireDenseNear(t, &ds, m.Scale(2.5).ToDense(), 0)
			assert.Equal(t, 0, m.Scale(0).NNZ(), "scale by 0 stores nothing")

			rs := make([]float64, sh.rows)
			for i := range rs {
				rs[i] = float64(i%3) - 0.5
			}
			cs := make([]float64, sh.cols)
			for j := range cs {
				cs[j] = float64(j%4) * 0.25 // zeros drop entries
			}
			var dr, dc mat.Dense
			dr.Mul(mat.NewDiagDense(sh.rows, rs), d)
			dc.Mul(d, mat.NewDiagDense(sh.cols, cs))
			mr, mc := m.ScaleRows(rs), m.ScaleCols(cs)
			requireValid(t, mr)
			requireValid(t, mc)
			requireDenseNear(t, &dr, mr.ToDense(), 0)
			requireDenseNear(t, &dc, mc.ToDense(), 0)

			// Map sees (i, j, v) and drops zeros: keep a checkerboard.
			checker := func(i, j int, v float64) float64 {
				if (i+j)%2 == 0 {
					return v
				}
				return 0
			}
			cm := m.Map(checker)
			requireValid(t, cm)
			for i := 0; i < sh.rows; i++ {
				for j := 0; j < sh.cols; j++ {
					assert.Equal(t, checker(i, j, d.At(i, j)), cm.At(i, j))
				}
			}

			for _, k := range []int{1, 3, 30} {
				x := randomDense(uint64(k), sh.cols, k)
				var want, got mat.Dense
				want.Mul(d, x)
				m.MulDense(&got, x)
				requireDenseNear(t, &want, &got, 1e-12)

				y := randomDense(uint64(k+100), sh.rows, k)
				var wantT, gotT mat.Dense
				wantT.Mul(d.T(), y)
				m.MulTDense(&gotT, y)
				requireDenseNear(t, &wantT, &gotT, 1e-12)

				// Scaled products: D(rs)·m·D(cs)·x and D(cs)·mᵀ·D(rs)·y,
				// and one-sided scaling (nil = identity).
				var drc, ws, gs mat.Dense
				drc.Mul(&dr, mat.NewDiagDense(sh.cols, cs))
				ws.Mul(&drc, x)
				m.MulDenseScaled(&gs, x, rs, cs)
				requireDenseNear(t, &ws, &gs, 1e-12)
				var wts, gts mat.Dense
				wts.Mul(drc.T(), y)
				m.MulTDenseScaled(&gts, y, cs, rs)
				requireDenseNear(t, &wts, &gts, 1e-12)
				var wc, gc mat.Dense
				wc.Mul(&dc, x)
				m.MulDenseScaled(&gc, x, nil, cs)
				requireDenseNear(t, &wc, &gc, 1e-12)
			}
		})
	}
}

func TestMulReusesDstAndPanicsOnBadShapes(t *testing.T) {
	m := randomCSR(1, 6, 4, 10)
	x := randomDense(2, 4, 3)
	dst := mat.NewDense(6, 3, nil)
	dst.Apply(func(_, _ int, _ float64) float64 { return math.NaN() }, dst) // stale contents must be overwritten
	m.MulDense(dst, x)
	var want mat.Dense
	want.Mul(m.ToDense(), x)
	requireDenseNear(t, &want, dst, 1e-12)

	assert.PanicsWithValue(t, "sparse: MulDense: x has 3 rows, want 4", func() { m.MulDense(dst, randomDense(3, 3, 3)) })
	assert.PanicsWithValue(t, "sparse: MulDense: dst is 5×3, want 6×3", func() { m.MulDense(mat.NewDense(5, 3, nil), x) })
	assert.PanicsWithValue(t, "sparse: MulTDense: x has 4 rows, want 6", func() { m.MulTDense(dst, x) })
	assert.PanicsWithValue(t, "sparse: MulDenseScaled: 5 output scales, want 6", func() { m.MulDenseScaled(dst, x, make([]float64, 5), nil) })
	assert.PanicsWithValue(t, "sparse: MulTDenseScaled: 5 input scales, want 6", func() { m.MulTDenseScaled(mat.NewDense(4, 3, nil), dst, nil, make([]float64, 5)) })
	sq := randomCSR(4, 4, 4, 8)
	assert.PanicsWithValue(t, "sparse: MulDense: dst and x share memory", func() { sq.MulDense(x, x) })
}

func TestAdd(t *testing.T) {
	a := FromDense(2, 3, []float64{1, 0, 2, 0, 3, 0})
	b := FromDense(2, 3, []float64{-1, 4, 0, 0, 1, 5})
	c := FromDense(2, 3, []float64{0, 0, 1, 7, 0, 0})
	tests := []struct {
		name string
		ms   []*CSR
		want []float64
	}{
		{"single", []*CSR{a}, []float64{1, 0, 2, 0, 3, 0}},
		{"cancel drops", []*CSR{a, b}, []float64{0, 4, 2, 0, 4, 5}},
		{"three", []*CSR{a, b, c}, []float64{0, 4, 3, 7, 4, 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Add(tc.ms[0], tc.ms[1:]...)
			require.NoError(t, err)
			requireValid(t, s)
			requireDenseNear(t, mat.NewDense(2, 3, tc.want), s.ToDense(), 0)
		})
	}
	s, err := Add(a, b)
	require.NoError(t, err)
	assert.Equal(t, 0.0, s.At(0, 0))
	assert.Equal(t, 4, s.NNZ(), "the cancelled entry is not stored")

	_, err = Add(a, FromDense(3, 2, make([]float64, 6)))
	require.ErrorContains(t, err, "operand 1 is 3×2, operand 0 is 2×3")
	_, err = Add(a, nil)
	require.ErrorContains(t, err, "operand 1 is nil")

	// Larger random check against dense sums.
	ms := []*CSR{randomCSR(10, 60, 70, 500), randomCSR(11, 60, 70, 500), randomCSR(12, 60, 70, 900)}
	s, err = Add(ms[0], ms[1:]...)
	require.NoError(t, err)
	requireValid(t, s)
	var want mat.Dense
	want.Add(ms[0].ToDense(), ms[1].ToDense())
	want.Add(&want, ms[2].ToDense())
	requireDenseNear(t, &want, s.ToDense(), 0)
}

func TestEmptyShapes(t *testing.T) {
	m := FromDense(0, 3, nil)
	assert.True(t, m.ToDense().IsEmpty())
	tr := m.T()
	r, c := tr.Dims()
	assert.Equal(t, [2]int{3, 0}, [2]int{r, c})
	var dst mat.Dense
	m.MulDense(&dst, randomDense(1, 3, 2)) // nothing to compute: no panic
	assert.True(t, dst.IsEmpty())
	assert.Equal(t, 0, m.Map(func(_, _ int, v float64) float64 { return v }).NNZ())
}

// TestProductsDeterministic checks that the parallel products give the same
// bits whatever GOMAXPROCS is (including more procs than cores, which
// changes the chunking).
func TestProductsDeterministic(t *testing.T) {
	m := randomCSR(7, 3000, 2000, 60000)
	x := randomDense(8, 2000, 7)
	y := randomDense(9, 3000, 7)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var ref, refT []float64
	for _, procs := range []int{1, 2, 3, 8} {
		runtime.GOMAXPROCS(procs)
		var d, dt mat.Dense
		m.MulDense(&d, x)
		m.MulTDense(&dt, y)
		if ref == nil {
			ref, refT = d.RawMatrix().Data, dt.RawMatrix().Data
			continue
		}
		require.Equal(t, bitsOf(ref), bitsOf(d.RawMatrix().Data), "MulDense with GOMAXPROCS=%d", procs)
		require.Equal(t, bitsOf(refT), bitsOf(dt.RawMatrix().Data), "MulTDense with GOMAXPROCS=%d", procs)
	}
}

func bitsOf(v []float64) []uint64 {
	out := make([]uint64, len(v))
	for i, f := range v {
		out[i] = math.Float64bits(f)
	}
	return out
}

func TestSerialiseRoundTrip(t *testing.T) {
	for _, m := range []*CSR{
		FromDense(0, 0, nil),
		FromDense(2, 0, nil),
		FromDense(3, 4, make([]float64, 12)),
		randomCSR(3, 50, 40, 300),
		randomCSR(4, 3000, 3000, 30000), // spans several I/O chunks
	} {
		var buf bytes.Buffer
		n, err := m.WriteTo(&buf)
		require.NoError(t, err)
		assert.Equal(t, int64(buf.Len()), n)
		assert.Equal(t, int64(headerSize)+m.Bytes(), n, "header + arrays, nothing else")

		var got CSR
		n2, err := got.ReadFrom(bytes.NewReader(buf.Bytes()))
		require.NoError(t, err)
		assert.Equal(t, n, n2)
		assert.Equal(t, m.rows, got.rows)
		assert.Equal(t, m.cols, got.cols)
		assert.True(t, slices.Equal(m.indptr, got.indptr), "indptr")
		assert.True(t, slices.Equal(m.indices, got.indices), "indices")
		assert.Equal(t, bitsOf(m.data), bitsOf(got.data))
		assert.Equal(t, len(got.data), cap(got.data), "no slack capacity")
	}
}

func TestReadFromRejects(t *testing.T) {
	var good bytes.Buffer
	_, err := FromDense(2, 2, []float64{1, 3, 0, 2}).WriteTo(&good)
	require.NoError(t, err)
	g := good.Bytes()
	patch := func(off int, b ...byte) []byte {
		s := slices.Clone(g)
		copy(s[off:], b)
		return s
	}
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "unexpected EOF"},
		{"bad magic", patch(0, 'X'), "magic"},
		{"bad version", patch(4, 9), "version 9"},
		{"huge rows", patch(8, 0, 0, 0, 0, 1), "exceed"},
		{"too many values", patch(24, 9), "9 stored values in a 2×2"},
		{"truncated", g[:len(g)-3], "read data: after 0 of 3 values: unexpected EOF"},
		{"unsorted", patch(headerSize+24, 1), "out of order"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(tc.in))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			if tc.name != "empty" && tc.name != "truncated" {
				assert.True(t, errors.Is(err, ErrFormat), "wraps ErrFormat: %v", err)
			}
		})
	}
}

type failWriter struct{ after int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.after < len(p) {
		n := max(f.after, 0)
		f.after = 0
		return n, io.ErrShortWrite
	}
	f.after -= len(p)
	return len(p), nil
}

func TestWriteToReportsErrors(t *testing.T) {
	m := randomCSR(5, 100, 100, 1000)
	for _, after := range []int{0, 40, 1000, 10000} {
		_, err := m.WriteTo(&failWriter{after: after})
		require.ErrorIs(t, err, io.ErrShortWrite, "fail after %d bytes", after)
	}
}

func FuzzReadFrom(f *testing.F) {
	for _, m := range []*CSR{FromDense(2, 3, []float64{1, 0, 2, 0, -3, 0}), FromDense(0, 0, nil), randomCSR(1, 5, 5, 9)} {
		var buf bytes.Buffer
		if _, err := m.WriteTo(&buf); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
		f.Add(buf.Bytes()[:buf.Len()/2])
	}
	f.Add([]byte("KCSR"))
	f.Fuzz(func(t *testing.T, in []byte) {
		var m CSR
		n, err := m.ReadFrom(bytes.NewReader(in))
		if err != nil {
			return
		}
		// Whatever was accepted must be a valid matrix that writes back to
		// the bytes consumed.
		requireValid(t, &m)
		var out bytes.Buffer
		_, werr := m.WriteTo(&out)
		require.NoError(t, werr)
		require.Equal(t, in[:n], out.Bytes())
	})
}

func Example() {
	// The 2×3 table [[1 0 2] [0 3 0]] from (row, col, value) entries.
	m, err := FromTriplets(2, 3, []Triplet{{0, 0, 1}, {1, 1, 3}, {0, 2, 2}})
	if err != nil {
		fmt.Println(err)
		return
	}
	x := mat.NewDense(3, 1, []float64{1, 10, 100})
	var y, z mat.Dense
	m.MulDense(&y, x)                                    // m·x
	m.MulTDense(&z, mat.NewDense(2, 1, []float64{1, 1})) // mᵀ·1 = column sums
	fmt.Println(mat.Formatted(y.T()))
	fmt.Println(mat.Formatted(z.T()))
	// Output:
	// [201   30]
	// [1  3  2]
}

// benchSizes are word-table-like shapes: V×V with nnz stored counts.
var benchSizes = []struct {
	v, nnz int
	label  string
}{
	{2000, 100_000, "V=2000_nnz=100k"},
	{20000, 1_000_000, "V=20000_nnz=1M"},
	{20000, 10_000_000, "V=20000_nnz=10M"},
}

func BenchmarkMulDense(b *testing.B) {
	for _, sz := range benchSizes {
		m := randomCSR(1, sz.v, sz.v, sz.nnz)
		for _, k := range []int{30, 300} {
			x := randomDense(2, sz.v, k)
			dst := mat.NewDense(sz.v, k, nil)
			b.Run(fmt.Sprintf("%s_k=%d", sz.label, k), func(b *testing.B) {
				b.SetBytes(m.Bytes())
				for b.Loop() {
					m.MulDense(dst, x)
				}
			})
		}
	}
}

func BenchmarkMulTDense(b *testing.B) {
	for _, sz := range benchSizes {
		m := randomCSR(1, sz.v, sz.v, sz.nnz)
		for _, k := range []int{30, 300} {
			x := randomDense(2, sz.v, k)
			dst := mat.NewDense(sz.v, k, nil)
			m.MulTDense(dst, x) // build the cached transpose outside the timing
			b.Run(fmt.Sprintf("%s_k=%d", sz.label, k), func(b *testing.B) {
				b.SetBytes(m.Bytes())
				for b.Loop() {
					m.MulTDense(dst, x)
				}
			})
		}
	}
}
