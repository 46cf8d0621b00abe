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
	scored := p.project(recs, hasMetric(records.ScoreMetric))
	if scored.len() == 0 {
		return nil
	}
	s := &Section{ID: "sweeps", Title: "Sweeps"}
	for _, sk := range schema.SweepSettings() {
		if sub := p.sweepOf(scored.where(numericSetting(sk.Key)), sk); sub != nil {
			s.Subsections = append(s.Subsections, *sub)
		}
	}
	if len(s.Subsections) == 0 {
		return nil
	}
	return s
}

// sweepOf is the charts of ρ against one setting: one per set, one line
// per group and combination of the settings that vary within it (see
// lineNamesOf); only lines with three or more x values are drawn, since a
// trial that merely has the setting is not a sweep.
func (p *builder) sweepOf(pr projection, sk schema.Setting) *Section {
	if pr.len() < 3 {
		return nil
	}
	names := p.lineNamesOf(pr.records(), sk.Key)
	xOf := func(_ int, t trial) float64 { x, _ := number(t.Settings[sk.Key]); return x }
	var lines []line
	for _, l := range pr.lines(func(i int, _ trial) string { return orRho(names.names[i]) }, xOf) {
		if l.distinctX() >= 3 {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return nil
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, t := range pr.trials {
		lo, hi = math.Min(lo, xOf(i, t)), math.Max(hi, xOf(i, t))
	}
	// Windows read best on a linear axis; ranks and fractions spanning a
	// decade or more on a log one.
	logX := sk.SweepLog && lo > 0 && hi/lo >= 10
	var row Row
	averaged := false
	for j, set := range wordSets(pr.records()) {
		c := LineChart{ID: fmt.Sprintf("sweep-%s-%d", sk.SweepID, j+1), Title: setDisplay(set),
			XName: sk.SweepAxis, YName: "Spearman ρ (zero rule)", LogX: logX, Width: 440, Height: 300}
		for _, l := range lines {
			pts, many := l.points(metricAt(records.Score(records.RuleZero, set).Key()))
			averaged = averaged || many
			c.Series = append(c.Series, LineSeries{Name: l.name, Points: pts})
		}
		row = append(row, c)
	}
	axis := sk.SweepAxis
	sub := &Section{ID: "sweep-" + sk.SweepID, Title: "ρ against " + strings.ToLower(axis[:1]) + axis[1:]}
	sub.Blocks = append(sub.Blocks, Paragraph(sweepText(sk, names, averaged)), row)
	return sub
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
