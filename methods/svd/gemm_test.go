package svd

import (
	"fmt"
	"math"
	"math/rand/v2"
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

// TestDotKernelsAgree: the assembly dot and the portable one give the same
// bits for every length around the 16-wide step.
func TestDotKernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for n := range 70 {
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		n16 := n &^ 15
		want := dot16Go(x[:n16], y[:n16])
		for i := n16; i < n; i++ {
			want = math.FMA(x[i], y[i], want)
		}
		require.Equal(t, math.Float64bits(want), math.Float64bits(dotFMA(x, y)), "n=%d", n)
		var plain float64
		for i := range x {
			plain += x[i] * y[i]
		}
		require.InDelta(t, plain, want, 1e-13*float64(n+1))
	}
}

// TestBasisProducts: gemmTN and gemmNNSub give gemmAdd's bits on windows
// of a wider basis, edge tiles included, whatever GOMAXPROCS is.
func TestBasisProducts(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, sz := range [][3]int{{7, 5, 3}, {600, 32, 47}, {1000, 24, 300}, {2000, 64, 515}} {
		c, b, n := sz[0], sz[1], sz[2]
		ld := n + 9
		basis := gaussian(3, c, ld).RawMatrix().Data
		w := gaussian(4, c, b).RawMatrix().Data
		h0 := gaussian(5, n, b).RawMatrix().Data
		off := 5 // a window starting at column 5
		wantH := append([]float64(nil), h0...)
		gemmAdd(n, b, c, view{data: basis[off:], rs: 1, cs: ld}, view{data: w, rs: b, cs: 1}, wantH, b, false)
		wantW := append([]float64(nil), w...)
		gemmAdd(c, b, n, view{data: basis[off:], rs: ld, cs: 1}, view{data: h0, rs: b, cs: 1}, wantW, b, true)
		for _, procs := range []int{1, 2, 3} {
			runtime.GOMAXPROCS(procs)
			h := append([]float64(nil), h0...)
			gemmTN(n, b, c, basis[off:], ld, w, b, h, b)
			require.Equal(t, wantH, h, "gemmTN %v GOMAXPROCS=%d", sz, procs)
			w2 := append([]float64(nil), w...)
			gemmNNSub(c, b, n, basis[off:], ld, h0, b, w2, b)
			require.Equal(t, wantW, w2, "gemmNNSub %v GOMAXPROCS=%d", sz, procs)
		}
	}
	// The portable kernels round like the assembly ones.
	a, bm := gaussian(6, 300, 40).RawMatrix().Data, gaussian(7, 300, 16).RawMatrix().Data
	c1, c2 := gaussian(8, 6, 8).RawMatrix().Data, gaussian(8, 6, 8).RawMatrix().Data
	microKernelTN(300, a, 40, bm, 16, c1, 8)
	kern6x8sGo(300, a, 40, bm, 16, c2, 8)
	require.Equal(t, c2, c1)
	microKernelNNSub(30, a, 40, bm, 16, c1, 8)
	kern6x8rGo(30, a, 40, bm, 16, c2, 8)
	require.Equal(t, c2, c1)
}

// BenchmarkBasisProject is BenchmarkGemmProject through gemmTN and
// gemmNNSub, for blocks of 32 and 64.
func BenchmarkBasisProject(b *testing.B) {
	const c, ld, n = 22542, 1704, 1000
	for _, blk := range []int{32, 64} {
		basis, w := gaussian(1, c, ld).RawMatrix().Data, gaussian(2, c, blk).RawMatrix().Data
		t := make([]float64, n*blk)
		b.Run(fmt.Sprint("b=", blk), func(b *testing.B) {
			for b.Loop() {
				clear(t)
				gemmTN(n, blk, c, basis, ld, w, blk, t, blk)
				gemmNNSub(c, blk, n, basis, ld, t, blk, w, blk)
			}
			b.ReportMetric(4*c*n*float64(blk)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprint("gemmAdd/b=", blk), func(b *testing.B) {
			for b.Loop() {
				clear(t)
				gemmAdd(n, blk, c, view{data: basis, rs: 1, cs: ld}, view{data: w, rs: blk, cs: 1}, t, blk, false)
				gemmAdd(c, blk, n, view{data: basis, rs: ld, cs: 1}, view{data: t, rs: blk, cs: 1}, w, blk, true)
			}
			b.ReportMetric(4*c*n*float64(blk)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
