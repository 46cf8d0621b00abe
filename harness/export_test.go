package harness

import (
	"context"

	"kcalab/records"
	"kcalab/schema"
)

// Test hooks, for the tests of package harness_test (which import the
// built-in methods, and so cannot be package harness).
var (
	TestHookOpenLog = &testHookOpenLog
	TestHookExecute = &testHookExecute
)

// ExecuteWithin runs a trial as a run does (the default of TestHookExecute).
func (r *Runner) ExecuteWithin(ctx context.Context, spec *schema.Spec, t schema.Trial, prog *Progress) records.Record {
	return r.executeWithin(ctx, spec, t, prog)
}

// NewTrialRun starts a trial outside a run, to drive its loading stages
// by hand.
func NewTrialRun(r *Runner, s *schema.Spec, t schema.Trial) *TrialRun {
	return &TrialRun{runner: r, Spec: s, Trial: t, prog: NewProgress(nil, 1),
		Record: &records.Record{Metrics: map[string]float64{}, Timings: map[string]float64{}}}
}

// SetCodeState makes the running binary look built from commit, with or
// without uncommitted changes (binaryCode reads its build information once
// per process), until restore.
func SetCodeState(commit string, dirty bool) (restore func()) {
	codeOnce.Do(func() {})
	old := codeVal
	codeVal = codeState{commit: commit, dirty: dirty}
	return func() { codeVal = old }
}
