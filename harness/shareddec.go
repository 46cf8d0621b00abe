package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"kcalab/methods/ca"
	"kcalab/methods/svd"
	"kcalab/records"
	"kcalab/schema"
)

// A shared decomposition serves every trial of a run that differs from
// the others only in svd.rank when svd.shared_rank is set: it is computed
// once at shared_rank, and each trial takes a copy of its leading svd.rank
// triplets. The leading triplets of a converged decomposition are the
// triplets of a smaller one (to svd.tol), so this holds only for the exact
// backends; a sketch's leading triplets depend on its rank.
//
// What a trial gets depends on its own settings alone, never on which other
// trials the grid holds or which of them computed it first: the shared
// decomposition's seed derives from the spec seed and the settings it is
// shared over (not a trial's id), and its rank is a setting of the trial.

// exactBackends may share a decomposition.
var exactBackends = map[string]bool{"krylov": true, "dense": true, "lapack": true}

// sharedDecs holds the shared decompositions of a run until the last trial
// that needs each one has taken its copy.
type sharedDecs struct {
	mu      sync.Mutex
	pending map[string]int // trials of this run still to take a copy, by key
	decs    memo[sharedDec]
}

// sharedDec is a shared decomposition and the wall time it took.
type sharedDec struct {
	dec     *ca.Decomposition
	seconds float64
}

// count notes the trials of this run that will ask for a shared
// decomposition, so it is released after the last of them.
func (s *sharedDecs) count(trials []schema.Trial) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = map[string]int{}
	for _, t := range trials {
		if t.SVD.SharedRank > 0 {
			s.pending[shareKey(t)]++
		}
	}
}

// add notes more trials of this run that will ask for a shared
// decomposition (a rung of a successive halving promoted during the run).
func (s *sharedDecs) add(trials []schema.Trial) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending == nil {
		s.pending = map[string]int{}
	}
	for _, t := range trials {
		if t.SVD.SharedRank > 0 {
			s.pending[shareKey(t)]++
		}
	}
}

// taken releases a key's decomposition once no trial of the run needs it.
func (s *sharedDecs) taken(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending[key]--; s.pending[key] <= 0 {
		s.decs.mu.Lock()
		delete(s.decs.m, key)
		s.decs.mu.Unlock()
	}
}

// afterDecomposition are the vectors settings applied to a decomposition's
// copy (vectors.add_contexts is not: it keeps V in the decomposition).
var afterDecomposition = map[string]bool{"vectors.alpha": true, "vectors.beta": true, "vectors.normalize": true, "vectors.save": true}

// shareKey names what a decomposition depends on apart from its rank: every
// setting the trial's method and data read, but svd.rank, the settings
// that are not part of a trial's id (they change no number: how many
// replicates, how many σ a record keeps) and the settings read only after
// the decomposition (evaluation, labels, how vectors are scaled or
// retrofitted), and the
// backend the trial resolves to.
func shareKey(t schema.Trial) string {
	set := t.RecordSettings()
	keys := make([]string, 0, len(set))
	for k := range set {
		if s, ok := schema.LookupSetting(k); ok && s.NoID {
			continue
		}
		if k == "svd.rank" || k == schema.KeyLabel || k == "tuned_on" || afterDecomposition[k] ||
			strings.HasPrefix(k, "eval.") || strings.HasPrefix(k, "measure.") || strings.HasPrefix(k, "tune.") ||
			strings.HasPrefix(k, "retrofit.") {
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		v, _ := json.Marshal(set[k])
		fmt.Fprintf(&b, "%s=%s\n", k, v)
	}
	fmt.Fprintf(&b, "backend=%s\n", BackendName(t))
	return b.String()
}

// sharedDecompose returns trial tr's copy of the leading opt.Rank triplets
// of the run's decomposition at svd.shared_rank (computing it when no
// other trial has), and whether this trial computed it.
func (tr *TrialRun) sharedDecompose(ctx context.Context, b svd.Backend, opt svd.Options, maxRank int,
	run func(svd.Backend, svd.Options) (*ca.Decomposition, error)) (*ca.Decomposition, bool, error) {
	t := tr.Trial
	if !exactBackends[b.Name()] {
		return nil, false, fmt.Errorf("svd.shared_rank = %d: the %s backend is a sketch, whose leading triplets depend on its rank; share decompositions of an exact backend (krylov, dense, lapack) or set svd.shared_rank: 0", t.SVD.SharedRank, b.Name())
	}
	if t.SVD.SharedRank < opt.Rank {
		return nil, false, fmt.Errorf("svd.shared_rank = %d is below svd.rank = %d: the shared decomposition must hold every trial's rank", t.SVD.SharedRank, opt.Rank)
	}
	if t.SVD.SharedRank > maxRank {
		return nil, false, fmt.Errorf("svd.shared_rank = %d is too large for this table (at most %d)", t.SVD.SharedRank, maxRank)
	}
	key := shareKey(t)
	shared := &tr.runner.shared
	defer shared.taken(key)
	computed := false
	full, err := shared.decs.get(key, func() (sharedDec, error) {
		computed = true
		o := opt
		o.Rank = t.SVD.SharedRank
		o.Seed = schema.TrialSeed(tr.Spec.Seed, "svd.shared_rank\n"+key)
		start := time.Now()
		d, err := run(b, o)
		return sharedDec{dec: d, seconds: time.Since(start).Seconds()}, err
	})
	if err != nil {
		return nil, computed, err
	}
	// Every trial of the sweep names what its decomposition cost, whoever
	// computed it: a sharer's own svd time is only its wait and copy.
	tr.SetMetric(records.MetricSVDSharedSeconds, full.seconds)
	return leading(full.dec, opt.Rank), computed, nil
}

// leading is a copy of d's k leading triplets (callers scale U and V in
// place).
func leading(d *ca.Decomposition, k int) *ca.Decomposition {
	out := *d
	out.S = append([]float64(nil), d.S[:k]...)
	rows, _ := d.U.Dims()
	out.U = mat.DenseCopyOf(d.U.Slice(0, rows, 0, k))
	if d.V != nil {
		cols, _ := d.V.Dims()
		out.V = mat.DenseCopyOf(d.V.Slice(0, cols, 0, k))
	}
	if a := d.Accuracy; a != nil {
		acc := *a
		acc.S = out.S
		acc.Residuals = append([]float64(nil), a.Residuals[:min(k, len(a.Residuals))]...)
		acc.MaxResidual = 0
		for _, r := range acc.Residuals {
			acc.MaxResidual = max(acc.MaxResidual, r)
		}
		if len(out.S) > 0 && out.S[0] > 0 {
			acc.RelResidual = acc.MaxResidual / out.S[0]
		}
		out.Accuracy = &acc
	}
	return &out
}
