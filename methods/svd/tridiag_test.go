package svd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/lapack/gonum"
)

// tridiagCases are tridiagonal matrices (diagonal, off-diagonal) that
// exercise the divide and conquer: random ones across the leaf and
// parallel sizes, heavy deflation (equal diagonal values, tiny or zero
// couplings), tight clusters and known spectra.
func tridiagCases() []struct {
	name string
	d, e []float64
} {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(n int) ([]float64, []float64) {
		d, e := make([]float64, n), make([]float64, max(n-1, 0))
		for i := range d {
			d[i] = rng.NormFloat64()
		}
		for i := range e {
			e[i] = rng.NormFloat64()
		}
		return d, e
	}
	type tc = struct {
		name string
		d, e []float64
	}
	var out []tc
	for _, n := range []int{1, 2, 5, 32, 33, 64, 100, 257, 700} {
		d, e := random(n)
		out = append(out, tc{fmt.Sprintf("random n=%d", n), d, e})
	}
	// 1-2-1: eigenvalues 2 − 2cos(jπ/(n+1)).
	n := 300
	d, e := make([]float64, n), make([]float64, n-1)
	for i := range d {
		d[i] = 2
	}
	for i := range e {
		e[i] = -1
	}
	out = append(out, tc{"1-2-1 n=300", d, e})
	// Equal diagonal, tiny couplings: almost everything deflates.
	d, e = make([]float64, n), make([]float64, n-1)
	for i := range d {
		d[i] = 1
	}
	for i := range e {
		e[i] = 1e-13 * rng.NormFloat64()
	}
	out = append(out, tc{"equal diagonal tiny couplings", d, e})
	// Blocks split by exact zeros.
	d, e = random(200)
	for i := 9; i < len(e); i += 10 {
		e[i] = 0
	}
	out = append(out, tc{"zero couplings", d, e})
	// Glued Wilkinson matrices W21+ (pairs of eigenvalues equal to many
	// digits), joined by 1e-9.
	d, e = nil, nil
	for g := range 12 {
		for i := range 21 {
			d = append(d, math.Abs(float64(i-10)))
		}
		for range 20 {
			e = append(e, 1)
		}
		if g < 11 {
			e = append(e, 1e-9)
		}
	}
	out = append(out, tc{"glued Wilkinson", d, e})
	// Graded, clustered: a spectrum like krylov's Ritz values.
	d, e = make([]float64, 500), make([]float64, 499)
	for i := range d {
		d[i] = 0.35 * math.Pow(float64(i+1), -0.8) * (1 + 1e-9*rng.Float64())
	}
	for i := range e {
		e[i] = 1e-3 * d[i+1] * rng.NormFloat64()
	}
	out = append(out, tc{"graded clustered", d, e})
	return out
}

func TestTridiagEig(t *testing.T) {
	for _, tc := range tridiagCases() {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.d)
			d, e := slices.Clone(tc.d), slices.Clone(tc.e)
			q := make([]float64, n*n)
			require.NoError(t, tridiagEig(d, append(e, 0), q, n, make([]float64, 2*n*n)))
			var norm float64
			for i := range n {
				norm = max(norm, math.Abs(tc.d[i]))
				if i < n-1 {
					norm = max(norm, math.Abs(tc.e[i]))
				}
			}
			norm = max(norm, 1e-300)
			eps := dlamchE
			require.True(t, slices.IsSorted(d), "increasing eigenvalues")
			// Against gonum's QL/QR eigenvalues.
			want, we := slices.Clone(tc.d), slices.Clone(tc.e)
			(gonum.Implementation{}).Dsterf(n, want, append(we, 0))
			for i := range n {
				require.InDelta(t, want[i], d[i], 10*float64(n)*eps*norm, "λ_%d", i)
			}
			// Residuals and orthogonality.
			var res, orth float64
			for j := range n {
				for i := range n {
					v := tc.d[i]*q[i*n+j] - d[j]*q[i*n+j]
					if i > 0 {
						v += tc.e[i-1] * q[(i-1)*n+j]
					}
					if i < n-1 {
						v += tc.e[i] * q[(i+1)*n+j]
					}
					res = max(res, math.Abs(v))
				}
				for l := j; l < n; l++ {
					var s float64
					for i := range n {
						s += q[i*n+j] * q[i*n+l]
					}
					if l == j {
						s--
					}
					orth = max(orth, math.Abs(s))
				}
			}
			t.Logf("n=%d: residual %.1e·‖T‖, orthogonality %.1e", n, res/norm, orth)
			require.Less(t, res/norm, 20*float64(n)*eps, "residual")
			require.Less(t, orth, 20*float64(n)*eps, "orthogonality")
		})
	}
}

// The divide and conquer gives the same bits whatever GOMAXPROCS is.
func TestTridiagEigDeterministic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rng := rand.New(rand.NewPCG(5, 6))
	n := 900
	d0, e0 := make([]float64, n), make([]float64, n)
	for i := range d0 {
		d0[i] = rng.NormFloat64()
		e0[i] = rng.NormFloat64()
	}
	var refD, refQ []float64
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		d, e := slices.Clone(d0), slices.Clone(e0)
		q := make([]float64, n*n)
		require.NoError(t, tridiagEig(d, e, q, n, make([]float64, 2*n*n)))
		if refD == nil {
			refD, refQ = d, q
			continue
		}
		require.Equal(t, refD, d, "GOMAXPROCS=%d", procs)
		require.Equal(t, refQ, q, "GOMAXPROCS=%d", procs)
	}
}

func BenchmarkTridiagEig(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{640, 1000, 2000} {
		d0, e0 := make([]float64, n), make([]float64, n)
		for i := range d0 {
			d0[i] = 0.35 * math.Pow(float64(i+1), -0.8)
			e0[i] = 1e-2 * d0[i] * rng.NormFloat64()
		}
		q := make([]float64, n*n)
		ws := make([]float64, 2*n*n)
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			for b.Loop() {
				d, e := slices.Clone(d0), slices.Clone(e0)
				if err := tridiagEig(d, e, q, n, ws); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
