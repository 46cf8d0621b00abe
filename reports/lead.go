package reports

import (
	"fmt"
	"kcalab/records"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Section names a spec's report.lead may give, in the order sections
// appear when nothing decides otherwise.
var sectionOrder = []string{"paper", "pairs", "check", "scores", "analogies", "sweeps", "scaling", "calibration", "words", "ca", "trials"}

// longTable is the row count above which a table is collapsed: a reader
// should reach the charts without scrolling past it.
const longTable = 12

// orderSections puts the page's sections in the order of what the spec is
// for: the named lead first; otherwise (auto) the paper's table, reference
// pairs and check when present, time and memory when every scored trial is
// measured (a scaling spec), the sweeps when the score table is long (a
// sweep spec), then the rest in sectionOrder.
// scored is the page's trials with scores.
func orderSections(lead string, secs map[string]*Section, scored projection) []Section {
	order := append([]string(nil), sectionOrder...)
	moveFirst := func(name string, after int) {
		i := indexOf(order, name)
		if i < 0 {
			return
		}
		order = append(order[:i], order[i+1:]...)
		order = append(order[:after], append([]string{name}, order[after:]...)...)
	}
	if lead == "" || lead == "auto" {
		ranked := scored.where(not(isMeasuredTrial)).len()
		front := 0
		for _, n := range []string{"paper", "pairs", "check"} {
			if secs[n] != nil {
				front++
			}
		}
		switch {
		case secs["scaling"] != nil && ranked == 0:
			moveFirst("scaling", 3)
		case secs["sweeps"] != nil && ranked > longTable && front == 0:
			moveFirst("sweeps", 3)
		}
	} else {
		moveFirst(lead, 0)
	}
	var out []Section
	for _, n := range order {
		if s := secs[n]; s != nil {
			out = append(out, *s)
		}
	}
	return out
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// isMeasuredTrial reports whether a trial measures time and memory (a
// scaling trial): its scores are a by-product, at sizes chosen for the
// measurement, and are never ranked against the methods'.
func isMeasuredTrial(rec records.Record) bool {
	return isMeasured(rec) || measuredInChild(rec)
}

// collapse wraps blocks in a closed Details when rows exceed longTable.
func collapse(rows int, summary string, blocks ...Block) []Block {
	if rows <= longTable {
		return blocks
	}
	return []Block{Details{Summary: summary, Blocks: blocks}}
}

// ---- The paper's table ----

// paperMatch is the trial standing for one paper row.
type paperMatch struct {
	row ScoreRow // the published scores, in the paper's columns
	trial
}

// pickPaperTrials finds, among the scored trials, per paper row the
// finished one that stands for it: mapping[row] (a label or a trial id)
// or the row's own name as a label; among several trials with that label,
// the one with the largest svd.rank (the paper used d = 8000), the first
// on ties.
func pickPaperTrials(scored projection, mapping []string) ([]paperMatch, []string) {
	target := map[string]string{}
	for _, m := range mapping {
		if row, trial, ok := strings.Cut(m, "="); ok {
			target[strings.TrimSpace(row)] = strings.TrimSpace(trial)
		}
	}
	finished := scored.where(hasStatus("ok"))
	var out []paperMatch
	var missing []string
	for _, pr := range paperRows {
		want := pr.Name
		if t, ok := target[pr.Name]; ok {
			want = t
		}
		named := finished.where(func(rec records.Record) bool { return rec.ID == want || givenName(rec) == want })
		if named.len() == 0 {
			missing = append(missing, pr.Name)
			continue
		}
		out = append(out, paperMatch{row: pr, trial: largestRank(named.trials)})
	}
	return out, missing
}

// largestRank is the trial with the largest svd.rank (0 when it has none),
// the first on ties: of a group of trials, the one a page shows alone.
func largestRank(ts []trial) trial {
	best := ts[0]
	for _, t := range ts[1:] {
		a, _ := number(best.Settings["svd.rank"])
		b, _ := number(t.Settings["svd.rank"])
		if b > a {
			best = t
		}
	}
	return best
}

// settingValue prints a trial's setting so a row says what the trial
// really used: a 0 that means the method's own default (train.window = 0
// is GloVe's 15) is that default.
func (p *builder) settingValue(rec records.Record, key string, v any) string {
	if n, ok := number(v); ok && n == 0 {
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
			if n, _ := number(v); n != 0 {
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
	switch r := roundTo(v, digits); {
	case r > 0:
		return "+" + s
	case r < 0:
		return "−" + s
	}
	return "±" + s
}

// paperSection is the paper's Table 3 with our numbers: one row per paper
// method (the trial standing for it, with its settings), our ρ (zero rule,
// as the paper) and in each cell the published value and Δ; the other
// scored trials follow. nil when no trial stands for a paper row.
func (p *builder) paperSection(recs []records.Record, mapping []string) *Section {
	scored := p.project(recs, hasMetric(records.ScoreMetric), not(isMeasuredTrial))
	matches, missing := pickPaperTrials(scored, mapping)
	var sets []string
	for _, s := range wordSets(scored.records()) {
		if isPaperSet(s) {
			sets = append(sets, s)
		}
	}
	if len(matches) == 0 || len(sets) == 0 {
		return nil
	}
	cols := setColumns(sets, scoreOf(records.RuleZero), false)
	s := &Section{ID: "paper", Title: "The paper's table"}
	t, inSample := p.paperTable(matches, cols, sets)
	s.Blocks = append(s.Blocks, Paragraph(paperIntro(recs[0])), t)
	legend := "Red and magenta rank our values per column among the paper's rows"
	if inSample {
		legend += "; † marks a score on the set the SCA trial was tuned on (in-sample, as the paper's SCA rows): shown, never ranked"
	}
	s.Blocks = append(s.Blocks, Paragraph(legend+"."))
	if len(missing) > 0 {
		s.Blocks = append(s.Blocks, Paragraph("No trial stands for "+strings.Join(missing, ", ")+
			" (a trial stands for a row when its label is the row's name, or by the spec's report.paper_rows)."))
	}
	// Every other scored trial, ranked among themselves; replicates (seeds)
	// are one row: their mean, ± their spread.
	used := map[string]bool{}
	for _, m := range matches {
		used[m.ID] = true
	}
	rest := scored.where(func(rec records.Record) bool { return !used[rec.ID] })
	if rest.len() > 0 {
		rows := rest.rows(true)
		o := ScoreTable{ID: "paper-others", RowHeader: "Trial", Columns: table{cols: cols}.header(),
			Rows:    table{rows, cols}.scoreRows(p.paperCells(rows, sets, nil, nil)),
			Caption: "The other trials (zero rule), ranked among themselves"}
		s.Blocks = append(s.Blocks, collapse(len(o.Rows), fmt.Sprintf("The other %d trials (dimension sweep, folds, …)", len(o.Rows)), o)...)
	}
	return s
}

// paperTable is one row per matched paper row: the trial (its label and
// settings) and, in each cell, the published value and Δ.
func (p *builder) paperTable(matches []paperMatch, cols []column, sets []string) (t ScoreTable, inSample bool) {
	published := map[string]ScoreRow{}
	for _, r := range PaperScores(sets) {
		published[r.Name] = r
	}
	rows := make([]row, len(matches))
	pub := make([]ScoreRow, len(matches))
	for i, m := range matches {
		label := givenName(m.Record)
		if label == "" {
			label = m.ID
		}
		rows[i] = row{trial: m.trial, label: m.row.Name + ": " + label + " (" + p.rowSettings(m.Record) + ")", n: 1}
		pub[i] = published[m.row.Name]
	}
	t = ScoreTable{ID: "paper-table", RowHeader: "Paper method: our trial (its settings)", Columns: table{cols: cols}.header(),
		Rows:    table{rows, cols}.scoreRows(p.paperCells(rows, sets, pub, &inSample)),
		Caption: "The paper's Table 3: our Spearman ρ (zero rule), then the published value (full text8; the tail cut at d = 8000) and Δ = ours − published"}
	return t, inSample
}

// paperCells notes a cell of the paper's tables: the published value and
// Δ when the row stands for a paper row (pub, one per row, or nil), † and
// no mark on the set an in-sample trial was tuned on (then *inSample is
// set, when not nil), the replicates' spread.
func (p *builder) paperCells(rows []row, sets []string, pub []ScoreRow, inSample *bool) func(i, j int, c *cell) {
	trained := make([]string, len(rows))
	for i, r := range rows {
		trained[i] = p.inSampleSet(r.Record)
	}
	return func(i, j int, c *cell) {
		if pub != nil {
			v := pub[i].Scores[j]
			c.note("paper " + formatScore(v, 3) + " · Δ " + signed(c.value-v, 3))
		}
		if sets[j] == trained[i] {
			c.note("†")
			c.unranked = true
			if inSample != nil {
				*inSample = true
			}
		}
		c.note(c.spread())
	}
}

// paperIntro says what the paper's table compares: our corpus (the first
// trial's) against the published full text8.
func paperIntro(first records.Record) string {
	corpus := "our corpus"
	if c, ok := first.Settings["data.corpus"]; ok {
		corpus = formatValue(c)
		if f, ok := number(first.Settings["data.fraction"]); ok && f != 1 {
			corpus += fmt.Sprintf(" (fraction %s)", formatValue(f))
		}
	}
	return "One row per method of the paper's Table 3, each at the setting of the trial that stands for it (named in the row). " +
		"Ours: " + corpus + ", zero rule (a pair with an out-of-vocabulary word scores 0), as the paper. " +
		"The published values are on the full text8 corpus (17 M tokens) with d = 8000 for the tail cut (the other CA rows' settings are not published), " +
		"so Δ measures corpus, dimension and implementation together, not the implementation alone."
}

// ---- Go against reference implementations ----

// pairsSection puts each Go method next to its reference implementation
// (method external), matched by label: "SGNS (Go)" and "SGNS (gensim)"
// share "SGNS". nil when no such pair exists.
func (b *builder) pairsSection(recs []records.Record) *Section {
	scored := b.project(recs, hasMetric(records.ScoreMetric))
	sets := wordSets(scored.records())
	t := Table{ID: "pairs-table", Caption: "Go against the reference implementation: Spearman ρ (zero rule) per set, and training time",
		Header:  []string{"Method", "Set", "Go", "Reference", "ρ Go", "ρ reference", "Δρ (Go − reference)", "Coverage Go / reference", "Training s Go", "Training s reference"},
		Numeric: []bool{false, false, false, false, true, true, true, true, true, true}}
	var alone []string
	named := scored.where(func(rec records.Record) bool { return pairBase(rec) != "" })
	for _, g := range named.groupBy(func(_ int, t trial) string { return pairBase(t.Record) }) {
		goTrial, refs := b.splitReference(g.trials)
		if goTrial == nil || len(refs) == 0 {
			for _, r := range append(refs, goTrial) {
				if r != nil {
					alone = append(alone, givenName(r.Record))
				}
			}
			continue
		}
		for _, ref := range refs {
			t.Rows = append(t.Rows, pairRows(g.key, goTrial.Record, ref.Record, sets)...)
		}
	}
	if len(t.Rows) == 0 {
		return nil
	}
	s := &Section{ID: "pairs", Title: "Go against the reference implementations"}
	s.Blocks = append(s.Blocks, Paragraph("Each Go trainer next to the reference implementation run at the same settings (trials matched by label: “X (Go)” with “X (…)” of method external). "+
		"Δρ > 0: the Go version scores higher. Training time is the trial's “train” stage in seconds (one thread each); the skip rule's scores are in the score tables."), t)
	if len(alone) > 0 {
		sort.Strings(alone)
		s.Blocks = append(s.Blocks, Paragraph("Without a counterpart: "+strings.Join(alone, ", ")+"."))
	}
	return s
}

// pairBase is what a trial's label shares with its counterpart's: the
// label without its last " (…)".
func pairBase(rec records.Record) string {
	l := givenName(rec)
	if i := strings.LastIndex(l, " ("); i > 0 && strings.HasSuffix(l, ")") {
		return l[:i]
	}
	return l
}

// splitReference splits the trials of one pair label into the Go trial
// (the first that is not a reference implementation) and the references.
func (b *builder) splitReference(ts []trial) (goTrial *trial, refs []*trial) {
	for i := range ts {
		switch t := &ts[i]; {
		case b.method(t.Record).Reference:
			refs = append(refs, t)
		case goTrial == nil:
			goTrial = t
		}
	}
	return goTrial, refs
}

// pairRows compare a Go trial with a reference one, a row per set.
func pairRows(name string, goRec, ref records.Record, sets []string) [][]string {
	var rows [][]string
	for _, set := range sets {
		g, r := metric(goRec, records.Score(records.RuleZero, set).Key()), metric(ref, records.Score(records.RuleZero, set).Key())
		rows = append(rows, []string{name, setDisplay(set), givenName(goRec), givenName(ref),
			formatScore(g, 3), formatScore(r, 3), signed(g-r, 3),
			coverageText(metric(goRec, records.Coverage(set).Key()), 0, false) + " / " + coverageText(metric(ref, records.Coverage(set).Key()), 0, false),
			timing(goRec, "train"), timing(ref, "train")})
	}
	return rows
}

// timing prints a stage's seconds: whole seconds with separators from 100 s
// on ("1,021"), 3 significant digits below.
func timing(rec records.Record, stage string) string {
	v, ok := rec.Timings[stage]
	switch {
	case !ok:
		return "—"
	case v >= 100:
		return thousands(v)
	}
	return sig(v, 3)
}

// ---- -check ----

// Check is the reference a report compares its records with, as -check
// does (records.CheckDetails).
type Check struct {
	Reference []records.Record
	Tolerance float64 // the spec's: a score may fall at most this much
	Source    string  // where the reference came from, for the text
}

func checkSection(c *Check, recs []records.Record) *Section {
	if c == nil {
		return nil
	}
	s := &Section{ID: "check", Title: "Check against the reference"}
	if len(c.Reference) == 0 {
		s.Blocks = append(s.Blocks, Paragraph("No reference results ("+c.Source+"): nothing to check; this run's results become the reference."))
		return s
	}
	items := records.CheckDetails(c.Reference, recs, c.Tolerance)
	if len(items) == 0 {
		s.Blocks = append(s.Blocks, Paragraph("The reference ("+c.Source+") has no finished trial: nothing to check."))
		return s
	}
	t := Table{ID: "check-table", Header: []string{"Trial", "Number", "Reference", "This run", "Passes when", "Result"},
		Numeric: []bool{false, false, true, true, false, false}}
	fails := 0
	for _, it := range items {
		when := fmt.Sprintf("equal within %g relative", records.CATolerance)
		if finite(it.Floor) {
			when = "≥ " + strconv.FormatFloat(it.Floor, 'f', 4, 64) + " (reference − " + formatValue(c.Tolerance) + ")"
		}
		result := "pass"
		if !it.Pass {
			fails++
			result = "FAIL: " + it.Problem
		}
		num := func(v float64) string {
			if math.IsNaN(v) {
				return "—"
			}
			if finite(it.Floor) {
				return strconv.FormatFloat(v, 'f', 4, 64)
			}
			return strconv.FormatFloat(v, 'g', 10, 64)
		}
		t.Rows = append(t.Rows, []string{it.Trial, orDash(it.Metric), num(it.Reference), num(it.Value), when, result})
	}
	verdict := fmt.Sprintf("All %d numbers pass.", len(items))
	if fails > 0 {
		verdict = fmt.Sprintf("%d of %d numbers FAIL.", fails, len(items))
	}
	s.Blocks = append(s.Blocks, Paragraph(fmt.Sprintf("What -check compares, number by number: reference %s. A score passes when it is at least the reference minus the spec's tolerance %s; a CA quantity when it equals the reference within %g relative. %s "+
		"(-check also reruns the spec and fails when the two runs differ; that part needs the rerun and is not shown here.)",
		c.Source, formatValue(c.Tolerance), records.CATolerance, verdict)))
	s.Blocks = append(s.Blocks, collapse(len(t.Rows)/3, fmt.Sprintf("All %d checked numbers", len(t.Rows)), t)...)
	return s
}

// ---- Word map and neighbours ----

// farOut is how many times the median distance from the origin a word may
// lie and still be drawn: principal coordinates put a word with one
// peculiar context (a long article on one topic) far out, and one such
// point would squash the other 199 into a blot.
const farOut = 8

// framePoints returns the map's points within farOut median distances of
// the origin, and the words left out, with their coordinates.
func framePoints(wm *records.WordMap) ([]Labeled, []string) {
	d := make([]float64, len(wm.Words))
	for j := range wm.Words {
		d[j] = math.Hypot(wm.X[j], wm.Y[j])
	}
	sorted := append([]float64(nil), d...)
	sort.Float64s(sorted)
	limit := farOut * sorted[len(sorted)/2]
	var pts []Labeled
	var far []string
	for j, w := range wm.Words {
		if limit > 0 && d[j] > limit {
			far = append(far, fmt.Sprintf("%s (%s, %s)", w, sig(wm.X[j], 3), sig(wm.Y[j], 3)))
			continue
		}
		pts = append(pts, Labeled{Label: w, X: wm.X[j], Y: wm.Y[j]})
	}
	return pts, far
}

// wordViewsSection draws the word map of the first trial that has one and
// lists the probe words' neighbours of one trial per group (the one with
// the largest dimension), the first open, the others collapsed.
func (p *builder) wordViewsSection(recs []records.Record) *Section {
	all := p.project(recs)
	s := &Section{ID: "words", Title: "Word map and nearest neighbours"}
	s.Blocks = append(s.Blocks, p.wordMapBlocks(all)...)
	s.Blocks = append(s.Blocks, p.neighbourBlocks(all)...)
	if len(s.Blocks) == 0 {
		return nil
	}
	return s
}

// wordMapBlocks draw the word map of the first trial that has a whole one.
func (p *builder) wordMapBlocks(all projection) []Block {
	withMap := all.where(func(rec records.Record) bool {
		wm := rec.WordsMap
		return wm != nil && len(wm.Words) > 0 && len(wm.X) == len(wm.Words) && len(wm.Y) == len(wm.Words)
	})
	if withMap.len() == 0 {
		return nil
	}
	t := withMap.trials[0]
	wm, label := t.WordsMap, p.soloLabel(t)
	pts, far := framePoints(wm)
	text := fmt.Sprintf("The %d most frequent words on axes 1 and 2 of %s (trial #%d). Words that share contexts lie together; a label that would overlap a more frequent word's is hidden (hover for it).", len(wm.Words), label, t.Num)
	if len(far) > 0 {
		text += fmt.Sprintf(" %d word(s) lie far outside the rest and are left off so that the rest can be read: %s.", len(far), strings.Join(far, ", "))
	}
	return []Block{Paragraph(text),
		ScatterMap{ID: "word-map", Title: "Word map: " + label, XName: "Axis 1", YName: "Axis 2", EqualScale: true, MaxLabels: len(pts), HideOverlap: true,
			Width: 900, Series: []ScatterSeries{{Name: "words", Points: pts}}}}
}

// neighbourBlocks list the probe words' neighbours of one trial per group
// of all the trials (groupKeys), the one with the largest svd.rank;
// measured trials' are left out.
func (p *builder) neighbourBlocks(all projection) []Block {
	keys := groupKeys(all.records())
	withNeighbours := all.where(func(rec records.Record) bool { return len(rec.Neighbours) > 0 }, not(isMeasuredTrial))
	var tables []Block
	for gi, g := range withNeighbours.groupBy(func(_ int, t trial) string { return keys[t.Num-1] }) {
		t := largestRank(g.trials)
		label := p.soloLabel(t)
		tab := Table{ID: "neighbours-" + strconv.Itoa(gi+1), Caption: fmt.Sprintf("Nearest neighbours: %s (trial #%d, %s similarity)", label, t.Num, formatValue(t.Settings["eval.similarity"])),
			Header: []string{"Word", "Nearest 10, most similar first"}}
		for _, nb := range t.Neighbours {
			tab.Rows = append(tab.Rows, []string{nb.Word, neighboursText(nb)})
		}
		tables = append(tables, tab)
	}
	if len(tables) == 0 {
		return nil
	}
	out := []Block{Paragraph("The probe words (the spec's eval.probes) and their nearest words by the trial's similarity; one trial per method or label (the largest dimension)."), tables[0]}
	if len(tables) > 1 {
		out = append(out, Details{Summary: fmt.Sprintf("Neighbours in the other %d trials", len(tables)-1), Blocks: tables[1:]})
	}
	return out
}

// neighboursText prints a probe word's neighbours with their similarity
// ("queen 0.812, prince 0.77").
func neighboursText(nb records.Neighbours) string {
	if len(nb.Words) == 0 {
		return "not in the vocabulary"
	}
	parts := make([]string, len(nb.Words))
	for k, w := range nb.Words {
		parts[k] = w
		if k < len(nb.Sims) {
			parts[k] += " " + sig(nb.Sims[k], 3)
		}
	}
	return strings.Join(parts, ", ")
}
