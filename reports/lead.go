package reports

import (
	"fmt"
	"kcalab/records"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Section names a spec's report.lead may give, in the order sections
// appear when nothing decides otherwise.
var sectionOrder = []string{"paper", "pairs", "check", "scores", "analogies", "sweeps", "scaling", "measured", "spectra", "calibration", "words", "ca", "trials"}

// autoOrder is the order of the sections that do not lead when
// report.lead is auto: the scores first, then the paper's table and the
// reference pairs when they did not lead.
var autoOrder = []string{"check", "scores", "paper", "pairs", "analogies", "sweeps", "scaling", "measured", "spectra", "calibration", "words", "ca", "trials"}

// longTable is the row count above which a table is collapsed: a reader
// should reach the charts without scrolling past it.
const longTable = 12

// leads says which sections answer the page's question when report.lead
// is auto: the paper's table when the spec maps its rows or trials stand
// for a third of them, the reference pairs when at least half the scored
// trials have a counterpart, the analogies when every scored trial
// answered them. A section that is present but does not lead keeps its
// place in sectionOrder after the scores.
type leads struct{ paper, pairs, analogies bool }

// orderSections puts the page's sections in the order of what the spec is
// for: the named lead first; otherwise (auto) the check, then the
// sections that lead (leads), then time and memory (the scaling figures
// or the measurements) when every scored trial is measured, the sweeps
// when the score table is long and nothing else leads, then the rest in
// sectionOrder. scored is the page's trials with scores. The first
// section's opening table is shown open: a page never starts with a
// section that is empty until clicked.
func orderSections(lead string, secs map[string]*Section, scored projection, l leads) []Section {
	var order []string
	base := sectionOrder
	if lead == "" || lead == "auto" {
		base = autoOrder
		ranked := scored.where(not(isMeasuredTrial)).len()
		front := []string{"check"}
		if l.analogies {
			front = append(front, "analogies")
		}
		if l.paper {
			front = append(front, "paper")
		}
		if l.pairs {
			front = append(front, "pairs")
		}
		n := 0
		for _, f := range front {
			if secs[f] != nil {
				n++
			}
		}
		switch {
		case ranked == 0 && (secs["scaling"] != nil || secs["measured"] != nil):
			front = append(front, "scaling", "measured", "spectra")
		case secs["sweeps"] != nil && ranked > longTable && n == 0:
			front = append(front, "sweeps")
		}
		order = append(order, front...)
	} else {
		order = append(order, lead)
	}
	for _, n := range base {
		if indexOf(order, n) < 0 {
			order = append(order, n)
		}
	}
	var out []Section
	for _, n := range order {
		if s := secs[n]; s != nil {
			out = append(out, *s)
		}
	}
	if len(out) > 0 {
		out[0] = openFirst(out[0])
	}
	return out
}

// openFirst opens the section's first block when it is collapsed.
func openFirst(s Section) Section {
	if len(s.Blocks) == 0 {
		return s
	}
	blocks := append([]Block(nil), s.Blocks...)
	for i, b := range blocks {
		switch b := b.(type) {
		case Paragraph, List:
			continue
		case Details:
			b.Open = true
			blocks[i] = b
		}
		break
	}
	s.Blocks = blocks
	return s
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
		s.Blocks = append(s.Blocks, collapse(len(o.Rows), "The other "+rowsOf(len(o.Rows), rest.len())+" (dimension sweep, folds, …)", o)...)
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
			c.quantity("paper", v)
			c.quantity("delta", c.value-v)
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

// rowsOf names a table's rows by what they hold: "41 trials" when each
// row is one, "41 rows of 65 trials (replicates folded)" when replicates
// share a row, so that a count always matches the rows below it.
func rowsOf(rows, trials int) string {
	if rows == trials {
		return fmt.Sprintf("%d trial%s", trials, plural(trials))
	}
	return fmt.Sprintf("%d rows of %d trials (replicates folded)", rows, trials)
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
	reused := reusedTrials(c.Reference, recs)
	t := Table{ID: "check-table", Header: []string{"Trial", "Number", "Reference", "This run", "This run's number was", "Passes when", "Result"},
		Numeric: []bool{false, false, true, true, false, false, false}}
	fails, nReused := 0, 0
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
		how := "recomputed by this run"
		if reused[it.ID] {
			how = "reused: the reference's own record"
			nReused++
		}
		t.Rows = append(t.Rows, []string{it.Trial, orDash(it.Metric), num(it.Reference), num(it.Value), how, when, result})
	}
	verdict := fmt.Sprintf("All %d numbers pass.", len(items))
	if fails > 0 {
		verdict = fmt.Sprintf("%d of %d numbers FAIL.", fails, len(items))
	}
	// A reused trial's numbers are the reference's own: their passing
	// says nothing of the code, and the page says so before anything.
	switch {
	case nReused == len(items):
		verdict += fmt.Sprintf(" But every one of the %d was reused from the reference, not recomputed (this run found each trial complete): the comparison is of the values with themselves. "+
			"Run with -fresh to recompute them here, or -check, which recomputes every trial twice from scratch.", len(items))
	case nReused > 0:
		verdict += fmt.Sprintf(" %d of the %d were reused from the reference, not recomputed (they pass by construction); %d were recomputed by this run.", nReused, len(items), len(items)-nReused)
	default:
		verdict += " Every one was recomputed by this run."
	}
	s.Blocks = append(s.Blocks, Paragraph(verdict))
	s.Blocks = append(s.Blocks, Paragraph(fmt.Sprintf("What -check compares, number by number: reference %s. A score passes when it is at least the reference minus the spec's tolerance %s; a CA quantity when it equals the reference within %g relative. "+
		"-check itself (kcalab -check DIR SPEC) reruns the spec twice from scratch in a temporary directory, compares the first run with the reference this way, and fails when the two runs differ.",
		c.Source, formatValue(c.Tolerance), records.CATolerance)))
	s.Blocks = append(s.Blocks, collapse(len(t.Rows)/3, fmt.Sprintf("All %d checked numbers", len(t.Rows)), t)...)
	return s
}

// reusedTrials are the ids of the trials whose record this run took from
// the reference unchanged: the runner keeps a reused trial's run
// information, so equal metrics and singular values with equal run start,
// end and id (or none on either side) mean the same computation.
func reusedTrials(ref, recs []records.Record) map[string]bool {
	before := map[string]records.Record{}
	for _, r := range ref {
		before[r.ID] = r
	}
	sv := func(r records.Record) []float64 {
		if r.CA == nil {
			return nil
		}
		return r.CA.SingularValues
	}
	out := map[string]bool{}
	for _, r := range recs {
		b, ok := before[r.ID]
		if !ok || !maps.Equal(b.Metrics, r.Metrics) || !slices.Equal(sv(b), sv(r)) {
			continue
		}
		switch {
		case b.Run == nil && r.Run == nil:
			out[r.ID] = true // neither says when it ran: the same old record
		case b.Run != nil && r.Run != nil && b.Run.Start == r.Run.Start && b.Run.End == r.Run.End && b.Run.ID == r.Run.ID:
			out[r.ID] = true
		}
	}
	return out
}

// ---- Word map and neighbours ----

// farOut is how many times the median distance from the origin a word may
// lie and still be drawn: principal coordinates put a word with one
// peculiar context (a long article on one topic) far out, and one such
// point would squash the other 199 into a blot.
const farOut = 8

// framePoints returns the map's points within farOut median distances of
// the origin, and the words left out.
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
			far = append(far, w)
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

// wordMapBlocks draw the word map of the page's representative trial
// (mapTrial). A map whose words fall on a few points says so instead of
// drawing a dot.
func (p *builder) wordMapBlocks(all projection) []Block {
	withMap := all.where(func(rec records.Record) bool {
		wm := rec.WordsMap
		return wm != nil && len(wm.Words) > 0 && len(wm.X) == len(wm.Words) && len(wm.Y) == len(wm.Words)
	})
	if withMap.len() == 0 {
		return nil
	}
	t, degenerate := mapTrial(withMap)
	// Labelled as a row among the trials with a map, so that the label
	// says what sets it apart (its table and window in a sweep).
	wm, label := t.WordsMap, p.soloLabel(t)
	for _, r := range withMap.rows(false) {
		if r.Num == t.Num {
			label = r.label
		}
	}
	pts, far := framePoints(wm)
	if degenerate {
		return []Block{Paragraph(fmt.Sprintf("⚠ No word map: in every trial that recorded one, the %d most frequent words fall on a few points of axes 1 and 2 "+
			"(in %s, trial #%d, on %d distinct places at 1/100 of the map's extent): the first two axes separate almost none of them, so a drawing would be a dot.",
			len(wm.Words), label, t.Num, distinctPlaces(pts)))}
	}
	text := fmt.Sprintf("The %d most frequent words on axes 1 and 2 of %s (trial #%d: %s). Words that share contexts lie together; a label that would overlap a more frequent word's is hidden (hover for it).",
		len(wm.Words), label, t.Num, mapWhy)
	if len(far) > 0 {
		shown := far
		if len(shown) > 5 {
			shown = shown[:5]
		}
		text += fmt.Sprintf(" %d word(s) lie more than %d times the median distance from the origin and are left off so that the rest can be read (%s%s).",
			len(far), farOut, strings.Join(shown, ", "), map[bool]string{true: ", …", false: ""}[len(far) > len(shown)])
	}
	return []Block{Paragraph(text),
		ScatterMap{ID: "word-map", Title: "Word map: " + label, XName: "Axis 1", YName: "Axis 2", EqualScale: true, MaxLabels: len(pts), HideOverlap: true,
			Width: 900, Series: []ScatterSeries{{Name: "words", Points: pts}}}}
}

// mapWhy says how mapTrial chose the trial.
const mapWhy = "of the finished trials, the one on the most data with the most exact decomposition, the largest dimension and window"

// mapTrial picks the trial whose word map stands for the page: a finished
// one whose map is not degenerate (distinctPlaces), on the largest corpus
// (data.fraction; a prefix of 1/64 says little of the whole), the most
// exact decomposition (the smallest recorded residual; a trial without one
// is not compared), of the page's first method or label (groupKeys), then
// the largest svd.rank and data.window (a map of W = 1 shows adjacency,
// not meaning), the first on ties. degenerate is
// set when every candidate's map is; the trial is then the one the rule
// picks among them all.
func mapTrial(pr projection) (t trial, degenerate bool) {
	finished := pr.where(hasStatus("ok"))
	if finished.len() == 0 {
		finished = pr
	}
	var good []trial
	for _, c := range finished.trials {
		pts, _ := framePoints(c.WordsMap)
		if !isDegenerate(pts) {
			good = append(good, c)
		}
	}
	cands := good
	if len(cands) == 0 {
		cands, degenerate = finished.trials, true
	}
	better := representativeOrder(pr)
	best := cands[0]
	for _, c := range cands[1:] {
		if better(c, best) {
			best = c
		}
	}
	return best, degenerate
}

// representativeOrder is mapTrial's preference among the trials of pr:
// better(a, b) when a stands for the page before b.
func representativeOrder(pr projection) func(a, b trial) bool {
	num := func(c trial, key string, missing float64) float64 {
		if v, ok := number(c.Settings[key]); ok {
			return v
		}
		return missing
	}
	keys := groupKeys(pr.records())
	group := map[string]string{}
	for i, c := range pr.trials {
		group[c.ID] = keys[i]
	}
	firstGroup := ""
	if pr.len() > 0 {
		firstGroup = group[pr.trials[0].ID]
	}
	return func(a, b trial) bool { // a before b
		if x, y := num(a, "data.fraction", 1), num(b, "data.fraction", 1); x != y {
			return x > y
		}
		// Residuals within a factor of 10 of each other are equally
		// exact; a trial that recorded none is not compared on it.
		if a.SVD != nil && b.SVD != nil {
			x, y := math.Max(a.SVD.RelResidual, 1e-12), math.Max(b.SVD.RelResidual, 1e-12)
			if x < y/10 || y < x/10 {
				return x < y
			}
		}
		if x, y := group[a.ID] == firstGroup, group[b.ID] == firstGroup; x != y {
			return x
		}
		if x, y := num(a, "svd.rank", 0), num(b, "svd.rank", 0); x != y {
			return x > y
		}
		return num(a, "data.window", 0) > num(b, "data.window", 0)
	}
}

// distinctPlaces counts the points' distinct places on a grid of 1/100 of
// their extent.
func distinctPlaces(pts []Labeled) int {
	ext := 0.0
	for _, p := range pts {
		ext = math.Max(ext, math.Max(math.Abs(p.X), math.Abs(p.Y)))
	}
	if ext == 0 {
		return min(len(pts), 1)
	}
	seen := map[[2]int64]bool{}
	for _, p := range pts {
		seen[[2]int64{int64(math.Round(100 * p.X / ext)), int64(math.Round(100 * p.Y / ext))}] = true
	}
	return len(seen)
}

// isDegenerate reports whether a map's points fall on fewer distinct
// places than a quarter of them: axes 1–2 then separate almost none of
// the words.
func isDegenerate(pts []Labeled) bool {
	return len(pts) >= 8 && 4*distinctPlaces(pts) < len(pts)
}

// neighbourBlocks list the probe words' neighbours of one trial per group
// of all the trials (groupKeys), the one representativeOrder prefers (on
// the most data, most exact, largest dimension and window); measured
// trials' are left out.
func (p *builder) neighbourBlocks(all projection) []Block {
	keys := groupKeys(all.records())
	withNeighbours := all.where(func(rec records.Record) bool { return len(rec.Neighbours) > 0 }, not(isMeasuredTrial))
	better := representativeOrder(withNeighbours)
	var tables []Block
	for gi, g := range withNeighbours.groupBy(func(_ int, t trial) string { return keys[t.Num-1] }) {
		t := g.trials[0]
		for _, c := range g.trials[1:] {
			if better(c, t) {
				t = c
			}
		}
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
	out := []Block{Paragraph("The probe words (the spec's eval.probes) and their nearest words by the trial's similarity; one trial per method or label (on the most data, most exact, largest dimension and window)."), tables[0]}
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
