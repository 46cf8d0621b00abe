package svd_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/methods/svd"
)

// Ctrl-C (a cancelled context) stops every backend promptly, the dense one
// included although LAPACK's SVD cannot be interrupted.
func TestDecomposeReturnsPromptlyOnCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("a large SVD")
	}
	const n = 1400
	rng := rand.New(rand.NewPCG(1, 2))
	a := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			a.Set(i, j, rng.Float64())
		}
	}
	tests := []struct {
		name    string
		backend svd.Backend
		opt     svd.Options
		within  time.Duration // after the cancel at 100 ms
	}{
		// LAPACK alone takes seconds here: the caller stops waiting at once.
		{"dense", svd.Dense{}, svd.Options{Rank: 10}, 700 * time.Millisecond},
		// One power iteration at most after the cancel (slack for a loaded machine).
		{"randomized, many power iterations", svd.Randomized{}, svd.Options{Rank: 10, PowerIters: 100, Oversample: 400, Normalizer: "lu"}, 3 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := tt.backend.Decompose(ctx, svd.DenseOperator{A: mat.DenseCopyOf(a)}, tt.opt)
			require.ErrorIs(t, err, context.DeadlineExceeded)
			assert.Less(t, time.Since(start), tt.within, "returns soon after the cancel")
		})
	}
}
