package reports

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
	"kcalab/schema"
)

// sweepSection draws ρ (zero rule) against each numeric setting that takes
// at least three values within one series, or returns nil.
func (p *builder) sweepSection(recs []records.Record) *Section {
	scored := p.project(recs, compare.HasMetric(records.ScoreMetric))
	if scored.Len() == 0 {
		return nil
	}
	s := &Section{ID: "sweeps", Title: "Sweeps"}
	var head Headline
	for _, sk := range schema.SweepSettings() {
		if sub, answer := p.sweepOf(scored.Where(compare.NumericSetting(sk.Key)), sk); sub != nil {
			s.Subsections = append(s.Subsections, *sub)
			if answer != "" {
				head = append(head, answer)
			}
		}
	}
	if len(s.Subsections) == 0 {
		return nil
	}
	if len(head) > 0 {
		s.Blocks = append(s.Blocks, head)
	}
	return s
}

// sweepAnswer says where each line of a sweep peaks: the x at which its
// mean ρ (zero rule, at its ranked similarity) over the sets is highest,
// among the x where it has every set; a set a line was tuned on does not
// count for it. "" when no line has an x with every set.
func sweepAnswer(sk schema.Setting, lines []line, sets []string, score func(set string) func(trial, float64) (float64, bool), tuned func(l line, set string) bool) string {
	var clauses []string
	for _, l := range lines {
		sum, n := map[float64]float64{}, map[float64]int{}
		counted := 0
		for _, set := range sets {
			if tuned(l, set) {
				continue
			}
			counted++
			pts, _ := l.Points(score(set))
			for _, pt := range pts {
				if finite(pt.X) && finite(pt.Y) {
					sum[pt.X] += pt.Y
					n[pt.X]++
				}
			}
		}
		best, bestMean := math.NaN(), math.Inf(-1)
		for x, c := range n {
			if m := sum[x] / float64(c); c == counted && (m > bestMean || (m == bestMean && x < best)) {
				best, bestMean = x, m
			}
		}
		if counted == 0 || math.IsNaN(best) {
			continue
		}
		c := fmt.Sprintf("%s at %s (mean ρ %s", l.Name, formatValue(best), sig(bestMean, 3))
		if counted < len(sets) {
			c += fmt.Sprintf(" over the %d sets it was not tuned on", counted)
		}
		clauses = append(clauses, c+")")
	}
	if len(clauses) == 0 {
		return ""
	}
	return fmt.Sprintf("Where the mean Spearman ρ over the %d sets (zero rule; differences not tested) is highest against %s: %s.", len(sets), sk.Key, strings.Join(clauses, "; "))
}

// sweepOf is the charts of ρ against one setting: one per set, one line
// per group and combination of the settings that vary within it (see
// lineNamesOf); only lines with three or more x values are drawn, since a
// trial that merely has the setting is not a sweep. The sentence returned
// says where each line peaks (sweepAnswer).
func (p *builder) sweepOf(pr projection, sk schema.Setting) (*Section, string) {
	if pr.Len() < 3 {
		return nil, ""
	}
	names := p.lineNamesOf(pr.Records(), sk.Key)
	xOf := func(_ int, t trial) float64 { x, _ := compare.Number(t.Settings[sk.Key]); return x }
	var lines []line
	for _, l := range pr.Lines(func(i int, _ trial) string { return orRho(names.names[i]) }, xOf) {
		if l.DistinctX() >= 3 {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return nil, ""
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, t := range pr.Trials {
		lo, hi = math.Min(lo, xOf(i, t)), math.Max(hi, xOf(i, t))
	}
	// Windows read best on a linear axis; ranks and fractions spanning a
	// decade or more on a log one.
	logX := sk.SweepLog && lo > 0 && hi/lo >= 10
	var row Row
	averaged, tuned := false, false
	for j, set := range wholeSets(wordSets(pr.Records())) {
		c := LineChart{ID: fmt.Sprintf("sweep-%s-%d", sk.SweepID, j+1), Title: setDisplay(set),
			XName: sk.SweepAxis, YName: "Spearman ρ (zero rule)", LogX: logX, Width: 440, Height: 300}
		for _, l := range lines {
			pts, many := l.Points(p.rankedScore(records.Score(records.RuleZero, set)))
			averaged = averaged || many
			ls := LineSeries{Name: l.Name, Points: pts, Key: l.Name}
			if slices.ContainsFunc(l.Trials, func(t trial) bool { return p.tunedOn(t.Record, set) }) {
				ls.Name, ls.Muted, tuned = ls.Name+" †", true, true
			}
			c.Series = append(c.Series, ls)
		}
		row = append(row, c)
	}
	axis := sk.SweepAxis
	sub := &Section{ID: "sweep-" + sk.SweepID, Title: "ρ against " + strings.ToLower(axis[:1]) + axis[1:]}
	text := sweepText(sk, names, averaged) + " Each trial at the similarity its scores are ranked at (" + p.simText() + ")."
	if tuned {
		text += " A line marked † was tuned on the chart's set (in-sample there): drawn dashed with hollow symbols in its own colour, not compared."
	}
	sub.Blocks = append(sub.Blocks, Paragraph(text), row)
	sets := wholeSets(wordSets(pr.Records()))
	answer := sweepAnswer(sk, lines, sets, func(set string) func(trial, float64) (float64, bool) {
		return p.rankedScore(records.Score(records.RuleZero, set))
	}, func(l line, set string) bool {
		return slices.ContainsFunc(l.Trials, func(t trial) bool { return p.tunedOn(t.Record, set) })
	})
	return sub, answer
}

// rankedScore is a points value: a trial's score m at its ranked
// similarity (rankSim), when it has it.
func (p *builder) rankedScore(m records.Metric) func(trial, float64) (float64, bool) {
	return func(t trial, _ float64) (float64, bool) {
		v, ok := t.Metrics[m.At(p.rankSim(t.Record), ownSim(t.Record)).Key()]
		return v, ok
	}
}

// orRho names a line that has nothing else to say by what it draws.
func orRho(name string) string {
	if name == "" {
		return "ρ"
	}
	return name
}

// sweepText says what a sweep's charts draw.
func sweepText(sk schema.Setting, names lineNames, averaged bool) string {
	text := fmt.Sprintf("Spearman ρ under the zero rule against %s (%s), one chart per set, one line per method", sk.Key, sk.SweepAxis)
	if names.single {
		text = fmt.Sprintf("Spearman ρ under the zero rule of %s against %s (%s), one chart per set, one line", names.group, sk.Key, sk.SweepAxis)
	}
	if len(names.varying) > 0 {
		text += " per combination of the other settings that vary (" + strings.Join(names.varying, ", ") + ")"
	}
	text += "."
	if averaged {
		text += " Trials with the same settings at the same x (replicates: seeds) are averaged; the error bars are ± one standard deviation."
	}
	return text
}
