package reports

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
)

// analogySets returns the analogy sets the records were scored on and,
// per set, its sections (alphabetically: the metrics keep no file order).
func analogySets(recs []records.Record) ([]string, map[string][]string) {
	seen := map[string]map[string]bool{}
	for _, rec := range recs {
		for k := range rec.Metrics {
			m := records.ParseMetric(k)
			if m.Kind != records.AnalogyMetric && m.Kind != records.AnalogyCoverageMetric {
				continue
			}
			if seen[m.Set] == nil {
				seen[m.Set] = map[string]bool{}
			}
			if m.Section != "" {
				seen[m.Set][m.Section] = true
			}
		}
	}
	sets := sortedKeys(seen)
	sections := map[string][]string{}
	for _, s := range sets {
		sections[s] = sortedKeys(seen[s])
	}
	return sets, sections
}

// analogySection builds the analogy tables: accuracy by 3CosAdd and 3CosMul
// per set with its 95% bootstrap interval and its counts (right / covered,
// of the set's questions), ranked by RankSignificant, then per section
// (collapsed, not tested: sections have no replicates); nil when no record
// has analogy metrics. It opens with a headline computed from the same
// cells (analogyAnswer). Each trial is a row of its own.
func (p *builder) analogySection(recs []records.Record) *Section {
	scored := p.project(recs, compare.HasMetric(records.AnalogyCoverageMetric))
	if scored.Len() == 0 {
		return nil
	}
	sets, sections := analogySets(scored.Records())
	groups := p.groupByDim(scored.Rows(false))
	var rows []row
	for _, g := range groups {
		rows = append(rows, g.rows...)
	}
	var cols []column
	for _, s := range sets {
		cover, questions := records.AnalogyCoverage(s, "").Key(), records.AnalogyCounts(s, records.CountQuestions, false).Key()
		cols = append(cols, column{Name: s + " 3CosAdd", Metric: records.Analogy(s, false, "").Key(), Coverage: cover, Pairs: questions},
			column{Name: s + " 3CosMul", Metric: records.Analogy(s, true, "").Key(), Coverage: cover, Pairs: questions})
	}
	sec := &Section{ID: "analogies", Title: "Analogies"}
	intro := fmt.Sprintf("“a is to a* as b is to ?”, %d trial(s) × %d set(s), answered as gensim's evaluate_word_analogies does: "+
		"words folded to lower case, the answer the candidate other than a, a* and b nearest to â* − â + b̂ by cosine (3CosAdd), "+
		"or maximising p(x, a*)·p(x, b)/(p(x, a) + ε) with p = (cos + 1)/2 and ε = 0.001 (3CosMul, Levy and Goldberg 2014). "+
		"Candidates and question words are the eval.analogy_vocab most frequent words; a question with a word outside them is not covered: "+
		"it is not asked, and counts neither right nor wrong, so accuracy is right / covered, as gensim reports it. "+
		"Rows that cover different questions are scored on different questions. %s",
		len(rows), len(sets), analogyBootstrapText(scored.Records(), sets))
	if h := p.analogyAnswer(groups, sets); len(h) > 0 {
		sec.Blocks = append(sec.Blocks, h)
	}
	sec.Blocks = append(sec.Blocks, Paragraph(intro), p.analogyTable(groups, cols, "analogy-total",
		"Analogy accuracy over the covered questions (gensim's evaluate_word_analogies): 3CosAdd and 3CosMul, ± the 95% bootstrap interval, right / covered (of the set's questions)"))
	for _, s := range sets {
		if len(sections[s]) == 0 {
			continue
		}
		var blocks []Block
		for _, mul := range []bool{false, true} {
			how := "3CosAdd"
			if mul {
				how = "3CosMul"
			}
			var cols []column
			for _, name := range sections[s] {
				cols = append(cols, column{Name: name, Metric: records.Analogy(s, mul, name).Key(), Coverage: records.AnalogyCoverage(s, name).Key()})
			}
			blocks = append(blocks, p.analogyTable(groups, cols, fmt.Sprintf("analogy-%s-%s", htmlID(s), how),
				fmt.Sprintf("%s: %s accuracy per section (no bootstrap per section: not tested)", s, how)))
		}
		sec.Blocks = append(sec.Blocks, Details{Summary: fmt.Sprintf("%s per section: %d sections", s, len(sections[s])), Blocks: blocks})
	}
	return sec
}

// analogyBootstrapText says how the whole sets' accuracies are tested:
// by the bootstrap replicates the records hold, or not at all when none
// holds any (records older than them).
func analogyBootstrapText(recs []records.Record, sets []string) string {
	b := 0
	for _, rec := range recs {
		for _, set := range sets {
			if _, ok := rec.Bootstrap.Replicates(records.Analogy(set, false, "").Key(), compare.Metric(rec, records.Analogy(set, false, "").Key())); ok {
				b = rec.Bootstrap.B
			}
		}
	}
	if b == 0 {
		return "These records hold no bootstrap replicates of the accuracies (they are older than them): no difference is tested and no accuracy is marked best."
	}
	return fmt.Sprintf("The ± is the 95%% bootstrap interval over %d resamples of the set's questions, the same resamples for every trial, each scored as the whole set is "+
		"(right / covered among the resampled questions), so two rows compare question by question: an accuracy is marked best only when none is significantly above it. "+
		"Sections have no replicates (they would make each record several times larger): their accuracies are not tested.", b)
}

// analogyCell is one row's accuracy on a set by one rule as the headline
// compares it.
type analogyCell struct {
	label string
	estimate
	coverage float64 // NaN: not recorded
	covered  float64 // questions covered; NaN: not recorded (older records)
}

// text prints the accuracy with its interval when tested: "0.312 ± 0.009".
func (c analogyCell) text() string {
	if hw := c.HalfWidth(); finite(hw) {
		return formatScore(c.Value, 3) + " ± " + formatScore(hw, 3)
	}
	return formatScore(c.Value, 3)
}

// The rules analogyAnswer states, per ranking group (vectors of one d from
// one data) and analogy set, for 3CosAdd and for 3CosMul apart, over the
// rows with an accuracy not tuned on the set:
//
//   - The top row is the highest accuracy as shown among the rows with
//     bootstrap replicates. It is "significantly best" when every other
//     tested row is significantly below it (compare: the paired 95%
//     interval of the difference excludes 0), else "highest, not
//     significantly above" the rows that tie with it.
//   - A row without replicates (a record older than them) is named with
//     its accuracy and "not tested", never as a winner; when no row has
//     replicates the highest is named and nothing is tested.
//   - Coverage is named: the questions covered when every row covers as
//     many, else each row's, with the warning that rows are then scored
//     on different questions.

// analogyAnswer says, per ranking group and analogy set, which row is
// best by 3CosAdd and by 3CosMul and whether significantly, with the
// questions covered. A row tuned on the set is named as in-sample and not
// compared.
func (p *builder) analogyAnswer(groups []rowGroup, sets []string) Headline {
	var head Headline
	for _, g := range groups {
		for _, set := range sets {
			var clauses []string
			var claims []Claim
			var inSample []string
			cover := map[string]analogyCell{} // by row label, for the coverage clause
			var order []string
			for _, mul := range []bool{false, true} {
				key := records.Analogy(set, mul, "").Key()
				var cells []analogyCell
				for _, r := range g.rows {
					v, ok := r.Metrics[key]
					if !ok || !finite(v) {
						continue
					}
					if p.tunedOn(r.Record, set) {
						if !mul {
							inSample = append(inSample, r.Label)
						}
						continue
					}
					c := analogyCell{label: r.Label, estimate: r.Estimate(key), coverage: compare.Metric(r.Record, records.AnalogyCoverage(set, "").Key()),
						covered: compare.Metric(r.Record, records.AnalogyCounts(set, records.CountCovered, false).Key())}
					cells = append(cells, c)
					if _, ok := cover[r.Label]; !ok {
						cover[r.Label] = c
						order = append(order, r.Label)
					}
				}
				how := map[bool]string{false: "3CosAdd", true: "3CosMul"}[mul]
				if cl := analogyClause(how, cells); cl != "" {
					clauses = append(clauses, cl)
				}
				if c, ok := analogyClaim(how, cells); ok {
					claims = append(claims, c)
				}
			}
			if len(clauses) == 0 {
				continue
			}
			if len(inSample) > 0 {
				clauses = append(clauses, fmt.Sprintf("%s tuned on %s (in-sample): not compared", strings.Join(inSample, ", "), set))
			}
			where := set
			if g.label != "" {
				where = g.label + ", " + set
			}
			questions := math.NaN()
			for _, r := range g.rows {
				if q := compare.Metric(r.Record, records.AnalogyCounts(set, records.CountQuestions, false).Key()); finite(q) {
					questions = q
				}
			}
			head = append(head, fmt.Sprintf("At %s, accuracy over the covered questions: %s; %s.", where, strings.Join(clauses, "; "), coverageClause(order, cover, questions)))
			if len(claims) > 0 && p.verdicts["analogies"].Empty() {
				// The first group and set: the page's lead one.
				basis := where + ", accuracy over the covered questions"
				if cc := coverageClause(order, cover, questions); words(cc) <= 12 {
					basis += "; " + cc
				}
				p.setVerdict("analogies", Verdict{Claims: claims, Basis: basis})
			}
		}
	}
	return head
}

// analogyClause says which of cells is best by one rule ("3CosAdd"), and
// whether significantly; "" for no cell.
func analogyClause(how string, cells []analogyCell) string {
	if len(cells) == 0 {
		return ""
	}
	if len(cells) == 1 {
		return fmt.Sprintf("by %s only %s is scored (%s)", how, cells[0].label, cells[0].text())
	}
	top := -1
	for i, c := range cells {
		if c.Tested() && (top < 0 || roundTo(c.Value, 3) > roundTo(cells[top].Value, 3)) {
			top = i
		}
	}
	byValue := make([]int, len(cells)) // highest first
	for i := range byValue {
		byValue[i] = i
	}
	sort.SliceStable(byValue, func(i, j int) bool { return cells[byValue[i]].Value > cells[byValue[j]].Value })
	if top < 0 {
		var rest []string
		for _, i := range byValue[1:] {
			rest = append(rest, cells[i].label+" "+cells[i].text())
		}
		best := cells[byValue[0]]
		return fmt.Sprintf("by %s %s is highest (%s; then %s), but no row has bootstrap replicates (older records), so no difference is tested",
			how, best.label, best.text(), strings.Join(rest, ", "))
	}
	// The others are named highest first.
	others := slices.DeleteFunc(byValue, func(i int) bool { return i == top })
	var lower, ties, untested []string
	for _, i := range others {
		c := cells[i]
		item := c.label + " (" + c.text() + ")"
		switch compare.Compare(cells[top].estimate, c.estimate, 3) {
		case compare.Above:
			lower = append(lower, item)
		case compare.Tie, compare.Below:
			ties = append(ties, item)
		default:
			untested = append(untested, item)
		}
	}
	var b strings.Builder
	t := cells[top]
	switch {
	case len(ties) == 0 && len(lower) > 0:
		fmt.Fprintf(&b, "by %s %s is significantly best (%s), above %s", how, t.label, t.text(), joinAnd(lower))
	case len(ties) > 0:
		fmt.Fprintf(&b, "by %s %s is highest (%s)", how, t.label, t.text())
		if len(lower) > 0 {
			fmt.Fprintf(&b, ", significantly above %s,", joinAnd(lower))
		}
		fmt.Fprintf(&b, " but not significantly above %s: a tie, the paired 95%% interval of the difference holds 0", joinAnd(ties))
	default:
		fmt.Fprintf(&b, "by %s %s is highest (%s)", how, t.label, t.text())
	}
	if len(untested) > 0 {
		fmt.Fprintf(&b, "; not tested (no bootstrap replicates: older records): %s", strings.Join(untested, ", "))
	}
	return b.String()
}

// coverageClause names the questions the rows cover: once when every row
// covers the same share (with the counts when a record has them), else
// each row's share, and that rows covering different questions are scored
// on different questions.
func coverageClause(order []string, cover map[string]analogyCell, questions float64) string {
	shares := map[string]bool{}
	var each []string
	once := ""
	for _, l := range order {
		c := cover[l]
		shares[percent(c.coverage, 1)] = true
		each = append(each, l+" "+percent(c.coverage, 1))
		if finite(c.covered) && finite(questions) {
			once = fmt.Sprintf("%s of %s questions (%s)", thousands(c.covered), thousands(questions), percent(c.coverage, 1))
		} else if once == "" {
			once = percent(c.coverage, 1) + " of the questions"
		}
	}
	if len(shares) == 1 {
		return "every row covers " + once
	}
	return fmt.Sprintf("coverage differs (%s): each row is scored on the questions it covers, so a difference may come from the questions, not the vectors", strings.Join(each, ", "))
}

// joinAnd joins items as a sentence lists them: "a", "a and b", "a, b and c".
func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// analogyFooter is the footer's cells: per column the questions its rows
// cover, once when every row covers the same share (with the counts when
// a record has them: "9,274 of 19,544 (47.5%)"), else "varies: see cells"
// and perCell set, for each cell notes its own.
func analogyFooter(rows []row, cols []column) (cells []string, perCell []bool) {
	cells, perCell = make([]string, len(cols)), make([]bool, len(cols))
	for j, col := range cols {
		m := records.ParseMetric(col.Metric)
		shares := map[string]bool{}
		text := ""
		for _, r := range rows {
			c, ok := r.Metrics[col.Coverage]
			if !ok {
				continue
			}
			shares[percent(c, 1)] = true
			asked := compare.Metric(r.Record, records.AnalogyCounts(m.Set, records.CountCovered, false).Key())
			questions := compare.Metric(r.Record, records.AnalogyCounts(m.Set, records.CountQuestions, false).Key())
			if m.Section == "" && finite(asked) && finite(questions) {
				text = fmt.Sprintf("%s of %s (%s)", thousands(asked), thousands(questions), percent(c, 1))
			} else if text == "" {
				text = percent(c, 1)
			}
		}
		switch len(shares) {
		case 0:
			cells[j] = "—"
		case 1:
			cells[j] = text
		default:
			cells[j], perCell[j] = "varies: see cells", true
		}
	}
	return cells, perCell
}

// analogyTable draws a table of accuracies, rows in their ranking groups
// (one d each), with the questions covered in its footer. A whole set's
// accuracy carries its 95% bootstrap interval and its counts (right /
// covered, of the set's questions) and is ranked by RankSignificant; a
// section's, and an older record's without replicates, is never marked a
// win, only "not tested"; an accuracy on an analogy set the row was tuned
// on (tuned_on) is marked † and never ranked.
func (p *builder) analogyTable(groups []rowGroup, cols []column, id, caption string) ScoreTable {
	var rows []row
	for _, g := range groups {
		rows = append(rows, g.rows...)
	}
	t := table{Rows: rows, Cols: cols}
	covered, perCell := analogyFooter(rows, cols)
	st := ScoreTable{ID: id, RowHeader: "Trial", Columns: t.Header(), Caption: caption,
		Footer: []TextRow{{Name: "questions covered", Cells: covered}}}
	var legends []string
	var reps [][]estimate // per row and column, for RankTableEstimates
	counted, tuned := false, false
	for _, g := range groups {
		for _, r := range g.rows {
			sr := ScoreRow{Name: r.Label, Group: g.label, Scores: make([]float64, len(cols)), Notes: make([]string, len(cols)),
				Unranked: make([]bool, len(cols)), Quantities: make([][]Quantity, len(cols))}
			rowReps := make([]estimate, len(cols))
			for j, col := range cols {
				m := records.ParseMetric(col.Metric)
				e := r.Estimate(col.Metric)
				c := r.Cell(col.Metric)
				if lo, hi, ok := e.Interval(); ok {
					c.Quantity("lo", lo)
					c.Quantity("hi", hi)
				}
				right := compare.Metric(r.Record, records.AnalogyCounts(m.Set, records.CountCorrect, m.Mul).Key())
				asked := compare.Metric(r.Record, records.AnalogyCounts(m.Set, records.CountCovered, false).Key())
				questions := compare.Metric(r.Record, records.AnalogyCounts(m.Set, records.CountQuestions, false).Key())
				if m.Section == "" && finite(right) && finite(asked) && finite(questions) {
					c.Note(fmt.Sprintf("%s / %s (of %s)", thousands(right), thousands(asked), thousands(questions)))
					c.Quantity("right", right)
					c.Quantity("covered", asked)
					c.Quantity("questions", questions)
					counted = true
				} else if v, ok := r.Metrics[col.Coverage]; ok && perCell[j] {
					c.Note(percent(v, 1))
				}
				c.Quantity("coverage", compare.Metric(r.Record, col.Coverage))
				if p.tunedOn(r.Record, m.Set) {
					c.Note("†")
					c.Unranked = true
					tuned = true
				}
				sr.Scores[j], sr.Notes[j], sr.Unranked[j] = c.Value, strings.Join(c.Notes, " "), c.Unranked
				rowReps[j], sr.Quantities[j] = e, c.Quantities
			}
			st.Rows = append(st.Rows, sr)
			reps = append(reps, rowReps)
		}
	}
	if counted {
		legends = append(legends, "r / c (of n): r questions answered right of the c covered, of the set's n questions; accuracy is r / c.")
	}
	if tuned {
		legends = append(legends, tunedLegend)
	}
	st.Legend = strings.Join(legends, " ")
	return compare.RankTableEstimates(st, reps)
}

// htmlID makes a set key usable in an element id ("my.q.txt" → "my-q-txt").
func htmlID(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '-'
		}
	}
	return string(b)
}

// pearsonBlocks are the Pearson r tables next to the Spearman ones,
// collapsed: r is the secondary statistic (gensim's evaluate_word_pairs
// reports both). They rank as the Spearman tables do (groups of one d,
// each method at its ranked similarity, in-sample cells never); r has no
// bootstrap replicates, so no difference is tested and no r is marked
// best.
func (p *builder) pearsonBlocks(groups []rowGroup, sets []string) []Block {
	var blocks []Block
	for _, rule := range records.Rules {
		g := p.grid(groups, sets, func(set string) records.Metric { return records.Pearson(rule, set) })
		if g.empty() {
			continue
		}
		blocks = append(blocks, g.scoreTable("pearson-"+string(rule), fmt.Sprintf("Pearson r, %s rule; %s, the other in small type", rule, p.simText()), false, nil))
	}
	if len(blocks) == 0 {
		return nil
	}
	return []Block{Details{Summary: "Pearson r (both rules), next to Spearman ρ", Blocks: blocks}}
}
