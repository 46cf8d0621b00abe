package svd

import (
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func TestGemmAdd(t *testing.T) {
	tests := []struct {
		name    string
		m, n, k int
		transA  bool
		neg     bool
	}{
		{"one", 1, 1, 1, false, false},
		{"edges", 7, 9, 5, false, true},
		{"blocks", 200, 530, 300, false, false},
		{"transposed A", 61, 45, 700, true, false},
		{"transposed A, negated, blocks", 203, 70, 530, true, true},
		{"tall", 1300, 40, 33, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := gaussian(1, tc.m, tc.k)
			at := mat.DenseCopyOf(a.T())
			b := gaussian(2, tc.k, tc.n)
			c := gaussian(3, tc.m, tc.n)
			var want mat.Dense
			want.Mul(a, b)
			if tc.neg {
				want.Scale(-1, &want)
			}
			want.Add(&want, c)
			av := view{data: a.RawMatrix().Data, rs: tc.k, cs: 1}
			if tc.transA {
				av = view{data: at.RawMatrix().Data, rs: 1, cs: tc.m}
			}
			bv := view{data: b.RawMatrix().Data, rs: tc.n, cs: 1}
			gemmAdd(tc.m, tc.n, tc.k, av, bv, c.RawMatrix().Data, tc.n, tc.neg)
			assert.True(t, mat.EqualApprox(&want, c, 1e-11))

			// A stored transposed packs to the same panels: the same bits.
			other := view{data: at.RawMatrix().Data, rs: 1, cs: tc.m}
			if tc.transA {
				other = view{data: a.RawMatrix().Data, rs: tc.k, cs: 1}
			}
			c0 := gaussian(3, tc.m, tc.n)
			gemmAdd(tc.m, tc.n, tc.k, other, bv, c0.RawMatrix().Data, tc.n, tc.neg)
			require.Equal(t, c.RawMatrix().Data, c0.RawMatrix().Data, "A transposed or not")

			// Same bits whatever the split between goroutines.
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
			for _, procs := range []int{1, 3, 7} {
				runtime.GOMAXPROCS(procs)
				c1 := gaussian(3, tc.m, tc.n)
				gemmAdd(tc.m, tc.n, tc.k, av, bv, c1.RawMatrix().Data, tc.n, tc.neg)
				require.Equal(t, c.RawMatrix().Data, c1.RawMatrix().Data, "GOMAXPROCS=%d", procs)
			}
		})
	}
}

func TestKernelsAgree(t *testing.T) {
	const k = 37
	a, b := gaussian(4, k, gemmMR).RawMatrix().Data, gaussian(5, k, gemmNR).RawMatrix().Data
	c1 := gaussian(6, gemmMR, 10).RawMatrix().Data
	c2 := append([]float64(nil), c1...)
	microKernel(k, a, b, c1, 10)
	kern6x8Go(k, a, b, c2, 10)
	for i := range c1 {
		require.Equal(t, math.Float64bits(c2[i]), math.Float64bits(c1[i]), "element %d", i)
	}
}

// BenchmarkGemm reports GFLOP/s for the LU's largest trailing update shape.
func BenchmarkGemm(b *testing.B) {
	const m, n, k = 22542, 505, 505
	x, y, c := gaussian(1, m, k), gaussian(2, k, n), mat.NewDense(m, n, nil)
	for b.Loop() {
		gemmAdd(m, n, k, view{x.RawMatrix().Data, k, 1}, view{y.RawMatrix().Data, n, 1}, c.RawMatrix().Data, n, true)
	}
	b.ReportMetric(2*m*n*k*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkGemmProject reports GFLOP/s for krylov's Gram–Schmidt pass at
// d = 1000 on text8_prefix's tail-cut table: t = Bᵀ·w and w −= B·t for
// 1,000 basis columns (of a 1,704-wide basis) and a block of 64.
func BenchmarkGemmProject(b *testing.B) {
	const c, ld, n, blk = 22542, 1704, 1000, 64
	basis, w := gaussian(1, c, ld).RawMatrix().Data, gaussian(2, c, blk).RawMatrix().Data
	t := make([]float64, n*blk)
	for b.Loop() {
		clear(t)
		gemmAdd(n, blk, c, view{data: basis, rs: 1, cs: ld}, view{data: w, rs: blk, cs: 1}, t, blk, false)
		gemmAdd(c, blk, n, view{data: basis, rs: ld, cs: 1}, view{data: t, rs: blk, cs: 1}, w, blk, true)
	}
	b.ReportMetric(4*c*n*blk*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
