package reports

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"kcalab/records"
	"kcalab/schema"
)

// Tuning: designs chosen on dev parts (tune.axes). The choice is computed
// from the records by records.Choose, the same computation the run printed,
// before anything is drawn; this file only lays it out. A page with tuned
// trials compares, in its score tables, only the chosen design of each
// tuning group (and the untuned trials): the other candidates were looked
// at on the dev parts and lost, and ranking them on the test parts would
// invite a choice by looking at the test sets. They are drawn here, in the
// search, and listed in the trials table.

// tuningSectionID is the id of the section that shows the choices.
const tuningSectionID = "tuning"

// ownSimilarity is the similarity a trial's method declares (its users'),
// else its eval.similarity: the one its design is chosen at.
func (p *builder) ownSimilarity(rec records.Record) records.Similarity {
	if s := p.method(rec).Similarity; s != "" {
		return s
	}
	return ownSim(rec)
}

// choices are the tuning groups of the records and their choices.
func (p *builder) choices(recs []records.Record) []records.Choice {
	cs := records.Choose(recs, p.ownSimilarity)
	for _, c := range cs {
		for _, cand := range c.Candidates {
			schema.WithDefaults(cand.Values)
		}
	}
	return cs
}

// withoutLosers drops the candidates a tuning group did not choose: the
// records the score tables compare.
func withoutLosers(recs []records.Record, cs []records.Choice) []records.Record {
	if len(cs) == 0 {
		return recs
	}
	lost := map[string]bool{}
	for _, c := range cs {
		for i, cand := range c.Candidates {
			if i == c.Chosen {
				continue
			}
			for _, id := range cand.IDs {
				lost[id] = true
			}
		}
	}
	var out []records.Record
	for _, rec := range recs {
		if !lost[rec.ID] {
			out = append(out, rec)
		}
	}
	return out
}

// groupName names a tuning group: its label (else its method's), and the
// settings that tell it from other groups of that label.
func (p *builder) groupName(c records.Choice) string {
	name := c.Label
	if name == "" {
		name = p.methodLabel(c.Method)
	}
	if c.Shared != "" {
		name += " · " + c.Shared
	}
	return name
}

// valuesText spells a candidate's tuned values, "data.window=10 · vectors.alpha=0.5".
func valuesText(axes []string, v map[string]any) string {
	parts := make([]string, 0, len(axes))
	for _, a := range axes {
		parts = append(parts, a+"="+formatValue(v[a]))
	}
	return strings.Join(parts, " · ")
}

// tuningSection lays out the choices: what was chosen, on what, against
// how many candidates and at what cost, and the search drawn as dev ρ
// against each tuned setting.
func (p *builder) tuningSection(recs []records.Record, cs []records.Choice) *Section {
	if len(cs) == 0 {
		return nil
	}
	byID := map[string]records.Record{}
	for _, rec := range recs {
		byID[rec.ID] = rec
	}
	s := &Section{ID: tuningSectionID, Title: "Designs chosen on the dev parts"}
	chosen, none := 0, 0
	var head Headline
	for _, c := range cs {
		if c.Chosen < 0 {
			none++
			continue
		}
		chosen++
		ch := c.Candidates[c.Chosen]
		head = append(head, fmt.Sprintf("%s: %s, mean dev ρ %s (%s) among %d candidate(s).",
			p.groupName(c), valuesText(c.Axes, ch.Values), formatScore(ch.Score, 3), simName(c.Similarity), len(c.Candidates)))
	}
	rule := cs[0]
	intro := fmt.Sprintf("%d design(s) chosen by the harness, none by hand: each tuning group's candidates (equal in every setting but %s) are scored by the mean Spearman ρ over the dev parts of %s (zero rule, each method at its own similarity, seeds averaged first), and the highest is chosen. "+
		"The score tables of this page compare only the chosen designs (and the untuned trials) on the test parts, which played no part in the choice; a candidate's dev parts are in-sample for it (†). The candidates not chosen are drawn below and listed in the trials table, never ranked.",
		chosen, strings.Join(rule.Axes, ", "), strings.Join(rule.On, ", "))
	if none > 0 {
		intro += fmt.Sprintf(" %d group(s) could not choose: see the table.", none)
	}
	s.Blocks = append(s.Blocks, head, Paragraph(intro))

	// The costs are compared only when one run measured them all (as
	// every ratio on a page: timesCompare); otherwise the caption says why
	// and each row names the run its times come from.
	var chosenRecs []records.Record
	for _, c := range cs {
		for _, id := range c.ChosenIDs() {
			chosenRecs = append(chosenRecs, byID[id])
		}
	}
	// A row names its run when the chosen designs ran in several.
	caption, runs := "The chosen designs: their dev score, the runner-up's, and their cost", map[string]bool{}
	for _, rec := range chosenRecs {
		if rec.Run != nil {
			runs[rec.Run.ID] = true
		}
	}
	oneRun := len(runs) <= 1
	if len(chosenRecs) > 1 {
		ok, why := timesCompare(chosenRecs[:1], chosenRecs[1:])
		switch {
		case ok:
			caption += ", measured alike in one run"
		case why == whyOtherRuns:
			caption += ": measured in different runs (each row names its run), so the times are read one by one, not against each other"
		default:
			if !oneRun {
				why += "; they ran in different runs (each row names its run)"
			}
			caption += ": " + strings.TrimPrefix(why, "not compared: ") + "; so the times are read one by one, not against each other"
		}
	}
	t := Table{ID: "tuning-choices", Caption: caption,
		Header:  []string{"Group", "Chosen", "Dev ρ", "Runner-up dev ρ", "Candidates", "Decomposition or training (s)", "Trial (s)", "Note"},
		Numeric: []bool{false, false, true, true, true, true, true, false},
		CSV:     [][]string{{"group", "chosen", "dev_rho", "runner_up_dev_rho", "candidates", "cost_s", "trial_s"}}}
	for _, c := range cs {
		if c.Chosen < 0 {
			why := c.Why()
			t.Rows = append(t.Rows, []string{p.groupName(c), "—", "—", "—", strconv.Itoa(len(c.Candidates)), "—", "—", "no design chosen: " + why})
			t.CSV = append(t.CSV, []string{p.groupName(c), "", "", "", strconv.Itoa(len(c.Candidates)), "", ""})
			continue
		}
		ch := c.Candidates[c.Chosen]
		second := math.NaN()
		for i, cand := range c.Candidates {
			if i != c.Chosen && !math.IsNaN(cand.Score) && (math.IsNaN(second) || cand.Score > second) {
				second = cand.Score
			}
		}
		total, cost := meanOf(ch.IDs, byID, trialSeconds), meanOf(ch.IDs, byID, costSeconds)
		var notes []string
		if len(ch.IDs) > 1 {
			notes = append(notes, fmt.Sprintf("%d seeds: dev ρ and times are their means", len(ch.IDs)))
		}
		if rec := byID[ch.IDs[0]]; !oneRun && rec.Run != nil {
			verb := "ran in "
			if measuredInChild(rec) {
				verb = "measured in "
			}
			notes = append(notes, verb+runName(*rec.Run))
		}
		costText := secondsOrDash(cost)
		if rec := byID[ch.IDs[0]]; rec.Metrics[records.MetricSVDSharedRank] > dimOf(rec) {
			// The cost shown is not the chosen design's own: it is the one
			// decomposition at the shared rank that every d of the sweep
			// takes its leading triplets from.
			shared := formatValue(rec.Metrics[records.MetricSVDSharedRank])
			costText += " (shared, rank " + shared + ")"
			notes = append(notes, fmt.Sprintf("the cost is the sweep's one decomposition at rank %s (svd.shared_rank), which every d of it shares, not the chosen d = %s's own; one trial of the sweep computed it", shared, formatValue(dimOf(rec))))
		}
		t.Rows = append(t.Rows, []string{p.groupName(c), valuesText(c.Axes, ch.Values), formatScore(ch.Score, 3), formatScore(second, 3),
			strconv.Itoa(len(c.Candidates)), costText, secondsOrDash(total), strings.Join(notes, "; ")})
		t.CSV = append(t.CSV, []string{p.groupName(c), valuesText(c.Axes, ch.Values), strconv.FormatFloat(ch.Score, 'g', -1, 64),
			csvFloat(second), strconv.Itoa(len(c.Candidates)), csvFloat(cost), csvFloat(total)})
	}
	s.Blocks = append(s.Blocks, t)
	s.Blocks = append(s.Blocks, p.searchCharts(cs)...)
	return s
}

func csvFloat(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// searchCharts draw, for each tuned numeric setting, each group's best dev
// ρ at each of its values (over the other tuned settings): how the choice
// depends on it.
func (p *builder) searchCharts(cs []records.Choice) []Block {
	var axes []string
	seen := map[string]bool{}
	for _, c := range cs {
		for _, a := range c.Axes {
			if !seen[a] {
				seen[a] = true
				axes = append(axes, a)
			}
		}
	}
	var out []Block
	for ai, a := range axes {
		ch := LineChart{ID: "tuning-search-" + strconv.Itoa(ai+1), Title: "The search: dev ρ against " + a, XName: a, YName: "mean dev ρ (best over the other tuned settings)"}
		var lo, hi float64 = math.Inf(1), math.Inf(-1)
		for _, c := range cs {
			best := map[float64]float64{}
			for _, cand := range c.Candidates {
				x, ok := cand.Values[a].(float64)
				if !ok {
					if i, isInt := cand.Values[a].(int); isInt {
						x, ok = float64(i), true
					}
				}
				if !ok || math.IsNaN(cand.Score) {
					continue
				}
				if v, have := best[x]; !have || cand.Score > v {
					best[x] = cand.Score
				}
			}
			if len(best) < 2 {
				continue
			}
			var pts []XY
			for x, y := range best {
				pts = append(pts, XY{X: x, Y: y})
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
			sort.Slice(pts, func(i, j int) bool { return pts[i].X < pts[j].X })
			ch.Series = append(ch.Series, LineSeries{Name: p.groupName(c), Points: pts})
		}
		if len(ch.Series) == 0 {
			continue
		}
		ch.LogX = lo > 0 && hi/lo >= 10
		out = append(out, ch)
	}
	return out
}

// trialSeconds is a trial's wall time in its run.
func trialSeconds(rec records.Record) (float64, bool) {
	v, ok := rec.Timings["total"]
	return v, ok
}

// costSeconds is what a design costs to make: the decomposition (a shared
// one's own time, svd_shared_s, not a sharer's wait) or the training.
func costSeconds(rec records.Record) (float64, bool) {
	if v, ok := rec.Metrics[records.MetricSVDSharedSeconds]; ok {
		return v, true
	}
	for _, stage := range []string{"svd", "train"} {
		if v, ok := rec.Timings[stage]; ok {
			return v, true
		}
	}
	return 0, false
}

// meanOf is the mean of get over the records of ids that have it; NaN
// when none has.
func meanOf(ids []string, byID map[string]records.Record, get func(records.Record) (float64, bool)) float64 {
	sum, n := 0.0, 0
	for _, id := range ids {
		if v, ok := get(byID[id]); ok {
			sum += v
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

func secondsOrDash(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return secondsText(v)
}

// runName names the run that computed a record: when it started (its ID
// begins with that time) and from which commit.
func runName(ri records.RunInfo) string {
	start, _, _ := strings.Cut(ri.ID, "/")
	name := "the run " + ri.ID
	if t, err := time.Parse(time.RFC3339Nano, start); err == nil {
		name = "the run started " + t.UTC().Format(time.RFC3339)
	}
	if len(ri.Commit) >= 7 {
		name += " at commit " + ri.Commit[:7]
	}
	return name
}
