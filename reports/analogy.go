package reports

import (
	"fmt"
	"kcalab/records"
	"math"
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
	scored := p.project(recs, hasMetric(records.AnalogyCoverageMetric))
	if scored.len() == 0 {
		return nil
	}
	sets, sections := analogySets(scored.records())
	rows := scored.rows(false)
	var cols []column
	for _, s := range sets {
		cover := records.AnalogyCoverage(s, "").Key()
		cols = append(cols, column{name: s + " 3CosAdd", metric: records.Analogy(s, false, "").Key(), coverage: cover},
			column{name: s + " 3CosMul", metric: records.Analogy(s, true, "").Key(), coverage: cover})
	}
	sec := &Section{ID: "analogies", Title: "Analogies"}
	intro := fmt.Sprintf("“a is to a* as b is to ?”, %d trial(s) × %d set(s), answered as gensim's evaluate_word_analogies does: "+
		"words folded to lower case, the answer the candidate other than a, a* and b nearest to â* − â + b̂ by cosine (3CosAdd), "+
		"or maximising p(x, a*)·p(x, b)/(p(x, a) + ε) with p = (cos + 1)/2 and ε = 0.001 (3CosMul, Levy and Goldberg 2014). "+
		"Candidates and question words are the eval.analogy_vocab most frequent words; a question with a word outside them is not covered, and accuracy is over the covered questions.",
		len(rows), len(sets))
	sec.Blocks = append(sec.Blocks, Paragraph(intro), analogyTable(table{rows, cols}, "analogy-total",
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
				cols = append(cols, column{name: name, metric: records.Analogy(s, mul, name).Key(), coverage: records.AnalogyCoverage(s, name).Key()})
			}
			blocks = append(blocks, analogyTable(table{rows, cols}, fmt.Sprintf("analogy-%s-%s", htmlID(s), how), fmt.Sprintf("%s: %s accuracy per section", s, how)))
		}
		sec.Blocks = append(sec.Blocks, Details{Summary: fmt.Sprintf("%s per section: %d sections", s, len(sections[s])), Blocks: blocks})
	}
	return sec
}

// analogyTable draws a table of accuracies with the questions covered in
// its footer.
func analogyTable(t table, id, caption string) ScoreTable {
	covered, _ := t.coverage()
	return ScoreTable{ID: id, RowHeader: "Trial", Columns: t.header(), Rows: t.scoreRows(nil), Caption: caption,
		Footer: []TextRow{{Name: "questions covered", Cells: covered}}}
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
// reports both).
func pearsonBlocks(rows []row, sets []string) []Block {
	var blocks []Block
	for _, rule := range records.Rules {
		t := table{rows, setColumns(sets, func(set string) records.Metric { return records.Pearson(rule, set) }, false)}
		sr := t.scoreRows(nil)
		has := false
		for _, r := range sr {
			for _, v := range r.Scores {
				has = has || !math.IsNaN(v)
			}
		}
		if has {
			blocks = append(blocks, ScoreTable{ID: "pearson-" + string(rule), RowHeader: "Trial", Columns: t.header(), Rows: sr,
				Caption: fmt.Sprintf("Pearson r, %s rule", rule)})
		}
	}
	if len(blocks) == 0 {
		return nil
	}
	return []Block{Details{Summary: "Pearson r (both rules), next to Spearman ρ", Blocks: blocks}}
}
