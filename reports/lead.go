package reports

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"kcalab/records"
)

// Section names a spec's report.lead may give, in the order sections
// appear when nothing decides otherwise.
var sectionOrder = []string{"tuning", "paper", "pairs", "check", "scores", "analogies", "sweeps", "scaling", "measured", "spectra", "calibration", "words", "ca", "trials"}

// autoOrder is the order of the sections that do not lead when
// report.lead is auto: the scores first, then the paper's table and the
// reference pairs when they did not lead.
var autoOrder = []string{"check", "tuning", "scores", "paper", "pairs", "analogies", "sweeps", "scaling", "measured", "spectra", "calibration", "words", "ca", "trials"}

// longTable is the row count above which a table is collapsed: a reader
// should reach the charts without scrolling past it.
const longTable = 12

// leads says which sections answer the page's question when report.lead
// is auto: the paper's table when the spec maps its rows or trials stand
// for a third of them, the reference pairs when at least half the scored
// trials have a counterpart, the analogies when every scored trial
// answered them. A section that is present but does not lead keeps its
// place in sectionOrder after the scores.
type leads struct{ tuning, paper, pairs, analogies bool }

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
		if l.tuning {
			front = append(front, "tuning")
		}
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
		case Paragraph, List, Headline:
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
// scaling trial): what the page leads with, and whose neighbours it
// leaves out. Its scores are ranked like any other's (ranking groups keep
// sizes and dimensions apart).
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
// finished trials that stand for it: mapping[row] (a label or a trial id)
// or the row's own name as a label. Rows are compared only at one
// dimension d, so of a row's trials the one at the common d is taken: the
// d at which the most paper rows have a trial (on ties the largest,
// nearest the paper's d = 8000); a row with no trial there takes its
// trial with the largest d (and is ranked in a group of its own). Among
// several trials of a row at one d, the first.
func pickPaperTrials(scored projection, mapping []string) ([]paperMatch, []string) {
	target := map[string]string{}
	for _, m := range mapping {
		if row, trial, ok := strings.Cut(m, "="); ok {
			target[strings.TrimSpace(row)] = strings.TrimSpace(trial)
		}
	}
	finished := scored.where(hasStatus("ok"))
	cands := make([][]trial, len(paperRows))
	rowsAt := map[float64]int{}
	for i, pr := range paperRows {
		want := pr.Name
		if t, ok := target[pr.Name]; ok {
			want = t
		}
		cands[i] = finished.where(func(rec records.Record) bool { return rec.ID == want || givenName(rec) == want }).trials
		seen := map[float64]bool{}
		for _, t := range cands[i] {
			if d := dimOf(t.Record); !seen[d] {
				seen[d] = true
				rowsAt[d]++
			}
		}
	}
	common, most := math.NaN(), 0
	for d, n := range rowsAt {
		if n > most || (n == most && d > common) {
			common, most = d, n
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
		for _, t := range cands[i] {
			if dimOf(t.Record) == common {
				pick = t
				break
			}
		}
		out = append(out, paperMatch{row: pr, trial: pick})
	}
	return out, missing
}

// largestDim is the trial with the largest dimension d (dimOf), the first
// on ties.
func largestDim(ts []trial) trial {
	best := ts[0]
	for _, t := range ts[1:] {
		if dimOf(t.Record) > dimOf(best.Record) {
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
// as the paper) and in each cell the published value and Δ, ranked as
// every score table is (groups of one d, each method at its ranked
// similarity, in-sample cells never, a win only where the paired
// bootstrap says so), under a headline computed from them; the other
// scored trials follow. nil when no trial stands for a paper row.
func (p *builder) paperSection(recs []records.Record, mapping []string) *Section {
	scored := p.project(recs, hasMetric(records.ScoreMetric))
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
	s := &Section{ID: "paper", Title: "The paper's table"}
	g, t := p.paperTable(matches, sets)
	if h := p.groupHeadline(g, mainGroup(g), records.RuleZero, ""); h != "" {
		s.Blocks = append(s.Blocks, Headline{h})
	}
	s.Blocks = append(s.Blocks, Paragraph(paperIntro(recs[0])), t)
	if len(missing) > 0 {
		s.Blocks = append(s.Blocks, Paragraph("No trial stands for "+strings.Join(missing, ", ")+
			" (a trial stands for a row when its label is the row's name, or by the spec's report.paper_rows)."))
	}
	// Every other scored trial, ranked among themselves; replicates (seeds)
	// are one row: their mean, with their spread.
	used := map[string]bool{}
	for _, m := range matches {
		used[m.ID] = true
	}
	rest := scored.where(func(rec records.Record) bool { return !used[rec.ID] })
	if rest.len() > 0 {
		rows := rest.rows(true)
		og := p.grid(p.groupByDim(rows), sets, scoreOf(records.RuleZero))
		o := og.scoreTable("paper-others", "The other trials (zero rule; "+p.simText()+", the other in small type), ranked among themselves", false, nil)
		s.Blocks = append(s.Blocks, collapse(len(o.Rows), "The other "+rowsOf(len(o.Rows), rest.len())+" (dimension sweep, folds, …)", o)...)
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
		rows[i] = row{trial: m.trial, label: m.row.Name + ": " + label + " (" + p.rowSettings(m.Record) + ")", n: 1}
		short[i] = row{trial: m.trial, label: m.row.Name, n: 1}
		pub[m.ID] = published[m.row.Name]
	}
	g := p.grid(p.groupByDim(rows), sets, scoreOf(records.RuleZero))
	t := g.scoreTable("paper-table", "The paper's Table 3: our Spearman ρ (zero rule; "+p.simText()+", the other in small type), then the published value (full text8; the tail cut at d = 8000) and Δ = ours − published", false,
		func(gi, i, j int, c *cell) {
			v := pub[g.groups[gi].rows[i].ID].Scores[j]
			c.note("paper " + formatScore(v, 3) + " · Δ " + signed(c.value-v, 3))
			c.quantity("paper", v)
			c.quantity("delta", c.value-v)
		})
	t.RowHeader = "Paper method: our trial (its settings)"
	return p.grid(p.groupByDim(short), sets, scoreOf(records.RuleZero)), t
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
// share "SGNS". Per set: each one's ρ (zero rule) at its ranked
// similarity (when neither record has scores there, both at the other
// similarity: records older than scoring at both), their difference with the 95% interval of its paired
// bootstrap and what it says (a difference only where the interval
// excludes 0), coverage and training times, whose ratio is printed only
// when the two were measured alike (timesCompare); a headline says per
// pair on which sets they differ. nil when no such pair exists.
func (b *builder) pairsSection(recs []records.Record) *Section {
	scored := b.project(recs, hasMetric(records.ScoreMetric))
	sets := wordSets(scored.records())
	t := Table{ID: "pairs-table", Caption: "Go against the reference implementation: Spearman ρ (zero rule) per set, and training time",
		Header: []string{"Method", "Set", "Go", "Reference", "ρ Go", "ρ reference", "Δρ (Go − reference)", "Δρ 95% interval", "Difference",
			"Coverage Go / reference", "Training s Go", "Training s reference", "Go's training time against the reference's"},
		Numeric: []bool{false, false, false, false, true, true, true, true, false, true, true, true, true},
		CSV: [][]string{{"method", "set", "go", "reference", "rho_go", "rho_reference", "delta_rho", "delta_rho_lo", "delta_rho_hi", "difference",
			"coverage_go", "coverage_reference", "train_s_go", "train_s_go_min", "train_s_go_max", "train_s_reference", "train_s_reference_min", "train_s_reference_max",
			"train_time_go_over_reference"}}}
	var alone []string
	var head Headline
	named := scored.where(func(rec records.Record) bool { return pairBase(rec) != "" })
	for _, g := range named.groupBy(func(_ int, t trial) string { return pairBase(t.Record) }) {
		// Seeds of one trainer are one row (their mean, with their
		// replicates averaged), as the score tables show them.
		goRow, refs := b.splitReference(projection{b: b, trials: g.trials}.rows(true))
		if goRow == nil || len(refs) == 0 {
			for _, r := range append(refs, goRow) {
				if r != nil {
					alone = append(alone, givenName(r.Record))
				}
			}
			continue
		}
		for _, ref := range refs {
			rows, csv, h := b.pairRows(g.key, *goRow, *ref, sets)
			t.Rows = append(t.Rows, rows...)
			t.CSV = append(t.CSV, csv...)
			head = append(head, h)
		}
	}
	if len(t.Rows) == 0 {
		return nil
	}
	s := &Section{ID: "pairs", Title: "Go against the reference implementations"}
	s.Blocks = append(s.Blocks, head, Paragraph("Each Go trainer next to the reference implementation run at the same settings (trials matched by label: “X (Go)” with “X (…)” of method external), "+
		"each at its ranked similarity ("+b.simText()+"). Δρ > 0: the Go version scores higher; it is a difference only when the 95% interval of the paired bootstrap (the same resamples of the set's pairs for both) excludes 0, else a tie. "+
		"Training time is the trial's “train” stage in seconds (one thread each); their ratio is given only for two trials measured in one run and alike (both in a measured child process, or neither). "+
		"The skip rule's scores are in the score tables."), t)
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

// splitReference splits the rows of one pair label into the Go row
// (the first that is not a reference implementation) and the references.
func (b *builder) splitReference(ts []row) (goTrial *row, refs []*row) {
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

// pairRows compare a Go trial with a reference one, a row per set that
// either scored (and the same for a program, plain numbers), and say in a
// sentence what the comparison found: on which whole sets one is
// significantly above the other, then on which test parts (the pair is
// compared only at one d and one similarity; otherwise the sentence says
// why not).
func (b *builder) pairRows(name string, goRow, refRow row, sets []string) (rows, csv [][]string, head string) {
	goRec, ref := goRow.Record, refRow.Record
	goName, goTime, goMembers := pairSide(goRow, "train")
	refName, refTime, refMembers := pairSide(refRow, "train")
	simG, simR := b.rankSim(goRec), b.rankSim(ref)
	fallback := ""
	if simG == simR && !hasScoreAt(goRec, sets, simG) && !hasScoreAt(ref, sets, simR) && hasScoreAt(goRec, sets, otherSim(simG)) && hasScoreAt(ref, sets, otherSim(simR)) {
		// Records older than scoring at both similarities: the two are
		// still compared alike, at the one both have.
		fallback = fmt.Sprintf("at %s (no %s scores in these records)", simPhrase(otherSim(simG)), simG)
		simG, simR = otherSim(simG), otherSim(simR)
	}
	why := ""
	switch {
	case dimOf(goRec) != dimOf(ref):
		why = fmt.Sprintf("not compared: d = %s against d = %s", formatValue(dimOf(goRec)), formatValue(dimOf(ref)))
	case simG != simR:
		why = fmt.Sprintf("not compared: %s against %s similarity", simG, simR)
	}
	ratio, ratioCSV := "—", ""
	gt, gok := meanTiming(goMembers, "train")
	rt, rok := meanTiming(refMembers, "train")
	if gok && rok && rt > 0 {
		if same, w := timesCompare(goMembers, refMembers); same {
			ratio, ratioCSV = timesText(gt/rt), csvNumber(gt/rt)
		} else {
			ratio = w
		}
	}
	timeCSV := func(members []records.Record, mean float64, ok bool) []string {
		if !ok {
			return []string{"", "", ""}
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, r := range members {
			lo, hi = math.Min(lo, r.Timings["train"]), math.Max(hi, r.Timings["train"])
		}
		return []string{csvNumber(mean), csvNumber(lo), csvNumber(hi)}
	}
	vs := map[string]verdictSets{}
	for _, set := range sets {
		m := records.Score(records.RuleZero, set)
		g := goRow.estimate(m.At(simG, ownSim(goRec)).Key())
		r := refRow.estimate(m.At(simR, ownSim(ref)).Key())
		if !finite(g.value) && !finite(r.value) {
			continue // neither scored this set (or part): no row of dashes
		}
		_, part := records.SplitSetPart(set)
		interval, verdictText := "—", why
		lo, hi := math.NaN(), math.NaN()
		few := fewPairs(goRec, set) // the fewer of the two sides' covered pairs, when too few
		if f := fewPairs(ref, set); f > 0 && (few == 0 || f < few) {
			few = f
		}
		if why == "" && few > 0 && finite(g.value) && finite(r.value) {
			verdictText = fmt.Sprintf("not compared: ‡ %d pairs, too few (< %d)", few, records.MinRankedPairs)
		} else if why == "" {
			v := compare(g, r, 3)
			if finite(g.value) && finite(r.value) {
				if vs[part] == nil {
					vs[part] = verdictSets{}
				}
				vs[part][v] = append(vs[part][v], setDisplay(set))
			}
			if l, h, _ := records.Difference(g.value, r.value, g.reps, r.reps); v != notTested && finite(l) && finite(h) {
				lo, hi = l, h
				interval = "[" + signed(lo, 3) + ", " + signed(hi, 3) + "]"
			}
			verdictText = map[verdict]string{above: "Go higher", below: "reference higher", tie: "tie", notTested: "not tested"}[v]
			if !finite(g.value) || !finite(r.value) {
				verdictText = "—"
			}
		}
		covG, covR := metric(goRec, records.Coverage(set).Key()), metric(ref, records.Coverage(set).Key())
		rows = append(rows, []string{name, setDisplay(set), goName, refName,
			formatScore(g.value, 3), formatScore(r.value, 3), signed(g.value-r.value, 3), interval, verdictText,
			coverageText(covG, 0, false) + " / " + coverageText(covR, 0, false),
			goTime, refTime, ratio})
		line := []string{name, set, givenName(goRec), givenName(ref), csvNumber(g.value), csvNumber(r.value), csvNumber(g.value - r.value),
			csvNumber(lo), csvNumber(hi), verdictText, csvNumber(covG), csvNumber(covR)}
		line = append(line, timeCSV(goMembers, gt, gok)...)
		line = append(line, timeCSV(refMembers, rt, rok)...)
		csv = append(csv, append(line, ratioCSV))
	}
	how := "each at its own similarity"
	switch {
	case fallback != "":
		how = fallback
	case b.similarity == SimilarityDot || b.similarity == SimilarityCosine:
		how = b.simText()
	}
	head = fmt.Sprintf("%s, d = %s, zero rule, %s: ", name, formatValue(dimOf(goRec)), how)
	if why != "" {
		return rows, csv, head + goName + " against " + refName + ": " + why + "."
	}
	// Whole sets and their parts are different questions (a part is a
	// sample of its set): never counted together. Dev parts are for
	// choosing settings, not for comparing.
	var clauses []string
	if len(vs[""]) > 0 {
		clauses = append(clauses, pairClause(goName, refName, vs[""]))
	}
	if t := vs[records.PartTest]; len(t) > 0 {
		c := pairClause(goName, refName, t)
		if len(clauses) > 0 {
			c = "on the test parts, " + c
		}
		clauses = append(clauses, c)
	}
	if len(clauses) == 0 {
		clauses = append(clauses, pairClause(goName, refName, verdictSets{}))
	}
	return rows, csv, head + strings.Join(clauses, "; ") + "."
}

// pairSide is how a pair table names one side's row, prints its stage
// time and which trials that time comes from: a row folding seeds is
// "X (mean of 3 seeds)", its time their mean and range.
func pairSide(r row, stage string) (name, time string, members []records.Record) {
	if r.n <= 1 {
		return givenName(r.Record), timing(r.Record, stage), []records.Record{r.Record}
	}
	return fmt.Sprintf("%s (mean of %d seeds)", givenName(r.Record), r.n), seedsTiming(r.members, stage), r.members
}

// meanTiming is the mean of a stage's seconds over trials that all have
// it.
func meanTiming(recs []records.Record, stage string) (float64, bool) {
	if len(recs) == 0 {
		return 0, false
	}
	sum := 0.0
	for _, r := range recs {
		v, ok := r.Timings[stage]
		if !ok {
			return 0, false
		}
		sum += v
	}
	return sum / float64(len(recs)), true
}

// seedsTiming prints a stage's mean seconds over seeds with their range:
// "716 (617–900 over 3 seeds)".
func seedsTiming(recs []records.Record, stage string) string {
	m, ok := meanTiming(recs, stage)
	if !ok {
		return "—"
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range recs {
		lo, hi = math.Min(lo, r.Timings[stage]), math.Max(hi, r.Timings[stage])
	}
	return fmt.Sprintf("%s (%s–%s over %d seeds)", secondsText(m), secondsText(lo), secondsText(hi), len(recs))
}

// secondsText prints seconds as timing does: separators from 100 s on,
// 3 significant digits below.
func secondsText(v float64) string {
	if v >= 100 {
		return thousands(v)
	}
	return sig(v, 3)
}

// hasScoreAt says the record has a Spearman ρ (zero rule) on one of the
// sets at similarity sim.
func hasScoreAt(rec records.Record, sets []string, sim records.Similarity) bool {
	for _, set := range sets {
		if _, ok := rec.Metrics[records.Score(records.RuleZero, set).At(sim, ownSim(rec)).Key()]; ok {
			return true
		}
	}
	return false
}

// simPhrase names a similarity in a sentence: "the dot product", "cosine".
func simPhrase(s records.Similarity) string {
	if s == records.SimDot {
		return "the dot product"
	}
	return string(s)
}

// timing prints a stage's seconds: whole seconds with separators from 100 s
// on ("1,021"), 3 significant digits below; for a trial measured
// repeatedly, its process's wall-time range follows.
func timing(rec records.Record, stage string) string {
	v, ok := rec.Timings[stage]
	s := "—"
	if ok {
		s = secondsText(v)
	}
	if lo, hi, ok := wallRange(rec); ok {
		s += " (process wall " + sig(lo, 3) + "–" + sig(hi, 3) + " s over repeats)"
	}
	return s
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
	// The verdict and its caveat are the page's answer, together.
	s.Blocks = append(s.Blocks, Headline{verdict})
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

// neighbourBlocks are the probe words' nearest neighbours, one table per
// method or label (its representative trial), each ranked by the
// similarity its scores are ranked at (rankSim: the method's own), the
// other beside it when the record holds it; a record older than holding
// both shows the one it has and says so. The CA family's dot-product
// lists get a note on why they hold rare words.
func (p *builder) neighbourBlocks(all projection) []Block {
	keys := groupKeys(all.records())
	withNeighbours := all.where(func(rec records.Record) bool { return len(rec.Neighbours) > 0 }, not(isMeasuredTrial))
	better := representativeOrder(withNeighbours)
	var tables []Block
	caDot, caCosine, older, anyOther := false, false, false, false
	for gi, g := range withNeighbours.groupBy(func(_ int, t trial) string { return keys[t.Num-1] }) {
		t := g.trials[0]
		for _, c := range g.trials[1:] {
			if better(c, t) {
				t = c
			}
		}
		sim := p.rankSim(t.Record)
		ranked, other := neighboursAt(t.Record, sim), neighboursAt(t.Record, otherSim(sim))
		how := "by " + simPhrase(sim)
		if p.similarity != SimilarityDot && p.similarity != SimilarityCosine {
			how += ", its method's own similarity"
		}
		if len(ranked) == 0 {
			// Recorded before both were: the one the trial has.
			older = true
			ranked, other, sim = t.Neighbours, nil, ownSim(t.Record)
			how = fmt.Sprintf("by %s: the record holds no %s neighbours (recorded before both similarities were; rerun the spec with -fresh for them)", simPhrase(sim), p.rankSim(t.Record))
		}
		if p.isCAFamily(t.Record) && sim == records.SimDot {
			caDot = true
			caCosine = caCosine || len(other) > 0
		}
		tab := Table{ID: "neighbours-" + strconv.Itoa(gi+1), Caption: fmt.Sprintf("Nearest neighbours: %s (trial #%d), %s", p.soloLabel(t), t.Num, how),
			Header: []string{"Word", "Nearest 10 by " + string(sim) + ", most similar first"}}
		if len(other) > 0 {
			anyOther = true
			tab.Header = append(tab.Header, "Nearest 10 by "+string(otherSim(sim)))
		}
		for i, nb := range ranked {
			row := []string{nb.Word, neighboursText(nb)}
			if len(other) > 0 {
				cell := "—"
				if i < len(other) && other[i].Word == nb.Word {
					cell = neighboursText(other[i])
				}
				row = append(row, cell)
			}
			tab.Rows = append(tab.Rows, row)
		}
		tables = append(tables, tab)
	}
	if len(tables) == 0 {
		return nil
	}
	text := "The probe words (the spec's eval.probes) and their nearest words, each trial's by the similarity its scores are ranked at (" + p.simText() + ")"
	if anyOther {
		text += ", the other beside it"
	}
	text += "; one trial per method or label (on the most data, most exact, largest dimension and window)."
	if older {
		text += " Some records hold their neighbours at one similarity only (recorded before both were): their tables say which."
	}
	out := []Block{Paragraph(text)}
	if caDot {
		note := "Why the CA family's dot-product neighbours are rare words: a word's principal coordinates grow with how peculiar its contexts are, so a rare word seen in one narrow context (a name in one article) has a long vector, and a long vector has a large dot product with almost any word; the dot product, the paper's similarity, ranks by direction and length together."
		if caCosine {
			note += " Cosine, beside it, ranks by direction alone: the words used alike."
		} else {
			note += " These records hold no cosine neighbours, which rank by direction alone (recorded before both similarities were)."
		}
		out = append(out, Paragraph(note))
	}
	out = append(out, tables[0])
	if len(tables) > 1 {
		out = append(out, Details{Summary: fmt.Sprintf("Neighbours in the other %d trials", len(tables)-1), Blocks: tables[1:]})
	}
	return out
}

// neighboursAt is a record's neighbours by sim: its own list when sim is
// the trial's similarity (eval.similarity), else the other list; nil when
// the record holds none by sim.
func neighboursAt(rec records.Record, sim records.Similarity) []records.Neighbours {
	if ownSim(rec) == sim {
		return rec.Neighbours
	}
	return rec.NeighboursOther
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
