package svd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// symCases are symmetric matrices (upper triangle used) like krylov's
// projected ones and harder: random dense, an arrow plus band with a
// graded diagonal, a diagonal one, and repeated eigenvalues.
func symCases() []struct {
	name string
	n    int
	a    []float64
} {
	rng := rand.New(rand.NewPCG(3, 4))
	type tc = struct {
		name string
		n    int
		a    []float64
	}
	var out []tc
	for _, n := range []int{1, 2, 3, 31, 32, 33, 65, 200} {
		a := make([]float64, n*n)
		for i := range n {
			for j := i; j < n; j++ {
				a[i*n+j] = rng.NormFloat64()
			}
		}
		out = append(out, tc{fmt.Sprintf("random n=%d", n), n, a})
	}
	// Thick-restart shape: diagonal Ritz values, their coupling to the
	// first new block, then a block tridiagonal part.
	n, keep, b := 300, 120, 20
	a := make([]float64, n*n)
	for i := range keep {
		a[i*n+i] = 0.35 * math.Pow(float64(i+1), -0.7)
		for j := keep; j < keep+b; j++ {
			a[i*n+j] = 1e-3 * rng.NormFloat64()
		}
	}
	for i := keep; i < n; i++ {
		for j := i; j < min(n, i+b+1); j++ {
			a[i*n+j] = 1e-2 * rng.NormFloat64()
		}
	}
	out = append(out, tc{"arrow and band", n, a})
	// Diagonal: the reduction has nothing to do.
	a = make([]float64, 50*50)
	for i := range 50 {
		a[i*50+i] = float64(i % 7)
	}
	out = append(out, tc{"diagonal, repeated", 50, a})
	// Q·diag(1,1,1,…,2,2,2)·Qᵀ: two eigenvalues of multiplicity 40.
	q := randomOrthogonal(rng, 80)
	a = make([]float64, 80*80)
	for i := range 80 {
		for j := i; j < 80; j++ {
			var s float64
			for l := range 80 {
				s += q.At(i, l) * q.At(j, l) * float64(1+l/40)
			}
			a[i*80+j] = s
		}
	}
	out = append(out, tc{"multiplicity 40", 80, a})
	return out
}

func randomOrthogonal(rng *rand.Rand, n int) *mat.Dense {
	g := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	return &q
}

func TestSymEigTop(t *testing.T) {
	for _, tc := range symCases() {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.n
			m := max(1, (2*n)/3)
			ws := newSymEigWork(n + 5) // scratch may be larger than the problem
			stride := n + 3
			tp := make([]float64, n*stride)
			for i := range n {
				copy(tp[i*stride+i:i*stride+n], tc.a[i*n+i:(i+1)*n])
			}
			theta, y, err := symEigTop(tp, stride, n, m, ws)
			require.NoError(t, err)
			sym := mat.NewSymDense(n, nil)
			for i := range n {
				for j := i; j < n; j++ {
					sym.SetSym(i, j, tc.a[i*n+j])
				}
			}
			var want mat.EigenSym
			require.True(t, want.Factorize(sym, false))
			vals := want.Values(nil)
			norm := math.Max(math.Abs(vals[0]), math.Abs(vals[n-1]))
			norm = math.Max(norm, 1e-300)
			for j := range n {
				require.InDelta(t, vals[n-1-j], theta[j], 50*float64(n)*dlamchE*norm, "θ_%d", j)
			}
			yv := mat.NewDense(n, m, y[:n*m])
			var r, g mat.Dense
			r.Mul(sym, yv)
			var res, orth float64
			for j := range m {
				for i := range n {
					res = math.Max(res, math.Abs(r.At(i, j)-theta[j]*yv.At(i, j)))
				}
			}
			g.Mul(yv.T(), yv)
			for i := range m {
				for j := range m {
					want := 0.0
					if i == j {
						want = 1
					}
					orth = math.Max(orth, math.Abs(g.At(i, j)-want))
				}
			}
			t.Logf("residual %.1e·‖A‖, orthogonality %.1e", res/norm, orth)
			require.Less(t, res/norm, 50*float64(n)*dlamchE)
			require.Less(t, orth, 50*float64(n)*dlamchE)
		})
	}
}

func TestSymEigTopDeterministic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rng := rand.New(rand.NewPCG(9, 9))
	n, m := 700, 400
	a := make([]float64, n*n)
	for i := range n {
		for j := i; j < n; j++ {
			a[i*n+j] = rng.NormFloat64()
		}
	}
	ws := newSymEigWork(n)
	var refT, refY []float64
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		theta, y, err := symEigTop(a, n, n, m, ws)
		require.NoError(t, err)
		if refT == nil {
			refT, refY = theta, append([]float64(nil), y[:n*m]...)
			continue
		}
		require.Equal(t, refT, theta, "GOMAXPROCS=%d", procs)
		require.Equal(t, refY, y[:n*m], "GOMAXPROCS=%d", procs)
	}
}

func BenchmarkSymEigTop(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{640, 1000, 2000} {
		a := make([]float64, n*n)
		for i := range n {
			a[i*n+i] = 0.35 * math.Pow(float64(i+1), -0.8)
			for j := i + 1; j < n; j++ {
				a[i*n+j] = 1e-4 * rng.NormFloat64()
			}
		}
		ws := newSymEigWork(n)
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := symEigTop(a, n, n, n*2/3, ws); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
