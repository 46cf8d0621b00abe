package reports

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"kcalab/records"
	"kcalab/reports/compare"
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

// tuningSection lays out a tuned page's answer and its search: first the
// verdict of each method at its best on the test parts (verdict.go), then
// what each tuning group chose, on what, how sure the choice is (the
// runner-up's margin beside the dev noise), whether it sits at the edge
// of its range, at what cost and with what search budget; then every
// candidate of each group, and the search drawn as every candidate's dev ρ
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
	if blocks, v, common := p.verdictBlocks(recs, cs); blocks != nil {
		s.Blocks = append(s.Blocks, blocks...)
		claims := []Claim{v.claim(v.a.name + " − " + v.b.name)}
		if common != nil {
			// On the pairs both cover the zero rule and the skip rule
			// agree: the basis holds for this claim too.
			claims = append(claims, common.claim("on pairs both cover"))
		}
		p.setVerdict(tuningSectionID, Verdict{Claims: claims, Basis: "each at its best by dev ρ, test parts, zero rule"})
		p.tuningLead = "Each method at its best, on the test parts"
	} else if head, claims := p.halvingCheck(cs); len(claims) > 0 {
		// A check of a halving asks how well its first rung foretells its
		// last, not which method wins: its rungs answer.
		s.Blocks = append(s.Blocks, head)
		p.setVerdict(tuningSectionID, Verdict{Claims: claims, Basis: "mean dev ρ, every configuration at every rung"})
		p.tuningLead = "How well the halving's first rung foretells the later ones"
	}
	chosen, none := 0, 0
	var head Headline
	for _, c := range cs {
		if c.Chosen < 0 {
			none++
			continue
		}
		chosen++
		ch := c.Candidates[c.Chosen]
		line := fmt.Sprintf("%s: %s, mean dev ρ %s (%s) among %d candidate(s)",
			p.groupName(c), valuesText(c.Axes, ch.Values), formatScore(ch.Score, 3), simName(c.Similarity), len(c.Candidates))
		if sure := p.sureness(c, byID); sure.text != "" {
			line += "; " + sure.text
		}
		if edges := edgeFlags(c); len(edges) > 0 {
			line += "; " + strings.Join(edges, "; ")
		}
		head = append(head, line+".")
	}
	rule := cs[0]
	intro := fmt.Sprintf("%d design(s) chosen by the harness, none by hand: each tuning group's candidates (equal in every setting but %s) are scored by the mean Spearman ρ over the dev parts of %s (zero rule, each method at its own similarity, seeds averaged first; a group searched by successive halving is scored on its first seed, the one every candidate ran), and the highest is chosen. "+
		"The score tables of this page compare only the chosen designs (and the untuned trials) on the test parts, which played no part in the choice; a candidate's dev parts are in-sample for it (†). The candidates not chosen are listed and drawn below, never ranked. "+
		"Dev noise is the half-width of a 95%% interval of a candidate's mean dev ρ: the pairs' sampling noise of each dev part (Bonett & Wright's standard error of Spearman's ρ, n the part's pairs) and, where the chosen design trained several seeds, their spread; a margin well inside it means the choice could as well have gone to the runner-up. A choice at the end of a numeric setting's range is flagged: its best may lie beyond the values tried.",
		chosen, strings.Join(rule.Axes, ", "), strings.Join(rule.On, ", "))
	if none > 0 {
		intro += fmt.Sprintf(" %d group(s) could not choose: see the table.", none)
	}
	s.Blocks = append(s.Blocks, head, Paragraph(intro))
	s.Blocks = append(s.Blocks, p.choicesTable(cs, byID), p.budgetTable(cs, byID))
	if t, ok := p.rungTable(cs); ok {
		s.Blocks = append(s.Blocks, t)
	}
	s.Blocks = append(s.Blocks, p.candidateTables(cs, byID)...)
	s.Blocks = append(s.Blocks, p.searchCharts(cs, byID)...)
	return s
}

// choicesTable is one row per tuning group: its choice, how sure it is,
// and what the chosen design cost.
func (p *builder) choicesTable(cs []records.Choice, byID map[string]records.Record) Table {
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
	caption, runs := "The chosen designs: their dev score and noise, the runner-up's margin, and their cost", map[string]bool{}
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
		Header:  []string{"Group", "Chosen", "Dev ρ", "Dev noise (±)", "Runner-up dev ρ", "Margin", "Candidates", "Decomposition or training (s)", "Trial (s)", "Note"},
		Numeric: []bool{false, false, true, true, true, true, true, true, true, false},
		CSV:     [][]string{{"group", "chosen", "dev_rho", "dev_noise", "runner_up_dev_rho", "margin", "candidates", "cost_s", "trial_s", "at_edge"}}}
	for _, c := range cs {
		if c.Chosen < 0 {
			why := c.Why()
			t.Rows = append(t.Rows, []string{p.groupName(c), "—", "—", "—", "—", "—", strconv.Itoa(len(c.Candidates)), "—", "—", "no design chosen: " + why})
			t.CSV = append(t.CSV, []string{p.groupName(c), "", "", "", "", "", strconv.Itoa(len(c.Candidates)), "", "", ""})
			continue
		}
		ch := c.Candidates[c.Chosen]
		sure := p.sureness(c, byID)
		total, cost := meanOf(ch.IDs, byID, trialSeconds), meanOf(ch.IDs, byID, costSeconds)
		var notes []string
		if len(ch.IDs) > 1 {
			notes = append(notes, fmt.Sprintf("%d seeds: times are their means", len(ch.IDs)))
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
		edges := edgeFlags(c)
		if len(edges) > 0 {
			var at []string
			for _, e := range edges {
				at = append(at, strings.SplitN(e, " ", 2)[0])
			}
			notes = append(notes, "at the edge of its range: "+strings.Join(at, ", "))
		}
		t.Rows = append(t.Rows, []string{p.groupName(c), valuesText(c.Axes, ch.Values), formatScore(ch.Score, 3), scoreOrDash(sure.noise),
			scoreOrDash(sure.second), signedOrDash(sure.margin), strconv.Itoa(len(c.Candidates)), costText, secondsOrDash(total), strings.Join(notes, "; ")})
		t.CSV = append(t.CSV, []string{p.groupName(c), valuesText(c.Axes, ch.Values), strconv.FormatFloat(ch.Score, 'g', -1, 64), csvFloat(sure.noise),
			csvFloat(sure.second), csvFloat(sure.margin), strconv.Itoa(len(c.Candidates)), csvFloat(cost), csvFloat(total), strconv.FormatBool(len(edges) > 0)})
	}
	return t
}

func scoreOrDash(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return formatScore(v, 3)
}

func signedOrDash(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return signed(v, 3)
}

// sure is how sure a group's choice is: the runner-up's score and the
// margin, and the dev noise of the chosen design's score.
type sure struct {
	second, margin, noise float64
	text                  string
}

// sureness compares the chosen design with the runner-up (the best other
// candidate with a score) against the chosen design's dev noise
// (devNoise).
func (p *builder) sureness(c records.Choice, byID map[string]records.Record) sure {
	out := sure{second: math.NaN(), margin: math.NaN(), noise: math.NaN()}
	if c.Chosen < 0 {
		return out
	}
	ch := c.Candidates[c.Chosen]
	for i, cand := range c.Candidates {
		if i != c.Chosen && !math.IsNaN(cand.Score) && (math.IsNaN(out.second) || cand.Score > out.second) {
			out.second = cand.Score
		}
	}
	var trials []records.Record
	for _, id := range ch.IDs {
		trials = append(trials, byID[id])
	}
	out.noise = devNoise(trials, c)
	if math.IsNaN(out.second) {
		return out
	}
	out.margin = ch.Score - out.second
	out.text = "chosen by " + formatScore(out.margin, 3) + " over the runner-up"
	if !math.IsNaN(out.noise) {
		out.text += " (dev noise ± " + formatScore(out.noise, 3) + ")"
		if out.margin < out.noise {
			out.text += ": within noise"
		}
	}
	return out
}

// devNoise is the half-width of a 95% interval of a candidate's score (the
// mean of its dev ρ over the group's sets): each set's dev part adds the
// sampling variance of Spearman's ρ over its n pairs (Bonett & Wright
// 2000: the standard error of Fisher's z is √((1 + ρ²/2)/(n − 3)), of ρ
// that times 1 − ρ²), and, when the design trained several seeds, the
// variance of one seed's score over them (a candidate is scored on one
// seed in a halving, on their mean otherwise). NaN when a part's pairs or
// score are not recorded.
func devNoise(trials []records.Record, c records.Choice) float64 {
	if len(trials) == 0 || len(c.On) == 0 {
		return math.NaN()
	}
	ch := c.Candidates[c.Chosen]
	v := 0.0
	for _, set := range c.On {
		rho, ok := ch.Dev[set]
		n := trials[0].Metrics[records.Pairs(records.SetPart(set, records.PartDev)).Key()]
		if !ok || !(n > 3) {
			return math.NaN()
		}
		se := (1 - rho*rho) * math.Sqrt((1+rho*rho/2)/(n-3))
		v += se * se
	}
	v /= float64(len(c.On) * len(c.On))
	if len(trials) > 1 {
		// The seeds' spread of the mean dev ρ.
		var per []float64
		for _, rec := range trials {
			sum, n := 0.0, 0
			for _, set := range c.On {
				key := records.Score(records.RuleZero, records.SetPart(set, records.PartDev)).At(c.Similarity, ownSim(rec)).Key()
				if x, ok := rec.Metrics[key]; ok && !math.IsNaN(x) {
					sum += x
					n++
				}
			}
			if n == len(c.On) {
				per = append(per, sum/float64(n))
			}
		}
		if len(per) > 1 {
			sd := records.StdDev(per)
			if c.Halving == "" {
				sd /= math.Sqrt(float64(len(per))) // the choice read their mean
			}
			v += sd * sd
		}
	}
	return 1.96 * math.Sqrt(v)
}

// edgeFlags name the numeric tuned settings whose chosen value is the
// smallest or largest the group tried: its best may lie beyond.
func edgeFlags(c records.Choice) []string {
	if c.Chosen < 0 {
		return nil
	}
	var out []string
	for _, a := range c.Axes {
		var vals []float64
		for _, cand := range c.Candidates {
			if x, ok := compare.Number(cand.Values[a]); ok && !slices.Contains(vals, x) {
				vals = append(vals, x)
			}
		}
		x, ok := compare.Number(c.Candidates[c.Chosen].Values[a])
		if !ok || len(vals) < 2 {
			continue
		}
		slices.Sort(vals)
		spelled := make([]string, len(vals))
		for i, v := range vals {
			spelled[i] = formatValue(v)
		}
		switch x {
		case vals[len(vals)-1]:
			out = append(out, fmt.Sprintf("%s = %s is the largest value tried (%s): its best may lie above", a, formatValue(x), strings.Join(spelled, ", ")))
		case vals[0]:
			out = append(out, fmt.Sprintf("%s = %s is the smallest value tried (%s): its best may lie below", a, formatValue(x), strings.Join(spelled, ", ")))
		}
	}
	return out
}

// budgetTable says what each group's search cost: the designs it ran, the
// trials, and core-hours (each trial's wall time times the cores it used:
// one for a baseline, which trains on one core; the run's GOMAXPROCS
// otherwise), so a reader sees whether the search was even.
func (p *builder) budgetTable(cs []records.Choice, byID map[string]records.Record) Table {
	t := Table{ID: "tuning-budget", Caption: "The search budget of each group: designs run, trials (with seeds), and core-hours (a baseline's trials: the CPU time of the thread each trained on; other trials: wall time × the cores they could use, an upper bound)",
		Header:  []string{"Group", "Search", "Designs run", "Trials", "Core-hours"},
		Numeric: []bool{false, false, true, true, true},
		CSV:     [][]string{{"group", "search", "designs", "trials", "core_hours"}}}
	for _, c := range cs {
		trials, coreS := 0, 0.0
		for _, cand := range c.Candidates {
			for _, id := range cand.IDs {
				rec, ok := byID[id]
				if !ok {
					continue
				}
				trials++
				coreS += coreSeconds(rec, p.method(rec).Baseline)
			}
		}
		search := "every candidate of the grid"
		if c.Halving != "" {
			search = "successive halving over " + c.Halving + " (" + halvingRungs(c) + ")"
		}
		t.Rows = append(t.Rows, []string{p.groupName(c), search, strconv.Itoa(len(c.Candidates)), strconv.Itoa(trials), strconv.FormatFloat(coreS/3600, 'f', 2, 64)})
		t.CSV = append(t.CSV, []string{p.groupName(c), search, strconv.Itoa(len(c.Candidates)), strconv.Itoa(trials), strconv.FormatFloat(coreS/3600, 'g', 6, 64)})
	}
	return t
}

// rungTable says, for each group searched by successive halving, how well
// each rung foretold the later ones (records.RungAgreement): a halving
// drops configurations on its early rungs' order, which only stands if
// that order is the later rungs' too. ok is false when no group halved.
func (p *builder) rungTable(cs []records.Choice) (Table, bool) {
	t := Table{ID: "tuning-rungs", Caption: "How well each rung of a successive halving foretold the later ones: over the configurations that ran at both, the rank correlation of their dev ρ (Spearman; with η > 1 these are the promoted few, whose narrow range lowers it; none under three), and where the later rung's best configuration ranked at the earlier one (a halving keeps it only if it ranked among the best 1/η). A group run with tune.eta 1 ran every configuration at every rung: its rows check the halving over the whole grid",
		Header:  []string{"Group", "Rungs", "Configurations at both", "Spearman ρ", "Later best ranked earlier"},
		Numeric: []bool{false, false, true, true, false},
		CSV:     [][]string{{"group", "axis", "from", "to", "configurations_at_both", "spearman", "best_rank", "ranked"}}}
	for _, c := range cs {
		for _, r := range records.RungAgreement(c) {
			rank := "—"
			if r.BestRank > 0 {
				rank = fmt.Sprintf("%d of %d", r.BestRank, r.Ranked)
			}
			t.Rows = append(t.Rows, []string{p.groupName(c), fmt.Sprintf("%s %s → %s", c.Halving, formatValue(r.From), formatValue(r.To)),
				strconv.Itoa(r.Both), signedOrDash(r.Spearman), rank})
			t.CSV = append(t.CSV, []string{p.groupName(c), c.Halving, csvFloat(r.From), csvFloat(r.To), strconv.Itoa(r.Both),
				csvFloat(r.Spearman), strconv.Itoa(r.BestRank), strconv.Itoa(r.Ranked)})
		}
	}
	return t, len(t.Rows) > 0
}

// halvingCheck answers a halving check (groups run with tune.eta 1, every
// configuration at every rung): per group, how its first rung's order
// foretells each later rung's (the headline) and the chosen design's rung
// (the claim). Empty when no group is one.
func (p *builder) halvingCheck(cs []records.Choice) (Headline, []Claim) {
	var head Headline
	var claims []Claim
	for _, c := range cs {
		if c.Halving == "" || c.Eta != 1 {
			continue
		}
		// The claim is the first rung against the rung of the chosen
		// design (where the search ends); the headline has every later rung.
		chosenAt := math.NaN()
		if c.Chosen >= 0 {
			if v, ok := compare.Number(c.Candidates[c.Chosen].Values[c.Halving]); ok {
				chosenAt = v
			}
		}
		var parts []string
		answer := ""
		first, n := math.NaN(), 0
		for _, r := range records.RungAgreement(c) {
			if math.IsNaN(first) {
				first = r.From
			}
			if r.From != first {
				continue
			}
			part := fmt.Sprintf("%s → %s: Spearman %s", formatValue(r.From), formatValue(r.To), signedOrDash(r.Spearman))
			if r.BestRank > 0 {
				part += fmt.Sprintf(", the best at %s ranked %d of %d", formatValue(r.To), r.BestRank, r.Ranked)
			}
			parts = append(parts, part)
			n = max(n, r.Both)
			if r.To == chosenAt {
				answer = c.Halving + " " + part
			}
		}
		if len(parts) == 0 {
			continue
		}
		if answer == "" { // no chosen design, or it sits at the first rung
			answer = c.Halving + " " + parts[len(parts)-1]
		}
		claims = append(claims, Claim{Subject: p.groupName(c), Answer: answer})
		head = append(head, fmt.Sprintf("%s, its order at %s = %s against each later rung's (%d configurations; a halving by η = %d keeps the best %d of the first rung): %s.",
			p.groupName(c), c.Halving, formatValue(first), n, records.DefaultEta, (n+records.DefaultEta-1)/records.DefaultEta, strings.Join(parts, "; ")))
	}
	return head, claims
}

// coreSeconds is what a trial cost in cores: a one-core trial's thread CPU
// time where recorded (records.MetricThreadCPU: its own, whatever shared
// the machine), else its wall time times the cores it used; a trial that
// waited for a decomposition another trial computed counts its wait out.
func coreSeconds(rec records.Record, oneCore bool) float64 {
	if v, ok := rec.Metrics[records.MetricThreadCPU]; ok && oneCore {
		return v
	}
	total := rec.Timings["total"]
	if rec.Metrics[records.MetricSVDShared] == 1 {
		total -= rec.Timings["svd"]
	}
	cores := 1.0
	if !oneCore && rec.Env != nil && rec.Env.GOMAXPROCS > 0 {
		cores = float64(rec.Env.GOMAXPROCS)
	}
	return math.Max(0, total) * cores
}

// halvingRungs spells how many designs ran at each value of the halving's
// resource: "18 at 3, 6 at 9, 2 at 27, 1 at 81".
func halvingRungs(c records.Choice) string {
	n := map[float64]int{}
	var vals []float64
	for _, cand := range c.Candidates {
		x, ok := compare.Number(cand.Values[c.Halving])
		if !ok {
			continue
		}
		if n[x] == 0 {
			vals = append(vals, x)
		}
		n[x]++
	}
	slices.Sort(vals)
	parts := make([]string, len(vals))
	for i, x := range vals {
		parts[i] = fmt.Sprintf("%d at %s", n[x], formatValue(x))
	}
	return strings.Join(parts, ", ")
}

// candidateTables list, per group, every candidate that ran: its tuned
// values, its mean dev ρ and its distance to the chosen one, chosen or
// search-only, best first (one click away: a search can hold dozens).
func (p *builder) candidateTables(cs []records.Choice, byID map[string]records.Record) []Block {
	var out []Block
	for gi, c := range cs {
		header := append([]string{"Rank"}, c.Axes...)
		header = append(header, "Mean dev ρ", "Δ to chosen", "Seeds", "Role")
		numeric := make([]bool, len(header))
		numeric[0] = true
		for i := len(c.Axes) + 1; i < len(header)-1; i++ {
			numeric[i] = true
		}
		csvHead := append([]string{"rank"}, c.Axes...)
		csvHead = append(csvHead, "dev_rho", "delta_to_chosen", "seeds", "role")
		t := Table{ID: "tuning-candidates-" + strconv.Itoa(gi+1), Caption: "Every candidate of " + p.groupName(c) + " that ran, best mean dev ρ first",
			Header: header, Numeric: numeric, CSV: [][]string{csvHead}}
		order := make([]int, len(c.Candidates))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			sa, sb := c.Candidates[a].Score, c.Candidates[b].Score
			switch {
			case math.IsNaN(sa) && math.IsNaN(sb):
				return 0
			case math.IsNaN(sa):
				return 1
			case math.IsNaN(sb):
				return -1
			}
			return cmpFloat(sb, sa)
		})
		best := math.NaN()
		if c.Chosen >= 0 {
			best = c.Candidates[c.Chosen].Score
		}
		for rank, i := range order {
			cand := c.Candidates[i]
			role := "search-only"
			switch {
			case i == c.Chosen:
				role = "chosen"
			case cand.Why != "":
				role = "no score: " + cand.Why
			}
			row := []string{strconv.Itoa(rank + 1)}
			crow := []string{strconv.Itoa(rank + 1)}
			for _, a := range c.Axes {
				row = append(row, formatValue(cand.Values[a]))
				crow = append(crow, formatValue(cand.Values[a]))
			}
			delta := signedOrDash(cand.Score - best)
			if i == c.Chosen {
				delta = "—"
			}
			row = append(row, scoreOrDash(cand.Score), delta, strconv.Itoa(len(cand.IDs)), role)
			crow = append(crow, csvFloat(cand.Score), csvFloat(cand.Score-best), strconv.Itoa(len(cand.IDs)), role)
			t.Rows = append(t.Rows, row)
			t.CSV = append(t.CSV, crow)
		}
		summary := fmt.Sprintf("%s: all %d candidates", p.groupName(c), len(c.Candidates))
		if c.Halving != "" {
			summary += " (successive halving over " + c.Halving + ": " + halvingRungs(c) + ")"
		}
		out = append(out, Details{Summary: summary, Blocks: []Block{t}})
	}
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func csvFloat(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// searchCharts draw, for each tuned numeric setting, every candidate of
// each group that tunes it as a point (Optuna's slice plot): its mean dev
// ρ against its value there; the chosen designs apart, with their dev
// noise as a bar, so the axis shows how far apart the candidates are
// against the noise.
func (p *builder) searchCharts(cs []records.Choice, byID map[string]records.Record) []Block {
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
		ch := LineChart{ID: "tuning-search-" + strconv.Itoa(ai+1), Title: "The search: every candidate's dev ρ against " + a, XName: a,
			YName: "mean dev ρ (bar: the chosen design's dev noise)"}
		var lo, hi float64 = math.Inf(1), math.Inf(-1)
		var chosen []XY
		for _, c := range cs {
			var pts []XY
			distinct := map[float64]bool{}
			for ci, cand := range c.Candidates {
				x, ok := compare.Number(cand.Values[a])
				if !ok || math.IsNaN(cand.Score) {
					continue
				}
				distinct[x] = true
				pts = append(pts, XY{X: x, Y: cand.Score})
				if ci == c.Chosen {
					// The chosen design carries the dev noise: a candidate
					// inside its bar is within noise of it.
					var trials []records.Record
					for _, id := range cand.IDs {
						trials = append(trials, byID[id])
					}
					noise := devNoise(trials, c)
					if math.IsNaN(noise) {
						noise = 0
					}
					chosen = append(chosen, XY{X: x, Y: cand.Score, Err: noise})
				}
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
			if len(distinct) < 2 {
				continue
			}
			sort.SliceStable(pts, func(i, j int) bool { return pts[i].X < pts[j].X })
			ch.Series = append(ch.Series, LineSeries{Name: p.groupName(c), Points: pts, Dots: true})
		}
		if len(ch.Series) == 0 {
			continue
		}
		if len(chosen) > 0 {
			ch.Series = append(ch.Series, LineSeries{Name: "chosen", Points: chosen, Dots: true, Color: "#000000"})
		}
		ch.LogX = lo > 0 && hi/lo >= 10
		ch.Note = "Each point is one candidate design that ran (for its group, at this value of " + a + " and any values of the other tuned settings); black marks the designs chosen, with the 95% dev noise of their score as a bar: a candidate inside it is within noise of the choice."
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
