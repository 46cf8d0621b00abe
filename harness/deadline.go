package harness

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

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
		rec.Error = overTimeError(budget, rec.Error)
	}
	return rec
}

// overTimeError is the error of a trial stopped by its time budget: the
// budget, then what the trial said of where it stopped (krylov: the
// spectrum it saw) unless that was only the deadline itself.
func overTimeError(budget float64, trialErr string) string {
	msg := fmt.Sprintf("%v: stopped after the time budget of %gs (budget.seconds)", ErrOverBudget, budget)
	if trialErr != "" && !strings.HasSuffix(trialErr, context.DeadlineExceeded.Error()) {
		msg += ": " + strings.TrimPrefix(trialErr, ErrOverBudget.Error()+": ")
	}
	return msg
}
