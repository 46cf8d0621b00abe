package ca

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/sparse"
	"kcalab/methods/svd"
)

func TestSmoothMasses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		masses []float64
		alpha  float64
		want   []float64
	}{
		{"alpha 1 renormalises", []float64{1, 3, 0}, 1, []float64{0.25, 0.75, 0}},
		{"alpha 1/2", []float64{1, 4, 0}, 0.5, []float64{1.0 / 3, 2.0 / 3, 0}},
		{"alpha 0: uniform over seen contexts", []float64{0.1, 0.9, 0}, 0, []float64{0.5, 0.5, 0}},
		{"counts as well as masses", []float64{16, 81}, 0.75, []float64{8.0 / 35, 27.0 / 35}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SmoothMasses(tc.masses, tc.alpha)
			require.NoError(t, err)
			assert.InDeltaSlice(t, tc.want, got, 1e-15)
		})
	}
	for _, tc := range []struct {
		name   string
		masses []float64
		alpha  float64
		msg    string
	}{
		{"alpha above 1", []float64{1}, 1.5, "0 ≤ α ≤ 1"},
		{"alpha NaN", []float64{1}, math.NaN(), "0 ≤ α ≤ 1"},
		{"negative mass", []float64{1, -1}, 0.75, "mass 1"},
		{"all zero", []float64{0, 0}, 0.75, "positive sum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := SmoothMasses(tc.masses, tc.alpha)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

// smoothedKernel is the dense matrix DecomposeWith decomposes with CDS α:
// D(r)^-1/2 (P − r c'ᵀ) D(c')^-1/2 for ca, P − r c'ᵀ for gini, with
// c' = c^α / Σ c^α, written out entry by entry.
func smoothedKernel(n *mat.Dense, alpha float64, gini bool) *mat.Dense {
	rows, cols := n.Dims()
	total := mat.Sum(n)
	r, c := make([]float64, rows), make([]float64, cols)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			r[i] += n.At(i, j) / total
			c[j] += n.At(i, j) / total
		}
	}
	var sum float64
	for _, x := range c {
		sum += math.Pow(x, alpha)
	}
	out := mat.NewDense(rows, cols, nil)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			cj := math.Pow(c[j], alpha) / sum
			x := n.At(i, j)/total - r[i]*cj
			if !gini {
				x /= math.Sqrt(r[i] * cj)
			}
			out.Set(i, j, x)
		}
	}
	return out
}

// TestDecomposeCDS: with CDS α the ca and gini kernels are the dense
// matrices above (singular values, U up to sign, total inertia = ‖S‖_F²);
// CDS 0 and 1 are Decompose, bit for bit; the plain kernel refuses it.
func TestDecomposeCDS(t *testing.T) {
	ctx := context.Background()
	n := fisher()
	nd := mat.NewDense(4, 5, nil)
	for i := 0; i < 4; i++ {
		cols, vals := n.Row(i)
		for p, j := range cols {
			nd.Set(i, int(j), vals[p])
		}
	}
	for _, tc := range []struct {
		kernel Kernel
		alpha  float64
	}{
		{KernelCA, 0.75}, {KernelCA, 0.5}, {KernelGini, 0.75},
	} {
		t.Run(string(tc.kernel), func(t *testing.T) {
			want := smoothedKernel(nd, tc.alpha, tc.kernel == KernelGini)
			var ref mat.SVD
			require.True(t, ref.Factorize(want, mat.SVDThin))
			var refU mat.Dense
			ref.UTo(&refU)
			for _, b := range []svd.Backend{svd.Dense{}, svd.Krylov{}} {
				got, err := DecomposeWith(ctx, n, tc.kernel, b, svd.DefaultOptions(3), DecomposeOptions{CDS: tc.alpha})
				require.NoError(t, err)
				assert.InDeltaSlice(t, ref.Values(nil)[:3], got.S, 1e-12, b.Name())
				requireEqualUpToSign(t, "U", refU.Slice(0, 4, 0, 3).(*mat.Dense), got.U, 1e-9)
				assert.InDelta(t, mat.Norm(want, 2)*mat.Norm(want, 2), got.TotalInertia, 1e-12)
			}
		})
	}
	for _, kernel := range []Kernel{KernelCA, KernelGini} {
		want, err := Decompose(ctx, n, kernel, svd.Krylov{}, svd.DefaultOptions(2))
		require.NoError(t, err)
		for _, off := range []float64{0, 1} {
			got, err := DecomposeWith(ctx, n, kernel, svd.Krylov{}, svd.DefaultOptions(2), DecomposeOptions{CDS: off})
			require.NoError(t, err)
			assert.Equal(t, want.S, got.S, "%s cds %v", kernel, off)
			assert.Equal(t, want.U.RawMatrix().Data, got.U.RawMatrix().Data, "%s cds %v", kernel, off)
			assert.Equal(t, want.TotalInertia, got.TotalInertia, "%s cds %v", kernel, off)
			assert.Nil(t, got.V, "V dropped unless asked")
		}
	}
	_, err := DecomposeWith(ctx, n, KernelPlain, svd.Dense{}, svd.DefaultOptions(2), DecomposeOptions{CDS: 0.75})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "plain kernel")
}

// TestDecomposeKeepV: V and the column weights are kept on request, and
// are the right singular vectors: Sᵀ·u_k = σ_k·v_k; an empty column's row
// of V is exactly zero.
func TestDecomposeKeepV(t *testing.T) {
	ctx := context.Background()
	n := fisher()
	for _, tc := range []struct {
		kernel  Kernel
		cds     float64
		colMass func(m margins) []float64
	}{
		{KernelCA, 0, func(m margins) []float64 { return m.col }},
		{KernelCA, 0.75, func(m margins) []float64 { c, _ := SmoothMasses(m.col, 0.75); return c }},
		{KernelGini, 0, func(m margins) []float64 { return ones(5) }},
		{KernelPlain, 0, func(m margins) []float64 { return ones(5) }},
	} {
		t.Run(string(tc.kernel), func(t *testing.T) {
			dec, err := DecomposeWith(ctx, n, tc.kernel, svd.Dense{}, svd.DefaultOptions(3), DecomposeOptions{CDS: tc.cds, KeepV: true})
			require.NoError(t, err)
			require.NotNil(t, dec.V)
			m, err := marginsOf(n)
			require.NoError(t, err)
			assert.InDeltaSlice(t, tc.colMass(m), dec.ColMass, 1e-15)
			var op svd.Operator
			switch tc.kernel {
			case KernelCA:
				m.col = tc.colMass(m)
				op, err = newCA(n, m)
			case KernelGini:
				op, err = newGini(n, m)
			default:
				op = plainOperator{n}
			}
			require.NoError(t, err)
			sv := mat.NewDense(5, 3, nil)
			op.MulTTo(sv, dec.U)
			for k := 0; k < 3; k++ {
				for j := 0; j < 5; j++ {
					assert.InDelta(t, dec.S[k]*dec.V.At(j, k), sv.At(j, k), 1e-9*dec.S[0])
				}
			}
		})
	}
	// A column never seen: its row of V is zero.
	empty := fisherWithEmptyColumn()
	dec, err := DecomposeWith(ctx, empty, KernelCA, svd.Dense{}, svd.DefaultOptions(2), DecomposeOptions{KeepV: true})
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 0}, dec.V.RawRowView(5))
}

// fisherWithEmptyColumn is Fisher's table with a sixth hair colour no one has.
func fisherWithEmptyColumn() *sparse.CSR {
	return sparse.FromDense(4, 6, []float64{
		326, 38, 241, 110, 3, 0,
		688, 116, 584, 188, 4, 0,
		343, 84, 909, 412, 26, 0,
		98, 48, 403, 681, 85, 0,
	})
}
