package sparse

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// sameBitsWhateverProcs runs f with GOMAXPROCS 1, 2, 3 and 8 and requires
// bit-identical results (more procs than cores changes the split).
func sameBitsWhateverProcs(t *testing.T, f func() *CSR) *CSR {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var ref *CSR
	for _, procs := range []int{1, 2, 3, 8} {
		runtime.GOMAXPROCS(procs)
		m := f()
		requireValid(t, m)
		if ref == nil {
			ref = m
			continue
		}
		ri, rj, rv := ref.Raw()
		mi, mj, mv := m.Raw()
		require.Equal(t, ri, mi, "indptr with GOMAXPROCS=%d", procs)
		require.Equal(t, rj, mj, "indices with GOMAXPROCS=%d", procs)
		require.Equal(t, bitsOf(rv), bitsOf(mv), "values with GOMAXPROCS=%d", procs)
	}
	return ref
}

func TestMul(t *testing.T) {
	a := randomCSR(3, 700, 300, 10000) // several ranges of rows
	b := randomCSR(4, 300, 500, 7500)
	got := sameBitsWhateverProcs(t, func() *CSR {
		m, err := Mul(a, b)
		require.NoError(t, err)
		return m
	})
	var want mat.Dense
	want.Mul(a.ToDense(), b.ToDense())
	requireDenseNear(t, &want, got.ToDense(), 1e-9)

	_, err := Mul(a, a)
	require.ErrorContains(t, err, "sparse product of 700×300 and 700×300: inner dimensions differ")
	_, err = Mul(a, nil)
	require.ErrorContains(t, err, "nil operand")

	// Terms that cancel leave no stored zero, and later rows move up.
	x := FromDense(3, 2, []float64{1, -1, 0, 0, 2, 1})
	y := FromDense(2, 3, []float64{1, 2, 5, 1, 3, 5})
	got, err = Mul(x, y)
	require.NoError(t, err)
	requireValid(t, got)
	requireDenseNear(t, mat.NewDense(3, 3, []float64{0, -1, 0, 0, 0, 0, 3, 7, 15}), got.ToDense(), 0)
	indptr, _, _ := got.Raw()
	assert.Equal(t, []int64{0, 1, 1, 4}, indptr)
}

func TestSumScaled(t *testing.T) {
	a := FromDense(2, 3, []float64{1, 0, 2, 0, 3, 0})
	b := FromDense(2, 3, []float64{4, 4, 0, 0, 1, 5})
	keepBig := func(_, _ int, _ int32, v float64) bool { return v >= 2 }
	tests := []struct {
		name     string
		mul, div []float64
		final    float64
		keep     func(k, i int, j int32, v float64) bool
		want     []float64
	}{
		{"plain", nil, nil, 1, nil, []float64{5, 4, 2, 0, 4, 5}},
		{"weights", []float64{3, 1}, []float64{1, 2}, 1, nil, []float64{5, 2, 6, 0, 9.5, 2.5}},
		{"final", []float64{2, 1}, nil, 4, nil, []float64{6.0 / 4, 1, 1, 0, 7.0 / 4, 5.0 / 4}},
		{"keep", nil, nil, 1, keepBig, []float64{4, 4, 2, 0, 3, 5}},
		{"keep by operand", nil, nil, 1, func(k, i int, j int32, _ float64) bool { return k == 0 || i == 1 }, []float64{1, 0, 2, 0, 4, 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := SumScaled([]*CSR{a, b}, tc.mul, tc.div, tc.final, tc.keep)
			require.NoError(t, err)
			requireValid(t, s)
			requireDenseNear(t, mat.NewDense(2, 3, tc.want), s.ToDense(), 0)
		})
	}

	errs := []struct {
		name     string
		ms       []*CSR
		mul, div []float64
		final    float64
		want     string
	}{
		{"no operands", nil, nil, nil, 1, "sparse: SumScaled: no operands"},
		{"shape", []*CSR{a, FromDense(3, 2, make([]float64, 6))}, nil, nil, 1, "operand 1 is 3×2, operand 0 is 2×3"},
		{"weights", []*CSR{a, b}, []float64{1}, nil, 1, "2 operands but 1 multipliers and 0 divisors"},
		{"final", []*CSR{a, b}, nil, nil, 0, "final divisor is zero"},
	}
	for _, tc := range errs {
		t.Run("error/"+tc.name, func(t *testing.T) {
			_, err := SumScaled(tc.ms, tc.mul, tc.div, tc.final, nil)
			require.ErrorContains(t, err, tc.want)
		})
	}

	// Large enough to run in parallel: same bits as the plain dense sum of
	// the weighted terms, whatever GOMAXPROCS is.
	ms := []*CSR{randomCSR(20, 900, 800, 40000), randomCSR(21, 900, 800, 40000), randomCSR(22, 900, 800, 20000)}
	mul, div := []float64{3, 1, 2}, []float64{1, 7, 1}
	got := sameBitsWhateverProcs(t, func() *CSR {
		s, err := SumScaled(ms, mul, div, 5, nil)
		require.NoError(t, err)
		return s
	})
	want := mat.NewDense(900, 800, nil)
	for k, m := range ms {
		d := m.ToDense()
		for i := range 900 {
			for j := range 800 {
				if x := d.At(i, j); x != 0 {
					want.Set(i, j, want.At(i, j)+x*mul[k]/div[k])
				}
			}
		}
	}
	want.Apply(func(_, _ int, v float64) float64 { return v / 5 }, want)
	requireDenseNear(t, want, got.ToDense(), 0)
}

func TestAddTranspose(t *testing.T) {
	tests := []struct {
		name string
		m    *CSR
		want []float64
	}{
		{"empty", FromDense(2, 2, make([]float64, 4)), make([]float64, 4)},
		{"upper", FromDense(2, 2, []float64{1, 2, 0, 3}), []float64{2, 2, 2, 6}},
		{"cancel drops", FromDense(3, 3, []float64{0, 1, 0, -1, 0, 4, 0, 0, 0}), []float64{0, 0, 0, 0, 0, 4, 0, 4, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, _ := tc.m.Dims()
			s, err := AddTranspose(tc.m)
			require.NoError(t, err)
			requireValid(t, s)
			requireDenseNear(t, mat.NewDense(n, n, tc.want), s.ToDense(), 0)
		})
	}
	s, err := AddTranspose(FromDense(3, 3, []float64{0, 1, 0, -1, 0, 4, 0, 0, 0}))
	require.NoError(t, err)
	assert.Equal(t, 2, s.NNZ(), "the cancelled pair is not stored")

	_, err = AddTranspose(FromDense(2, 3, make([]float64, 6)))
	require.ErrorContains(t, err, "sparse: AddTranspose: 2×3 is not square")

	m := randomCSR(30, 1500, 1500, 80000)
	got := sameBitsWhateverProcs(t, func() *CSR {
		s, err := AddTranspose(m)
		require.NoError(t, err)
		return s
	})
	var want mat.Dense
	want.Add(m.ToDense(), m.ToDense().T())
	requireDenseNear(t, &want, got.ToDense(), 0)
	assert.True(t, mat.Equal(got.ToDense(), got.ToDense().T()), "exactly symmetric")
}

// TestTransposeParallel: the parallel transpose of a large matrix is the
// serial one, whatever GOMAXPROCS is.
func TestTransposeParallel(t *testing.T) {
	m := randomCSR(40, 1200, 2000, 90000)
	got := sameBitsWhateverProcs(t, m.T)
	r, c := got.Dims()
	require.Equal(t, [2]int{2000, 1200}, [2]int{r, c})
	assert.True(t, mat.Equal(m.ToDense().T(), got.ToDense()))
	requireDenseNear(t, m.ToDense(), got.T().ToDense(), 0)
}
