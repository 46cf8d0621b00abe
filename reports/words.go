package reports

import (
	"fmt"
	"slices"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
	"kcalab/schema"

	"kcalab/datasets/wordsim"
)

// isScoreMetric reports whether a metric belongs in the score tables rather
// than the trials table.
func isScoreMetric(k string) bool {
	switch records.ParseMetric(k).Kind {
	case records.ScoreMetric, records.CoverageMetric, records.PairsMetric,
		records.PearsonMetric, records.AnalogyMetric, records.AnalogyCoverageMetric, records.AnalogyCountMetric: // the analogy tables: reports/analogy.go
		return true
	}
	return false
}

// wordSets returns the sets the records were scored on: the registered
// ones in the paper's column order, then any others alphabetically; then
// their test parts and their dev parts (eval.parts), in the same order.
func wordSets(recs []records.Record) []string {
	seen := map[string]bool{}
	for _, rec := range recs {
		for k := range rec.Metrics {
			if m := records.ParseMetric(k); m.Kind == records.ScoreMetric {
				seen[m.Set] = true
			}
		}
	}
	var whole []string
	for _, s := range wordsim.Names() {
		if seen[s] {
			whole = append(whole, s)
		}
	}
	var others []string
	for s := range seen {
		if set, part := records.SplitSetPart(s); part == "" && !slices.Contains(whole, set) {
			others = append(others, s)
		}
	}
	slices.Sort(others)
	whole = append(whole, others...)
	out := slices.Clone(whole)
	for _, part := range []string{records.PartTest, records.PartDev} {
		for _, s := range whole {
			if k := records.SetPart(s, part); seen[k] {
				out = append(out, k)
			}
		}
	}
	return out
}

// wholeSets keeps the whole sets of set keys, not their parts.
func wholeSets(sets []string) []string {
	return slices.DeleteFunc(slices.Clone(sets), func(s string) bool { _, part := records.SplitSetPart(s); return part != "" })
}

// setDisplay is a set's column header: the paper's name for the registered
// sets ("M.Turk"), the short name otherwise; a part of a set adds its
// part ("Rare test").
func setDisplay(name string) string {
	set, part := records.SplitSetPart(name)
	if part != "" {
		return schema.SetLabel(set) + " " + part
	}
	return schema.SetLabel(name)
}

// scoreSection builds the word-similarity tables, or nil when no record has
// Spearman metrics: a headline computed from them, then Spearman ρ under
// the zero and under the skip rule (two tables: the rules never mix), rows
// in ranking groups of one dimension d (groupByDim), each method at its
// ranked similarity with the other in small type; the sets' test and dev
// parts (eval.parts) in tables of their own; then Pearson r.
func (p *builder) scoreSection(recs []records.Record) *Section {
	scored := p.project(recs, compare.HasMetric(records.ScoreMetric))
	if scored.Len() == 0 {
		return nil
	}
	rows := scored.Rows(true)
	groups := p.groupByDim(rows)
	sets := wordSets(compare.RowRecords(rows))
	fams := setFamilies(sets)
	grid := func(f setFamily, rule records.Rule) scoreGrid { return p.grid(groups, f.sets, scoreOf(rule)) }
	s := &Section{ID: "word-scores", Title: "Word similarity"}
	main := mainGroup(grid(fams[0], records.RuleZero))
	var head Headline
	var more List
	for _, f := range fams {
		if f.part == records.PartDev {
			continue // where designs are tuned: nothing to claim
		}
		for _, rule := range records.Rules {
			g := grid(f, rule)
			for gi := range groups {
				h := p.groupHeadline(g, gi, rule, f.scope)
				switch {
				case h == "":
				case gi == main:
					head = append(head, h)
				default:
					more = append(more, h)
				}
			}
		}
	}
	if len(head) > 0 {
		s.Blocks = append(s.Blocks, head)
	}
	// The verdict: the paper's ordering under its rule, on the first sets
	// that rank (the whole sets, else their test parts: a design tuned on
	// dev parts is in-sample on the whole sets).
	for _, f := range fams {
		if f.part == records.PartDev {
			continue
		}
		if v := p.orderingVerdict(grid(f, records.RuleZero), records.RuleZero, f.scope); !v.Empty() {
			p.setVerdict(s.ID, v)
			break
		}
	}
	s.Blocks = append(s.Blocks, Paragraph(p.scoreIntro(p.grid(groups, sets, scoreOf(records.RuleZero)), rows, fams[0].sets)))
	var blocks []Block
	if len(more) > 0 {
		blocks = append(blocks, Paragraph("The other groups:"), more)
	}
	// Designs chosen on the dev parts are compared on the test parts: those
	// tables carry the verdicts and come first, open; the whole sets (every
	// cell of a tuned row in-sample) and the dev parts follow, one click away.
	if test := slices.IndexFunc(fams, func(f setFamily) bool { return f.part == records.PartTest }); test > 0 && tunedOnDev(rows) {
		for _, rule := range records.Rules {
			blocks = append(blocks, p.spearmanTable(grid(fams[test], rule), rule, fams[test]))
		}
		s.Blocks = append(s.Blocks, blocks...)
		var rest []Block
		for i, f := range fams {
			if i == test {
				continue
			}
			for _, rule := range records.Rules {
				rest = append(rest, p.spearmanTable(grid(f, rule), rule, f))
			}
		}
		s.Blocks = append(s.Blocks, Details{Summary: "The whole sets (in-sample for every design tuned on their dev parts: †, never ranked) and the dev parts the designs were chosen on", Blocks: rest})
		s.Blocks = append(s.Blocks, p.pearsonBlocks(groups, sets)...)
		return p.withUnscored(s, recs)
	}
	for _, rule := range records.Rules {
		blocks = append(blocks, p.spearmanTable(grid(fams[0], rule), rule, fams[0]))
	}
	s.Blocks = append(s.Blocks, collapse(len(rows), fmt.Sprintf("Both tables: %s × %d sets", rowsOf(len(rows), scored.Len()), len(fams[0].sets)), blocks...)...)
	if len(fams) > 1 {
		var parts []Block
		for _, f := range fams[1:] {
			for _, rule := range records.Rules {
				parts = append(parts, p.spearmanTable(grid(f, rule), rule, f))
			}
		}
		s.Blocks = append(s.Blocks, Details{Summary: "The sets' test and dev parts (eval.parts): a design tuned on a dev part is compared on the test part", Blocks: parts})
	}
	s.Blocks = append(s.Blocks, p.pearsonBlocks(groups, sets)...)
	return p.withUnscored(s, recs)
}

// withUnscored ends a score section with the trials that have no scores.
func (p *builder) withUnscored(s *Section, recs []records.Record) *Section {
	if unscored := p.project(recs, compare.Not(compare.HasMetric(records.ScoreMetric)), compare.Not(compare.HasStatus("ok"))); unscored.Len() > 0 {
		var parts []string
		for _, g := range compare.ByKey(unscored.GroupBy(func(_ int, t trial) string { return t.Status })) {
			parts = append(parts, fmt.Sprintf("%d %s", len(g.Trials), g.Key))
		}
		s.Blocks = append(s.Blocks, Paragraph(fmt.Sprintf("%d trial(s) have no scores (%s); see the trials table.", unscored.Len(), strings.Join(parts, ", "))))
	}
	return s
}

// tunedOnDev says some row's design was chosen on dev parts (its tuned_on
// names a dev part): its page compares on the test parts.
func tunedOnDev(rows []row) bool {
	for _, r := range rows {
		for _, s := range records.StringList(r.Settings["tuned_on"]) {
			if _, part := records.SplitSetPart(s); part == records.PartDev {
				return true
			}
		}
	}
	return false
}

// setFamily is one kind of a table's columns: the whole sets, or one part
// of each (eval.parts).
type setFamily struct {
	part  string // "", records.PartTest or records.PartDev
	scope string // what a headline calls it: "", "test parts", "dev parts"
	sets  []string
}

// setFamilies splits set keys (wordSets' order) into the whole sets, then
// their test parts and their dev parts when there are any.
func setFamilies(sets []string) []setFamily {
	out := []setFamily{{}}
	for _, s := range sets {
		_, part := records.SplitSetPart(s)
		i := slices.IndexFunc(out, func(f setFamily) bool { return f.part == part })
		if i < 0 {
			i = len(out)
			out = append(out, setFamily{part: part, scope: part + " parts"})
		}
		out[i].sets = append(out[i].sets, s)
	}
	return out
}

// spearmanTable is the table of Spearman ρ under a rule on a family of
// sets; the zero rule's on the whole sets carries the paper's published
// scores (full text8, zero rule) as an unranked reference group, the skip
// rule's never does: the paper scored under the zero rule only.
func (p *builder) spearmanTable(g scoreGrid, rule records.Rule, f setFamily) ScoreTable {
	caption := "Spearman ρ, zero rule: a pair with an out-of-vocabulary word scores 0 and stays in"
	if rule == records.RuleSkip {
		caption = "Spearman ρ, skip rule (gensim's): pairs with an out-of-vocabulary word are dropped"
	}
	if f.scope != "" {
		caption += ", on the sets' " + f.scope
	}
	caption += "; " + p.simText() + ", the other in small type"
	id := "scores-" + string(rule)
	if f.part != "" {
		id += "-" + f.part
	}
	t := g.scoreTable(id, caption, true, nil)
	if rule == records.RuleZero && f.part == "" {
		for _, s := range g.sets {
			if isPaperSet(s) {
				t.ReferenceTitle, t.Reference = "Published (paper's table: full text8, zero rule) — not ranked", PaperScores(g.sets)
				break
			}
		}
	}
	return t
}

// setColumns are the columns of scores of a metric family (Score or
// Pearson under a rule) on the sets, with the sets' coverage when
// withCoverage.
func setColumns(sets []string, metric func(string) records.Metric, withCoverage bool) []column {
	cols := make([]column, len(sets))
	for j, s := range sets {
		cols[j] = column{Name: setDisplay(s), Metric: metric(s).Key()}
		if withCoverage {
			cols[j].Coverage, cols[j].Pairs = records.Coverage(s).Key(), records.Pairs(s).Key()
		}
	}
	return cols
}

// scoreOf is the metric family of Spearman ρ under a rule.
func scoreOf(rule records.Rule) func(string) records.Metric {
	return func(set string) records.Metric { return records.Score(rule, set) }
}

// scoreIntro says what the score tables hold: their size, how they rank
// (groups of one d; each method's similarity, named per similarity from
// the rows), the settings of every trial the schema names for the
// introduction, and what some rows lack: bootstrap replicates, a score at
// their ranked similarity, vocabulary rows for every word.
func (p *builder) scoreIntro(g scoreGrid, rows []row, sets []string) string {
	intro := fmt.Sprintf("Spearman ρ between the sets' human scores and the word vectors' similarity, %d trial(s) × %d set(s), "+
		"ranked only among rows of one dimension d learned from the same data (the groups), never on a set a row was tuned on. "+
		"Coverage is the share of a set's pairs with both words in the vocabulary; under the zero rule the others count as similarity 0, under the skip rule they are left out.",
		len(rows), len(sets))
	for _, gg := range g.groups {
		if gg.tuned {
			intro += " A design whose d was chosen on dev parts with the rest of it (tune.axes) is ranked against every other such design, whatever d each chose: the group \"d chosen on dev parts\", each row naming its d."
			break
		}
	}
	bySim := map[records.Similarity][]string{}
	for _, gg := range g.groups {
		for _, r := range gg.rows {
			sim := p.rankSim(r.Record)
			name := p.methodLabel(formatValue(r.Settings[schema.KeyMethod]))
			if !slices.Contains(bySim[sim], name) {
				bySim[sim] = append(bySim[sim], name)
			}
		}
	}
	var simParts []string
	for _, sim := range []records.Similarity{records.SimDot, records.SimCosine} {
		if len(bySim[sim]) > 0 {
			simParts = append(simParts, map[records.Similarity]string{records.SimDot: "the dot product", records.SimCosine: "cosine"}[sim]+" for "+strings.Join(bySim[sim], ", "))
		}
	}
	how := "as its own users compare its vectors"
	if p.similarity == SimilarityDot || p.similarity == SimilarityCosine {
		how = "as the spec's report.similarity says"
	}
	intro += " Each score is at the similarity it is ranked at (" + strings.Join(simParts, "; ") + ", " + how + "); the other similarity's follows it in small type."
	common, _ := settingsSplit(compare.RowRecords(rows))
	for _, kv := range common {
		if set, ok := schema.LookupSetting(kv[0]); ok && set.Intro != "" && kv[0] != "eval.similarity" {
			intro += " " + set.Intro + ": " + kv[1] + "."
		}
	}
	var untested, missing, composed []string
	untestedRows := 0
	for _, gg := range g.groups {
		for i, r := range gg.rows {
			name := r.Label
			if n := givenName(r.Record); n != "" && len(n) < len(name) {
				name = n // short: the label a reader finds in the table
			}
			anyTested, anyMissing := false, false
			for _, c := range gg.cells[i] {
				anyTested = anyTested || c.Tested()
				anyMissing = anyMissing || (!finite(c.Value) && finite(c.other))
			}
			if !anyTested {
				untestedRows++
			}
			if !anyTested && !slices.Contains(untested, name) {
				untested = append(untested, name)
			}
			if anyMissing && !slices.Contains(missing, name) {
				missing = append(missing, name)
			}
			// One entry per row name and count: a label repeated over
			// the groups (each d) is said once.
			if n, ok := r.Metrics[records.MetricComposed]; ok && n > 0 {
				if c := fmt.Sprintf("%s (%s)", name, formatValue(n)); !slices.Contains(composed, c) {
					composed = append(composed, c)
				}
			}
		}
	}
	switch {
	case untestedRows == len(rows):
		intro += " No row has bootstrap replicates in its record: no difference is tested, so no score is marked best."
	case len(untested) > 0:
		intro += " Rows without bootstrap replicates in their records are not tested and never marked best: " + strings.Join(untested, ", ") + "."
	}
	if len(missing) > 0 {
		intro += " Rows without a score at the similarity they are ranked at (records older than scoring at both) show — there, the other similarity's in small type: " + strings.Join(missing, ", ") + "."
	}
	if len(composed) > 0 {
		intro += " Evaluation words given vectors composed from character n-grams rather than vocabulary rows (their coverage counts them): " + strings.Join(composed, ", ") + "."
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
