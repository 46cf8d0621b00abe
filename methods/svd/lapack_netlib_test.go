//go:build lapack

package svd

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// With -tags lapack the lapack backend runs on LAPACKE: it reconstructs A,
// agrees with gonum's pure-Go SVD (still the dense backend's), and plans
// LAPACKE's copies.
func TestNativeDenseSVD(t *testing.T) {
	require.Equal(t, "LAPACKE dgesdd (OpenBLAS)", NativeImplementation())
	require.Equal(t, "gonum Dgesvd (pure Go)", DenseImplementation())
	for _, shape := range [][2]int{{9, 4}, {4, 9}, {300, 200}} {
		a := gaussian(7, shape[0], shape[1])
		s, u, vt, err := nativeSVD.svd(mat.DenseCopyOf(a))
		require.NoError(t, err)
		var us, back mat.Dense
		us.Mul(u, mat.NewDiagDense(len(s), s))
		back.Mul(&us, vt)
		assert.True(t, mat.EqualApprox(a, &back, 1e-11), "%v", shape)
		want, _, _, err := thinSVD(mat.DenseCopyOf(a))
		require.NoError(t, err)
		for i := range want {
			assert.InEpsilon(t, want[i], s[i], 1e-12, "σ_%d of %v", i+1, shape)
		}
	}
	p, err := Plan("lapack", 1000, 800, DefaultOptions(10))
	require.NoError(t, err)
	last := p.Buffers[len(p.Buffers)-1]
	assert.Contains(t, last.Name, "LAPACKE")
	assert.Greater(t, last.Bytes, int64(1000*800*8), "LAPACKE's column-major copy of A at least")
}

// The lapack backend gives the dense backend's triplets.
func TestLAPACKBackend(t *testing.T) {
	a := gaussian(3, 120, 80)
	opt := DefaultOptions(5)
	want, err := Dense{}.Decompose(context.Background(), DenseOperator{A: a}, opt)
	require.NoError(t, err)
	got, err := LAPACK{}.Decompose(context.Background(), DenseOperator{A: a}, opt)
	require.NoError(t, err)
	assert.InDeltaSlice(t, want.S, got.S, 1e-12)
	assert.True(t, mat.EqualApprox(want.U, got.U, 1e-9), "signs fixed the same way")
}
