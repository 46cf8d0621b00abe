package reports

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
)

// paperMatch is the row standing for one paper row: one trial, or its
// replicates (seeds) folded into their mean, as every score table shows
// them.
type paperMatch struct {
	published ScoreRow // the published scores, in the paper's columns
	row
}

// pickPaperTrials finds, among the scored trials (replicates folded into
// one row), per paper row the finished row that stands for it:
// mapping[row] (a label or a trial id, of any of its replicates) or the
// row's own name as a label. Rows are compared only at one dimension d,
// so of a paper row's candidates the one at the common d is taken: the d
// at which the most paper rows have a candidate (on ties the largest,
// nearest the paper's d = 8000); a paper row with none there takes its
// candidate with the largest d (and is ranked in a group of its own).
// The paper's rows are all on one corpus, its whole text8, so before d is
// looked at every row keeps only its candidates on the most data (its
// largest data.fraction). Among several candidates at one d, the first.
func pickPaperTrials(scored projection, mapping []string) ([]paperMatch, []string) {
	target := map[string]string{}
	for _, m := range mapping {
		if row, trial, ok := strings.Cut(m, "="); ok {
			target[strings.TrimSpace(row)] = strings.TrimSpace(trial)
		}
	}
	rows := scored.Where(compare.HasStatus("ok")).Rows(true)
	is := func(r row, want string) bool {
		if r.ID == want || givenName(r.Record) == want {
			return true
		}
		return slices.ContainsFunc(r.Members, func(m records.Record) bool { return m.ID == want })
	}
	cands := make([][]row, len(paperRows))
	rowsAt := map[float64]int{}
	for i, pr := range paperRows {
		want := pr.Name
		if t, ok := target[pr.Name]; ok {
			want = t
		}
		for _, r := range rows {
			if is(r, want) {
				cands[i] = append(cands[i], r)
			}
		}
	}
	for i, cs := range cands {
		top := 0.0
		for _, r := range cs {
			top = max(top, fractionOf(r.Record))
		}
		cands[i] = slices.DeleteFunc(cs, func(r row) bool { return fractionOf(r.Record) != top })
		seen := map[float64]bool{}
		for _, r := range cands[i] {
			if d := dimOf(r.Record); !seen[d] {
				seen[d] = true
				rowsAt[d]++
			}
		}
	}
	common, count := math.NaN(), 0
	for d, n := range rowsAt {
		if n > count || (n == count && d > common) {
			common, count = d, n
		}
	}
	var out []paperMatch
	var missing []string
	for i, pr := range paperRows {
		if len(cands[i]) == 0 {
			missing = append(missing, pr.Name)
			continue
		}
		pick := largestDim(cands[i])
		for _, r := range cands[i] {
			if dimOf(r.Record) == common {
				pick = r
				break
			}
		}
		out = append(out, paperMatch{published: pr, row: pick})
	}
	return out, missing
}

// largestDim is the row with the largest dimension d (dimOf), the first
// on ties.
func largestDim(rs []row) row {
	best := rs[0]
	for _, r := range rs[1:] {
		if dimOf(r.Record) > dimOf(best.Record) {
			best = r
		}
	}
	return best
}

// settingValue prints a trial's setting so a row says what the trial
// really used: a 0 that means the method's own default (train.window = 0
// is GloVe's 15) is that default.
func (p *builder) settingValue(rec records.Record, key string, v any) string {
	if n, ok := compare.Number(v); ok && n == 0 {
		if d, ok := p.method(rec).ZeroMeans[key]; ok {
			return d + " (default)"
		}
	}
	return formatValue(v)
}

// rowSettings says which settings a trial of the paper table used: the
// dimension and window for all, the table for CA methods, the epochs for
// trained ones.
func (p *builder) rowSettings(rec records.Record) string {
	var parts []string
	add := func(name, key string) {
		if v, ok := rec.Settings[key]; ok {
			parts = append(parts, name+" = "+p.settingValue(rec, key, v))
		}
	}
	add("d", "svd.rank")
	if _, trained := rec.Settings["train.epochs"]; trained {
		if v, ok := rec.Settings["train.dim"]; ok {
			if n, _ := compare.Number(v); n != 0 {
				parts[len(parts)-1] = "d = " + formatValue(v)
			}
		}
		add("W", "train.window")
		add("epochs", "train.epochs")
	} else {
		add("table", "data.table")
		add("W", "data.window")
	}
	if v, ok := rec.Settings["sca.mode"]; ok && p.method(rec).InSampleSet != nil {
		parts = append(parts, formatValue(v))
	}
	return strings.Join(parts, ", ")
}

// signed prints a difference with its sign ("+0.012", "−0.226").
func signed(v float64, digits int) string {
	if !finite(v) {
		return "—"
	}
	s := strconv.FormatFloat(math.Abs(roundTo(v, digits)), 'f', digits, 64)
	r := roundTo(v, digits)
	for d := digits + 1; r == 0 && v != 0 && d <= digits+6; d++ {
		// A value that rounds to zero keeps its sign and its first
		// significant digit: "−0.0005" beside "reference higher", never
		// "±0.000".
		if x := roundTo(v, d); x != 0 {
			r, s = x, strconv.FormatFloat(math.Abs(x), 'f', d, 64)
		}
	}
	switch {
	case r > 0:
		return "+" + s
	case r < 0:
		return "−" + s
	}
	return "±" + s
}

// paperSection is the paper's Table 3 with our numbers: one row per paper
// method (the trial standing for it, with its settings), our ρ (zero rule,
// as the paper) and in each cell the published value and Δ and, where
// the rows' coverage of a set differs, the cell's coverage (else once in
// the footer; in the CSV always, as a number), ranked as
// every score table is (groups of one d, each method at its ranked
// similarity, in-sample cells never, a win only where the paired
// bootstrap says so), under a headline computed from them; the other
// scored trials follow. The headline names the coverage behind a verdict
// it decides (verdictCoverage). nil when no trial stands for a paper row.
func (p *builder) paperSection(recs []records.Record, mapping []string) *Section {
	scored := p.project(recs, compare.HasMetric(records.ScoreMetric))
	matches, missing := pickPaperTrials(scored, mapping)
	var sets []string
	for _, s := range wordSets(scored.Records()) {
		if isPaperSet(s) {
			sets = append(sets, s)
		}
	}
	if len(matches) == 0 || len(sets) == 0 {
		return nil
	}
	s := &Section{ID: "paper", Title: "The paper's table"}
	g, t := p.paperTable(matches, sets)
	if h := p.groupHeadline(g, mainGroup(g), records.RuleZero, ""); h != "" {
		s.Blocks = append(s.Blocks, Headline{h})
	}
	if c, ok := p.orderingClaim(g, mainGroup(g), records.RuleZero); ok {
		p.setVerdict(s.ID, Verdict{Claims: []Claim{c}, Basis: "the paper's rows at " + g.groups[mainGroup(g)].label + ", zero rule"})
	}
	s.Blocks = append(s.Blocks, Paragraph(paperIntro(recs[0], matches)), t)
	if len(missing) > 0 {
		s.Blocks = append(s.Blocks, Paragraph("No trial stands for "+strings.Join(missing, ", ")+
			" (a trial stands for a row when its label is the row's name, or by the spec's report.paper_rows)."))
	}
	// Every other scored trial, ranked among themselves; replicates (seeds)
	// are one row: their mean, with their spread.
	used := map[string]bool{}
	for _, m := range matches {
		used[m.ID] = true
		for _, r := range m.Members {
			used[r.ID] = true
		}
	}
	rest := scored.Where(func(rec records.Record) bool { return !used[rec.ID] })
	if rest.Len() > 0 {
		rows := rest.Rows(true)
		og := p.grid(p.groupByDim(rows), sets, scoreOf(records.RuleZero))
		o := og.scoreTable("paper-others", "The other trials (zero rule; "+p.simText()+", the other in small type), ranked among themselves", false, nil)
		s.Blocks = append(s.Blocks, collapse(len(o.Rows), "The other "+rowsOf(len(o.Rows), rest.Len())+" (dimension sweep, folds, …)", o)...)
	}
	return s
}

// paperTable is one row per matched paper row: the trial (its label and
// settings) and, in each cell, the published value and Δ; and the grid
// its headline reads, its rows named by the paper's rows alone.
func (p *builder) paperTable(matches []paperMatch, sets []string) (scoreGrid, ScoreTable) {
	published := map[string]ScoreRow{}
	for _, r := range PaperScores(sets) {
		published[r.Name] = r
	}
	rows := make([]row, len(matches))
	short := make([]row, len(matches)) // named by the paper's rows alone, for the headline
	pub := map[string]ScoreRow{}       // by trial id
	for i, m := range matches {
		label := givenName(m.Record)
		if label == "" {
			label = m.ID
		}
		// The row keeps its replicates: a cell is their mean, with their
		// spread, as in every other score table.
		rows[i], short[i] = m.row, m.row
		rows[i].Label = m.published.Name + ": " + label + " (" + p.rowSettings(m.Record) + ")"
		short[i].Label = m.published.Name
		pub[m.ID] = published[m.published.Name]
	}
	g := p.grid(p.groupByDim(rows), sets, scoreOf(records.RuleZero))
	t := g.scoreTable("paper-table", "The paper's Table 3: our Spearman ρ (zero rule; "+p.simText()+", the other in small type), then the published value (full text8; the tail cut at d = 8000) and Δ = ours − published", true,
		func(gi, i, j int, c *cell) {
			v := pub[g.groups[gi].rows[i].ID].Scores[j]
			c.Note("paper " + formatScore(v, 3) + " · Δ " + signed(c.Value-v, 3))
			c.Quantity("paper", v)
			c.Quantity("delta", c.Value-v)
		})
	t.RowHeader = "Paper method: our trial (its settings)"
	return p.grid(p.groupByDim(short), sets, scoreOf(records.RuleZero)), t
}

// fractionOf is the share of the corpus a trial read (data.fraction; 1
// when the spec does not set it).
func fractionOf(rec records.Record) float64 {
	if f, ok := compare.Number(rec.Settings["data.fraction"]); ok {
		return f
	}
	return 1
}

// paperIntro says what the paper's table compares: our corpus (the first
// trial's name, the fractions of it the rows read) against the published
// full text8.
func paperIntro(first records.Record, matches []paperMatch) string {
	corpus := "our corpus"
	if c, ok := first.Settings["data.corpus"]; ok {
		corpus = formatValue(c)
		var fracs []float64
		for _, m := range matches {
			if f := fractionOf(m.Record); !slices.Contains(fracs, f) {
				fracs = append(fracs, f)
			}
		}
		slices.Sort(fracs)
		switch {
		case len(fracs) == 1 && fracs[0] != 1:
			corpus += fmt.Sprintf(" (fraction %s)", formatValue(fracs[0]))
		case len(fracs) > 1:
			fs := make([]string, len(fracs))
			for i, f := range fracs {
				fs[i] = formatValue(f)
			}
			corpus += " (fractions " + strings.Join(fs, ", ") + ": not every row ran on the same share)"
		}
	}
	return "One row per method of the paper's Table 3, each at the setting of the trial that stands for it (named in the row). " +
		"Ours: " + corpus + ", zero rule (a pair with an out-of-vocabulary word scores 0), as the paper. " +
		"The published values are on the full text8 corpus (17 M tokens) with d = 8000 for the tail cut (the other CA rows' settings are not published), " +
		"so Δ measures corpus, dimension and implementation together, not the implementation alone."
}

// rowsOf names a table's rows by what they hold: "41 trials" when each
// row is one, "41 rows of 65 trials (replicates folded)" when replicates
// share a row, so that a count always matches the rows below it.
func rowsOf(rows, trials int) string {
	if rows == trials {
		return fmt.Sprintf("%d trial%s", trials, plural(trials))
	}
	return fmt.Sprintf("%d rows of %d trials (replicates folded)", rows, trials)
}
