//go:build !lapack

package svd

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Without -tags lapack the lapack backend is named but refuses, saying how
// to build it, and is not among the built backends.
func TestLAPACKNotBuilt(t *testing.T) {
	assert.Empty(t, NativeImplementation())
	assert.NotContains(t, Built(), "lapack")
	assert.Contains(t, Names, "lapack")
	b, err := Get("lapack")
	require.NoError(t, err)
	_, err = b.Decompose(context.Background(), DenseOperator{A: gaussian(1, 5, 4)}, DefaultOptions(2))
	require.ErrorIs(t, err, ErrNotBuilt)
	assert.ErrorContains(t, err, "-tags lapack")
}

// A pure-Go build refuses the lapack projected problem before any work.
func TestProjectedNotBuilt(t *testing.T) {
	opt := DefaultOptions(3)
	opt.Projected = "lapack"
	_, err := DSSVD{}.Decompose(context.Background(), DenseOperator{A: gaussian(1, 20, 10)}, opt)
	require.ErrorIs(t, err, ErrNotBuilt)
	opt.Projected = "numpy"
	_, err = DSSVD{}.Decompose(context.Background(), DenseOperator{A: gaussian(1, 20, 10)}, opt)
	require.ErrorContains(t, err, `unknown projected-problem implementation "numpy" (allowed: go, lapack)`)
}
