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
	assert.Greater(t, last.Bytes, int64(4*800*800*8), "dgesdd's workspace, at least 4p² doubles")
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

// Projected = "lapack" solves the sketches' projected problem on LAPACKE
// and OpenBLAS: the same triplets as pure Go to rounding, for randomized
// and dssvd, the same bits when repeated, and its workspace in the plan.
func TestNativeProjected(t *testing.T) {
	a := gaussian(11, 400, 260)
	for _, b := range []Backend{Randomized{}, DSSVD{}} {
		opt := DefaultOptions(40)
		opt.Seed = 5
		want, err := b.Decompose(context.Background(), DenseOperator{A: a}, opt)
		require.NoError(t, err)
		opt.Projected = "lapack"
		got, err := b.Decompose(context.Background(), DenseOperator{A: a}, opt)
		require.NoError(t, err)
		again, err := b.Decompose(context.Background(), DenseOperator{A: a}, opt)
		require.NoError(t, err)
		require.Len(t, got.S, 40)
		for i := range want.S {
			assert.InEpsilon(t, want.S[i], got.S[i], 1e-10, "%s σ_%d", b.Name(), i+1)
		}
		assert.True(t, mat.EqualApprox(want.U, got.U, 1e-8), "%s: U, signs fixed the same way", b.Name())
		assert.True(t, mat.EqualApprox(want.V, got.V, 1e-8), "%s: V", b.Name())
		assert.Equal(t, got.S, again.S, "%s: repeatable", b.Name())
		assert.True(t, mat.Equal(got.U, again.U), "%s: repeatable U", b.Name())
	}
	opt := DefaultOptions(8000)
	opt.Projected = "lapack"
	p, err := Plan("dssvd", 78485, 78485, opt)
	require.NoError(t, err)
	last := p.Buffers[len(p.Buffers)-1]
	assert.Contains(t, last.Name, "dsyevd")
	assert.Greater(t, last.Bytes, int64(3*8010*8010*8), "the column-major copy and 2l² of workspace")
}
