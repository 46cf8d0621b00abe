package svd_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/passages"
	"kcalab/datasets/sparse"
	"kcalab/methods/ca"
	"kcalab/methods/svd"
)

// csrOp is a sparse matrix as an operator (and Materializer, for the
// dense reference).
type csrOp struct{ n *sparse.CSR }

func (o csrOp) Dims() (r, c int)         { return o.n.Dims() }
func (o csrOp) MulTo(dst, x *mat.Dense)  { o.n.MulDense(dst, x) }
func (o csrOp) MulTTo(dst, x *mat.Dense) { o.n.MulTDense(dst, x) }
func (o csrOp) Materialize() *mat.Dense  { return o.n.ToDense() }

// sparseOrthogonal returns the n×n sparse orthogonal matrix P·B, B block
// diagonal with random orthogonal 4×4 blocks and P a random permutation.
func sparseOrthogonal(rng *rand.Rand, n int) []sparse.Triplet {
	perm := rng.Perm(n)
	var ts []sparse.Triplet
	for b0 := 0; b0 < n; b0 += 4 {
		m := min(4, n-b0)
		q := orthonormal(rng, m, m)
		for i := 0; i < m; i++ {
			for j := 0; j < m; j++ {
				ts = append(ts, sparse.Triplet{I: int32(perm[b0+i]), J: int32(b0 + j), V: q.At(i, j)})
			}
		}
	}
	return ts
}

// sparseWithSpectrum returns a sparse r×c matrix Q1·D·Q2ᵀ (about 16 stored
// values a row) whose singular values are exactly s (zero beyond), with
// Q1, Q2 sparse orthogonal: the spectrum is prescribed, not estimated.
func sparseWithSpectrum(seed uint64, r, c int, s []float64) *sparse.CSR {
	rng := rand.New(rand.NewPCG(seed, 7))
	q1 := toDense(r, r, sparseOrthogonal(rng, r))
	q2 := toDense(c, c, sparseOrthogonal(rng, c))
	var qd, a mat.Dense
	d := mat.NewDense(r, c, nil)
	for i, v := range s {
		d.Set(i, i, v)
	}
	qd.Mul(q1, d)
	a.Mul(&qd, q2.T())
	return sparse.FromDense(r, c, a.RawMatrix().Data)
}

func toDense(r, c int, ts []sparse.Triplet) *mat.Dense {
	m, err := sparse.FromTriplets(r, c, ts)
	if err != nil {
		panic(err)
	}
	return m.ToDense()
}

// slowDecay is σ_i = i^-0.25: neighbouring values 0.5% apart near i = 50,
// the regime of word tables, where a sketch is far from converged.
func slowDecay(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.Pow(float64(i+1), -0.25)
	}
	return s
}

// clustered has groups of 4 singular values 1e-6 (relative) apart, the
// groups 3% apart, above a slowly decaying floor that starts just below.
func clustered(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		if i < 40 {
			s[i] = math.Pow(0.97, float64(i/4)) * (1 - 1e-6*float64(i%4))
		} else {
			s[i] = 0.72 * math.Pow(float64(i-39), -0.1)
		}
	}
	return s
}

// requireSubspace checks span(got) = span(want) to tol: the singular values
// of wantᵀ·got, the cosines of the principal angles, are all ≥ 1 − tol.
// For clustered values only the cluster's subspace is well defined.
func requireSubspace(t *testing.T, want, got *mat.Dense, tol float64, msg string) {
	t.Helper()
	var p mat.Dense
	p.Mul(want.T(), got)
	var f mat.SVD
	require.True(t, f.Factorize(&p, mat.SVDNone))
	for _, c := range f.Values(nil) {
		require.InDelta(t, 1, c, tol, msg)
	}
}

// TestKrylovMatchesDense compares krylov with gonum's dense SVD on sparse
// matrices with prescribed slowly decaying and clustered spectra, where
// the q = 7 sketch (DSSVD) is visibly off, and checks that the tolerance
// is honoured: both the backend's own residuals and an independent Check.
func TestKrylovMatchesDense(t *testing.T) {
	tests := []struct {
		name string
		r, c int
		s    []float64
		k    int
		tol  float64
	}{
		{"slow decay k=50", 700, 600, slowDecay(600), 50, 1e-8},
		{"slow decay k=50 tol 1e-5", 700, 600, slowDecay(600), 50, 1e-5},
		{"slow decay k=10 tol 1e-11", 600, 700, slowDecay(600), 10, 1e-11},
		{"clustered k=20", 600, 600, clustered(600), 20, 1e-8},
		{"clustered k=40", 650, 600, clustered(600), 40, 1e-10},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := sparseWithSpectrum(uint64(i+1), tc.r, tc.c, tc.s)
			op := csrOp{n}
			want := exactSVD(t, n.ToDense(), tc.k)
			for j := range tc.k {
				require.InDelta(t, tc.s[j], want.S[j], 1e-13, "the dense SVD sees the prescribed σ_%d", j+1)
			}
			opt := svd.DefaultOptions(tc.k)
			opt.Tol = tc.tol
			got, err := svd.Krylov{}.Decompose(context.Background(), op, opt)
			require.NoError(t, err)
			require.NotNil(t, got.Accuracy)
			assert.LessOrEqual(t, got.Accuracy.RelResidual, tc.tol, "own residuals")
			chk, err := svd.Check(context.Background(), op, got)
			require.NoError(t, err)
			assert.LessOrEqual(t, chk.RelResidual, tc.tol, "independent check")
			assert.InDelta(t, got.Accuracy.MaxResidual, chk.MaxResidual, 1e-14)
			assert.Equal(t, got.Products, chk.Products)
			for j := range tc.k {
				// σ errors are of the order of the squared residual.
				require.InDelta(t, want.S[j], got.S[j], max(1e-12, tc.tol*tc.tol*10)*want.S[0], "σ_%d", j+1)
			}
			// Vectors: per cluster of four when clustered, else each.
			step := 1
			if tc.s[1]/tc.s[0] > 1-1e-5 {
				step = 4
			}
			for j := 0; j < tc.k; j += step {
				e := min(tc.k, j+step)
				requireSubspace(t, colSlice(want.U, j, e), colSlice(got.U, j, e), max(1e-10, tc.tol*10), fmt.Sprintf("u_%d..%d", j+1, e))
				requireSubspace(t, colSlice(want.V, j, e), colSlice(got.V, j, e), max(1e-10, tc.tol*10), fmt.Sprintf("v_%d..%d", j+1, e))
			}

			// The q = 7 sketch of the same width is visibly off.
			sk := svd.DefaultOptions(tc.k)
			sk.PowerIters, sk.Check = 7, true
			ds, err := svd.DSSVD{}.Decompose(context.Background(), op, sk)
			require.NoError(t, err)
			assert.Greater(t, (want.S[tc.k-1]-ds.S[tc.k-1])/want.S[tc.k-1], 1e-5, "sketch σ_k")
			assert.Greater(t, ds.Accuracy.RelResidual, 1e-3, "sketch residual")
			t.Logf("krylov: %d products, residual %.1e·σ_1; dssvd q=7: %d products, residual %.1e·σ_1, σ_k %.1e low",
				got.Products, got.Accuracy.RelResidual, ds.Products, ds.Accuracy.RelResidual, (want.S[tc.k-1]-ds.S[tc.k-1])/want.S[tc.k-1])
		})
	}
}

func colSlice(m *mat.Dense, j0, j1 int) *mat.Dense {
	r, _ := m.Dims()
	return mat.DenseCopyOf(m.Slice(0, r, j0, j1))
}

// TestKrylovSmallAndWide covers the dense route of operators too small for
// a Krylov basis and the transposed route of wide ones.
func TestKrylovSmallAndWide(t *testing.T) {
	tests := []struct {
		name string
		a    *mat.Dense
		k    int
	}{
		{"tiny tall", withSpectrum(1, 60, 40, geometric(40, 0.6)), 5},
		{"tiny square rank 1", withSpectrum(3, 50, 50, geometric(50, 0.5)), 1},
		{"full rank", withSpectrum(4, 9, 6, []float64{6, 5, 4, 3, 2, 1}), 6},
		{"wide", withSpectrum(5, 150, 400, geometric(150, 0.97)), 12},
		{"tall", withSpectrum(6, 400, 150, geometric(150, 0.97)), 12},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := exactSVD(t, tc.a, tc.k)
			got, err := svd.Krylov{}.Decompose(context.Background(), svd.DenseOperator{A: tc.a}, svd.DefaultOptions(tc.k))
			require.NoError(t, err)
			requireClose(t, want, got, 1e-12, 1e-7)
			assert.LessOrEqual(t, got.Accuracy.RelResidual, svd.DefaultTol)
		})
	}
}

// TestKrylovDeterministic checks bit-identical results for GOMAXPROCS 1, 2
// and 4 on CA operators of sparse tables (products, GEMMs and the
// projected eigenproblem then split over goroutines; at k = 200 the
// projected problem, of order 464, is large enough for the eigensolver's
// parallel parts), and that the seed only moves the result within the
// tolerance.
func TestKrylovDeterministic(t *testing.T) {
	tests := []struct {
		name    string
		v, k    int
		samples int
	}{
		{"k=30", 2000, 30, 200_000},
		{"k=200", 3000, 200, 600_000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.k > 30 {
				t.Skip("the larger case takes a few seconds")
			}
			op, err := ca.NewCAOperator(plantedTable(2, tc.v, 11, tc.samples))
			require.NoError(t, err)
			opt := svd.DefaultOptions(tc.k)
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
			var ref *svd.Result
			for _, procs := range []int{1, 2, 4} {
				runtime.GOMAXPROCS(procs)
				got, err := svd.Krylov{}.Decompose(context.Background(), op, opt)
				require.NoError(t, err)
				if ref == nil {
					ref = got
					continue
				}
				require.Equal(t, ref.S, got.S, "GOMAXPROCS=%d", procs)
				require.Equal(t, ref.U.RawMatrix().Data, got.U.RawMatrix().Data, "GOMAXPROCS=%d", procs)
				require.Equal(t, ref.V.RawMatrix().Data, got.V.RawMatrix().Data, "GOMAXPROCS=%d", procs)
				require.Equal(t, ref.Accuracy, got.Accuracy, "GOMAXPROCS=%d", procs)
			}
			other := opt
			other.Seed = 99
			got, err := svd.Krylov{}.Decompose(context.Background(), op, other)
			require.NoError(t, err)
			assert.NotEqual(t, ref.U.RawMatrix().Data, got.U.RawMatrix().Data, "the seed matters")
			for i := range ref.S {
				require.InDelta(t, ref.S[i], got.S[i], 1e-12*ref.S[0], "σ_%d", i+1)
			}
		})
	}
}

// TestKrylovCancel cancels the context during the first cycle: the backend
// stops at the next block step with ctx's error.
func TestKrylovCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := csrOp{sparseWithSpectrum(9, 500, 500, slowDecay(500))}
	op := &cancelAfter{Operator: a, at: 3, cancel: cancel}
	_, err := svd.Krylov{}.Decompose(ctx, op, svd.DefaultOptions(20))
	require.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "krylov SVD: cycle 1, 0 of 20 triplets converged")
	assert.Equal(t, 3, op.calls, "stops at the next check")
}

func TestKrylovErrors(t *testing.T) {
	a := csrOp{sparseWithSpectrum(10, 500, 500, slowDecay(500))}
	mod := func(f func(*svd.Options)) svd.Options {
		o := svd.DefaultOptions(20)
		f(&o)
		return o
	}
	tests := []struct {
		name string
		opt  svd.Options
		want string
		is   error
	}{
		{"rank 0", mod(func(o *svd.Options) { o.Rank = 0 }), "rank 0: must be at least 1", nil},
		{"rank too large", mod(func(o *svd.Options) { o.Rank = 501 }), "rank 501 exceeds", nil},
		{"no tolerance", mod(func(o *svd.Options) { o.Tol = 0 }), "tolerance 0: must be in (0, 1) (DefaultOptions sets 1e-08)", nil},
		{"tolerance 1", mod(func(o *svd.Options) { o.Tol = 1 }), "tolerance 1: must be in (0, 1)", nil},
		{"product limit", mod(func(o *svd.Options) { o.MaxProducts = 100 }), "0 of 20 triplets within tolerance 1e-08 after 100 column-products (limit 100): did not converge", svd.ErrNotConverged},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := svd.Krylov{}.Decompose(context.Background(), a, tc.opt)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "krylov SVD: "+tc.want[:0])
			assert.Contains(t, err.Error(), tc.want)
			if tc.is != nil {
				assert.ErrorIs(t, err, tc.is)
			}
		})
	}
	b, err := svd.Get("krylov")
	require.NoError(t, err)
	assert.Equal(t, "krylov", b.Name())
	assert.Contains(t, svd.Names, "krylov")
}

// TestAccuracyEveryBackend checks Options.Check: exact backends read
// rounding-level residuals, the sketch its real (larger) one, and the
// product counts are what each algorithm makes.
func TestAccuracyEveryBackend(t *testing.T) {
	n := sparseWithSpectrum(11, 300, 250, slowDecay(250))
	op := csrOp{n}
	for _, b := range []svd.Backend{svd.Dense{}, svd.Randomized{}, svd.DSSVD{}, svd.Krylov{}} {
		t.Run(b.Name(), func(t *testing.T) {
			opt := svd.DefaultOptions(8)
			opt.Check = true
			res, err := b.Decompose(context.Background(), op, opt)
			require.NoError(t, err)
			acc := res.Accuracy
			require.NotNil(t, acc)
			assert.Equal(t, res.S, acc.S)
			assert.Len(t, acc.Residuals, 8)
			assert.InDelta(t, acc.MaxResidual/res.S[0], acc.RelResidual, 1e-15)
			assert.Equal(t, res.Products, acc.Products)
			switch b.Name() {
			case "dense":
				assert.Zero(t, res.Products)
				assert.Less(t, acc.RelResidual, 1e-13)
				assert.Equal(t, 16, acc.CheckProducts)
			case "randomized", "dssvd":
				assert.Equal(t, 18*(2*7+2), res.Products, "l·(2q+2), l = 18, q = 7")
				assert.Greater(t, acc.RelResidual, 1e-4)
				assert.Equal(t, 16, acc.CheckProducts)
			case "krylov":
				assert.LessOrEqual(t, acc.RelResidual, svd.DefaultTol)
				assert.Equal(t, 8, acc.CheckProducts, "A·v_i = σ_i·u_i by construction: only Aᵀ·U")
			}
		})
	}
	// Without Check the sketches leave Accuracy nil.
	res, err := svd.DSSVD{}.Decompose(context.Background(), op, svd.DefaultOptions(8))
	require.NoError(t, err)
	assert.Nil(t, res.Accuracy)
	_, err = svd.Check(context.Background(), op, &svd.Result{S: res.S, U: res.U})
	require.ErrorContains(t, err, "without U or V")
}

// TestKrylovMeetsTolerance: on small CA tables, where a cycle's Krylov
// space fills much of the space and the locked vectors' residuals weigh on
// the next Ritz vectors, every measured residual is within the tolerance
// the Ritz estimates stopped at.
func TestKrylovMeetsTolerance(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		for _, tol := range []float64{1e-8, 1e-9, 1e-10} {
			t.Run(fmt.Sprintf("seed=%d tol=%g", seed, tol), func(t *testing.T) {
				op, err := ca.NewCAOperator(plantedTable(seed, 150, 5, 30_000))
				require.NoError(t, err)
				opt := svd.DefaultOptions(20)
				opt.Tol = tol
				res, err := svd.Krylov{}.Decompose(context.Background(), op, opt)
				require.NoError(t, err)
				assert.LessOrEqual(t, res.Accuracy.RelResidual, tol)
			})
		}
	}
}

// passagesTable is the flat co-occurrence table (offsets 1..w, as
// data.table: flat counts it) of the repeated-passages corpus of p, its
// words those that occur.
func passagesTable(t testing.TB, p passages.Params, w int) *sparse.CSR {
	t.Helper()
	ids, err := passages.IDs(context.Background(), p)
	require.NoError(t, err)
	row := make([]int32, p.Types())
	for i := range row {
		row[i] = -1
	}
	v := int32(0)
	for i, id := range ids {
		if row[id] < 0 {
			row[id] = v
			v++
		}
		ids[i] = row[id]
	}
	counts := map[[2]int32]float64{}
	for i, a := range ids {
		for k := 1; k <= w && i+k < len(ids); k++ {
			counts[[2]int32{a, ids[i+k]}]++
		}
	}
	ts := make([]sparse.Triplet, 0, len(counts))
	for ij, n := range counts {
		ts = append(ts, sparse.Triplet{I: ij[0], J: ij[1], V: n})
	}
	n, err := sparse.FromTriplets(int(v), int(v), ts)
	require.NoError(t, err)
	return n
}

// clusteredPassages is a small near-reducible corpus: 120 blocks of
// vocabulary that share a word once in 2,000 tokens, their passages
// repeated verbatim, so that its CA's leading singular values are a
// cluster just below 1 (σ_1..σ_31 within 2e-3 of 1), as in a corpus of
// licence texts.
func clusteredPassages() passages.Params {
	return passages.Params{Blocks: 120, Words: 30, Shared: 50, SharedProb: 0.0005, Exponent: 1, Passages: 3, Length: 50, Repeats: 6, Seed: 1}
}

// TestKrylovClusteredSpectrum: on the CA of a repeated-passage table, whose
// wanted singular values lie inside a cluster wider than the basis, the
// leading residuals stall with the default window; the backend widens it
// and converges, every triplet's residual (measured independently) within
// the tolerance, with the same bits at GOMAXPROCS 1.
func TestKrylovClusteredSpectrum(t *testing.T) {
	n := passagesTable(t, clusteredPassages(), 10)
	op, err := ca.NewCAOperator(n)
	require.NoError(t, err)
	const k = 30
	opt := svd.DefaultOptions(k)
	var steps []string
	opt.Progress = func(s string) { steps = append(steps, s) }
	res, err := svd.Krylov{}.Decompose(context.Background(), op, opt)
	require.NoError(t, err)
	chk, err := svd.Check(context.Background(), op, res)
	require.NoError(t, err)
	for i, r := range chk.Residuals {
		assert.LessOrEqual(t, r, opt.Tol*res.S[0], "residual of triplet %d", i+1)
	}
	assert.Greater(t, res.S[k-1], 0.998*res.S[0], "the wanted values are a cluster")
	// The fixed window of 2k + b columns took 7,710 products here.
	assert.Less(t, res.Products, 2500, "products")
	assert.True(t, slices.ContainsFunc(steps, func(s string) bool { return strings.Contains(s, "the active basis grows") }), "grew: %q", steps)
	// The window grows on computed numbers only: the same bits on one
	// goroutine.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	one, err := svd.Krylov{}.Decompose(context.Background(), op, opt)
	require.NoError(t, err)
	require.Equal(t, res.S, one.S)
	require.Equal(t, res.U.RawMatrix().Data, one.U.RawMatrix().Data)
	require.Equal(t, res.Products, one.Products)
	t.Logf("V = %d: %d products, residual %.1e·σ_1, σ_1 %.7f σ_%d %.7f", nrows(n), res.Products, chk.RelResidual, res.S[0], k, res.S[k-1])
}

func nrows(n *sparse.CSR) int {
	r, _ := n.Dims()
	return r
}

// TestKrylovStallDiagnosis: when the window may not grow (the memory
// budget is the plan's peak) and the observed rate cannot finish within
// the product budget or before the context's deadline, the backend stops
// at once, long before the budget is spent, and says what it saw: the
// cluster, the best residual and what to change.
func TestKrylovStallDiagnosis(t *testing.T) {
	n := passagesTable(t, clusteredPassages(), 10)
	op, err := ca.NewCAOperator(n)
	require.NoError(t, err)
	const k = 30
	opt := svd.DefaultOptions(k)
	r, c := n.Dims()
	plan, err := svd.Plan("krylov", r, c, opt)
	require.NoError(t, err)
	opt.MaxBytes = plan.Peak

	t.Run("product budget", func(t *testing.T) {
		o := opt
		o.MaxProducts = 2000
		_, err := svd.Krylov{}.Decompose(context.Background(), op, o)
		require.ErrorIs(t, err, svd.ErrNotConverged)
		assert.NotErrorIs(t, err, context.DeadlineExceeded)
		var nc *svd.NotConvergedError
		require.ErrorAs(t, err, &nc)
		assert.Less(t, nc.Products, 1000, "stopped early")
		assert.True(t, nc.Early)
		assert.False(t, nc.Deadline)
		assert.Equal(t, 2000, nc.Limit)
		assert.Greater(t, nc.Need, 2*(2000-nc.Products), "the rate's estimate")
		assert.Less(t, nc.Spread, 0.01)
		assert.Greater(t, nc.Within, k+1)
		assert.Greater(t, nc.Residual, opt.Tol)
		assert.True(t, nc.Capped, "the memory budget kept the window")
		assert.Equal(t, 75, nc.Window, "2k + b")
		msg := err.Error()
		assert.Contains(t, msg, "krylov SVD: 0 of 30 triplets within tolerance 1e-08 after")
		assert.Contains(t, msg, "(limit 2000): did not converge; the top of the spectrum is a cluster (Ritz estimates): σ_1..σ_31 lie within")
		assert.Contains(t, msg, "the smallest residual of a triplet not converged reached")
		assert.Contains(t, msg, "; the memory budget kept the active basis at 75 columns; at the rate observed it needs about")
		assert.Contains(t, msg, fmt.Sprintf("take a rank that ends where the singular values part (at least %d, past the cluster), or allow more column-products or time, or more memory", nc.Within))
		t.Log(msg)
	})
	t.Run("deadline", func(t *testing.T) {
		// A deadline 50 ms away that never passes: the decision rests on
		// the rate, whatever this machine's speed (the fixed window needs
		// about 7,700 products here).
		ctx := farDeadline{context.Background(), time.Now().Add(50 * time.Millisecond)}
		_, err := svd.Krylov{}.Decompose(ctx, op, opt)
		require.ErrorIs(t, err, svd.ErrNotConverged)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		var nc *svd.NotConvergedError
		require.ErrorAs(t, err, &nc)
		assert.True(t, nc.Deadline)
		assert.True(t, nc.Early)
		assert.Less(t, nc.Products, 1000, "stopped early")
		assert.Contains(t, err.Error(), "more column-products, far more than the time left allows: stopped early")
	})
	t.Run("deadline passes", func(t *testing.T) {
		// Out of time mid-run, before the rate is judged: the same account.
		var up bool
		timed := &cancelAfter{Operator: op, at: 20, cancel: func() { up = true }}
		_, err := svd.Krylov{}.Decompose(expiring{context.Background(), &up}, timed, opt)
		require.ErrorIs(t, err, svd.ErrNotConverged)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		var nc *svd.NotConvergedError
		require.ErrorAs(t, err, &nc)
		assert.True(t, nc.Deadline)
		assert.False(t, nc.Early)
		assert.Greater(t, nc.Within, k)
		assert.Contains(t, err.Error(), "more column-products; out of time. To converge:")
	})
}

// expiring has a deadline an hour away, and its time is up once *up is set.
type expiring struct {
	context.Context
	up *bool
}

func (e expiring) Deadline() (time.Time, bool) { return time.Now().Add(time.Hour), true }
func (e expiring) Err() error {
	if *e.up {
		return context.DeadlineExceeded
	}
	return nil
}

// farDeadline reports a deadline but is never done.
type farDeadline struct {
	context.Context
	at time.Time
}

func (f farDeadline) Deadline() (time.Time, bool) { return f.at, true }

// scipyPassages is testdata/passages/scipy.json, written by svds_scipy.py.
type scipyPassages struct {
	Table struct {
		Rows, Cols, NNZ int
		SHA256          string
	}
	K          int
	Scipy      string
	SigmaSvds  []float64 `json:"sigma_svds"`
	SigmaDense []float64 `json:"sigma_dense"`
	SigmaNext  float64   `json:"sigma_k_plus_1_dense"`
}

// TestKrylovPassagesScipy compares krylov's singular values on the CA of
// the clustered repeated-passage table with scipy's svds (ARPACK) and
// numpy's dense SVD, stored with the script that made them; the table's
// bytes are checked against the ones the script read. With
// KCALAB_PASSAGES_TABLE set it writes the table there for the script.
func TestKrylovPassagesScipy(t *testing.T) {
	n := passagesTable(t, clusteredPassages(), 10)
	var buf bytes.Buffer
	require.NoError(t, writeCSR(&buf, n))
	if path := os.Getenv("KCALAB_PASSAGES_TABLE"); path != "" {
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "passages", "scipy.json"))
	require.NoError(t, err)
	var ref scipyPassages
	require.NoError(t, json.Unmarshal(raw, &ref))
	sum := sha256.Sum256(buf.Bytes())
	require.Equal(t, ref.Table.SHA256, hex.EncodeToString(sum[:]), "the table the reference was computed on")

	op, err := ca.NewCAOperator(n)
	require.NoError(t, err)
	opt := svd.DefaultOptions(ref.K)
	res, err := svd.Krylov{}.Decompose(context.Background(), op, opt)
	require.NoError(t, err)
	assert.LessOrEqual(t, res.Accuracy.RelResidual, opt.Tol)
	require.Len(t, ref.SigmaSvds, ref.K)
	for i := range ref.K {
		// A residual r bounds each σ's error by r (1e-8 here) and, away
		// from other values, by r²/gap; measured: 3e-15. The two
		// references agree to rounding.
		require.InDelta(t, ref.SigmaDense[i], ref.SigmaSvds[i], 1e-12, "scipy's two σ_%d", i+1)
		require.InDelta(t, ref.SigmaSvds[i], res.S[i], 1e-12, "σ_%d", i+1)
	}
	assert.Greater(t, ref.SigmaNext, 0.998, "σ_%d: the cluster goes on past k", ref.K+1)
	var worst float64
	for i := range ref.K {
		worst = max(worst, math.Abs(res.S[i]-ref.SigmaSvds[i]))
	}
	t.Logf("scipy %s: σ_1 %.12f σ_%d %.12f; krylov: %.12f %.12f, largest difference %.1e", ref.Scipy, ref.SigmaSvds[0], ref.K, ref.SigmaSvds[ref.K-1], res.S[0], res.S[ref.K-1], worst)
}

// writeCSR writes n in the peers' binary CSR layout
// (methods/ca/testdata/peers/svds_rspectra.R): rows, cols and nnz as
// float64, indptr as float64, indices as int32, values as float64, little
// endian.
func writeCSR(w io.Writer, n *sparse.CSR) error {
	r, c := n.Dims()
	indptr, indices, data := n.Raw()
	ptr := make([]float64, len(indptr))
	for i, p := range indptr {
		ptr[i] = float64(p)
	}
	for _, part := range []any{[]float64{float64(r), float64(c), float64(len(data))}, ptr, indices, data} {
		if err := binary.Write(w, binary.LittleEndian, part); err != nil {
			return err
		}
	}
	return nil
}

// TestKrylovObserve: krylov tells Options.Observe, after each restart, how
// far it has come (triplets converged, products, the spectrum seen), so a
// caller whose time budget ends inside a long product can still say it;
// the result is the same with or without it.
func TestKrylovObserve(t *testing.T) {
	op, err := ca.NewCAOperator(plantedTable(1, 150, 5, 30_000))
	require.NoError(t, err)
	opt := svd.DefaultOptions(20)
	plain, err := svd.Krylov{}.Decompose(context.Background(), op, opt)
	require.NoError(t, err)
	var seen []svd.NotConvergedError
	opt.Observe = func(e *svd.NotConvergedError) { seen = append(seen, *e) }
	res, err := svd.Krylov{}.Decompose(context.Background(), op, opt)
	require.NoError(t, err)
	assert.Equal(t, plain.S, res.S)
	require.NotEmpty(t, seen)
	last := seen[len(seen)-1]
	assert.Equal(t, 20, last.Rank)
	assert.Equal(t, 20, last.Converged, "the last restart converged every triplet")
	assert.Positive(t, last.Products)
	for i := 1; i < len(seen); i++ {
		assert.GreaterOrEqual(t, seen[i].Products, seen[i-1].Products)
	}
}
