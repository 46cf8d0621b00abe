package reports

import (
	"fmt"
	"math"
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
// per set with its coverage, then per section (collapsed); nil when no
// record has analogy metrics. Each trial is a row of its own.
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
		cover := records.AnalogyCoverage(s, "").Key()
		cols = append(cols, column{Name: s + " 3CosAdd", Metric: records.Analogy(s, false, "").Key(), Coverage: cover},
			column{Name: s + " 3CosMul", Metric: records.Analogy(s, true, "").Key(), Coverage: cover})
	}
	sec := &Section{ID: "analogies", Title: "Analogies"}
	intro := fmt.Sprintf("“a is to a* as b is to ?”, %d trial(s) × %d set(s), answered as gensim's evaluate_word_analogies does: "+
		"words folded to lower case, the answer the candidate other than a, a* and b nearest to â* − â + b̂ by cosine (3CosAdd), "+
		"or maximising p(x, a*)·p(x, b)/(p(x, a) + ε) with p = (cos + 1)/2 and ε = 0.001 (3CosMul, Levy and Goldberg 2014). "+
		"Candidates and question words are the eval.analogy_vocab most frequent words; a question with a word outside them is not covered, and accuracy is over the covered questions.",
		len(rows), len(sets))
	if h := p.analogyAnswer(groups, sets); len(h) > 0 {
		sec.Blocks = append(sec.Blocks, h)
	}
	sec.Blocks = append(sec.Blocks, Paragraph(intro), p.analogyTable(groups, cols, "analogy-total",
		"Analogy accuracy over the covered questions (gensim's evaluate_word_analogies): 3CosAdd and 3CosMul"))
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
			blocks = append(blocks, p.analogyTable(groups, cols, fmt.Sprintf("analogy-%s-%s", htmlID(s), how), fmt.Sprintf("%s: %s accuracy per section", s, how)))
		}
		sec.Blocks = append(sec.Blocks, Details{Summary: fmt.Sprintf("%s per section: %d sections", s, len(sections[s])), Blocks: blocks})
	}
	return sec
}

// analogyAnswer says, per ranking group and analogy set, each row's
// accuracy by 3CosAdd and 3CosMul, highest first, with the questions
// covered; accuracies have no bootstrap replicates, so it says no
// difference is tested. A row tuned on the set is left out.
func (p *builder) analogyAnswer(groups []rowGroup, sets []string) Headline {
	var head Headline
	for _, g := range groups {
		for _, set := range sets {
			var parts []string
			cover := math.NaN()
			for _, mul := range []bool{false, true} {
				type acc struct {
					label string
					v     float64
				}
				var accs []acc
				for _, r := range g.rows {
					v, ok := r.Metrics[records.Analogy(set, mul, "").Key()]
					if !ok || !finite(v) || p.tunedOn(r.Record, set) {
						continue
					}
					accs = append(accs, acc{r.Label, v})
					if c, ok := r.Metrics[records.AnalogyCoverage(set, "").Key()]; ok && math.IsNaN(cover) {
						cover = c
					}
				}
				if len(accs) == 0 {
					continue
				}
				sort.SliceStable(accs, func(i, j int) bool { return accs[i].v > accs[j].v })
				var items []string
				for _, a := range accs {
					items = append(items, a.label+" "+sig(a.v, 3))
				}
				how := map[bool]string{false: "3CosAdd", true: "3CosMul"}[mul]
				parts = append(parts, how+" "+strings.Join(items, ", "))
			}
			if len(parts) == 0 {
				continue
			}
			where := set
			if g.label != "" {
				where = g.label + ", " + set
			}
			if finite(cover) {
				where += fmt.Sprintf(" (%s of the questions covered)", percent(cover, 1))
			}
			head = append(head, fmt.Sprintf("Accuracy at %s: %s; no bootstrap replicates, so no difference is tested.", where, strings.Join(parts, "; ")))
		}
	}
	return head
}

// analogyTable draws a table of accuracies with the questions covered in
// its footer, rows in their ranking groups (one d each). Accuracies have
// no bootstrap replicates, so none is marked best, only "not tested"; an
// accuracy on an analogy set the row was tuned on (tuned_on) is marked †
// and never ranked.
func (p *builder) analogyTable(groups []rowGroup, cols []column, id, caption string) ScoreTable {
	var rows []row
	for _, g := range groups {
		rows = append(rows, g.rows...)
	}
	t := table{Rows: rows, Cols: cols}
	covered, perCell := t.Coverage()
	st := ScoreTable{ID: id, RowHeader: "Trial", Columns: t.Header(), Caption: caption,
		Footer: []TextRow{{Name: "questions covered", Cells: covered}}}
	for _, g := range groups {
		for _, r := range g.rows {
			sr := ScoreRow{Name: r.Label, Group: g.label, Scores: make([]float64, len(cols)), Notes: make([]string, len(cols)), Unranked: make([]bool, len(cols))}
			for j, col := range cols {
				c := r.Cell(col.Metric)
				if v, ok := r.Metrics[col.Coverage]; ok && perCell[j] {
					c.Note(percent(v, 1))
				}
				if p.tunedOn(r.Record, records.ParseMetric(col.Metric).Set) {
					c.Note("†")
					c.Unranked = true
					st.Legend = tunedLegend
				}
				sr.Scores[j], sr.Notes[j], sr.Unranked[j] = c.Value, strings.Join(c.Notes, " "), c.Unranked
			}
			st.Rows = append(st.Rows, sr)
		}
	}
	return RankTable(st, nil)
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
