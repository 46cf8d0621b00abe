package records

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"kcalab/internal/corr"
)

// Successive halving (Jamieson & Talwalkar 2016; one bracket of Li et
// al.'s Hyperband; Optuna's SuccessiveHalvingPruner) searches a costly
// tuning group with a fraction of its grid. One tuned axis with numbers is
// the resource (tune.halving, e.g. train.epochs); a configuration is a
// value of every other tuned axis. The rule, kept by PlanHalving:
//
//   - rung 0: every configuration runs at the resource's smallest value;
//   - rung k+1: of the n configurations of rung k, the best ⌈n/η⌉ by the
//     group's score at rung k (tune.rule on replicate 0; a trial that did
//     not finish ranks last and is never promoted; the first in grid order
//     on a tie) run at the next value; the others do not run at any larger
//     value (StepNotPromoted, with the rung, rank and cut-off);
//   - every design that ran, at whatever rung, is a candidate of the
//     choice (Choose, on replicate 0): the resource is a design setting
//     like the others, so a configuration's best number of epochs may be
//     below the largest;
//   - replicates beyond the first run only for the chosen design, once
//     every rung is done: its further seeds serve the verdict, never the
//     choice.
//
// The plan is a function of the records alone, so a rerun plans the same
// trials, and a trial's record is never asked to stand for another.

// DefaultEta is successive halving's reduction factor when tune.eta is
// not set: a rung keeps the best third.
const DefaultEta = 3

// Step is what the plan does with one trial of the grid.
type Step int

const (
	StepDone        Step = iota // it has a result (of any status)
	StepRun                     // compute it now
	StepWait                    // a rung not finished yet decides it
	StepNotPromoted             // it is not to run (Plan.Why)
)

// Plan is the step of one trial and, for StepNotPromoted, why.
type Plan struct {
	Step Step
	Why  string
}

// PlanHalving plans the trials of a grid, given in grid order as records:
// a trial with a result is its record, one still to run a record with its
// ID and Settings and an empty Status. A trial outside a halving group runs
// when it has no result; a trial of one follows the rule above. own is the
// similarity a record's design is scored at (as for Choose).
func PlanHalving(recs []Record, own func(Record) Similarity) []Plan {
	plans := make([]Plan, len(recs))
	for i, rec := range recs {
		if rec.Status == "" {
			plans[i].Step = StepRun
		}
	}
	for _, g := range groupTuned(recs, own) {
		if g.Halving != "" {
			g.plan(recs, plans)
		}
	}
	return plans
}

// plan applies the halving rule to g's members.
func (g tuneGroup) plan(recs []Record, plans []Plan) {
	pending := func(ri int) bool { return recs[ri].Status == "" }
	// Configurations (values of the tuned axes but the resource) in record
	// order, and the resource's values, smallest first.
	var configs []string
	cfgAt := map[string]int{}
	var levels []float64
	cfgOf := make([]int, len(g.Candidates))
	levelOf := make([]float64, len(g.Candidates))
	for ci, cand := range g.Candidates {
		key := configKey(cand.Values, g.Halving)
		if _, ok := cfgAt[key]; !ok {
			cfgAt[key] = len(configs)
			configs = append(configs, key)
		}
		cfgOf[ci] = cfgAt[key]
		lv, ok := number(cand.Values[g.Halving])
		if !ok {
			lv = math.NaN()
		}
		levelOf[ci] = lv
		if !slices.Contains(levels, lv) {
			levels = append(levels, lv)
		}
	}
	slices.Sort(levels)
	// at[cfg][level] is the candidate there, -1 when the grid has none.
	at := make([][]int, len(configs))
	for c := range at {
		at[c] = slices.Repeat([]int{-1}, len(levels))
	}
	for ci := range g.Candidates {
		at[cfgOf[ci]][slices.Index(levels, levelOf[ci])] = ci
	}
	rep0 := func(ci int) int {
		for _, ri := range g.members[ci] {
			if replicateOf(recs[ri]) == 0 {
				return ri
			}
		}
		return -1
	}
	setAll := func(ci int, p Plan, onlyPending bool) {
		for _, ri := range g.members[ci] {
			if !onlyPending || pending(ri) {
				plans[ri] = p
			}
		}
	}
	// Replicates beyond the first wait for the choice.
	for ci := range g.Candidates {
		for _, ri := range g.members[ci] {
			if pending(ri) && replicateOf(recs[ri]) != 0 {
				plans[ri] = Plan{Step: StepWait}
			}
		}
	}
	alive := make([]int, len(configs))
	for c := range alive {
		alive[c] = c
	}
	value := func(lv float64) string { return g.Halving + "=" + strconv.FormatFloat(lv, 'f', -1, 64) }
	complete := true
	for k := range levels {
		running := false
		for _, c := range alive {
			if ci := at[c][k]; ci >= 0 {
				if ri := rep0(ci); ri >= 0 && pending(ri) {
					plans[ri] = Plan{Step: StepRun}
					running = true
				}
			}
		}
		if running {
			// Larger rungs wait for this one.
			for c := range configs {
				for l := k + 1; l < len(levels); l++ {
					if ci := at[c][l]; ci >= 0 {
						setAll(ci, Plan{Step: StepWait}, true)
					}
				}
			}
			complete = false
			break
		}
		if k == len(levels)-1 {
			break
		}
		// Rank the rung on replicate 0 and promote the best ⌈n/η⌉.
		type entry struct {
			cfg   int
			score float64
		}
		var ranked []entry
		for _, c := range alive {
			score := math.NaN()
			if ci := at[c][k]; ci >= 0 {
				if ri := rep0(ci); ri >= 0 && recs[ri].Status == StatusOK {
					if s, why := devScore([]Record{recs[ri]}, g.On, g.Similarity, map[string]float64{}); why == "" {
						score = s
					}
				}
			}
			ranked = append(ranked, entry{c, score})
		}
		slices.SortStableFunc(ranked, func(a, b entry) int {
			switch {
			case math.IsNaN(a.score) && math.IsNaN(b.score):
				return 0
			case math.IsNaN(a.score):
				return 1
			case math.IsNaN(b.score):
				return -1
			}
			return cmp.Compare(b.score, a.score)
		})
		keep := (len(ranked) + g.Eta - 1) / g.Eta
		var next []int
		for r, e := range ranked {
			if r < keep && !math.IsNaN(e.score) {
				next = append(next, e.cfg)
				continue
			}
			why := fmt.Sprintf("successive halving: not promoted past %s (rung %d): ", value(levels[k]), k)
			if math.IsNaN(e.score) {
				why += "it has no score there"
			} else {
				why += fmt.Sprintf("its dev ρ %.4f ranked %d of %d, and the best %d went on", e.score, r+1, len(ranked), keep)
			}
			for l := k + 1; l < len(levels); l++ {
				if ci := at[e.cfg][l]; ci >= 0 {
					setAll(ci, Plan{Step: StepNotPromoted, Why: why}, true)
				}
			}
		}
		slices.Sort(next)
		alive = next
	}
	// Configurations the grid lacks at rung 0 never enter; nothing to do.
	if !complete {
		return
	}
	ch := g.choice(recs)
	for ci := range g.Candidates {
		for _, ri := range g.members[ci] {
			if !pending(ri) || replicateOf(recs[ri]) == 0 {
				continue
			}
			switch {
			case ci == ch.Chosen:
				plans[ri] = Plan{Step: StepRun}
			case ch.Chosen < 0:
				plans[ri] = Plan{Step: StepNotPromoted, Why: "successive halving: no design could be chosen (" + ch.Why() + "), so no further seeds run"}
			default:
				plans[ri] = Plan{Step: StepNotPromoted, Why: "successive halving: not the chosen design (" + describe(ch.Candidates[ch.Chosen].Values) + "): only it runs its further seeds"}
			}
		}
	}
}

// describe spells a candidate's values, "svd.rank=300 train.epochs=27".
func describe(v map[string]any) string {
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		x := v[k]
		if f, ok := number(x); ok {
			x = strconv.FormatFloat(f, 'g', -1, 64)
		}
		parts[i] = fmt.Sprintf("%s=%v", k, x)
	}
	return strings.Join(parts, " ")
}

// RungPair says how well one rung of a halving group foretold a later one,
// over the configurations scored at both: the question a halving's every
// cut asks of its early rungs.
type RungPair struct {
	From, To float64 // the resource's values, From < To
	// Both is how many configurations have a score at both rungs. Under a
	// halving they are the ones promoted, a range cut at the top, which
	// lowers a rank correlation; tune.eta 1 runs every one at every rung.
	Both int
	// Spearman is the rank correlation (average ranks on ties) of their
	// scores at From and at To; NaN under three configurations or when a
	// rung's scores are all equal.
	Spearman float64
	// BestRank is the rank at From (1 = best) of the configuration best at
	// To, among the Ranked configurations scored at From; 0 when To has no
	// score.
	BestRank, Ranked int
}

// RungAgreement compares every rung of a halving group with every later
// one, from the candidates' scores (replicate 0 under a halving). It is
// empty for a group searched without one.
func RungAgreement(c Choice) []RungPair {
	if c.Halving == "" {
		return nil
	}
	// score[level][configuration key], the scores that exist.
	score := map[float64]map[string]float64{}
	var levels []float64
	for _, cand := range c.Candidates {
		lv, ok := number(cand.Values[c.Halving])
		if !ok || math.IsNaN(cand.Score) {
			continue
		}
		if score[lv] == nil {
			score[lv] = map[string]float64{}
			levels = append(levels, lv)
		}
		score[lv][configKey(cand.Values, c.Halving)] = cand.Score
	}
	slices.Sort(levels)
	var out []RungPair
	for i, from := range levels {
		for _, to := range levels[i+1:] {
			p := RungPair{From: from, To: to, Ranked: len(score[from]), Spearman: math.NaN()}
			var xs, ys []float64
			best, bestKey := math.Inf(-1), ""
			for _, k := range slices.Sorted(maps.Keys(score[to])) {
				y := score[to][k]
				if y > best {
					best, bestKey = y, k
				}
				if x, ok := score[from][k]; ok {
					xs, ys = append(xs, x), append(ys, y)
				}
			}
			p.Both = len(xs)
			if len(xs) >= 3 {
				p.Spearman = rankCorrelation(xs, ys)
			}
			if x, ok := score[from][bestKey]; ok {
				p.BestRank = 1
				for _, other := range score[from] {
					if other > x {
						p.BestRank++
					}
				}
			}
			out = append(out, p)
		}
	}
	return out
}

// configKey names a halving configuration: a candidate's values but the
// resource axis's.
func configKey(values map[string]any, axis string) string {
	rest := make(map[string]any, len(values))
	for k, v := range values {
		if k != axis {
			rest[k] = v
		}
	}
	return jsonKey(rest)
}

// rankCorrelation is Spearman's ρ, Pearson's correlation of the average
// ranks, as methods/eval computes it; NaN when either side is constant.
func rankCorrelation(x, y []float64) float64 {
	return corr.Centred(corr.Ranks(x), corr.Ranks(y)).R()
}
