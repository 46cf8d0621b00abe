package sparse

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// mulReference is the plain product mul must reproduce bit for bit: one
// axpy per stored value, in column order, then the row scaling.
func mulReference(m *CSR, x *mat.Dense, s, t []float64) *mat.Dense {
	_, k := x.Dims()
	out := mat.NewDense(m.rows, k, nil)
	for i := 0; i < m.rows; i++ {
		d := out.RawRowView(i)
		cols, vals := m.Row(i)
		for p, j := range cols {
			v := vals[p]
			if t != nil {
				v *= t[j]
			}
			floats.AddScaled(d, v, x.RawRowView(int(j)))
		}
		if s != nil {
			floats.Scale(s[i], d)
		}
	}
	return out
}

// TestMulMatchesReferenceBits checks the product against one axpy per
// stored value, bit for bit, for widths around the register kernel's 32-,
// 16-, 8- and 4-wide groups (up to 64 columns) and the four-at-a-time
// kernel's 8- and 4-wide steps (beyond).
func TestMulMatchesReferenceBits(t *testing.T) {
	m := randomCSR(9, 300, 200, 6000)
	rng := rand.New(rand.NewPCG(3, 4))
	s, tt := make([]float64, 300), make([]float64, 200)
	for i := range s {
		s[i] = rng.Float64() + 0.5
	}
	for j := range tt {
		tt[j] = rng.Float64() + 0.5
	}
	for _, k := range []int{1, 3, 4, 7, 8, 13, 16, 31, 32, 33, 47, 60, 63, 64, 65, 128, 133, 1010} {
		t.Run(fmt.Sprint("k=", k), func(t *testing.T) {
			x := mat.NewDense(200, k, nil)
			for i := range x.RawMatrix().Data {
				x.RawMatrix().Data[i] = rng.NormFloat64()
			}
			var got mat.Dense
			m.MulDenseScaled(&got, x, s, tt)
			require.Equal(t, mulReference(m, x, s, tt).RawMatrix().Data, got.RawMatrix().Data)
			m.MulDense(&got, x)
			require.Equal(t, mulReference(m, x, nil, nil).RawMatrix().Data, got.RawMatrix().Data)
		})
	}
}

func TestAddScaled4Kernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 3, 4, 5, 8, 11, 16, 31} {
		vec := func() []float64 {
			v := make([]float64, n)
			for i := range v {
				v[i] = rng.NormFloat64()
			}
			return v
		}
		d, x0, x1, x2, x3 := vec(), vec(), vec(), vec(), vec()
		v := [4]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		d2 := append([]float64(nil), d...)
		addScaled4(d, &v, x0, x1, x2, x3)
		addScaled4Go(d2, &v, x0, x1, x2, x3)
		for i := range d {
			require.Equal(t, math.Float64bits(d2[i]), math.Float64bits(d[i]), "n=%d i=%d", n, i)
		}
	}
}

// BenchmarkMulZipf multiplies a 22542×22542 table whose columns follow a
// Zipf law (like a word co-occurrence table) by 22542×k blocks.
func BenchmarkMulZipf(b *testing.B) {
	const v = 22542
	rng := rand.New(rand.NewPCG(1, 2))
	z := rand.NewZipf(rng, 1.1, 2, v-1)
	ts := make([]Triplet, 3_000_000)
	for i := range ts {
		ts[i] = Triplet{I: int32(z.Uint64()), J: int32(z.Uint64()), V: 1}
	}
	m, err := FromTriplets(v, v, ts)
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range []int{32, 64, 310, 1010} {
		x := mat.NewDense(v, k, nil)
		for i := range x.RawMatrix().Data {
			x.RawMatrix().Data[i] = rng.NormFloat64()
		}
		dst := mat.NewDense(v, k, nil)
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			for b.Loop() {
				m.MulDense(dst, x)
			}
			b.ReportMetric(float64(m.NNZ()), "nnz")
		})
		b.Run(fmt.Sprintf("k=%d/one_axpy_per_value", k), func(b *testing.B) {
			for b.Loop() {
				mulReference(m, x, nil, nil)
			}
		})
	}
}

// TestMulRowKernels: the assembly row kernel and the portable one give the
// same bits, for every group width and rows shorter and longer than its
// prefetch distance.
func TestMulRowKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const rows = 50
	colScale := make([]float64, rows)
	for i := range colScale {
		colScale[i] = rng.Float64() + 0.5
	}
	for _, k := range []int{1, 2, 5, 8, 12, 16, 29, 32, 40, 64} {
		x := make([]float64, rows*(k+3))
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		for _, n := range []int{0, 1, 15, 16, 17, 40} {
			for _, scale := range [][]float64{nil, colScale} {
				idx, v := make([]int32, n), make([]float64, n)
				for p := range idx {
					idx[p] = int32(rng.IntN(rows))
					v[p] = rng.NormFloat64()
				}
				d1, d2 := make([]float64, k), make([]float64, k)
				for i := range d1 {
					d1[i], d2[i] = math.NaN(), math.NaN() // overwritten, not added to
				}
				mulRow(d1, idx, v, scale, x, k+3)
				mulRowGo(d2, idx, v, scale, x, k+3)
				for i := range d1 {
					require.Equal(t, math.Float64bits(d2[i]), math.Float64bits(d1[i]), "k=%d n=%d scaled %v i=%d", k, n, scale != nil, i)
				}
			}
		}
	}
}
