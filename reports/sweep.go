package reports

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
	"kcalab/schema"
)

// sweepSection draws ρ (zero rule) against each numeric setting that takes
// at least three values within one series, or returns nil. Its headline
// says, per set and line, whether ρ changes across the swept values by
// more than the points' intervals allow (sweepVerdict, the rule in
// sweepRule), then where each line peaks on average (sweepAnswer).
func (p *builder) sweepSection(recs []records.Record) *Section {
	scored := p.project(recs, compare.HasMetric(records.ScoreMetric))
	if scored.Len() == 0 {
		return nil
	}
	s := &Section{ID: "sweeps", Title: "Sweeps"}
	var head, peaks Headline
	tested := false
	for _, sk := range schema.SweepSettings() {
		sw := p.sweepOf(scored.Where(compare.NumericSetting(sk.Key)), sk)
		if sw.sub == nil {
			continue
		}
		s.Subsections = append(s.Subsections, *sw.sub)
		if v := sweepVerdictOf(sk, sw.peaks, sw.sets, sw.unit); !v.Empty() && p.verdicts["sweeps"].Empty() {
			p.setVerdict("sweeps", v)
		}
		head = append(head, sw.verdicts...)
		tested = tested || sw.tested
		if sw.answer != "" {
			peaks = append(peaks, sw.answer)
		}
	}
	if len(s.Subsections) == 0 {
		return nil
	}
	// The ordering against corpus size answers first where designs ran at
	// several fractions (corpussize.go).
	if cs, v := p.corpusSizeSubsection(recs); cs != nil {
		s.Subsections = append([]Section{*cs}, s.Subsections...)
		head = append(headlineIn(cs.Blocks), head...)
		if !v.Empty() {
			p.setVerdict("sweeps", v)
		}
	}
	if head = append(head, peaks...); len(head) > 0 {
		s.Blocks = append(s.Blocks, head)
	}
	if tested {
		s.Blocks = append(s.Blocks, Paragraph(sweepRule))
	}
	return s
}

// sweepRule is the rule the headline's verdicts keep (sweepVerdict).
const sweepRule = "How the headline reads a line: its best point is the one of highest ρ; another point is significantly below it " +
	"when the 95% interval of their paired bootstrap difference (the same resamples of the set's pairs for every point) excludes 0; " +
	"for a point that averages seeds the interval is widened by the seeds' variance (a t quantile on n − 1 degrees of freedom), so the difference must hold over the seeds too. " +
	"A line with no point significantly below its best is level within noise; points are never compared across lines. " +
	"A line with a point without bootstrap replicates is not tested, nor is a line on the set it was tuned on (†)."

// sweepPeak is where one line of a sweep peaks: the x at which its mean
// ρ over the sets it was not tuned on is highest.
type sweepPeak struct {
	name    string
	x, mean float64
	counted int // the sets its mean is over
}

// sweepPeaks says where each line of a sweep peaks: the x at which its
// mean ρ (zero rule, at its ranked similarity) over the sets is highest,
// among the x where it has every set; a set a line was tuned on does not
// count for it. A line with no x with every set has no peak.
func sweepPeaks(lines []line, sets []string, score func(set string) func(trial, float64) (float64, bool), tuned func(l line, set string) bool) []sweepPeak {
	var out []sweepPeak
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
		out = append(out, sweepPeak{name: l.Name, x: best, mean: bestMean, counted: counted})
	}
	return out
}

// sweepAnswer says where each line of a sweep peaks (sweepPeaks), "" when
// no line has an x with every set.
func sweepAnswer(sk schema.Setting, peaks []sweepPeak, sets []string, unit string) string {
	var clauses []string
	for _, pk := range peaks {
		c := fmt.Sprintf("%s at %s (mean ρ %s", pk.name, formatValue(pk.x), sig(pk.mean, 3))
		if pk.counted < len(sets) {
			c += fmt.Sprintf(" over the %d %s it was not tuned on", pk.counted, unit)
		}
		clauses = append(clauses, c+")")
	}
	if len(clauses) == 0 {
		return ""
	}
	return fmt.Sprintf("Where the mean Spearman ρ over the %d %s (zero rule; differences not tested) is highest against %s: %s.", len(sets), unit, sk.Key, strings.Join(clauses, "; "))
}

// sweep is what sweepOf makes of one swept setting: the subsection of its
// charts, the headline's verdicts per set (sweepVerdicts), whether any line
// was tested, and where each line peaks (sweepAnswer).
type sweep struct {
	sub      *Section
	verdicts []string
	tested   bool
	answer   string
	peaks    []sweepPeak
	sets     int    // the sets charted
	unit     string // what they are: "sets", "test parts"
}

// sweepPoint is a point of a line as the headline compares it: its x, its
// estimate (for seeds, of their mean), and the seeds' count and SD.
type sweepPoint struct {
	x   float64
	est estimate
	n   int
	sd  float64
}

// sweepOf is the charts of ρ against one setting: one per set, one line
// per group and combination of the settings that vary within it (see
// lineNamesOf); only lines with three or more x values are drawn, since a
// trial that merely has the setting is not a sweep. A point of one trial
// with bootstrap replicates carries its 95% interval (solid); a point
// averaging seeds, ± their SD (dashed); a point of one trial without
// replicates, nothing, and the text names its line.
func (p *builder) sweepOf(pr projection, sk schema.Setting) sweep {
	if pr.Len() < 3 {
		return sweep{}
	}
	names := p.lineNamesOf(pr.Records(), sk.Key)
	xOf := func(_ int, t trial) float64 { x, _ := compare.Number(t.Settings[sk.Key]); return x }
	// A chart needs a line over three values or more (a trial that merely
	// has the setting is not a sweep); once there is one, every line over
	// two values is drawn beside it, and a line at one value is named.
	var lines []line
	var alone []string
	all := pr.Lines(func(i int, _ trial) string { return orRho(names.names[i]) }, xOf)
	if !slices.ContainsFunc(all, func(l line) bool { return l.DistinctX() >= 3 }) {
		return sweep{}
	}
	for _, l := range all {
		if l.DistinctX() >= 2 {
			lines = append(lines, l)
		} else {
			alone = append(alone, fmt.Sprintf("%s (only at %s = %s)", l.Name, sweepSymbol(sk), formatValue(l.Xs[0])))
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, t := range pr.Trials {
		lo, hi = math.Min(lo, xOf(i, t)), math.Max(hi, xOf(i, t))
	}
	// Windows read best on a linear axis; ranks and fractions spanning a
	// decade or more on a log one.
	logX := sk.SweepLog && lo > 0 && hi/lo >= 10
	var charts Row
	var out sweep
	averaged, tuned, ciBars, sdBars := false, false, false, false
	var bare []string // lines with a point that has no interval
	sets, onTest := sweepSets(pr.Records())
	sym := sweepSymbol(sk)
	for j, set := range sets {
		c := LineChart{ID: fmt.Sprintf("sweep-%s-%d", sk.SweepID, j+1), Title: setDisplay(set),
			XName: sk.SweepAxis, YName: "Spearman ρ (zero rule)", LogX: logX, Width: 440, Height: 300}
		metric := records.Score(records.RuleZero, set)
		key := func(r row) string { return metric.At(p.rankSim(r.Record), ownSim(r.Record)).Key() }
		var verdicts []sweepLine
		for _, l := range lines {
			value := p.rankedScore(metric)
			pts, many := l.Points(value)
			averaged = averaged || many
			est := pr.Estimates(l, key)
			n := map[float64]int{} // the trials with a value folded into each point
			for k, t := range l.Trials {
				if _, ok := value(t, l.Xs[k]); ok {
					n[l.Xs[k]]++
				}
			}
			var cmp []sweepPoint
			for i, pt := range pts {
				if !finite(pt.X) || !finite(pt.Y) {
					continue
				}
				e, ok := est[pt.X]
				cmp = append(cmp, sweepPoint{x: pt.X, est: e, n: n[pt.X], sd: pt.Err})
				switch {
				case n[pt.X] > 1:
					pts[i].DashedErr = pt.Err > 0
					sdBars = sdBars || pt.Err > 0
				case ok && finite(e.HalfWidth()):
					pts[i].Err, ciBars = e.HalfWidth(), true
				default:
					if !slices.Contains(bare, l.Name) {
						bare = append(bare, l.Name)
					}
				}
			}
			ls := LineSeries{Name: l.Name, Points: pts, Key: l.Name}
			if slices.ContainsFunc(l.Trials, func(t trial) bool { return p.tunedOn(t.Record, set) }) {
				ls.Name, ls.Muted, tuned = ls.Name+" †", true, true
			} else {
				v, ok := sweepVerdict(sym, cmp)
				verdicts = append(verdicts, sweepLine{l.Name, v})
				out.tested = out.tested || ok
			}
			c.Series = append(c.Series, ls)
		}
		if v := sweepVerdicts(verdicts); v != "" {
			out.verdicts = append(out.verdicts, setDisplay(set)+": "+v+".")
		}
		charts = append(charts, c)
	}
	if !out.tested {
		// One sentence, not one per set, when nothing could be tested.
		out.verdicts = []string{fmt.Sprintf("Whether ρ changes with %s beyond noise is not tested: the points have no bootstrap replicates in their records.", sk.Key)}
	}
	axis := sk.SweepAxis
	out.sub = &Section{ID: "sweep-" + sk.SweepID, Title: "ρ against " + strings.ToLower(axis[:1]) + axis[1:]}
	text := sweepText(sk, names, averaged) + " Each trial at the similarity its scores are ranked at (" + p.simText() + ")."
	if onTest {
		text += " The designs were chosen on the sets' dev parts, so the whole sets are in-sample for them: the charts are of the test parts, which played no part in the choice."
	}
	if ciBars {
		text += " Solid error bars are the 95% bootstrap interval of ρ over resamples of the set's pairs (a point of one trial)."
	}
	if sdBars {
		text += " Dashed error bars are ± one standard deviation over seeds (a point averaging seed replicates), not an interval."
	}
	if len(bare) > 0 {
		text += " Points of one trial without bootstrap replicates in its record have no interval: " + strings.Join(bare, ", ") + "."
	}
	if tuned {
		text += " A line marked † was tuned on the chart's set (in-sample there): drawn dashed with hollow symbols in its own colour, not compared."
	}
	if len(alone) > 0 {
		text += " Not drawn, a single value is no sweep: " + strings.Join(alone, ", ") + "."
	}
	out.sub.Blocks = append(out.sub.Blocks, Paragraph(text), charts)
	out.peaks = sweepPeaks(lines, sets, func(set string) func(trial, float64) (float64, bool) {
		return p.rankedScore(records.Score(records.RuleZero, set))
	}, func(l line, set string) bool {
		return slices.ContainsFunc(l.Trials, func(t trial) bool { return p.tunedOn(t.Record, set) })
	})
	out.unit = "sets"
	if onTest {
		out.unit = "test parts"
	}
	out.answer, out.sets = sweepAnswer(sk, out.peaks, sets, out.unit), len(sets)
	return out
}

// sweepSets are the sets a sweep charts: the whole sets, or, when some
// trial's design was chosen on dev parts (tune.axes) and the records hold
// test parts, the test parts (onTest): the whole sets are in-sample for a
// tuned design.
func sweepSets(recs []records.Record) (sets []string, onTest bool) {
	all := wordSets(recs)
	tuned := slices.ContainsFunc(recs, func(rec records.Record) bool { return len(formatList(rec.Settings[records.KeyTuneAxes])) > 0 })
	if tuned {
		for _, s := range all {
			if _, part := records.SplitSetPart(s); part == records.PartTest {
				sets = append(sets, s)
			}
		}
		if len(sets) > 0 {
			return sets, true
		}
	}
	return wholeSets(all), false
}

// sweepSymbol names the swept setting in a verdict: its short label's
// symbol ("W" of "W={}"), else its key.
func sweepSymbol(sk schema.Setting) string {
	if sym, ok := strings.CutSuffix(sk.Short, "={}"); ok && sym != "" && !strings.Contains(sym, "{") {
		return sym
	}
	return sk.Key
}

// sweepLine is one line's verdict on one set.
type sweepLine struct{ name, verdict string }

// sweepVerdicts joins a set's verdicts, lines with the same verdict
// together in the order they first appear: "cut, flat level within noise
// from W = 1 to 30; skip rises significantly from W = 1 to 10, then level
// to 30".
func sweepVerdicts(ls []sweepLine) string {
	var order []string
	names := map[string][]string{}
	for _, l := range ls {
		if _, ok := names[l.verdict]; !ok {
			order = append(order, l.verdict)
		}
		names[l.verdict] = append(names[l.verdict], l.name)
	}
	clauses := make([]string, len(order))
	for i, v := range order {
		clauses[i] = strings.Join(names[v], ", ") + " " + v
	}
	return strings.Join(clauses, "; ")
}

// sweepVerdict says how a line's ρ changes across the swept values, by
// sweepRule: the points significantly below the best (sweepBelow) before
// and after the level ones. ok is false when the line cannot be tested
// (a point without replicates, or fewer than two points).
func sweepVerdict(sym string, pts []sweepPoint) (v string, ok bool) {
	if len(pts) < 2 {
		return "not tested (fewer than two points)", false
	}
	for _, pt := range pts {
		if !pt.est.Tested() {
			return "not tested (points without bootstrap replicates)", false
		}
	}
	pts = slices.Clone(pts)
	slices.SortFunc(pts, func(a, b sweepPoint) int { return cmp.Compare(a.x, b.x) })
	best := 0
	for i, pt := range pts {
		if pt.est.Value > pts[best].est.Value {
			best = i
		}
	}
	at := func(x float64) string { return sym + " = " + formatValue(x) }
	below := make([]bool, len(pts))
	var low []string
	first, last := -1, -1 // the level points' first and last index
	for i, pt := range pts {
		if below[i] = sweepBelow(pts[best], pt); below[i] {
			low = append(low, formatValue(pt.x))
			continue
		}
		if first < 0 {
			first = i
		}
		last = i
	}
	n := len(pts) - 1
	if len(low) == 0 {
		return fmt.Sprintf("level within noise from %s to %s", at(pts[0].x), formatValue(pts[n].x)), true
	}
	if slices.Contains(below[first:last+1], true) {
		return fmt.Sprintf("highest at %s, significantly below it at %s = %s", at(pts[best].x), sym, strings.Join(low, ", ")), true
	}
	var parts []string
	if first > 0 {
		parts = append(parts, fmt.Sprintf("rises significantly from %s to %s", at(pts[0].x), formatValue(pts[first].x)))
	}
	switch {
	case first == last:
	case first > 0:
		parts = append(parts, "then level within noise to "+formatValue(pts[last].x))
	default:
		parts = append(parts, fmt.Sprintf("level within noise from %s to %s", at(pts[first].x), formatValue(pts[last].x)))
	}
	if last < n {
		if first == last && first == 0 {
			parts = append(parts, fmt.Sprintf("falls significantly from %s to %s", at(pts[last].x), formatValue(pts[n].x)))
		} else {
			parts = append(parts, "then falls significantly to "+formatValue(pts[n].x))
		}
	}
	return strings.Join(parts, ", "), true
}

// sweepBelow says a point is significantly below the best by sweepRule:
// the paired bootstrap (compare.Compare, 3 decimals as printed), whose
// interval for a point over seeds also holds the seeds' variance
// (compare.SeedEstimate), so one rule holds over the pairs and the seeds.
func sweepBelow(best, pt sweepPoint) bool {
	return compare.Compare(best.est, pt.est, 3) == compare.Above
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
	if len(names.tuned) > 0 {
		text += " A tuned method's line joins the design chosen on the dev parts at each " + sweepSymbol(sk) + " (" + strings.Join(names.tuned, ", ") + " may change from point to point)."
	}
	if averaged {
		text += " Trials with the same settings at the same x (replicates: seeds) are averaged."
	}
	return text
}
