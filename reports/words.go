package reports

import (
	"fmt"
	"kcalab/records"
	"kcalab/schema"
	"math"
	"strconv"
	"strings"

	"kcalab/datasets/wordsim"
)

// isScoreMetric reports whether a metric belongs in the score tables rather
// than the trials table.
func isScoreMetric(k string) bool {
	switch records.ParseMetric(k).Kind {
	case records.ScoreMetric, records.CoverageMetric, records.PairsMetric,
		records.PearsonMetric, records.AnalogyMetric, records.AnalogyCoverageMetric: // the analogy tables: reports/analogy.go
		return true
	}
	return false
}

func hasScores(rec records.Record) bool {
	for k := range rec.Metrics {
		if records.ParseMetric(k).Kind == records.ScoreMetric {
			return true
		}
	}
	return false
}

// wordSets returns the sets the records were scored on: the registered ones
// in the paper's column order, then any others alphabetically.
func wordSets(recs []records.Record) []string {
	seen := map[string]bool{}
	for _, rec := range recs {
		for k := range rec.Metrics {
			if m := records.ParseMetric(k); m.Kind == records.ScoreMetric {
				seen[m.Set] = true
			}
		}
	}
	var out []string
	for _, s := range wordsim.Names() {
		if seen[s] {
			out = append(out, s)
			delete(seen, s)
		}
	}
	return append(out, sortedKeys(seen)...)
}

// setDisplay is a set's column header: the paper's name for the registered
// sets ("M.Turk"), the short name otherwise.
func setDisplay(name string) string { return schema.SetLabel(name) }

// sortLabelKeys fixes the order of settings in derived labels (the
// settings' order tags); others follow alphabetically.
func sortLabelKeys(keys []string) { schema.LabelOrder(keys) }

// labelKeys are never part of a derived label: they are the label.
var labelKeys = map[string]bool{"name": true, schema.KeyLabel: true}

// shortSetting prints one setting for a label ("W=24", "d=1000", "cut").
func (p *builder) shortSetting(k string, v any) string {
	s, ok := schema.LookupSetting(k)
	if !ok {
		return k + "=" + formatValue(v)
	}
	return s.Format(formatValue(v), p.methodLabel)
}

// labelOf joins the short forms of keys present in rec ("ca · cut · W=5").
func (p *builder) labelOf(rec records.Record, keys []string) string {
	var parts []string
	for _, k := range keys {
		if v, ok := rec.Settings[k]; ok {
			parts = append(parts, p.shortSetting(k, v))
		}
	}
	return strings.Join(parts, " · ")
}

// givenName is the trial's own label: its "name" setting, else "label".
func givenName(rec records.Record) string {
	for _, k := range []string{"name", schema.KeyLabel} {
		if s, ok := rec.Settings[k].(string); ok && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// trialLabels names each record for a table row: its given name, else its
// method; either way followed by the settings that vary among the records
// of its group (see groupKeys). Labels that would still repeat get the
// trial's number (#n, as in the trials table) appended; nums are those
// numbers.
func (p *builder) trialLabels(recs []records.Record, nums []int) []string {
	keys := groupKeys(recs)
	vary := groupVarying(recs, keys, nil)
	labels := make([]string, len(recs))
	count := map[string]int{}
	for i, rec := range recs {
		l := p.groupLabel(rec, keys[i], vary[keys[i]], true)
		if l == "" {
			l = rec.ID
		}
		labels[i] = l
		count[l]++
	}
	for i, l := range labels {
		if count[l] > 1 {
			labels[i] = l + " (#" + strconv.Itoa(nums[i]) + ")"
		}
	}
	return labels
}

// groupKeys puts each record in a group: the records sharing a given name
// (a spec variant's label), else the records of its method. A name that
// only one record carries does not make a group of its own.
func groupKeys(recs []records.Record) []string {
	names := map[string]int{}
	for _, rec := range recs {
		if g := givenName(rec); g != "" {
			names[g]++
		}
	}
	keys := make([]string, len(recs))
	for i, rec := range recs {
		if g := givenName(rec); g != "" && names[g] > 1 {
			keys[i] = "name:" + g
		} else {
			keys[i] = "method:" + formatValue(rec.Settings[schema.KeyMethod])
		}
	}
	return keys
}

// groupDisplay names a group for text: its given name or its method.
func (p *builder) groupDisplay(key string) string {
	if m, ok := strings.CutPrefix(key, "method:"); ok {
		return p.methodLabel(m)
	}
	return strings.TrimPrefix(key, "name:")
}

// groupVarying returns, per group, the settings (but the label keys,
// "method" and skip) that vary among the records of the group, in label
// order.
func groupVarying(recs []records.Record, keys []string, skip map[string]bool) map[string][]string {
	byGroup := map[string][]records.Record{}
	for i, rec := range recs {
		byGroup[keys[i]] = append(byGroup[keys[i]], rec)
	}
	vary := map[string][]string{}
	for g, group := range byGroup {
		_, varying := settingsSplit(group)
		var ks []string
		for _, k := range varying {
			if !labelKeys[k] && k != schema.KeyMethod && !skip[k] {
				ks = append(ks, k)
			}
		}
		sortLabelKeys(ks)
		vary[g] = ks
	}
	return vary
}

// groupLabel is the record's given name, or its method when it has none,
// then (when withVarying) the short forms of the varying keys. For a
// series (forRow false) a name that is not the record's group is left out,
// so that records of one method form one line.
func (p *builder) groupLabel(rec records.Record, key string, varying []string, forRow bool) string {
	var parts []string
	if g := givenName(rec); g != "" && (forRow || strings.HasPrefix(key, "name:")) {
		parts = append(parts, g)
	} else if _, ok := rec.Settings[schema.KeyMethod]; ok {
		parts = append(parts, p.shortSetting(schema.KeyMethod, rec.Settings[schema.KeyMethod]))
	}
	if l := p.labelOf(rec, varying); l != "" {
		parts = append(parts, l)
	}
	return strings.Join(parts, " · ")
}

func metric(rec records.Record, k string) float64 {
	if v, ok := rec.Metrics[k]; ok {
		return v
	}
	return math.NaN()
}

// coverageText prints a coverage share ("97.5%") and, when known, the pairs
// ("97.5% of 203").
func coverageText(cov, pairs float64, withPairs bool) string {
	s := percent(cov, 1)
	if withPairs && finite(pairs) && pairs > 0 {
		s += " of " + strconv.FormatFloat(pairs, 'f', -1, 64)
	}
	return s
}

// scoreSection builds the word-similarity tables, or nil when no record has
// Spearman metrics.
func (p *builder) scoreSection(recs []records.Record) *Section {
	var scored []records.Record
	var nums []int
	var measured []bool
	nMeasured := 0
	unscored := map[string]int{}
	for i, rec := range recs {
		if hasScores(rec) {
			scored = append(scored, rec)
			nums = append(nums, i+1)
			measured = append(measured, isMeasuredTrial(rec))
			if isMeasuredTrial(rec) {
				nMeasured++
			}
		} else if rec.Status != "ok" {
			unscored[rec.Status]++
		}
	}
	if len(scored) == 0 {
		return nil
	}
	scored, nums, spread := foldReplicates(scored, nums)
	sets := wordSets(scored)
	labels := p.trialLabels(scored, nums)
	cols := make([]string, len(sets))
	for j, s := range sets {
		cols[j] = setDisplay(s)
	}

	// Coverage: one footer cell per set when every trial covers the same
	// share, else a note in each cell of that set.
	footer := TextRow{Name: "pairs covered", Cells: make([]string, len(sets))}
	perCell := make([]bool, len(sets))
	for j, s := range sets {
		shown := map[string]bool{}
		pairs := math.NaN()
		for _, rec := range scored {
			if c, ok := rec.Metrics[records.Coverage(s).Key()]; ok {
				shown[coverageText(c, metric(rec, records.Pairs(s).Key()), true)] = true
				if p := metric(rec, records.Pairs(s).Key()); finite(p) {
					pairs = p
				}
			}
		}
		switch len(shown) {
		case 0:
			footer.Cells[j] = "—"
		case 1:
			footer.Cells[j] = sortedKeys(shown)[0]
		default:
			perCell[j] = true
			footer.Cells[j] = "varies: see cells"
			if finite(pairs) {
				footer.Cells[j] += " (of " + strconv.FormatFloat(pairs, 'f', -1, 64) + ")"
			}
		}
	}
	inSample := false
	rows := func(rule records.Rule) []ScoreRow {
		out := make([]ScoreRow, len(scored))
		for i, rec := range scored {
			r := ScoreRow{Name: labels[i], Scores: make([]float64, len(sets)), Notes: make([]string, len(sets))}
			trained := p.inSampleSet(rec)
			for j, s := range sets {
				r.Scores[j] = metric(rec, records.Score(rule, s).Key())
				var note []string
				if c, ok := rec.Metrics[records.Coverage(s).Key()]; ok && perCell[j] {
					note = append(note, coverageText(c, 0, false))
				}
				if s == trained {
					note = append(note, "†")
					inSample = true
				}
				if sp := spread[rec.ID]; sp.n > 1 {
					note = append(note, sp.text(records.Score(rule, s).Key()))
				}
				r.Notes[j] = strings.Join(note, " ")
			}
			out[i] = r
		}
		return out
	}
	var ref []ScoreRow
	for _, s := range sets {
		if isPaperSet(s) {
			ref = PaperScores(sets)
			break
		}
	}
	const refTitle = "Published (paper's table: full text8, zero rule) — not ranked"
	// Measured (scaling) trials keep their rows but never take a mark: their
	// sizes are chosen for the measurement, not to compete.
	unrank := func(rs []ScoreRow) []ScoreRow {
		for i := range rs {
			if measured[i] {
				rs[i].Unranked = make([]bool, len(sets))
				for j := range rs[i].Unranked {
					rs[i].Unranked[j] = true
				}
				rs[i].Name += " (measured: not ranked)"
			}
		}
		return rs
	}
	zero := ScoreTable{ID: "scores-zero", RowHeader: "Trial", Columns: cols, Rows: unrank(rows(records.RuleZero)),
		Caption: "Spearman ρ, zero rule: a pair with an out-of-vocabulary word scores 0 and stays in",
		Footer:  []TextRow{footer}, ReferenceTitle: refTitle, Reference: ref}
	skip := ScoreTable{ID: "scores-skip", RowHeader: "Trial", Columns: cols, Rows: unrank(rows(records.RuleSkip)),
		Caption: "Spearman ρ, skip rule (gensim's): pairs with an out-of-vocabulary word are dropped",
		Footer:  []TextRow{footer}, ReferenceTitle: refTitle, Reference: ref}

	s := &Section{ID: "word-scores", Title: "Word similarity"}
	intro := fmt.Sprintf("Spearman ρ between the sets' human scores and the word vectors' similarity, %d trial(s) × %d set(s). "+
		"Coverage is the share of a set's pairs with both words in the vocabulary; under the zero rule the others count as similarity 0, under the skip rule they are left out.",
		len(scored), len(sets))
	common, _ := settingsSplit(scored)
	for _, kv := range common {
		if set, ok := schema.LookupSetting(kv[0]); ok && set.Intro != "" {
			intro += " " + set.Intro + ": " + kv[1] + "."
		}
	}
	if nMeasured > 0 {
		intro += fmt.Sprintf(" %d trial(s) measure time and memory (scaling trials): their scores are listed but never ranked with the methods'.", nMeasured)
	}
	s.Blocks = append(s.Blocks, Paragraph(intro))
	s.Blocks = append(s.Blocks, collapse(len(scored), fmt.Sprintf("Both tables: %d trials × %d sets", len(scored), len(sets)), zero, skip)...)
	s.Blocks = append(s.Blocks, pearsonBlocks(scored, labels, sets, cols)...)
	if inSample {
		s.Blocks = append(s.Blocks, Paragraph("†: the SCA trial was trained on this set's pairs (sca.mode = in-sample), as the paper's SCA rows were; its score there is not a held-out score."))
	}
	if len(unscored) > 0 {
		var parts []string
		n := 0
		for _, st := range sortedKeys(unscored) {
			parts = append(parts, fmt.Sprintf("%d %s", unscored[st], st))
			n += unscored[st]
		}
		s.Blocks = append(s.Blocks, Paragraph(fmt.Sprintf("%d trial(s) have no scores (%s); see the trials table.", n, strings.Join(parts, ", "))))
	}
	return s
}

func isPaperSet(s string) bool {
	for _, p := range paperSets {
		if p == s {
			return true
		}
	}
	return false
}

// number returns a setting as a float64 when it is a number.
func number(v any) (float64, bool) {
	switch t := v.(type) {
	case float64:
		return t, true
	case float32:
		return float64(t), true
	case int:
		return float64(t), true
	case int64:
		return float64(t), true
	case uint64:
		return float64(t), true
	}
	return 0, false
}

// sweepSection draws ρ (zero rule) against each numeric setting that takes
// at least three values within one series, or returns nil.
func (p *builder) sweepSection(recs []records.Record) *Section {
	var scored []records.Record
	for _, rec := range recs {
		if hasScores(rec) {
			scored = append(scored, rec)
		}
	}
	if len(scored) == 0 {
		return nil
	}
	s := &Section{ID: "sweeps", Title: "Sweeps"}
	for _, sk := range schema.SweepSettings() {
		if sub := p.sweepOf(scored, sk); sub != nil {
			s.Subsections = append(s.Subsections, *sub)
		}
	}
	if len(s.Subsections) == 0 {
		return nil
	}
	return s
}

func (p *builder) sweepOf(scored []records.Record, sk schema.Setting) *Section {
	key, axis, short := sk.Key, sk.SweepAxis, sk.SweepID
	var recs []records.Record
	var xs []float64
	for _, rec := range scored {
		if x, ok := number(rec.Settings[key]); ok && finite(x) {
			recs = append(recs, rec)
			xs = append(xs, x)
		}
	}
	if len(recs) < 3 {
		return nil
	}
	// Series: the trial's given name (else its method) and what varies
	// among its group's trials, but the swept setting (like the trials'
	// labels).
	keys := groupKeys(recs)
	vary := groupVarying(recs, keys, map[string]bool{key: true, schema.KeyReplicate: true})
	methods := map[string]bool{}
	for _, k := range keys {
		methods[k] = true
	}
	// Series: one per combination of the other varying settings, in the
	// order they first appear.
	type series struct {
		name string
		recs []int
		xs   map[float64]bool
	}
	var order []*series
	byName := map[string]*series{}
	for i, rec := range recs {
		name := p.groupLabel(rec, keys[i], vary[keys[i]], false)
		if len(methods) == 1 && len(vary[keys[i]]) > 0 {
			// One group: the chart's text names it; the series need not.
			name = p.labelOf(rec, vary[keys[i]])
		}
		if name == "" {
			name = "ρ"
		}
		sr, ok := byName[name]
		if !ok {
			sr = &series{name: name, xs: map[float64]bool{}}
			byName[name] = sr
			order = append(order, sr)
		}
		sr.recs = append(sr.recs, i)
		sr.xs[xs[i]] = true
	}
	// Only lines that sweep (three or more x values) are drawn: a trial
	// that merely has the setting is not a sweep.
	kept := order[:0]
	for _, sr := range order {
		if len(sr.xs) >= 3 {
			kept = append(kept, sr)
		}
	}
	order = kept
	if len(order) == 0 {
		return nil
	}
	xs = xs[:len(xs):len(xs)]
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	// Windows read best on a linear axis; ranks and fractions spanning a
	// decade or more on a log one.
	logX := sk.SweepLog && lo > 0 && hi/lo >= 10

	sets := wordSets(recs)
	var row Row
	averaged := false
	for j, set := range sets {
		c := LineChart{ID: fmt.Sprintf("sweep-%s-%d", short, j+1), Title: setDisplay(set),
			XName: axis, YName: "Spearman ρ (zero rule)", LogX: logX, Width: 440, Height: 300}
		for _, sr := range order {
			vals := map[float64][]float64{}
			for _, i := range sr.recs {
				if v, ok := recs[i].Metrics[records.Score(records.RuleZero, set).Key()]; ok {
					vals[xs[i]] = append(vals[xs[i]], v)
				}
			}
			pts, many := meanPoints(vals)
			averaged = averaged || many
			c.Series = append(c.Series, LineSeries{Name: sr.name, Points: pts})
		}
		row = append(row, c)
	}
	title := "ρ against " + strings.ToLower(axis[:1]) + axis[1:]
	sub := &Section{ID: "sweep-" + short, Title: title}
	var others []string
	seenKey := map[string]bool{}
	for _, m := range sortedKeys(vary) {
		for _, k := range vary[m] {
			if !seenKey[k] {
				seenKey[k] = true
				others = append(others, k)
			}
		}
	}
	sortLabelKeys(others)
	text := fmt.Sprintf("Spearman ρ under the zero rule against %s (%s), one chart per set, one line per method", key, axis)
	if len(methods) == 1 {
		text = fmt.Sprintf("Spearman ρ under the zero rule of %s against %s (%s), one chart per set, one line", p.groupDisplay(sortedKeys(methods)[0]), key, axis)
	}
	if len(others) > 0 {
		text += " per combination of the other settings that vary (" + strings.Join(others, ", ") + ")"
	}
	text += "."
	if averaged {
		text += " Trials with the same settings at the same x (replicates: seeds) are averaged; the error bars are ± one standard deviation."
	}
	sub.Blocks = append(sub.Blocks, Paragraph(text), row)
	return sub
}
