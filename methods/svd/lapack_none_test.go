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
