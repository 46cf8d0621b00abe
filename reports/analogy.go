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
// record has analogy metrics.
func (p *builder) analogySection(recs []records.Record) *Section {
	var scored []records.Record
	var nums []int
	for i, rec := range recs {
		for k := range rec.Metrics {
			if records.ParseMetric(k).Kind == records.AnalogyCoverageMetric {
				scored = append(scored, rec)
				nums = append(nums, i+1)
				break
			}
		}
	}
	if len(scored) == 0 {
		return nil
	}
	sets, sections := analogySets(scored)
	labels := p.trialLabels(scored, nums)

	var cols []string
	for _, s := range sets {
		cols = append(cols, s+" 3CosAdd", s+" 3CosMul")
	}
	covered := TextRow{Name: "questions covered"}
	for _, s := range sets {
		c := sameCoverage(scored, records.AnalogyCoverage(s, "").Key())
		covered.Cells = append(covered.Cells, c, c)
	}
	total := ScoreTable{ID: "analogy-total", RowHeader: "Trial", Columns: cols,
		Caption: "Analogy accuracy over the covered questions (gensim's evaluate_word_analogies): 3CosAdd and 3CosMul",
		Footer:  []TextRow{covered}}
	for i, rec := range scored {
		r := ScoreRow{Name: labels[i]}
		for _, s := range sets {
			cov := coverageNote(scored, rec, records.AnalogyCoverage(s, "").Key())
			r.Scores = append(r.Scores, metric(rec, records.Analogy(s, false, "").Key()), metric(rec, records.Analogy(s, true, "").Key()))
			r.Notes = append(r.Notes, cov, cov)
		}
		total.Rows = append(total.Rows, r)
	}

	sec := &Section{ID: "analogies", Title: "Analogies"}
	intro := fmt.Sprintf("“a is to a* as b is to ?”, %d trial(s) × %d set(s), answered as gensim's evaluate_word_analogies does: "+
		"words folded to lower case, the answer the candidate other than a, a* and b nearest to â* − â + b̂ by cosine (3CosAdd), "+
		"or maximising p(x, a*)·p(x, b)/(p(x, a) + ε) with p = (cos + 1)/2 and ε = 0.001 (3CosMul, Levy and Goldberg 2014). "+
		"Candidates and question words are the eval.analogy_vocab most frequent words; a question with a word outside them is not covered, and accuracy is over the covered questions.",
		len(scored), len(sets))
	sec.Blocks = append(sec.Blocks, Paragraph(intro), total)
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
			t := ScoreTable{ID: fmt.Sprintf("analogy-%s-%s", htmlID(s), how), RowHeader: "Trial", Columns: sections[s],
				Caption: fmt.Sprintf("%s: %s accuracy per section", s, how)}
			cover := TextRow{Name: "questions covered"}
			for _, name := range sections[s] {
				cover.Cells = append(cover.Cells, sameCoverage(scored, records.AnalogyCoverage(s, name).Key()))
			}
			t.Footer = []TextRow{cover}
			for i, rec := range scored {
				r := ScoreRow{Name: labels[i]}
				for _, name := range sections[s] {
					r.Scores = append(r.Scores, metric(rec, records.Analogy(s, mul, name).Key()))
					r.Notes = append(r.Notes, coverageNote(scored, rec, records.AnalogyCoverage(s, name).Key()))
				}
				t.Rows = append(t.Rows, r)
			}
			blocks = append(blocks, t)
		}
		sec.Blocks = append(sec.Blocks, Details{Summary: fmt.Sprintf("%s per section: %d sections", s, len(sections[s])), Blocks: blocks})
	}
	return sec
}

// sameCoverage is the footer cell of a coverage metric: its value when
// every trial has the same, else a pointer to the cells.
func sameCoverage(recs []records.Record, key string) string {
	shown := map[string]bool{}
	for _, rec := range recs {
		if c, ok := rec.Metrics[key]; ok {
			shown[percent(c, 1)] = true
		}
	}
	switch len(shown) {
	case 0:
		return "—"
	case 1:
		return sortedKeys(shown)[0]
	}
	return "varies: see cells"
}

// coverageNote is a cell's coverage note, shown only when the trials'
// coverages differ (else the footer says it once).
func coverageNote(recs []records.Record, rec records.Record, key string) string {
	if sameCoverage(recs, key) != "varies: see cells" {
		return ""
	}
	if c, ok := rec.Metrics[key]; ok {
		return percent(c, 1)
	}
	return ""
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
