package harness

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/methods/svd"
	"kcalab/schema"
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
// of where it stopped, but not a bare "context deadline exceeded"; when it
// said nothing more (the runner stopped waiting, or the deadline struck
// inside a product), what its decomposition last reported stands in
// (hostile round 5, m9: krylov's cluster and best residual).
func TestOverTimeError(t *testing.T) {
	st := &stopState{}
	assert.Empty(t, st.note())
	st.observe(&svd.NotConvergedError{Converged: 2, Rank: 100, Tol: 1e-8, Products: 900, Limit: 16400, Spread: 9e-4, Gap: 1e-6, Within: 300, Residual: 1e-5})
	seen := st.note()
	tests := []struct{ trial, seen, want string }{
		{"", "", "over budget: stopped after the time budget of 2s (budget.seconds)"},
		{"svd: cycle 3, 0 of 10 triplets converged: context deadline exceeded", "", "over budget: stopped after the time budget of 2s (budget.seconds)"},
		{"over budget: ca: krylov SVD: 0 of 100 triplets within tolerance 1e-08 after 900 column-products (limit 16400): did not converge; out of time", seen,
			"over budget: stopped after the time budget of 2s (budget.seconds): ca: krylov SVD: 0 of 100 triplets within tolerance 1e-08 after 900 column-products (limit 16400): did not converge; out of time"},
		{"context deadline exceeded", seen, "over budget: stopped after the time budget of 2s (budget.seconds); where its decomposition stood at its last restart: " +
			"2 of 100 triplets within tolerance 1e-08 after 900 column-products (limit 16400): did not converge; the top of the spectrum is a cluster (Ritz estimates): " +
			"σ_1..σ_101 lie within 0.0009 of σ_1 (relative), σ_100 − σ_101 = 1e-06·σ_1, and 300 singular values of the basis lie within 0.0018; " +
			"the smallest residual of a triplet not converged reached 1e-05·σ_1; out of time. To converge: loosen the tolerance, take a rank that ends where the singular values part (at least 300, past the cluster), " +
			"or allow more column-products or time (in a spec: svd.tol, svd.rank, budget.seconds, budget.memory_mb)"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, overTimeError(2, tc.trial, tc.seen))
	}
}

// Hostile round 5, m13: with a budget no candidate fits, auto's log called
// dense "over the budget" and then picked krylov as if it fitted. It now
// says krylov plans more than the budget too and the trial will be over
// budget; with a budget krylov fits, it says nothing more.
func TestAutoLogWhenNothingFits(t *testing.T) {
	spec, err := schema.DecodeSpec([]byte("name: m13\ndata: {source: synthetic}\nmethod: lca\nsvd: {rank: 60}\nbudget: {memory_mb: [0.5, 64]}\n"), "s.yaml")
	require.NoError(t, err)
	trials := spec.Trials()
	require.Len(t, trials, 2)
	_, _, auto, err := svdOptions(trials[0], 240, 240, 28126, 239)
	require.NoError(t, err)
	assert.Contains(t, auto, "svd.backend auto: krylov (cost model:")
	assert.Contains(t, auto, "dense 0.15 s, plans 1.9 MiB, over the budget's 0.5 MiB")
	assert.Contains(t, auto, "; but krylov plans")
	assert.Contains(t, auto, "over budget.memory_mb 0.5 too: no candidate fits, so the trial will be over budget")
	_, _, auto, err = svdOptions(trials[1], 240, 240, 28126, 239)
	require.NoError(t, err)
	assert.NotContains(t, auto, "no candidate fits")
}
