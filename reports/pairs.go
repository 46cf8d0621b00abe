package reports

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
)

// pairsSection puts each Go method next to its reference implementation
// (method external), matched by label: "SGNS (Go)" and "SGNS (gensim)"
// share "SGNS". Per set: each one's ρ (zero rule) at its ranked
// similarity (when neither record has scores there, both at the other
// similarity: records older than scoring at both), their difference with the 95% interval of its paired
// bootstrap and what it says (a difference only where the interval
// excludes 0), coverage and training times, whose ratio is printed only
// when the two were measured alike (timesCompare); a headline says per
// pair on which sets they differ, and where their coverage of a set
// differs by more than compare.CoverageGap, both coverages and whether
// the skip rule (the pairs each covers) agrees (verdictCoverage). nil
// when no such pair exists.
func (b *builder) pairsSection(recs []records.Record) *Section {
	scored := b.project(recs, compare.HasMetric(records.ScoreMetric))
	sets := wordSets(scored.Records())
	t := Table{ID: "pairs-table", Caption: "Go against the reference implementation: Spearman ρ (zero rule) per set, and training time; Δρ with its own 95% interval, the verdict adjusted for the sets of its part (whole sets, dev or test parts) by Holm's step-down",
		Header: []string{"Method", "Set", "Go", "Reference", "ρ Go", "ρ reference", "Δρ (Go − reference)", "Δρ 95% interval", "Difference",
			"Coverage Go / reference", "Training s Go", "Training s reference", "Go's training time against the reference's"},
		Numeric: []bool{false, false, false, false, true, true, true, true, false, true, true, true, true},
		CSV: [][]string{{"method", "set", "go", "reference", "rho_go", "rho_reference", "delta_rho", "delta_rho_lo", "delta_rho_hi", "difference",
			"coverage_go", "coverage_reference", "train_s_go", "train_s_go_min", "train_s_go_max", "train_s_reference", "train_s_reference_min", "train_s_reference_max",
			"train_time_go_over_reference"}}}
	var alone []string
	var head Headline
	var verdict Verdict
	named := scored.Where(func(rec records.Record) bool { return pairBase(rec) != "" })
	for _, g := range named.GroupBy(func(_ int, t trial) string { return pairBase(t.Record) }) {
		// Seeds of one trainer are one row (their mean, with their
		// replicates averaged), as the score tables show them.
		goRow, refs := b.splitReference(b.project(nil).With(g.Trials).Rows(true))
		if goRow == nil || len(refs) == 0 {
			for _, r := range append(refs, goRow) {
				if r != nil {
					alone = append(alone, givenName(r.Record))
				}
			}
			continue
		}
		for _, ref := range refs {
			rows, csv, h, c := b.pairRows(g.Key, *goRow, *ref, sets)
			t.Rows = append(t.Rows, rows...)
			t.CSV = append(t.CSV, csv...)
			head = append(head, h)
			if c.Answer != "" {
				if len(refs) > 1 {
					c.Subject += " (" + givenName(ref.Record) + ")"
				}
				verdict.Claims = append(verdict.Claims, c)
			}
		}
	}
	if len(t.Rows) == 0 {
		return nil
	}
	s := &Section{ID: "pairs", Title: "Go against the reference implementations"}
	verdict.Basis = "zero rule, each at its own similarity"
	b.setVerdict(s.ID, verdict)
	s.Blocks = append(s.Blocks, head, Paragraph("Each Go trainer next to the reference implementation run at the same settings (trials matched by label: “X (Go)” with “X (…)” of method external), "+
		"each at its ranked similarity ("+b.simText()+"). Δρ > 0: the Go version scores higher; it is a difference only when the 95% interval of the paired bootstrap (the same resamples of the set's pairs for both) excludes 0, else a tie. "+
		"Training time is the trial's “train” stage in seconds (one thread each); their ratio is given only for two trials measured alike: each in a child process of its own (measure.process), in one run, on a quiet machine; trials that were not measured ran in the runner's process, perhaps beside others, and their times are read one by one. "+
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
func (b *builder) pairRows(name string, goRow, refRow row, sets []string) (rows, csv [][]string, head string, claim Claim) {
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
	// The verdicts of one part (whole sets, dev or test parts) are one
	// family, adjusted for its size by Holm's step-down.
	adjusted := map[string]verdict{}
	family := map[string][]string{}
	for _, set := range sets {
		_, part := records.SplitSetPart(set)
		family[part] = append(family[part], set)
	}
	for _, members := range family {
		var ga, ra []estimate
		var in []string
		for _, set := range members {
			m := records.Score(records.RuleZero, set)
			g := goRow.Estimate(m.At(simG, ownSim(goRec)).Key())
			r := refRow.Estimate(m.At(simR, ownSim(ref)).Key())
			few := fewPairs(goRec, set)
			if f := fewPairs(ref, set); f > 0 && (few == 0 || f < few) {
				few = f
			}
			if why != "" || few > 0 || !finite(g.Value) || !finite(r.Value) {
				continue
			}
			ga, ra, in = append(ga, g), append(ra, r), append(in, set)
		}
		for i, v := range compare.FamilyVerdicts(ga, ra, 3) {
			adjusted[in[i]] = v
		}
	}
	vs := map[string]verdictSets{}
	var covered coverageNotes // what coverage says of the verdicts on whole sets and test parts
	for _, set := range sets {
		m := records.Score(records.RuleZero, set)
		g := goRow.Estimate(m.At(simG, ownSim(goRec)).Key())
		r := refRow.Estimate(m.At(simR, ownSim(ref)).Key())
		if !finite(g.Value) && !finite(r.Value) {
			continue // neither scored this set (or part): no row of dashes
		}
		_, part := records.SplitSetPart(set)
		interval, verdictText := "—", why
		lo, hi := math.NaN(), math.NaN()
		few := fewPairs(goRec, set) // the fewer of the two sides' covered pairs, when too few
		if f := fewPairs(ref, set); f > 0 && (few == 0 || f < few) {
			few = f
		}
		if why == "" && few > 0 && finite(g.Value) && finite(r.Value) {
			verdictText = fmt.Sprintf("not compared: ‡ %d pair%s, too few (< %d)", few, plural(few), records.MinRankedPairs)
		} else if why == "" {
			v, ok := adjusted[set]
			if !ok {
				v = compare.Compare(g, r, 3)
			}
			if finite(g.Value) && finite(r.Value) {
				if vs[part] == nil {
					vs[part] = verdictSets{}
				}
				vs[part][v] = append(vs[part][v], setDisplay(set))
				if part != records.PartDev {
					skip := records.Score(records.RuleSkip, set)
					covered.add(records.RuleZero, set, goName, refName,
						gridCell{cov: compare.Metric(goRec, records.Coverage(set).Key()), alt: goRow.Estimate(skip.At(simG, ownSim(goRec)).Key())},
						gridCell{cov: compare.Metric(ref, records.Coverage(set).Key()), alt: refRow.Estimate(skip.At(simR, ownSim(ref)).Key())}, v)
				}
			}
			if _, l, h, ok := compare.Diff(g, r); ok && v != compare.NotTested && finite(l) && finite(h) {
				lo, hi = l, h
				interval = "[" + signed(lo, 3) + ", " + signed(hi, 3) + "]"
			}
			verdictText = map[verdict]string{compare.Above: "Go higher", compare.Below: "reference higher", compare.Tie: "tie", compare.NotTested: "not tested"}[v]
			if !finite(g.Value) || !finite(r.Value) {
				verdictText = "—"
			}
		}
		covG, covR := compare.Metric(goRec, records.Coverage(set).Key()), compare.Metric(ref, records.Coverage(set).Key())
		rows = append(rows, []string{name, setDisplay(set), goName, refName,
			formatScore(g.Value, 3), formatScore(r.Value, 3), signed(g.Value-r.Value, 3), interval, verdictText,
			compare.CoverageText(covG, 0, false) + " / " + compare.CoverageText(covR, 0, false),
			goTime, refTime, ratio})
		line := []string{name, set, givenName(goRec), givenName(ref), csvNumber(g.Value), csvNumber(r.Value), csvNumber(g.Value - r.Value),
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
		return rows, csv, head + goName + " against " + refName + ": " + why + ".", Claim{Subject: name, Answer: why}
	}
	// The verdict counts the whole sets, else the test parts (before the
	// clauses below, which reorder the verdicts they word).
	switch {
	case len(vs[""]) > 0:
		claim = pairClaim(name, vs[""])
	case len(vs[records.PartTest]) > 0:
		claim = pairClaim(name+", test parts", vs[records.PartTest])
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
	clauses = append(clauses, covered.clauses()...)
	return rows, csv, head + strings.Join(clauses, "; ") + ".", claim
}

// pairSide is how a pair table names one side's row, prints its stage
// time and which trials that time comes from: a row folding seeds is
// "X (mean of 3 seeds)", its time their mean and range.
func pairSide(r row, stage string) (name, time string, members []records.Record) {
	if r.N <= 1 {
		return givenName(r.Record), timing(r.Record, stage), []records.Record{r.Record}
	}
	return fmt.Sprintf("%s (mean of %d seeds)", givenName(r.Record), r.N), seedsTiming(r.Members, stage), r.Members
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
