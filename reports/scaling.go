package reports

import (
	"fmt"
	"math"
	"slices"
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
	names, rest, options := p.scalingSeries(pr, ax)
	lines := pr.Lines(func(i int, _ trial) string { return names[i] }, func(i int, _ trial) float64 { return ax.xs[i] })
	colorLines(lines)
	disturbed := disturbedRecords(pr.Records())
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
	if notes := optionNotes(lines, options); len(notes) > 0 {
		intro += " Each line's backend options that differ from their defaults: " + strings.Join(notes, "; ") + "."
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
	if len(disturbed) > 0 {
		var ds []string
		for i, t := range pr.Trials {
			if why, ok := disturbed[t.ID]; ok {
				ds = append(ds, fmt.Sprintf("%s at %s (trial #%d): %s", names[i], ax.text(ax.xs[i]), t.Num, why))
			}
		}
		s.Blocks = append(s.Blocks, Paragraph("Disturbed records: their times are drawn, but compared with no other trial's (their process waited, or a stage that does the same work in every trial took far longer): "+
			strings.Join(ds, "; ")+". Recompute them alone (-fresh, on a quiet machine) before reading their times."))
	}
	var answer []string
	pairs := p.scalingPairs(lines, ax, rest, disturbed)
	if len(pairs) > 0 {
		s.Blocks = append(s.Blocks, pairBlocks(pairs, ax)...)
		answer = pairAnswer(pairs, ax)
		p.setVerdict(s.ID, scalingVerdict(pairs, lines, ax))
	}
	if t, rows := growthTable(lines, ax.symbol, ax.text); t != nil {
		how := "An exponent near 2 against V is what a dense V×V matrix costs in memory; near 1 against nnz is what only multiplying by the sparse table costs."
		if ax.rank {
			how = "Against k: a dense SVD costs the same at every k (it computes every triplet); krylov's products grow about as k and its orthogonalisation " +
				"and projected problem as k² (methods/svd, \"Cost at the paper's dimensions\"); the basis and the factors take memory in proportion to k."
		}
		s.Blocks = append(s.Blocks, Paragraph("How time and memory grow, told by the local slopes of the log–log curve between consecutive sizes "+
			"(whole-process measurements, so counting the table is included; a series needs three sizes): a slope that stays put is a power law, "+
			"one that changes is not, and a power law y = c·x^b fitted by least squares is shown with its R² and points only where the slopes agree with it; "+
			"a quantity that changes by less than 25% over the range is flat, and no law is fitted to it. "+how), *t)
		if len(answer) == 0 {
			answer = growthAnswer(rows, ax.symbol, ax.text)
		}
	}
	if len(answer) == 0 {
		answer = largestAnswer(lines, ax, disturbed)
	} else {
		answer = append(answer, unfinishedAnswer(lines, ax)...)
	}
	if len(answer) > 0 {
		s.Blocks = append([]Block{Headline{strings.Join(answer, "; ") + "."}}, s.Blocks...)
	}
	return s
}

// unfinishedAnswer names the lines that finished at no size, and why
// ("over budget" when every trial ran over its budget).
func unfinishedAnswer(lines []line, ax scalingAxis) []string {
	var out []string
	for _, l := range lines {
		if m, ok := unfinishedMarks(l); ok && len(m.X) == len(l.Trials) {
			what := "finished at " + ax.none()
			if strings.HasSuffix(m.Name, "over budget") {
				what += " (over budget)"
			}
			out = append(out, l.Name+" "+what)
		}
	}
	return out
}

// largestAnswer says, per line, the largest size it finished with its
// wall time and peak memory there (means over the trials at that size), or
// that it finished at none: the answer when no two lines compare and none
// has sizes enough for a growth law.
func largestAnswer(lines []line, ax scalingAxis, disturbed map[string]string) []string {
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
		var upset []string
		for k, t := range l.Trials {
			if t.Status == "ok" && l.Xs[k] == best {
				if why, ok := disturbed[t.ID]; ok {
					upset = append(upset, why)
				}
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
		if len(upset) > 0 {
			c += " (a disturbed record: " + strings.Join(upset, "; ") + ")"
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

// none and any name no size and any size of the axis: "no k", "any k".
func (ax scalingAxis) none() string {
	if ax.rank {
		return "no k"
	}
	return "no size"
}

func (ax scalingAxis) any() string {
	if ax.rank {
		return "any k"
	}
	return "any size"
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
// backend, the backend's options (schema: SeriesOption, e.g.
// svd.projected) where they vary among one backend's trials, then any
// other setting that varies among the trials but their size, replicate and budget
// (rest, which keeps lines apart in the comparisons). A backend's option
// that is the same in all its trials names no line: optionNotes says it
// once.
func (p *builder) scalingSeries(pr projection, ax scalingAxis) (names, rest, options []string) {
	seriesKey, _ := scalingKeys()
	_, varying := settingsSplit(pr.Records())
	hasBackend := false
	for _, k := range varying {
		switch {
		case k == seriesKey:
			hasBackend = true
		case ax.rank && k == rankKey:
		case isSeriesOption(k):
			options = append(options, k)
		case isLimit(k):
			// A trial's budget bounds what it may spend, not what it
			// computes: the lapack backend given more memory is the
			// same line as at the sizes that needed less.
		case !isSizeKey(k) && !labelKeys[k] && k != schema.KeyReplicate:
			rest = append(rest, k)
		}
	}
	sortLabelKeys(rest)
	rest = undetermined(pr, rest)
	var keys []string
	if hasBackend {
		keys = append(keys, seriesKey)
	}
	for _, k := range options {
		if variesWithinBackend(pr, k) {
			keys = append(keys, k)
		}
	}
	keys = append(keys, rest...)
	names = make([]string, pr.Len())
	for i, t := range pr.Trials {
		if names[i] = p.labelOf(t.Record, keys); names[i] == "" {
			names[i] = formatValue(t.Settings[seriesKey])
		}
	}
	return names, rest, options
}

// undetermined keeps the keys whose values do not follow from the other
// kept keys' (a budget set per dimension d says nothing d does not): the
// same lines and groups, shorter names. The last keys of label order are
// dropped first. The backend never determines a key: a setting that only
// goes with the backend still keeps lines apart.
func undetermined(pr projection, keys []string) []string {
	kept := slices.Clone(keys)
	for i := len(kept) - 1; i >= 0; i-- {
		k := kept[i]
		others := slices.Delete(slices.Clone(kept), i, i+1)
		seen := map[string]string{}
		follows := true
		for _, t := range pr.Trials {
			var b strings.Builder
			for _, o := range others {
				b.WriteString(formatValue(t.Settings[o]) + "\x00")
			}
			v := formatValue(t.Settings[k])
			if w, ok := seen[b.String()]; ok && w != v {
				follows = false
				break
			}
			seen[b.String()] = v
		}
		if follows {
			kept = slices.Delete(kept, i, i+1)
		}
	}
	return kept
}

// isSeriesOption says a setting is one of the series setting's options
// (schema.Setting.SeriesOption).
func isSeriesOption(k string) bool {
	s, ok := schema.LookupSetting(k)
	return ok && s.SeriesOption
}

// isLimit says a setting bounds what a trial may spend (schema.Setting.Limit).
func isLimit(k string) bool {
	s, ok := schema.LookupSetting(k)
	return ok && s.Limit
}

// variesWithinBackend says some two trials of one backend differ in k.
func variesWithinBackend(pr projection, k string) bool {
	seriesKey, _ := scalingKeys()
	seen := map[string]string{}
	for _, t := range pr.Trials {
		b, v := formatValue(t.Settings[seriesKey]), formatValue(t.Settings[k])
		if w, ok := seen[b]; ok && w != v {
			return true
		}
		seen[b] = v
	}
	return false
}

// optionNotes says, per line, the options its trials share that differ
// from their defaults ("dssvd: svd.projected = lapack"): what a line's
// name leaves out.
func optionNotes(lines []line, options []string) []string {
	var out []string
	for _, l := range lines {
		var parts []string
		for _, k := range options {
			set, _ := schema.LookupSetting(k)
			v := formatValue(l.Trials[0].Settings[k])
			same := true
			for _, t := range l.Trials[1:] {
				same = same && formatValue(t.Settings[k]) == v
			}
			if same && v != formatValue(set.Default) && !strings.Contains(l.Name, v) {
				parts = append(parts, k+" = "+v)
			}
		}
		if len(parts) > 0 {
			out = append(out, l.Name+": "+strings.Join(parts, ", "))
		}
	}
	return out
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
