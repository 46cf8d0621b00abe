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
	scored := p.project(recs, hasMetric(records.ScoreMetric))
	if scored.len() == 0 {
		return nil
	}
	rows := scored.rows(true)
	sets := wordSets(rowRecords(rows))
	zero, skip, inSample := p.scoreTables(rows, sets)
	s := &Section{ID: "word-scores", Title: "Word similarity"}
	s.Blocks = append(s.Blocks, Paragraph(scoreIntro(scored, rows, sets)))
	s.Blocks = append(s.Blocks, collapse(len(rows), fmt.Sprintf("Both tables: %s × %d sets", rowsOf(len(rows), scored.len()), len(sets)), zero, skip)...)
	s.Blocks = append(s.Blocks, pearsonBlocks(rows, sets)...)
	if inSample {
		s.Blocks = append(s.Blocks, Paragraph("†: the SCA trial was trained on this set's pairs (sca.mode = in-sample), as the paper's SCA rows were; its score there is not a held-out score."))
	}
	if unscored := p.project(recs, not(hasMetric(records.ScoreMetric)), not(hasStatus("ok"))); unscored.len() > 0 {
		var parts []string
		for _, g := range byKey(unscored.groupBy(func(_ int, t trial) string { return t.Status })) {
			parts = append(parts, fmt.Sprintf("%d %s", len(g.trials), g.key))
		}
		s.Blocks = append(s.Blocks, Paragraph(fmt.Sprintf("%d trial(s) have no scores (%s); see the trials table.", unscored.len(), strings.Join(parts, ", "))))
	}
	return s
}

// setColumns are the columns of scores of a metric family (Score or
// Pearson under a rule) on the sets, with the sets' coverage when
// withCoverage.
func setColumns(sets []string, metric func(string) records.Metric, withCoverage bool) []column {
	cols := make([]column, len(sets))
	for j, s := range sets {
		cols[j] = column{name: setDisplay(s), metric: metric(s).Key()}
		if withCoverage {
			cols[j].coverage, cols[j].pairs = records.Coverage(s).Key(), records.Pairs(s).Key()
		}
	}
	return cols
}

// scoreOf is the metric family of Spearman ρ under a rule.
func scoreOf(rule records.Rule) func(string) records.Metric {
	return func(set string) records.Metric { return records.Score(rule, set) }
}

// scoreTables are the Spearman tables under the zero and the skip rule:
// the coverage once in a footer (or per cell when it varies), a † on a
// trial's in-sample set, the replicates' spread, the paper's published
// scores as an unranked reference group, and measured (scaling) trials
// listed but never ranked: their sizes are chosen for the measurement,
// not to compete.
func (p *builder) scoreTables(rows []row, sets []string) (zero, skip ScoreTable, inSample bool) {
	trained := make([]string, len(rows))
	for i, r := range rows {
		trained[i] = p.inSampleSet(r.Record)
	}
	decorate := func(i, j int, c *cell) {
		if sets[j] == trained[i] {
			c.note("†")
			inSample = true
		}
		c.note(c.spread())
		c.unranked = isMeasuredTrial(rows[i].Record)
	}
	var ref []ScoreRow
	for _, s := range sets {
		if isPaperSet(s) {
			ref = PaperScores(sets)
			break
		}
	}
	footer, _ := table{rows, setColumns(sets, scoreOf(records.RuleZero), true)}.coverage()
	of := func(rule records.Rule, caption string) ScoreTable {
		t := table{rows, setColumns(sets, scoreOf(rule), true)}
		sr := t.scoreRows(decorate)
		for i, r := range rows {
			if isMeasuredTrial(r.Record) {
				sr[i].Name += " (measured: not ranked)"
			}
		}
		return ScoreTable{ID: "scores-" + string(rule), RowHeader: "Trial", Columns: t.header(), Rows: sr, Caption: caption,
			Footer: []TextRow{{Name: "pairs covered", Cells: footer}}, ReferenceTitle: "Published (paper's table: full text8, zero rule) — not ranked", Reference: ref}
	}
	zero = of(records.RuleZero, "Spearman ρ, zero rule: a pair with an out-of-vocabulary word scores 0 and stays in")
	skip = of(records.RuleSkip, "Spearman ρ, skip rule (gensim's): pairs with an out-of-vocabulary word are dropped")
	return zero, skip, inSample
}

// scoreIntro says what the score tables hold: their size, the settings of
// every trial the schema names for the introduction, and how many trials
// are measured (scaling) trials.
func scoreIntro(scored projection, rows []row, sets []string) string {
	intro := fmt.Sprintf("Spearman ρ between the sets' human scores and the word vectors' similarity, %d trial(s) × %d set(s). "+
		"Coverage is the share of a set's pairs with both words in the vocabulary; under the zero rule the others count as similarity 0, under the skip rule they are left out.",
		len(rows), len(sets))
	common, _ := settingsSplit(rowRecords(rows))
	for _, kv := range common {
		if set, ok := schema.LookupSetting(kv[0]); ok && set.Intro != "" {
			intro += " " + set.Intro + ": " + kv[1] + "."
		}
	}
	if n := scored.where(isMeasuredTrial).len(); n > 0 {
		intro += fmt.Sprintf(" %d trial(s) measure time and memory (scaling trials): their scores are listed but never ranked with the methods'.", n)
	}
	return intro
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
