package reports

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
	"kcalab/reports/page"
	"kcalab/schema"
)

// Measurement metrics of trials run in a child process.
const (
	metricWall  = records.MetricWall
	metricRSS   = records.MetricRSS
	metricVocab = records.MetricVocab
)

// isSizeKey reports whether a setting sets the size of a scaling trial: it
// is the x axis, not a series.
func isSizeKey(k string) bool {
	s, ok := schema.LookupSetting(k)
	return ok && s.Size
}

// scalingKeys are the setting that names the scaling figures' series (the
// SVD backend) and the one that is the x axis when the vocabulary size is
// unknown (the corpus fraction), from the settings' metadata.
func scalingKeys() (series, axis string) {
	for _, s := range schema.TrialSettings() {
		if s.Series && series == "" {
			series = s.Key
		}
		if s.SizeAxis && axis == "" {
			axis = s.Key
		}
	}
	return series, axis
}

func isMeasured(rec records.Record) bool {
	_, w := rec.Metrics[metricWall]
	_, m := rec.Metrics[metricRSS]
	return w || m
}

// scalingTrial keeps the trials of the scaling figures: the measured ones,
// and those that did not finish where a measured one would have run.
func scalingTrial(rec records.Record) bool {
	return isMeasured(rec) || rec.Status == "over_budget" || (rec.Status != "ok" && measuredInChild(rec))
}

// scalingSection draws Figures 2 and 3 of the paper (wall time and peak
// memory against the vocabulary size, one line per SVD backend), lists the
// trials that did not finish, and compares the backends' ratios with the
// paper's claim. It returns nil unless measured trials span several sizes.
func (p *builder) scalingSection(recs []records.Record) *Section {
	pr := p.project(recs, scalingTrial)
	ax := scalingAxisOf(pr)
	if ax.distinct() < 2 {
		return nil
	}
	names, rest := p.scalingSeries(pr, ax)
	lines := pr.Lines(func(i int, _ trial) string { return names[i] }, func(i int, _ trial) float64 { return ax.xs[i] })
	colorLines(lines)
	timeTitle, memTitle := "Figure 2: wall time", "Figure 3: peak memory"
	title := "Time and memory against size"
	intro := "Whole-process wall time and peak resident memory of each trial (run in a child process; medians when repeated), " +
		"against the size of the training data, as in the paper's Figures 2 and 3 (log–log axes where the values span a decade or more, linear otherwise). " +
		"A faint dashed vertical line marks a size at which a trial did not finish."
	if ax.rank {
		timeTitle, memTitle, title = "Wall time against k", "Peak memory against k", "Time and memory against the rank k"
		intro = "Whole-process wall time and peak resident memory of each trial (run in a child process; medians when repeated), " +
			"decomposing one table at each rank k (log–log axes where the values span a decade or more, linear otherwise). " +
			"A faint dashed vertical line marks a k at which a trial did not finish."
	}
	timeFig, timeMany := scalingChart(lines, ax, "scaling-time", timeTitle, metricWall, "Wall time (s)")
	memFig, memMany := scalingChart(lines, ax, "scaling-memory", memTitle, metricRSS, "Peak resident memory (MiB)")
	s := &Section{ID: "scaling", Title: title}

	if timeMany || memMany {
		intro += " Where a trial was replicated (seeds), a point is the replicates' mean and its error bar ± one standard deviation."
	}
	s.Blocks = append(s.Blocks, Paragraph(intro), Row{timeFig, memFig})
	if pr.Where(func(rec records.Record) bool { _, ok := rec.Metrics[records.MetricSVDResidual]; return ok }).Len() > 0 {
		acc, _ := scalingChart(lines, ax, "scaling-accuracy", "Accuracy: largest residual", records.MetricSVDResidual, "max ‖A v − σ u‖ / σ₁")
		s.Blocks = append(s.Blocks, Paragraph("How exact each decomposition is: the largest residual of its k triplets, "+
			"sqrt(‖A·v − σ·u‖² + ‖Aᵀ·u − σ·v‖²) over σ₁, measured after the decomposition for every backend. "+
			"krylov stops at svd.tol; the sketches are as far from converged as their power iterations leave them."), Row{acc})
	}
	nf := Table{ID: "scaling-unfinished", Caption: "Trials that did not finish", Header: []string{"Series", "Size", "Status", "Reason"}}
	for i, t := range pr.Trials {
		if t.Status != "ok" {
			nf.Rows = append(nf.Rows, []string{names[i], ax.text(ax.xs[i]), t.Status, orDash(shownMessage(t.Error))})
		}
	}
	if len(nf.Rows) > 0 {
		s.Blocks = append(s.Blocks, nf)
	}
	var answer []string
	if t := p.ratioTable(pr, ax, rest); t != nil {
		s.Blocks = append(s.Blocks, Paragraph("The paper's claim (section “Delayed Sparse Randomized SVD”): “"+PaperSVDClaim+"”"), *t)
		answer = ratioAnswer(*t)
	}
	if t := growthTable(lines, ax.symbol); t != nil {
		how := "An exponent near 2 against V is what a dense V×V matrix costs in memory; near 1 against nnz is what only multiplying by the sparse table costs."
		if ax.rank {
			how = "Against k: a dense SVD costs the same at every k (it computes every triplet); krylov's products grow about as k and its orthogonalisation " +
				"and projected problem as k² (methods/svd, \"Cost at the paper's dimensions\"); the basis and the factors take memory in proportion to k."
		}
		s.Blocks = append(s.Blocks, Paragraph("How time and memory grow: a power law y = c·x^b fitted per series to the finished trials "+
			"(whole-process measurements, so counting the table is included; a series needs three sizes). "+how), *t)
		if len(answer) == 0 {
			answer = growthAnswer(*t, ax.symbol)
		}
	}
	if len(answer) == 0 {
		answer = largestAnswer(lines, ax)
	}
	if len(answer) > 0 {
		s.Blocks = append([]Block{Headline{strings.Join(answer, "; ") + "."}}, s.Blocks...)
	}
	return s
}

// largestAnswer says, per line, the largest size it finished with its
// wall time and peak memory there (means over the trials at that size), or
// that it finished at none: the answer when no two lines compare and none
// has sizes enough for a growth law.
func largestAnswer(lines []line, ax scalingAxis) []string {
	var out []string
	for _, l := range lines {
		best := math.Inf(-1)
		for k, t := range l.Trials {
			if t.Status == "ok" && finite(l.Xs[k]) {
				best = math.Max(best, l.Xs[k])
			}
		}
		if math.IsInf(best, -1) {
			out = append(out, l.Name+" finished at no size")
			continue
		}
		var wall, rss []float64
		for k, t := range l.Trials {
			if t.Status == "ok" && l.Xs[k] == best {
				if v, ok := t.Metrics[metricWall]; ok {
					wall = append(wall, v)
				}
				if v, ok := t.Metrics[metricRSS]; ok {
					rss = append(rss, v)
				}
			}
		}
		c := l.Name + " at " + ax.text(best) + ", its largest"
		if len(wall) > 0 {
			c += ": " + seconds(mean(wall))
		}
		if len(rss) > 0 {
			c += ", peak memory " + megabytes(mean(rss))
		}
		out = append(out, c)
	}
	return out
}

// mean is the mean of xs (NaN for none).
func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// ratioAnswer says, from the ratio table's rows, how each backend compared
// at the largest size where both finished, next to the paper's claim.
func ratioAnswer(t Table) []string {
	var out []string
	for _, r := range t.Rows {
		if !strings.Contains(r[2], "×") && r[2] != "as fast" {
			continue // no size where both finished, or times that do not compare
		}
		c := fmt.Sprintf("%s at %s: %s", r[0], r[1], r[2])
		if r[3] != "—" {
			c += ", memory " + r[3]
		}
		if !strings.HasPrefix(r[4], "—") {
			c += " (the paper: " + r[4] + ")"
		}
		out = append(out, c)
	}
	return out
}

// growthAnswer says, from the growth table's numbers, how each series'
// wall time and memory grow with the size.
func growthAnswer(t Table, symbol string) []string {
	what := map[string]string{metricWall: "wall time", metricRSS: "peak memory"}
	var out []string
	for _, r := range t.CSV[1:] {
		b, err := strconv.ParseFloat(r[2], 64)
		if err != nil {
			continue
		}
		out = append(out, fmt.Sprintf("%s's %s grows as %s^%s", r[0], what[r[1]], symbol, sig(b, 3)))
	}
	return out
}

// scalingAxis is the x axis of the scaling figures and each trial's place
// on it.
type scalingAxis struct {
	xs     []float64 // per trial of the projection; NaN: unknown
	allV   bool      // xs are vocabulary sizes, else the corpus fraction
	rank   bool      // xs are the decompositions' ranks k, at one size (rankAxisOf)
	name   string    // the axis title
	symbol string    // the size in a fitted law: "V", "k" or the fraction's key
}

// rankKey is the setting of a decomposition's rank k.
const rankKey = "svd.rank"

// rankAxisOf places the trials by their rank k (svd.rank): the axis of
// trials that all decompose one table (one size) at several k.
func rankAxisOf(pr projection) scalingAxis {
	ax := scalingAxis{xs: make([]float64, pr.Len()), rank: true, name: "Rank k (svd.rank)", symbol: "k"}
	for i, t := range pr.Trials {
		ax.xs[i] = math.NaN()
		if k, ok := compare.Number(t.Settings[rankKey]); ok && k > 0 {
			ax.xs[i] = k
		}
	}
	return ax
}

// scalingAxisOf sizes the trials: by V when every finished trial has it (a
// trial that did not finish takes V from a finished one on the same corpus
// fraction), else by the corpus fraction; and when the trials are all of
// one size but decompose at several ranks, by the rank k (rankAxisOf).
func scalingAxisOf(pr projection) scalingAxis {
	ax := sizeAxisOf(pr)
	if ax.distinct() < 2 {
		if r := rankAxisOf(pr); r.distinct() >= 2 {
			return r
		}
	}
	return ax
}

// sizeAxisOf sizes the trials by V or by the corpus fraction
// (scalingAxisOf).
func sizeAxisOf(pr projection) scalingAxis {
	_, axisKey := scalingKeys()
	vocabOf := map[string]float64{}
	ax := scalingAxis{xs: make([]float64, pr.Len()), allV: true, name: "Vocabulary size V", symbol: "V"}
	for _, t := range pr.Where(compare.HasStatus("ok")).Trials {
		v, ok := t.Metrics[metricVocab]
		if !ok {
			ax.allV = false
			continue
		}
		if f, ok := t.Settings[axisKey]; ok {
			vocabOf[formatValue(f)] = v
		}
	}
	for i, t := range pr.Trials {
		ax.xs[i] = math.NaN()
		if ax.allV {
			if v, ok := t.Metrics[metricVocab]; ok {
				ax.xs[i] = v
			} else if f, ok := t.Settings[axisKey]; ok {
				if v, ok := vocabOf[formatValue(f)]; ok {
					ax.xs[i] = v
				}
			}
		} else if f, ok := compare.Number(t.Settings[axisKey]); ok {
			ax.xs[i] = f
		}
	}
	if !ax.allV {
		ax.name, ax.symbol = axisKey, axisKey
		if s, ok := schema.LookupSetting(axisKey); ok && s.SweepAxis != "" {
			ax.name = s.SweepAxis
		}
	}
	return ax
}

// distinct counts the known sizes.
func (ax scalingAxis) distinct() int {
	seen := map[float64]bool{}
	for _, x := range ax.xs {
		if finite(x) {
			seen[x] = true
		}
	}
	return len(seen)
}

// text prints a size for a table: "V = 71,290", "f = 0.25" or "unknown".
// csvName names the size column of a table for a program.
func (ax scalingAxis) csvName() string {
	switch {
	case ax.rank:
		return "k"
	case ax.allV:
		return "V"
	}
	return "corpus_fraction"
}

func (ax scalingAxis) text(x float64) string {
	switch {
	case !finite(x):
		return "unknown"
	case ax.rank:
		return "k = " + thousands(x)
	case ax.allV:
		return "V = " + thousands(x)
	}
	return "f = " + formatValue(x)
}

// scalingSeries names each trial's line of the scaling figures: its
// backend, then any other setting that varies among the trials but their
// size and replicate (rest, which groups the ratio table).
func (p *builder) scalingSeries(pr projection, ax scalingAxis) (names, rest []string) {
	seriesKey, _ := scalingKeys()
	_, varying := settingsSplit(pr.Records())
	hasBackend := false
	for _, k := range varying {
		switch {
		case k == seriesKey:
			hasBackend = true
		case ax.rank && k == rankKey:
		case !isSizeKey(k) && !labelKeys[k] && k != schema.KeyReplicate:
			rest = append(rest, k)
		}
	}
	sortLabelKeys(rest)
	keys := rest
	if hasBackend {
		keys = append([]string{seriesKey}, rest...)
	}
	names = make([]string, pr.Len())
	for i, t := range pr.Trials {
		if names[i] = p.labelOf(t.Record, keys); names[i] == "" {
			names[i] = formatValue(t.Settings[seriesKey])
		}
	}
	return names, rest
}

// scalingChart draws one measurement of the finished trials against size,
// a point per line and size (the replicates' mean ± SD; many reports
// whether any point folds several), and marks the sizes at which a line's
// trials did not finish.
func scalingChart(lines []line, ax scalingAxis, id, title, metric, yName string) (c LineChart, many bool) {
	c = LineChart{ID: id, Title: title, XName: ax.name, YName: yName, LogX: true, LogY: true, Width: 640, Height: 400}
	finished := func(t trial, _ float64) (float64, bool) {
		v, ok := t.Metrics[metric]
		return v, ok && t.Status == "ok"
	}
	for _, l := range lines {
		pts, m := l.Points(finished)
		many = many || m
		c.Series = append(c.Series, LineSeries{Name: l.Name, Points: pts, Color: l.Color})
	}
	for _, l := range lines {
		if m, ok := unfinishedMarks(l); ok {
			c.Marks = append(c.Marks, m)
		}
	}
	return c, many
}

// colorLines gives each line the colour of its series setting's value
// (settingColor: one backend, one colour on every page) when no two lines
// share a value; otherwise the lines take the palette in order.
func colorLines(lines []line) {
	seriesKey, _ := scalingKeys()
	seen := map[string]bool{}
	for _, l := range lines {
		v := formatValue(l.Trials[0].Settings[seriesKey])
		if seen[v] {
			return
		}
		seen[v] = true
	}
	for i := range lines {
		lines[i].Color = settingColor(seriesKey, formatValue(lines[i].Trials[0].Settings[seriesKey]))
	}
}

// settingColor is the colour of one value of an enumerated setting: the
// palette colour at the value's place among the setting's allowed values,
// so that it is the same on every page; "" for a value not among them.
func settingColor(key, value string) string {
	s, ok := schema.LookupSetting(key)
	if !ok {
		return ""
	}
	if i := indexOf(s.Allowed(), value); i >= 0 {
		return page.Palette[i%len(page.Palette)]
	}
	return ""
}

// unfinishedMarks are the sizes at which a line's trials did not finish,
// "over budget" when every one of them ran over its budget.
func unfinishedMarks(l line) (VLines, bool) {
	var xs []float64
	over := true
	for k, t := range l.Trials {
		if t.Status != "ok" {
			xs = append(xs, l.Xs[k])
			over = over && t.Status == "over_budget"
		}
	}
	if len(xs) == 0 {
		return VLines{}, false
	}
	what := "not finished"
	if over {
		what = "over budget"
	}
	return VLines{Name: l.Name + ": " + what, X: xs, Like: l.Name}, true
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// thousands prints a count with thousands separators ("71,290").
func thousands(v float64) string {
	s := strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// timesText prints a ratio of times as a reader says it: "2.03× slower"
// for 2.03, "83.2× faster" for 1/83.2, "1200× faster", "as fast" within
// 0.5%.
func timesText(r float64) string {
	if !finite(r) || r <= 0 {
		return "—"
	}
	word, f := "slower", r
	if r < 1 {
		word, f = "faster", 1/r
	}
	if f < 1.005 {
		return "as fast"
	}
	if f >= 100 {
		return strconv.FormatFloat(math.Round(f), 'f', 0, 64) + "× " + word
	}
	return sig(f, 3) + "× " + word
}

// factorRange prints the range of a time ratio over repeats as factors of
// the same sense as timesText's: "117–134×" when both are faster or both
// slower, else the two ratios in timesText's words.
func factorRange(lo, hi float64) string {
	if lo > 0 && hi > 0 && (hi < 1) == (lo < 1) {
		a, b := lo, hi
		if hi < 1 {
			a, b = 1/hi, 1/lo
		}
		return sig(a, 3) + "–" + sig(b, 3) + "×"
	}
	return timesText(lo) + " to " + timesText(hi)
}

// ratioTable compares DSSVD with the dense and randomized backends at the
// largest size where both finished, next to the paper's claim, per group of
// trials that share the rest settings; nil when no trial used DSSVD.
func (p *builder) ratioTable(pr projection, ax scalingAxis, rest []string) *Table {
	seriesKey, _ := scalingKeys()
	backend := func(t trial) string { return formatValue(t.Settings[seriesKey]) }
	group := func(t trial) string { return p.labelOf(t.Record, rest) }
	has := map[string]bool{}
	for _, t := range pr.Trials {
		has[backend(t)] = true
	}
	if !has["dssvd"] {
		return nil
	}
	lines := map[string]line{}
	for _, l := range pr.Lines(func(_ int, t trial) string { return group(t) + "\x00" + backend(t) }, func(i int, _ trial) float64 { return ax.xs[i] }) {
		lines[l.Name] = l
	}
	caption, comps := ratioComparisons(has["krylov"], has["lapack"])
	t := &Table{ID: "scaling-ratios", Caption: caption,
		Header:  []string{"Comparison", "Size", "Time ratio", "Memory ratio", "Paper"},
		Numeric: []bool{false, true, true, true, false},
		CSV: [][]string{{"comparison", "backend", "other", ax.csvName(), "time_ratio", "time_ratio_min", "time_ratio_max", "memory_ratio",
			"paper_time_ratio", "paper_memory_ratio", "note"}}}
	for _, g := range pr.GroupBy(func(_ int, t trial) string { return group(t) }) {
		for _, c := range comps {
			name := c.backend + " / " + c.other
			if g.Key != "" {
				name = g.Key + ": " + name
			}
			d, o := lines[g.Key+"\x00"+c.backend], lines[g.Key+"\x00"+c.other]
			rows, csv := ratioRow(name, c, finishedMeans(d), finishedMeans(o), ax)
			t.Rows, t.CSV = append(t.Rows, rows...), append(t.CSV, csv...)
		}
	}
	return t
}

// ratioPoint is the means, at one size, of a backend's finished trials,
// and those trials.
type ratioPoint struct {
	wall, rss float64
	trials    []records.Record
}

// finishedMeans is a line's finished trials' mean wall time and memory per
// known size (a trial missing either makes that mean NaN), with the
// trials.
func finishedMeans(l line) map[float64]ratioPoint {
	finished := func(t trial, x float64) bool { return t.Status == "ok" && finite(x) }
	at := func(m string) []XY {
		pts, _ := l.Points(func(t trial, x float64) (float64, bool) { return compare.Metric(t.Record, m), finished(t, x) })
		return pts
	}
	out := map[float64]ratioPoint{}
	rss := at(metricRSS)
	for k, w := range at(metricWall) {
		out[w.X] = ratioPoint{wall: w.Y, rss: rss[k].Y}
	}
	for k, t := range l.Trials {
		if p, ok := out[l.Xs[k]]; ok && finished(t, l.Xs[k]) {
			p.trials = append(p.trials, t.Record)
			out[l.Xs[k]] = p
		}
	}
	return out
}

// ratioRow compares backend d with o at the largest size where both
// finished and their times compare (timesCompare: one run, alike); when
// they finished together only at sizes whose times do not compare, the row
// says why at the largest. No row when neither finished anywhere. Over
// repeated measurements (measure.repeat > 1) the time ratio's range
// follows it: the smallest and largest ratio the repeats allow.
func ratioRow(name string, c ratioComparison, d, o map[float64]ratioPoint, ax scalingAxis) (rows, csv [][]string) {
	paper, other := c.text, c.other
	line := func(size float64, t, tlo, thi, mem float64, note string) []string {
		return []string{name, c.backend, c.other, csvNumber(size), csvNumber(t), csvNumber(tlo), csvNumber(thi), csvNumber(mem),
			csvNumber(c.paperTime), csvNumber(c.paperMem), note}
	}
	nan := math.NaN()
	best, anyBoth, why := math.Inf(-1), math.Inf(-1), ""
	for x, p := range d {
		q, ok := o[x]
		if !ok || !finite(p.wall) || !finite(q.wall) {
			continue
		}
		if ok, w := timesCompare(p.trials, q.trials); ok {
			best = math.Max(best, x)
		} else if x > anyBoth {
			anyBoth, why = x, w
		}
	}
	if math.IsInf(best, -1) {
		switch {
		case !math.IsInf(anyBoth, -1):
			return [][]string{{name, ax.text(anyBoth), why, "—", paper}}, [][]string{line(anyBoth, nan, nan, nan, nan, why)}
		case len(o) > 0 || len(d) > 0:
			const none = "no size where both finished"
			return [][]string{{name, none, "—", "—", paper}}, [][]string{line(nan, nan, nan, nan, nan, none)}
		}
		return nil, nil
	}
	p, q := d[best], o[best]
	timeText := timesText(p.wall / q.wall)
	lo, hi, ok := ratioRange(p.trials, q.trials)
	if ok {
		timeText += " (" + factorRange(lo, hi) + " over repeats)"
	} else {
		lo, hi = nan, nan
	}
	memText, mem := "—", nan
	if finite(p.rss) && finite(q.rss) && q.rss > 0 {
		mem = p.rss / q.rss
		memText = percent(mem, 1) + " of " + other + "'s"
	}
	return [][]string{{name, ax.text(best), timeText, memText, paper}}, [][]string{line(best, p.wall/q.wall, lo, hi, mem, "")}
}

// ratioRange is the range of a time ratio over repeated measurements: the
// smallest numerator minimum over the largest denominator maximum, to the
// reverse; false unless every trial has a range (measure.repeat > 1).
func ratioRange(num, den []records.Record) (lo, hi float64, ok bool) {
	nlo, nhi, ok1 := wallSpan(num)
	dlo, dhi, ok2 := wallSpan(den)
	if !ok1 || !ok2 || dlo <= 0 || dhi <= 0 {
		return 0, 0, false
	}
	return nlo / dhi, nhi / dlo, true
}

// wallSpan is the smallest minimum and largest maximum wall time of
// trials with repeats; false when one has none.
func wallSpan(recs []records.Record) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, rec := range recs {
		l, h, ok := wallRange(rec)
		if !ok {
			return 0, 0, false
		}
		lo, hi = math.Min(lo, l), math.Max(hi, h)
	}
	return lo, hi, len(recs) > 0
}

// ratioComparison is one row kind of the ratio table: backend against
// other, with the paper's claim for it.
// ratioComparison is one row of the ratio table: the paper's claim in words
// and, for a program, its ratios (NaN when the paper makes none).
type ratioComparison struct {
	backend, other, text string
	paperTime, paperMem  float64
}

// ratioComparisons are the comparisons the ratio table makes and its
// caption: DSSVD against the paper's backends (against lapack, the
// paper's dense SVD, when present), and krylov against all when present.
func ratioComparisons(krylov, lapack bool) (string, []ratioComparison) {
	caption := "DSSVD against the other backends, at the largest size where both finished"
	var comps []ratioComparison
	for _, pr := range paperRatios {
		if pr.other == "dense" && lapack {
			// The paper's dense SVD is numPy's, LAPACK: its claim is
			// against the lapack backend; gonum's pure-Go SVD is slower.
			comps = append(comps, ratioComparison{"dssvd", "lapack", pr.text, pr.time, pr.memory},
				ratioComparison{"dssvd", "dense", "— (pure-Go dense; the paper's numPy SVD is LAPACK)", math.NaN(), math.NaN()})
			continue
		}
		comps = append(comps, ratioComparison{"dssvd", pr.other, pr.text, pr.time, pr.memory})
	}
	if krylov {
		caption = "DSSVD and krylov against the other backends, at the largest size where both finished (means over replicates)"
		for _, o := range []string{"dense", "randomized", "dssvd"} {
			comps = append(comps, ratioComparison{"krylov", o, "— (not in the paper)", math.NaN(), math.NaN()})
		}
	}
	if lapack {
		// gonum's pure-Go SVD is several times slower than LAPACK's: the
		// ratios against the lapack backend are the fair ones.
		caption += "; lapack is the dense SVD on LAPACK (OpenBLAS), the fastest dense solver and the paper's (numPy)"
		if krylov {
			comps = append(comps, ratioComparison{"krylov", "lapack", "— (not in the paper)", math.NaN(), math.NaN()})
		}
	}
	return caption, comps
}
