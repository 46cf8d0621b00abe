package ca

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/sparse"
	"kcalab/datasets/synth"
	"kcalab/methods/svd"
	"kcalab/methods/vectors"
)

// TestDecomposeMatchesAnalyze: the lean path gives Analyze's singular
// values, total inertia and row coordinates (via vectors.Coordinates and
// RowMass), for every kernel Analyze knows and every backend.
func TestDecomposeMatchesAnalyze(t *testing.T) {
	ctx := context.Background()
	for _, kernel := range []Kernel{KernelCA, KernelLCA, KernelGini} {
		for _, b := range backends() {
			t.Run(string(kernel)+"/"+b.Name(), func(t *testing.T) {
				opt := svd.DefaultOptions(3)
				want, err := Analyze(ctx, fisher(), kernel, b, opt)
				require.NoError(t, err)
				got, err := Decompose(ctx, fisher(), kernel, b, opt)
				require.NoError(t, err)
				assert.Equal(t, want.Kernel, got.Kernel)
				assert.Equal(t, want.SingularValues, got.S)
				assert.Equal(t, want.TotalInertia, got.TotalInertia)
				std, err := vectors.Coordinates(got.U, got.S, got.RowMass, vectors.Standard)
				require.NoError(t, err)
				prin, err := vectors.Coordinates(got.U, got.S, got.RowMass, vectors.Principal)
				require.NoError(t, err)
				requireEqualUpToSign(t, "row standard", want.RowStandard, std, 1e-12)
				requireEqualUpToSign(t, "row principal", want.RowPrincipal, prin, 1e-12)
			})
		}
	}
}

// TestDecomposePlain: the plain kernel is the SVD of the matrix itself,
// negative entries allowed, up to full rank min(r, c).
func TestDecomposePlain(t *testing.T) {
	vals := []float64{
		2, 0, -1, 0.5, 0,
		0, 3, 0, 0, 1,
		-1, 0, 4, 0, 0,
		0.5, 1, 0, 0, 2,
	}
	n := sparse.FromDense(4, 5, vals)
	var ref mat.SVD
	require.True(t, ref.Factorize(mat.NewDense(4, 5, vals), mat.SVDThin))
	wantS := ref.Values(nil)
	var wantU mat.Dense
	ref.UTo(&wantU)
	var fro float64
	for _, v := range vals {
		fro += v * v
	}
	for _, b := range backends() {
		for _, k := range []int{2, 4} {
			t.Run(fmt.Sprintf("%s/rank%d", b.Name(), k), func(t *testing.T) {
				opt := svd.DefaultOptions(k)
				dec, err := Decompose(context.Background(), n, KernelPlain, b, opt)
				require.NoError(t, err)
				assert.Equal(t, KernelPlain, dec.Kernel)
				assert.InDeltaSlice(t, wantS[:k], dec.S, 1e-12)
				assert.Equal(t, []float64{1, 1, 1, 1}, dec.RowMass)
				assert.InDelta(t, fro, dec.TotalInertia, 1e-12)
				requireEqualUpToSign(t, "U", wantU.Slice(0, 4, 0, k).(*mat.Dense), dec.U, 1e-12)
				if k == 4 {
					var sum float64
					for _, s := range dec.S {
						sum += s * s
					}
					assert.InDelta(t, dec.TotalInertia, sum, 1e-12, "full rank holds all the inertia")
				}
			})
		}
	}
}

// TestDecomposeEmptyRows: a row without entries gets an exactly zero U row
// and so a zero vector, never NaN, in every kernel.
func TestDecomposeEmptyRows(t *testing.T) {
	n := sparse.FromDense(5, 6, []float64{
		10, 0, 3, 1, 0, 2,
		0, 0, 0, 0, 0, 0,
		2, 0, 8, 1, 0, 1,
		1, 0, 1, 9, 0, 3,
		4, 0, 2, 2, 0, 7,
	})
	for _, kernel := range []Kernel{KernelCA, KernelGini, KernelPlain} {
		for _, b := range backends() {
			t.Run(string(kernel)+"/"+b.Name(), func(t *testing.T) {
				dec, err := Decompose(context.Background(), n, kernel, b, svd.DefaultOptions(3))
				require.NoError(t, err)
				f, err := vectors.Coordinates(dec.U, dec.S, dec.RowMass, vectors.Principal)
				require.NoError(t, err)
				assert.Equal(t, []float64{0, 0, 0}, f.RawRowView(1))
				for i := 0; i < 5; i++ {
					for _, x := range f.RawRowView(i) {
						require.False(t, math.IsNaN(x) || math.IsInf(x, 0))
					}
				}
			})
		}
	}
}

// TestSyntheticTableMap: on the quickstart's synthetic table with planted
// groups, every row's nearest row in the CA map (principal coordinates,
// groups − 1 dimensions) is of its own group.
func TestSyntheticTableMap(t *testing.T) {
	o := synth.TableOptions{Groups: 4, RowsPerGroup: 5, ColsPerGroup: 6, Total: 5000, Noise: 0.3, Seed: 2}
	tab, err := synth.Table(o)
	require.NoError(t, err)
	dec, err := Decompose(context.Background(), tab.N, KernelCA, svd.DSSVD{}, svd.DefaultOptions(o.Groups-1))
	require.NoError(t, err)
	f, err := vectors.Coordinates(dec.U, dec.S, dec.RowMass, vectors.Principal)
	require.NoError(t, err)
	rows, _ := f.Dims()
	for i := 0; i < rows; i++ {
		best, bestD := -1, math.Inf(1)
		for j := 0; j < rows; j++ {
			if j == i {
				continue
			}
			var d mat.VecDense
			d.SubVec(f.RowView(i), f.RowView(j))
			if n := mat.Norm(&d, 2); n < bestD {
				best, bestD = j, n
			}
		}
		assert.Equal(t, i/o.RowsPerGroup, best/o.RowsPerGroup, "row %s: nearest %s", tab.RowLabels[i], tab.RowLabels[best])
	}
}

func TestDecomposeErrors(t *testing.T) {
	ctx := context.Background()
	nan := sparse.FromDense(2, 3, []float64{1, math.NaN(), 2, 3, 0, 1})
	neg := sparse.FromDense(2, 3, []float64{1, -1, 2, 3, 0, 1})
	tests := []struct {
		name    string
		n       *sparse.CSR
		kernel  Kernel
		backend svd.Backend
		rank    int
		want    string
	}{
		{"ca rank too large", fisher(), KernelCA, svd.Dense{}, 4, "rank 4 out of range: the ca kernel of a 4×5 table has 3 dimensions, so the rank must be in 1..3"},
		{"plain rank too large", fisher(), KernelPlain, svd.DSSVD{}, 5, "the plain kernel of a 4×5 table has 4 dimensions"},
		{"rank zero", fisher(), KernelPlain, svd.Dense{}, 0, "rank 0 out of range"},
		{"unknown kernel", fisher(), "pca", svd.Dense{}, 2, `unknown kernel "pca" (allowed: ca, lca, gini, plain)`},
		{"nil backend", fisher(), KernelCA, nil, 2, "nil SVD backend"},
		{"nil table", nil, KernelPlain, svd.Dense{}, 2, "nil table"},
		{"negative count", neg, KernelCA, svd.Dense{}, 1, "table entry (0, 1) = -1: counts must be finite and non-negative"},
		{"plain NaN", nan, KernelPlain, svd.Dense{}, 1, "matrix entry (0, 1) = NaN: entries must be finite"},
		{"plain all zero", sparse.FromDense(2, 3, make([]float64, 6)), KernelPlain, svd.Dense{}, 1, "the 2×3 matrix is all zero"},
		{"plain empty", sparse.FromDense(0, 3, nil), KernelPlain, svd.Dense{}, 1, "empty 0×3 matrix"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decompose(ctx, tc.n, tc.kernel, tc.backend, svd.DefaultOptions(tc.rank))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	opt := svd.DefaultOptions(2)
	opt.MaxDenseBytes = 100
	_, err := Decompose(ctx, fisher(), KernelPlain, svd.Dense{}, opt)
	require.ErrorIs(t, err, svd.ErrOverBudget)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = Decompose(cancelled, fisher(), KernelPlain, svd.DSSVD{}, opt)
	require.ErrorIs(t, err, context.Canceled)
}

func ExampleDecompose() {
	// Fisher's eye × hair colour table: word vectors would be the rows of F.
	n := sparse.FromDense(4, 5, []float64{
		326, 38, 241, 110, 3,
		688, 116, 584, 188, 4,
		343, 84, 909, 412, 26,
		98, 48, 403, 681, 85,
	})
	dec, err := Decompose(context.Background(), n, KernelCA, svd.DSSVD{}, svd.DefaultOptions(2))
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := vectors.Coordinates(dec.U, dec.S, dec.RowMass, vectors.Principal)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("σ = %.4f %.4f of total inertia %.4f\n", dec.S[0], dec.S[1], dec.TotalInertia)
	r, k := f.Dims()
	fmt.Printf("F is %d×%d\n", r, k)
	// Output:
	// σ = 0.4464 0.1735 of total inertia 0.2302
	// F is 4×2
}

// BenchmarkWordTable compares Analyze, which builds four coordinate
// matrices, with the lean Decompose on a 20,000-word table at rank 100
// (DSSVD): B/op shows the memory Decompose saves.
func BenchmarkWordTable(b *testing.B) {
	const v, perRow, k = 20000, 40, 100
	vals := make([]sparse.Triplet, 0, v*perRow)
	for i := 0; i < v; i++ {
		for l := 0; l < perRow; l++ {
			// A deterministic spread of columns with some structure.
			j := (i*7 + l*l*131 + (i%50)*97) % v
			vals = append(vals, sparse.Triplet{I: int32(i), J: int32(j), V: float64(1 + (i+l)%5)})
		}
	}
	n, err := sparse.FromTriplets(v, v, vals)
	require.NoError(b, err)
	opt := svd.DefaultOptions(k)
	ctx := context.Background()
	b.Run("analyze", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Analyze(ctx, n, KernelCA, svd.DSSVD{}, opt); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decompose", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Decompose(ctx, n, KernelCA, svd.DSSVD{}, opt); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestKrylovMatchesDenseCA: the krylov backend on the delayed CA operator of
// a sparse 800×800 table (39 planted dimensions above a noise floor whose
// values are a fraction of a percent apart) gives the dense CA's singular
// values and row coordinates, past the planted ones into the floor, and
// records its accuracy and products in the Decomposition.
func TestKrylovMatchesDenseCA(t *testing.T) {
	o := synth.TableOptions{Groups: 40, RowsPerGroup: 20, ColsPerGroup: 20, Total: 200_000, Noise: 0.5, Seed: 3}
	tab, err := synth.Table(o)
	require.NoError(t, err)
	ctx := context.Background()
	const k = 60
	want, err := Decompose(ctx, tab.N, KernelCA, svd.Dense{}, svd.DefaultOptions(k))
	require.NoError(t, err)
	got, err := Decompose(ctx, tab.N, KernelCA, svd.Krylov{}, svd.DefaultOptions(k))
	require.NoError(t, err)
	for i := range k {
		require.InDelta(t, want.S[i], got.S[i], 1e-12, "σ_%d", i+1)
	}
	require.NotNil(t, got.Accuracy)
	assert.LessOrEqual(t, got.Accuracy.RelResidual, svd.DefaultTol)
	assert.Positive(t, got.Products)
	assert.Equal(t, got.Products, got.Accuracy.Products)
	assert.Nil(t, want.Accuracy, "dense without Check")
	wp, err := vectors.Coordinates(want.U, want.S, want.RowMass, vectors.Principal)
	require.NoError(t, err)
	gp, err := vectors.Coordinates(got.U, got.S, got.RowMass, vectors.Principal)
	require.NoError(t, err)
	requireEqualUpToSign(t, "row principal", wp, gp, 1e-6)
	t.Logf("σ_1 %.4f σ_39 %.4f σ_40 %.4f σ_60 %.4f; %d products, residual %.1e·σ_1",
		got.S[0], got.S[38], got.S[39], got.S[59], got.Products, got.Accuracy.RelResidual)

	// Check through Decompose for a sketch: its residual is recorded.
	opt := svd.DefaultOptions(k)
	opt.Check = true
	ds, err := Decompose(ctx, tab.N, KernelCA, svd.DSSVD{}, opt)
	require.NoError(t, err)
	require.NotNil(t, ds.Accuracy)
	assert.Greater(t, ds.Accuracy.RelResidual, 100*svd.DefaultTol)
	assert.Equal(t, 70*16, ds.Products)
}
