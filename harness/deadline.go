package harness

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"kcalab/methods/svd"

	"kcalab/records"
	"kcalab/schema"
)

// cleanupGrace is how long a trial that was stopped (budget, Ctrl-C) gets
// to kill its processes and remove its temporary files before the runner
// stops waiting for it.
const cleanupGrace = 3 * time.Second

// executeWithin runs a trial under its time budget (budget.seconds) and
// returns promptly when the budget runs out or the run is interrupted,
// even while the trial is inside a kernel that cannot be interrupted (the
// dense SVD): the runner stops waiting for it and records the trial over
// budget (or leaves it for the next run). The abandoned computation ends
// with the process, or at its next context check.
func (r *Runner) executeWithin(ctx context.Context, spec *schema.Spec, t schema.Trial, prog *Progress) records.Record {
	budget := t.Budget.Seconds
	tctx, cancel := context.WithCancel(ctx)
	if budget > 0 {
		tctx, cancel = context.WithTimeout(ctx, time.Duration(budget*float64(time.Second)))
	}
	defer cancel()
	tctx, seen := withStopState(tctx)
	res := make(chan records.Record, 1)
	go func() { res <- r.execute(tctx, spec, t, prog) }()
	var rec records.Record
	select {
	case rec = <-res:
	case <-tctx.Done():
		// Give the trial a moment to clean up (kill an external tool's
		// process group, remove its temporary directory).
		select {
		case rec = <-res:
		case <-time.After(cleanupGrace):
			fmt.Fprintf(r.log(), "kcalab: warning: trial %s: stopped waiting for it, but its computation (a dense SVD cannot be interrupted) goes on in the background until it ends or this run exits; with measure.process: true the budget stops its whole process\n", t.ID)
			rec = records.Record{ID: t.ID, Spec: spec.Name, Seed: t.Seed, Settings: t.RecordSettings(), Env: CurrentEnv(),
				Metrics: map[string]float64{}, Timings: map[string]float64{}, Status: "error", Error: tctx.Err().Error(),
				Run: endRun(r.beginRun(), nil)}
		}
	}
	if budget > 0 && ctx.Err() == nil && errors.Is(tctx.Err(), context.DeadlineExceeded) && rec.Status != "ok" {
		rec.Status = "over_budget"
		rec.Error = overTimeError(budget, rec.Error, seen.note())
	}
	return rec
}

// stopState keeps what a trial's decomposition last said of where it
// stood (svd.Options.Observe: krylov after each restart), so the error of
// a trial its time budget stopped says it even when the runner stopped
// waiting for the trial, or the trial stopped inside a product before its
// own report.
type stopState struct {
	mu   sync.Mutex
	last *svd.NotConvergedError
}

type stopStateKey struct{}

// withStopState gives ctx a stopState for the trials run under it.
func withStopState(ctx context.Context) (context.Context, *stopState) {
	st := &stopState{}
	return context.WithValue(ctx, stopStateKey{}, st), st
}

// stopStateOf is ctx's stopState, nil when it has none.
func stopStateOf(ctx context.Context) *stopState {
	st, _ := ctx.Value(stopStateKey{}).(*stopState)
	return st
}

func (s *stopState) observe(e *svd.NotConvergedError) {
	s.mu.Lock()
	s.last = e
	s.mu.Unlock()
}

// note is what the decomposition last reported, as its failure out of
// time would say it; "" when it reported nothing.
func (s *stopState) note() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last == nil {
		return ""
	}
	e := *s.last
	e.Deadline = true
	return fmt.Sprintf("%v (%s)", &e, notConvergedSettings)
}

// overTimeError is the error of a trial stopped by its time budget: the
// budget, then what the trial said of where it stopped (krylov: the
// spectrum it saw, the cluster, the best residual) unless that was only
// the deadline itself; then what its decomposition last reported (seen)
// instead.
func overTimeError(budget float64, trialErr, seen string) string {
	msg := fmt.Sprintf("%v: stopped after the time budget of %gs (budget.seconds)", ErrOverBudget, budget)
	switch {
	case trialErr != "" && !strings.HasSuffix(trialErr, context.DeadlineExceeded.Error()):
		msg += ": " + strings.TrimPrefix(trialErr, ErrOverBudget.Error()+": ")
	case seen != "":
		msg += "; where its decomposition stood at its last restart: " + seen
	}
	return msg
}
