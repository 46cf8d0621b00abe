package harness

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"kcalab/methods/svd"
)

// TestSVDFailure: a krylov run that cannot converge keeps its diagnosis
// and names the spec keys its advice is about; one that stopped for lack
// of time is over budget, as the deadline would have made it.
func TestSVDFailure(t *testing.T) {
	nc := &svd.NotConvergedError{Converged: 3, Rank: 100, Tol: 1e-8, Products: 900, Limit: 16400, Spread: 9e-4, Gap: 1e-6, Within: 300, Residual: 1e-5, Need: 90000}
	late := *nc
	late.Deadline, late.Early = true, true
	tests := []struct {
		name       string
		err        error
		overBudget bool
		skipped    bool
		want       string
	}{
		{"not converged", fmt.Errorf("ca: %w", nc), false, false, "σ_1..σ_101 lie within 0.0009 of σ_1"},
		{"out of time", fmt.Errorf("ca: %w", &late), true, false, "stopped early"},
		{"memory", fmt.Errorf("x: %w", svd.ErrOverBudget), true, false, "over memory budget"},
		{"not built", svd.ErrNotBuilt, false, true, ""},
		{"other", errors.New("boom"), false, false, "boom"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := svdFailure(tc.err)
			assert.Equal(t, tc.overBudget, errors.Is(got, ErrOverBudget))
			assert.Equal(t, tc.skipped, errors.Is(got, ErrSkipped))
			assert.Contains(t, got.Error(), tc.want)
			assert.Equal(t, errors.Is(tc.err, svd.ErrNotConverged), errors.Is(got, svd.ErrNotConverged))
			if errors.Is(tc.err, svd.ErrNotConverged) {
				assert.Contains(t, got.Error(), "(in a spec: svd.tol, svd.rank, budget.seconds, budget.memory_mb)")
				assert.Equal(t, tc.overBudget, errors.Is(got, context.DeadlineExceeded))
			}
		})
	}
}

// TestOverTimeError: a trial stopped by budget.seconds keeps what it said
// of where it stopped, but not a bare "context deadline exceeded".
func TestOverTimeError(t *testing.T) {
	tests := []struct{ trial, want string }{
		{"", "over budget: stopped after the time budget of 2s (budget.seconds)"},
		{"svd: cycle 3, 0 of 10 triplets converged: context deadline exceeded", "over budget: stopped after the time budget of 2s (budget.seconds)"},
		{"over budget: ca: krylov SVD: 0 of 100 triplets within tolerance 1e-08 after 900 column-products (limit 16400): did not converge; out of time",
			"over budget: stopped after the time budget of 2s (budget.seconds): ca: krylov SVD: 0 of 100 triplets within tolerance 1e-08 after 900 column-products (limit 16400): did not converge; out of time"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, overTimeError(2, tc.trial))
	}
}
