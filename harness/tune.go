package harness

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"kcalab/internal/termsafe"
	"kcalab/records"
	"kcalab/schema"
)

// noteChoices says, at the end of a run, which design each tuning group's
// rule chose (records.Choose, the same computation the pages show).
func noteChoices(recs []records.Record, logf func(format string, args ...any)) {
	said := map[string]bool{} // a line is said once, however many groups give it
	say := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		if !said[line] {
			said[line] = true
			logf("%s", line)
		}
	}
	for _, c := range records.Choose(recs, schema.OwnSimilarity) {
		for _, cand := range c.Candidates {
			schema.WithDefaults(cand.Values)
		}
		name := c.Label
		if name == "" {
			name = c.Method
		}
		if c.Shared != "" {
			name += " (" + c.Shared + ")"
		}
		if c.Chosen < 0 {
			say("kcalab: tune: %s: no design chosen among %d candidate(s): %s", termsafe.Text(name), len(c.Candidates), termsafe.Text(c.Why()))
			continue
		}
		ch := c.Candidates[c.Chosen]
		say("kcalab: tune: %s: chose %s, mean dev ρ %.4f over %s (%s, zero rule) %s; compare it on the test parts",
			termsafe.Text(name), termsafe.Text(Values(ch.Values)), ch.Score, strings.Join(c.On, ", "), c.Similarity, termsafe.Text(among(c)))
	}
}

// among says which candidates a choice was made among: all of them, or
// those scored, naming each that was not and why (over its budget, not
// finished), since a design that could not run is no best.
func among(c records.Choice) string {
	var not []string
	for _, cand := range c.Candidates {
		if cand.Why != "" {
			not = append(not, Values(cand.Values)+": "+cand.Why)
		}
	}
	if len(not) == 0 {
		return fmt.Sprintf("among %d candidate(s)", len(c.Candidates))
	}
	return fmt.Sprintf("among the %d of %d candidate(s) scored (not scored: %s)", len(c.Candidates)-len(not), len(c.Candidates), strings.Join(not, "; "))
}

// Values spells a candidate's tuned settings, "data.window=10 vectors.alpha=0.5".
func Values(v map[string]any) string {
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		x := v[k]
		if f, ok := x.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1e15 {
			x = int64(f)
		}
		parts[i] = fmt.Sprintf("%s=%v", k, x)
	}
	return strings.Join(parts, " ")
}

// fullAgain are the trials of a finished grid whose records the choice
// picks but were cut to the search (records.NeedsFull).
func fullAgain(trials []schema.Trial, recs []records.Record, done []bool) []schema.Trial {
	have, of := doneRecords(trials, recs, done)
	if have == nil {
		return nil
	}
	again := map[string]bool{}
	for _, id := range records.NeedsFull(have, records.Choose(have, schema.OwnSimilarity)) {
		again[id] = true
	}
	var out []schema.Trial
	for _, t := range of {
		if again[t.ID] {
			out = append(out, t)
		}
	}
	return out
}

// slimDone cuts the tuned records of a finished grid to what a page can
// use (records.Slim), in place, and says how many changed. A grid with a
// trial not done is left whole: a choice made without every candidate's
// every replicate could change.
func slimDone(trials []schema.Trial, recs []records.Record, done []bool) int {
	have, of := doneRecords(trials, recs, done)
	if have == nil {
		return 0
	}
	cut, n := records.Slim(have, records.Choose(have, schema.OwnSimilarity))
	for i, t := range of {
		recs[t.Index] = cut[i]
	}
	return n
}

// doneRecords are the results of trials in grid order and the trial of
// each, nil unless every trial is done. A trial successive halving does
// not run (its in-memory record says StatusNotPromoted) has no result and
// is no candidate of its group's choice (records.PlanHalving), so it is
// left out: kept in, it would be a candidate never scored, and its group's
// choice would never count as final.
func doneRecords(trials []schema.Trial, recs []records.Record, done []bool) ([]records.Record, []schema.Trial) {
	have := make([]records.Record, 0, len(trials))
	of := make([]schema.Trial, 0, len(trials))
	for _, t := range trials {
		if !done[t.Index] {
			return nil, nil
		}
		if recs[t.Index].Status == records.StatusNotPromoted {
			continue
		}
		have = append(have, recs[t.Index])
		of = append(of, t)
	}
	return have, of
}

// notRun is a trial the halving plan does not run and the in-memory record
// that says why (records.StatusNotPromoted: never written to a results
// file).
type notRun struct {
	trial schema.Trial
	rec   records.Record
}

// planRound splits the trials still to compute (todo) by the halving plan
// over the whole grid (records.PlanHalving): those to compute now, and
// those it does not promote. The rest wait for a rung still running (none
// remain once the plan has nothing more to run, unless a trial failed or
// the run was stopped).
func planRound(trials, todo []schema.Trial, recs []records.Record, done []bool) (now []schema.Trial, skip []notRun) {
	grid := make([]records.Record, len(trials))
	for i, t := range trials {
		if done[t.Index] && recs[t.Index].Status != records.StatusNotPromoted {
			grid[i] = recs[t.Index]
			continue
		}
		grid[i] = records.Record{ID: t.ID, Seed: t.Seed, Settings: t.RecordSettings()}
	}
	plans := records.PlanHalving(grid, schema.OwnSimilarity)
	at := make(map[int]records.Plan, len(trials))
	for i, t := range trials {
		at[t.Index] = plans[i]
	}
	for _, t := range todo {
		if done[t.Index] {
			continue
		}
		switch p := at[t.Index]; p.Step {
		case records.StepRun:
			now = append(now, t)
		case records.StepNotPromoted:
			skip = append(skip, notRun{trial: t, rec: records.Record{ID: t.ID, Seed: t.Seed, Settings: t.RecordSettings(),
				Status: records.StatusNotPromoted, Error: p.Why}})
		}
	}
	return now, skip
}

// Unrun are the trials of spec's grid that a finished run would hold a
// record of and recs lack (in grid order): a run stopped before its end,
// a failed rung that its next waits on, or a grid grown since. The trials
// successive halving does not promote are not among them; nil when recs
// are a finished run's.
func Unrun(trials []schema.Trial, recs []records.Record) []schema.Trial {
	done, skip := planGrid(trials, recs)
	skipped := make(map[string]bool, len(skip))
	for _, s := range skip {
		skipped[s.trial.ID] = true
	}
	var out []schema.Trial
	for _, t := range trials {
		if !done[t.Index] && !skipped[t.ID] {
			out = append(out, t)
		}
	}
	return out
}

// NotPromoted names the trials of spec's grid that successive halving does
// not run, given the records of a finished run (its results file): trial id
// → why. A results file of a finished run holds every other trial of the
// grid.
func NotPromoted(trials []schema.Trial, recs []records.Record) map[string]string {
	_, skip := planGrid(trials, recs)
	out := make(map[string]string, len(skip))
	for _, s := range skip {
		out[s.trial.ID] = s.rec.Error
	}
	return out
}

// planGrid plans the whole grid from the records it has (planRound):
// which trials have one (by Index), and those the halving does not run.
func planGrid(trials []schema.Trial, recs []records.Record) (done []bool, skip []notRun) {
	byID := make(map[string]records.Record, len(recs))
	for _, rec := range recs {
		byID[rec.ID] = rec
	}
	have := make([]records.Record, len(trials))
	done = make([]bool, len(trials))
	for _, t := range trials {
		if rec, ok := byID[t.ID]; ok {
			have[t.Index], done[t.Index] = rec, true
		}
	}
	_, skip = planRound(trials, trials, have, done)
	return done, skip
}
