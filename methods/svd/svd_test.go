package svd_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/sparse"
	"kcalab/methods/ca"
	"kcalab/methods/svd"
)

var update = flag.Bool("update", false, "rewrite the reference files in testdata")

var backends = []svd.Backend{svd.Dense{}, svd.Randomized{}, svd.DSSVD{}}

// orthonormal returns an r×k matrix with orthonormal columns.
func orthonormal(rng *rand.Rand, r, k int) *mat.Dense {
	g := mat.NewDense(r, k, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < k; j++ {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	return mat.DenseCopyOf(q.Slice(0, r, 0, k))
}

// withSpectrum returns U·diag(s)·Vᵀ for random orthonormal U, V.
func withSpectrum(seed uint64, r, c int, s []float64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 2))
	u, v := orthonormal(rng, r, len(s)), orthonormal(rng, c, len(s))
	var us, a mat.Dense
	us.Mul(u, mat.NewDiagDense(len(s), s))
	a.Mul(&us, v.T())
	return &a
}

func geometric(n int, ratio float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 10 * math.Pow(ratio, float64(i))
	}
	return s
}

// exactSVD is the reference: gonum's full SVD with the package's sign rule
// applied independently here.
func exactSVD(t *testing.T, a *mat.Dense, k int) *svd.Result {
	var f mat.SVD
	require.True(t, f.Factorize(a, mat.SVDThin))
	var u, v mat.Dense
	f.UTo(&u)
	f.VTo(&v)
	r, _ := u.Dims()
	c, _ := v.Dims()
	res := &svd.Result{S: f.Values(nil)[:k], U: mat.DenseCopyOf(u.Slice(0, r, 0, k)), V: mat.DenseCopyOf(v.Slice(0, c, 0, k))}
	for j := 0; j < k; j++ {
		best := 0
		for i := 0; i < r; i++ {
			if math.Abs(res.U.At(i, j)) > math.Abs(res.U.At(best, j)) {
				best = i
			}
		}
		if res.U.At(best, j) < 0 {
			for i := 0; i < r; i++ {
				res.U.Set(i, j, -res.U.At(i, j))
			}
			for i := 0; i < c; i++ {
				res.V.Set(i, j, -res.V.At(i, j))
			}
		}
	}
	return res
}

func requireClose(t *testing.T, want, got *svd.Result, sTol, vecTol float64) {
	t.Helper()
	require.Len(t, got.S, len(want.S))
	for i := range want.S {
		require.InDelta(t, want.S[i], got.S[i], sTol*want.S[0], "σ_%d", i+1)
	}
	require.True(t, mat.EqualApprox(want.U, got.U, vecTol), "U")
	require.True(t, mat.EqualApprox(want.V, got.V, vecTol), "V")
}

func TestBackendsMatchExact(t *testing.T) {
	tests := []struct {
		name string
		a    *mat.Dense
		k    int
	}{
		{"tall decaying", withSpectrum(1, 60, 40, geometric(40, 0.6)), 5},
		{"wide decaying", withSpectrum(2, 40, 60, geometric(40, 0.6)), 5},
		{"square rank 1", withSpectrum(3, 50, 50, geometric(50, 0.5)), 1},
		// Flat spectrum: only exact because the sketch (k+10, clamped to
		// min(r, c) = 6) spans the whole range.
		{"sketch covers range", withSpectrum(4, 9, 6, []float64{6, 5, 4, 3, 2, 1}), 4},
	}
	for _, tc := range tests {
		want := exactSVD(t, tc.a, tc.k)
		for _, b := range backends {
			for _, norm := range []string{"lu", "qr", "none"} {
				if b.Name() == "dense" && norm != "lu" {
					continue // dense ignores the normaliser
				}
				t.Run(fmt.Sprintf("%s/%s/%s", tc.name, b.Name(), norm), func(t *testing.T) {
					opt := svd.DefaultOptions(tc.k)
					opt.Normalizer = norm
					if norm == "none" {
						opt.PowerIters = 2 // more loses accuracy: see TestNormalizerNeeded
					}
					got, err := b.Decompose(context.Background(), svd.DenseOperator{A: tc.a}, opt)
					require.NoError(t, err)
					requireClose(t, want, got, 1e-12, 1e-9)
				})
			}
		}
	}
}

// TestPowerItersRule checks the paper's q rule through its effect: with no
// power iteration a flat-ish spectrum is badly approximated, with the rule's
// 7 iterations it is not.
func TestPowerItersRule(t *testing.T) {
	a := withSpectrum(5, 200, 150, geometric(150, 0.9))
	want := exactSVD(t, a, 3)
	errFor := func(q int) float64 {
		opt := svd.DefaultOptions(3)
		opt.PowerIters = q
		got, err := svd.DSSVD{}.Decompose(context.Background(), svd.DenseOperator{A: a}, opt)
		require.NoError(t, err)
		return math.Abs(got.S[2]-want.S[2]) / want.S[2]
	}
	assert.Greater(t, errFor(0), 1e-4)
	assert.Less(t, errFor(-1), 1e-8) // 3 < 0.1·150, so q = 7
	assert.Equal(t, errFor(7), errFor(-1))
}

// plantedTable draws samples (row, col) pairs of a V×V count table with
// `topics` planted blocks: a sample picks a topic t (weights ∝ 1/(t+1)), a
// row of that topic, and with probability 0.95 − 0.4·t/topics a column of
// the same topic, else a uniform column. The CA spectrum then has topics−1
// well-separated values above a noise floor.
func plantedTable(seed uint64, v, topics, samples int) *sparse.CSR {
	rng := rand.New(rand.NewPCG(seed, 3))
	cum := make([]float64, topics)
	var tot float64
	for t := range cum {
		tot += 1 / float64(t+1)
		cum[t] = tot
	}
	per := v / topics
	ts := make([]sparse.Triplet, samples)
	for s := range ts {
		u := rng.Float64() * tot
		t := 0
		for cum[t] < u {
			t++
		}
		i := t + topics*rng.IntN(per)
		j := rng.IntN(v)
		if rng.Float64() < 0.95-0.4*float64(t)/float64(topics) {
			j = t + topics*rng.IntN(per)
		}
		ts[s] = sparse.Triplet{I: int32(i), J: int32(j), V: 1}
	}
	n, err := sparse.FromTriplets(v, v, ts)
	if err != nil {
		panic(err)
	}
	return n
}

// TestSparseCATableK20 runs the randomized backends on the CA operator of a
// sparse 3000×3000 count table; they must match the exact top 20 singular
// values to 1e-6 relative. The exact values, from LAPACK's SVD of the
// dense operator without vectors (about 15 s), are stored in
// testdata/sparse_ca_k20.json with the table's size and total, which are
// checked so that a change of the table cannot go unnoticed; -update
// recomputes them. (The dense backend, which also computes U and V, takes
// about 5 minutes at this size, so it is compared with the others on a
// 600×600 table in TestSparseCATableAllBackends.)
func TestSparseCATableK20(t *testing.T) {
	n := plantedTable(1, 3000, 21, 600_000)
	op, err := ca.NewCAOperator(n)
	require.NoError(t, err)
	type reference struct {
		Table  string    `json:"table"`
		NNZ    int       `json:"nnz"`
		Total  float64   `json:"total"`
		Method string    `json:"method"`
		Sigma  []float64 `json:"sigma"`
	}
	path := filepath.Join("testdata", "sparse_ca_k20.json")
	ref := reference{Table: "plantedTable(1, 3000, 21, 600_000)", NNZ: n.NNZ(), Total: n.Sum(),
		Method: "gonum mat.SVD (LAPACK dgesvd, no vectors) of the materialised CA operator"}
	if *update {
		var exact mat.SVD
		require.True(t, exact.Factorize(op.Materialize(), mat.SVDNone))
		ref.Sigma = exact.Values(nil)[:20]
		out, err := json.MarshalIndent(ref, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, append(out, '\n'), 0o644))
	}
	raw, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to compute the reference")
	var stored reference
	require.NoError(t, json.Unmarshal(raw, &stored))
	require.Equal(t, ref.NNZ, stored.NNZ, "the planted table changed: rerun with -update")
	require.Equal(t, ref.Total, stored.Total, "the planted table changed: rerun with -update")
	require.Len(t, stored.Sigma, 20)
	want := stored.Sigma
	t.Logf("σ_1..σ_20 = %.4f", want)
	opt := svd.DefaultOptions(20) // q = 7 by the paper's rule (20 < 300)
	res := map[string]*svd.Result{}
	for _, b := range append(backends[1:], svd.Krylov{}) {
		r, err := b.Decompose(context.Background(), op, opt)
		require.NoError(t, err)
		res[b.Name()] = r
		for i, s := range want {
			assert.InDelta(t, 0, (r.S[i]-s)/s, 1e-6, "%s σ_%d", b.Name(), i+1)
		}
	}
	for i, s := range want {
		assert.InDelta(t, s, res["krylov"].S[i], 1e-12, "krylov σ_%d to its tolerance", i+1)
	}
	// Randomized and DSSVD are one algorithm on one seed; only the rounding
	// of the products differs.
	requireClose(t, res["randomized"], res["dssvd"], 1e-12, 1e-8)
}

// TestSparseCATableAllBackends compares all three backends, vectors
// included, on the CA operator of a sparse 600×600 table with k = 20 and
// the paper's settings.
func TestSparseCATableAllBackends(t *testing.T) {
	n := plantedTable(4, 600, 21, 120_000)
	op, err := ca.NewCAOperator(n)
	require.NoError(t, err)
	opt := svd.DefaultOptions(20)
	ref, err := svd.Dense{}.Decompose(context.Background(), op, opt)
	require.NoError(t, err)
	for _, b := range backends[1:] {
		got, err := b.Decompose(context.Background(), op, opt)
		require.NoError(t, err)
		for i, s := range ref.S {
			assert.InDelta(t, 0, (got.S[i]-s)/s, 1e-6, "%s σ_%d", b.Name(), i+1)
			var du, dv float64
			for r := 0; r < 600; r++ {
				du += ref.U.At(r, i) * got.U.At(r, i)
				dv += ref.V.At(r, i) * got.V.At(r, i)
			}
			assert.InDelta(t, 1, du, 1e-6, "%s u_%d·u_%d", b.Name(), i+1, i+1)
			assert.InDelta(t, 1, dv, 1e-6, "%s v_%d·v_%d", b.Name(), i+1, i+1)
		}
	}
}

// TestNormalizerNeeded shows why power iterations are normalised: without
// it, seven iterations drown the smaller directions in rounding error.
func TestNormalizerNeeded(t *testing.T) {
	a := withSpectrum(1, 60, 40, geometric(40, 0.6))
	want := exactSVD(t, a, 5)
	uErr := func(norm string) float64 {
		opt := svd.DefaultOptions(5)
		opt.Normalizer, opt.PowerIters = norm, 7
		got, err := svd.DSSVD{}.Decompose(context.Background(), svd.DenseOperator{A: a}, opt)
		require.NoError(t, err)
		var d mat.Dense
		d.Sub(want.U, got.U)
		return mat.Norm(&d, math.Inf(1))
	}
	assert.Greater(t, uErr("none"), 1e-6)
	assert.Less(t, uErr("lu"), 1e-10)
	assert.Less(t, uErr("qr"), 1e-10)
}

// TestDeterministic checks that the randomized backends depend only on
// their inputs and seed, not on GOMAXPROCS.
func TestDeterministic(t *testing.T) {
	n := plantedTable(2, 2000, 11, 200_000)
	op, err := ca.NewCAOperator(n)
	require.NoError(t, err)
	opt := svd.DefaultOptions(10)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, b := range []svd.Backend{svd.Randomized{}, svd.DSSVD{}} {
		var ref *svd.Result
		for _, procs := range []int{1, 2, 4} {
			runtime.GOMAXPROCS(procs)
			got, err := b.Decompose(context.Background(), op, opt)
			require.NoError(t, err)
			if ref == nil {
				ref = got
				continue
			}
			require.Equal(t, ref.S, got.S, "%s GOMAXPROCS=%d", b.Name(), procs)
			require.Equal(t, ref.U.RawMatrix().Data, got.U.RawMatrix().Data, "%s GOMAXPROCS=%d", b.Name(), procs)
			require.Equal(t, ref.V.RawMatrix().Data, got.V.RawMatrix().Data, "%s GOMAXPROCS=%d", b.Name(), procs)
		}
		other := opt
		other.Seed = 99
		got, err := b.Decompose(context.Background(), op, other)
		require.NoError(t, err)
		assert.NotEqual(t, ref.U.RawMatrix().Data, got.U.RawMatrix().Data, "the seed matters")
		requireClose(t, ref, got, 1e-9, 1e-5)
	}
}

// TestDenseDeterministic checks the dense backend (LAPACK on gonum's
// parallel BLAS) gives the same bits whatever GOMAXPROCS is.
func TestDenseDeterministic(t *testing.T) {
	op, err := ca.NewCAOperator(plantedTable(5, 400, 11, 40_000))
	require.NoError(t, err)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var ref *svd.Result
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		got, err := svd.Dense{}.Decompose(context.Background(), op, svd.DefaultOptions(10))
		require.NoError(t, err)
		if ref == nil {
			ref = got
			continue
		}
		require.Equal(t, ref.S, got.S, "GOMAXPROCS=%d", procs)
		require.Equal(t, ref.U.RawMatrix().Data, got.U.RawMatrix().Data, "GOMAXPROCS=%d", procs)
		require.Equal(t, ref.V.RawMatrix().Data, got.V.RawMatrix().Data, "GOMAXPROCS=%d", procs)
	}
}

// cancelAfter cancels its context on the given product.
type cancelAfter struct {
	svd.Operator
	calls, at int
	cancel    context.CancelFunc
}

func (c *cancelAfter) MulTo(dst, x *mat.Dense) {
	c.calls++
	if c.calls == c.at {
		c.cancel()
	}
	c.Operator.MulTo(dst, x)
}

func TestCancelBetweenIterations(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	op := &cancelAfter{Operator: svd.DenseOperator{A: withSpectrum(8, 30, 20, geometric(20, 0.7))}, at: 3, cancel: cancel}
	_, err := svd.DSSVD{}.Decompose(ctx, op, svd.DefaultOptions(2)) // q = 4: 5 products with A
	require.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "dssvd SVD: power iteration 3 of 4")
	assert.Equal(t, 3, op.calls, "stops at the next check")
}

// operatorOnly hides Materialize.
type operatorOnly struct{ svd.Operator }

// forbidMaterialize fails the test if anything materialises it.
type forbidMaterialize struct {
	svd.Operator
	t *testing.T
}

func (f forbidMaterialize) Materialize() *mat.Dense {
	f.t.Errorf("Materialize called")
	panic("Materialize called")
}

func TestErrors(t *testing.T) {
	a := svd.DenseOperator{A: withSpectrum(6, 20, 10, geometric(10, 0.5))}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	mod := func(f func(*svd.Options)) svd.Options {
		o := svd.DefaultOptions(3)
		f(&o)
		return o
	}
	tests := []struct {
		name     string
		backends []svd.Backend
		ctx      context.Context
		op       svd.Operator
		opt      svd.Options
		want     string
		is       error
	}{
		{"rank 0", backends, nil, a, mod(func(o *svd.Options) { o.Rank = 0 }), "rank 0: must be at least 1", nil},
		{"rank too large", backends, nil, a, mod(func(o *svd.Options) { o.Rank = 11 }), "rank 11 exceeds min(rows, cols) = 10 of the 20×10 matrix", nil},
		{"negative oversample", backends[1:], nil, a, mod(func(o *svd.Options) { o.Oversample = -1 }), "oversample -1: must be ≥ 0", nil},
		{"bad power iterations", backends[1:], nil, a, mod(func(o *svd.Options) { o.PowerIters = -2 }), "power iterations -2", nil},
		{"bad normaliser", backends[1:], nil, a, mod(func(o *svd.Options) { o.Normalizer = "cholesky" }), `unknown power-iteration normalizer "cholesky" (allowed: lu, qr, none)`, nil},
		{"not materialisable", backends[:2], nil, operatorOnly{a}, svd.DefaultOptions(3), "cannot materialise it (use the dssvd backend)", nil},
		{"over budget", backends[:2], nil, forbidMaterialize{a, t}, mod(func(o *svd.Options) { o.MaxDenseBytes = 20*10*8 - 1 }), "the dense 20×10 matrix needs 1600 bytes, more than the budget of 1599 bytes", svd.ErrOverBudget},
		{"cancelled", backends, cancelled, a, svd.DefaultOptions(3), "context canceled", context.Canceled},
	}
	for _, tc := range tests {
		for _, b := range tc.backends {
			t.Run(tc.name+"/"+b.Name(), func(t *testing.T) {
				ctx := tc.ctx
				if ctx == nil {
					ctx = context.Background()
				}
				_, err := b.Decompose(ctx, tc.op, tc.opt)
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.want)
				assert.Contains(t, err.Error(), b.Name()+" SVD")
				if tc.is != nil {
					assert.True(t, errors.Is(err, tc.is), "errors.Is(%v, %v)", err, tc.is)
				}
			})
		}
	}
	// Within budget, and DSSVD ignores the budget since it never materialises.
	opt := mod(func(o *svd.Options) { o.MaxDenseBytes = 20 * 10 * 8 })
	for _, b := range backends {
		_, err := b.Decompose(context.Background(), a, opt)
		require.NoError(t, err, b.Name())
	}
	_, err := svd.DSSVD{}.Decompose(context.Background(), forbidMaterialize{a, t}, mod(func(o *svd.Options) { o.MaxDenseBytes = 1 }))
	require.NoError(t, err)
}

// TestDSSVDMemory runs DSSVD on the CA operator of a 20000×20000 table,
// whose dense matrix would take 3.2 GB, and checks that the live heap grows
// by less than 5% of that (the operator's cached transpose included).
func TestDSSVDMemory(t *testing.T) {
	const v = 20000
	n := plantedTable(3, v, 50, 2_000_000)
	op, err := ca.NewCAOperator(n)
	require.NoError(t, err)
	guarded := forbidMaterialize{op, t}
	dense := float64(v) * v * 8

	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	heap := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	base := heap()
	peak := base
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(200 * time.Microsecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				peak = max(peak, heap())
			}
		}
	})
	res, err := svd.DSSVD{}.Decompose(context.Background(), guarded, svd.DefaultOptions(20))
	close(stop)
	wg.Wait()
	require.NoError(t, err)
	require.Len(t, res.S, 20)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)

	growth := float64(peak - base)
	allocated := float64(after.TotalAlloc - before.TotalAlloc)
	t.Logf("table nnz %d (%.1f MB); peak live heap growth %.1f MB = %.2f%% of the %.1f GB dense matrix; %.1f MB allocated in total",
		n.NNZ(), float64(n.Bytes())/1e6, growth/1e6, 100*growth/dense, dense/1e9, allocated/1e6)
	assert.Less(t, growth, 0.05*dense)
	assert.Less(t, allocated, 0.10*dense, "even all allocations together stay far below the dense matrix")
}

func ExampleDSSVD() {
	// A 2×2 matrix with singular values 3 and 1.
	a := mat.NewDense(2, 2, []float64{
		2, 1,
		1, 2,
	})
	res, err := svd.DSSVD{}.Decompose(context.Background(), svd.DenseOperator{A: a}, svd.DefaultOptions(2))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("σ = %.6f\n", res.S)
	fmt.Printf("u1 = %.4f\n", mat.Col(nil, 0, res.U))
	// Output:
	// σ = [3.000000 1.000000]
	// u1 = [0.7071 0.7071]
}

// benchCA benchmarks a backend on the CA operator of a planted V×V table
// of n counts with k = 20 and the paper's settings; it reports the table's
// stored values as the nnz metric.
func benchCA(b *testing.B, backend svd.Backend, v, n int) {
	b.Run(fmt.Sprintf("V=%d_n=%s_k=20", v, approx(n)), func(b *testing.B) {
		table := plantedTable(7, v, 21, n)
		op, err := ca.NewCAOperator(table)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := backend.Decompose(context.Background(), op, svd.DefaultOptions(20)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(table.NNZ()), "nnz")
	})
}

func approx(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%gM", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%gk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

func BenchmarkDense(b *testing.B) {
	benchCA(b, svd.Dense{}, 300, 30_000)
	benchCA(b, svd.Dense{}, 1000, 100_000)
}

func BenchmarkRandomized(b *testing.B) {
	benchCA(b, svd.Randomized{}, 1000, 100_000)
	benchCA(b, svd.Randomized{}, 3000, 600_000)
}

func BenchmarkDSSVD(b *testing.B) {
	benchCA(b, svd.DSSVD{}, 1000, 100_000)
	benchCA(b, svd.DSSVD{}, 3000, 600_000)
	benchCA(b, svd.DSSVD{}, 20000, 2_000_000)
	benchCA(b, svd.DSSVD{}, 71290, 14_000_000)
}

// TestProgress: the sketches report their power iterations and krylov its
// restarts, and reporting never changes a result.
func TestProgress(t *testing.T) {
	a := svd.DenseOperator{A: withSpectrum(5, 300, 260, slowDecayProgress(60))}
	for _, tc := range []struct {
		backend svd.Backend
		want    string
	}{
		{svd.DSSVD{}, "power iteration 7 of 7"},
		{svd.Randomized{}, "power iteration 1 of 7"},
		{svd.Krylov{}, "triplets converged"},
	} {
		t.Run(tc.backend.Name(), func(t *testing.T) {
			opt := svd.DefaultOptions(20)
			quiet, err := tc.backend.Decompose(context.Background(), a, opt)
			require.NoError(t, err)
			var steps []string
			opt.Progress = func(s string) { steps = append(steps, s) }
			told, err := tc.backend.Decompose(context.Background(), a, opt)
			require.NoError(t, err)
			require.NotEmpty(t, steps)
			found := false
			for _, s := range steps {
				found = found || strings.Contains(s, tc.want)
			}
			assert.True(t, found, "%q among %q", tc.want, steps)
			assert.Equal(t, quiet.S, told.S)
			assert.True(t, mat.Equal(quiet.U, told.U), "same bits with progress on")
		})
	}
}

func slowDecayProgress(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 1 / math.Sqrt(float64(i+1))
	}
	return s
}
