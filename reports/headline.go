package reports

import (
	"fmt"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
)

// The rules a headline states, for one ranking group of a score grid
// (vectors of one d from one data, one statistic under one rule, each row
// at its ranked similarity), over the group's ranked cells (in-sample
// cells never count):
//
//   - A group speaks only when it holds ranked rows of at least two
//     methods; when none of its cells has bootstrap replicates it says
//     only that nothing is tested. Rows whose records hold scores at the
//     other similarity alone (older records) are named as such.
//   - The paper's ordering: the paper's CA rows are the rows whose method
//     gives CA axes compared by the dot product (isCAFamily: tail-cut KCA,
//     LCA, SCA); the baselines are all other rows. On a set where both
//     kinds have a ranked cell, the ordering holds when the best CA row
//     (highest ρ there) is significantly above the best baseline (paired
//     bootstrap, compare), is reversed when significantly below, and ties
//     otherwise; without replicates it is not tested. The sentence counts
//     the sets of each kind.
//   - The leading pair: with both kinds present, the CA row and the
//     baseline row of highest mean over their ranked cells; with one kind,
//     the row of highest mean and the best row of another method; rows
//     with bootstrap replicates first, rows without only when no row of
//     the kind has any. The two
//     are compared set by set (compare) and the one above on more sets is
//     named first: "A is significantly above B on …; B above A on …; ties
//     on …; not tested on …".
//   - Common pairs: under the skip rule two rows that cover different
//     pairs of a set are compared on the pairs both cover, when their
//     records hold those scores (a row with vectors for unseen words
//     scored on its vocabulary's pairs, records.RuleVocab; cellVerdict).
//   - Coverage: each verdict above (above, below or a tie) between two
//     rows whose coverage of its set differs by more than
//     compare.CoverageGap (5 points) is followed by a clause naming both
//     coverages (verdictCoverage). Under the skip rule it says the verdict
//     is on the N pairs both cover (paired), or else that the rows are
//     "not the same pairs", so the verdict is no paired win; and what the
//     zero rule says. Under the zero rule a verdict that the pairs both
//     cover (or, unpaired, the pairs each covers) do not repeat is
//     "decided by coverage". Equal coverage adds nothing.

// verdictSets collects set names by verdict.
type verdictSets map[verdict][]string

// groupHeadline says what ranking group gi of the grid says under rule
// (on scope: "" for the whole sets, "test parts" for their test parts),
// or "" when the group holds fewer than two methods or nothing is ranked.
func (p *builder) groupHeadline(g scoreGrid, gi int, rule records.Rule, scope string) string {
	gg := g.groups[gi]
	methods := map[string]bool{}
	var ca, base []int
	var unscored []string // rows with scores only at the other similarity
	var inSample []string // rows tuned on every set the group shows
	bySim := map[records.Similarity]bool{}
	tested := false
	for i, r := range gg.rows {
		if !finiteAny(gg.cells[i]) {
			switch {
			case tunedAny(gg.cells[i]):
				inSample = append(inSample, r.Label)
			case otherAny(gg.cells[i]):
				unscored = append(unscored, r.Label)
				bySim[gg.cells[i][0].sim] = true
			}
			continue
		}
		tested = tested || anyTested(gg.cells[i])
		methods[formatValue(r.Settings["method"])] = true
		if p.isCAFamily(r.Record) {
			ca = append(ca, i)
		} else {
			base = append(base, i)
		}
	}
	if len(methods) < 2 {
		return ""
	}
	var clauses []string
	var covered coverageNotes
	switch {
	case !tested:
		clauses = append(clauses, "nothing is tested (no row has bootstrap replicates), so no difference is claimed")
	case len(ca) > 0 && len(base) > 0:
		clauses = append(clauses, orderingClause(orderingVerdicts(g, gg, ca, base, rule, &covered)))
	}
	if a, b := leadingPair(gg, ca, base); tested && a >= 0 && b >= 0 {
		per := comparePerSet(rule, g.sets, gg.cells[a], gg.cells[b])
		clauses = append(clauses, pairClause(gg.rows[a].Label, gg.rows[b].Label, per.sets))
		for k, j := range per.at {
			covered.add(rule, g.sets[j], gg.rows[a].Label, gg.rows[b].Label, gg.cells[a][j], gg.cells[b][j], per.vs[k])
		}
	}
	clauses = append(clauses, covered.clauses()...)
	if len(inSample) > 0 {
		verb := "was"
		if len(inSample) > 1 {
			verb = "were"
		}
		clauses = append(clauses, fmt.Sprintf("%s %s tuned on these sets (in-sample): not compared", strings.Join(inSample, ", "), verb))
	}
	if len(unscored) > 0 {
		var sims []string
		for _, s := range []records.Similarity{records.SimDot, records.SimCosine} {
			if bySim[s] {
				sims = append(sims, string(s))
			}
		}
		clauses = append(clauses, fmt.Sprintf("%s: no score at %s, the similarity %s ranked at, in %s records (older than scoring at both)",
			strings.Join(unscored, ", "), strings.Join(sims, " or "), map[bool]string{true: "they are", false: "it is"}[len(unscored) > 1], map[bool]string{true: "their", false: "its"}[len(unscored) > 1]))
	}
	if scope != "" {
		scope = ", " + scope
	}
	at := "At " + gg.label
	if gg.tuned {
		at = "With " + gg.label
	}
	return fmt.Sprintf("%s, %s rule%s, %s: %s.", at, rule, scope, p.simText(), strings.Join(clauses, "; "))
}

// otherAny says some cell has a score at the other similarity.
func otherAny(cells []gridCell) bool {
	for _, c := range cells {
		if finite(c.other) {
			return true
		}
	}
	return false
}

// tunedAny says some cell has a value that is in-sample (tuned on its set).
func tunedAny(cells []gridCell) bool {
	for _, c := range cells {
		if c.tuned && finite(c.Value) {
			return true
		}
	}
	return false
}

// finiteAny says some cell has a ranked value.
func finiteAny(cells []gridCell) bool {
	for _, c := range cells {
		if c.ranked() {
			return true
		}
	}
	return false
}

// bestAt is, among the rows, the one with the highest ranked value on set
// j (the first on ties); -1 for none.
func bestAt(gg gridGroup, rows []int, j int) int {
	best := -1
	for _, i := range rows {
		if c := gg.cells[i][j]; c.ranked() && (best < 0 || c.Value > gg.cells[best][j].Value) {
			best = i
		}
	}
	return best
}

// bestMean is, among the rows, the one with the highest mean over its
// ranked cells (the first on ties), skipping rows of the method skip; a
// row with bootstrap replicates is preferred to one without, so that the
// pair compared is one that can be tested when there is one. -1 for none.
func bestMean(gg gridGroup, rows []int, skip string) int {
	best := -1
	for _, tested := range []bool{true, false} {
		for _, i := range rows {
			if (skip != "" && formatValue(gg.rows[i].Settings["method"]) == skip) || (tested && !anyTested(gg.cells[i])) {
				continue
			}
			m := meanRanked(gg.cells[i])
			if finite(m) && (best < 0 || m > meanRanked(gg.cells[best])) {
				best = i
			}
		}
		if best >= 0 {
			return best
		}
	}
	return best
}

// anyTested says some ranked cell has bootstrap replicates.
func anyTested(cells []gridCell) bool {
	for _, c := range cells {
		if c.ranked() && c.Tested() {
			return true
		}
	}
	return false
}

// leadingPair is the pair a group's headline compares (see the rules
// above).
func leadingPair(gg gridGroup, ca, base []int) (a, b int) {
	if len(ca) > 0 && len(base) > 0 {
		return bestMean(gg, ca, ""), bestMean(gg, base, "")
	}
	all := append(append([]int(nil), ca...), base...)
	a = bestMean(gg, all, "")
	if a < 0 {
		return -1, -1
	}
	return a, bestMean(gg, all, formatValue(gg.rows[a].Settings["method"]))
}

// perSet is two rows compared set by set: the verdicts by set, and per
// compared set (its index in at) its verdict.
type perSet struct {
	sets verdictSets
	at   []int
	vs   []verdict
}

// comparePerSet compares two rows' ranked cells set by set, the verdicts
// adjusted for the sets compared (familyVerdicts).
func comparePerSet(rule records.Rule, sets []string, a, b []gridCell) perSet {
	var out perSet
	var ac, bc []gridCell
	for j := range sets {
		if a[j].ranked() && b[j].ranked() {
			out.at = append(out.at, j)
			ac, bc = append(ac, a[j]), append(bc, b[j])
		}
	}
	out.vs = familyVerdicts(rule, ac, bc)
	out.sets = verdictSets{}
	for k, j := range out.at {
		out.sets[out.vs[k]] = append(out.sets[out.vs[k]], setDisplay(sets[j]))
	}
	return out
}

// orderingClause says on how many sets the paper's ordering holds.
func orderingClause(vs verdictSets) string {
	n := len(vs[compare.Above]) + len(vs[compare.Below]) + len(vs[compare.Tie]) + len(vs[compare.NotTested])
	if n == len(vs[compare.NotTested]) {
		return "the paper's ordering (its CA rows above the neural baselines) is not tested on any set (the best rows have no bootstrap replicates)"
	}
	s := fmt.Sprintf("the paper's ordering (the best CA row significantly above the best baseline, after Holm's adjustment for the %d sets) holds on %d of %d sets%s", n-len(vs[compare.NotTested]), len(vs[compare.Above]), n, setList(vs[compare.Above]))
	if len(vs[compare.Below]) > 0 {
		s += fmt.Sprintf(", is reversed on %d%s", len(vs[compare.Below]), setList(vs[compare.Below]))
	}
	if len(vs[compare.Tie]) > 0 {
		s += fmt.Sprintf(", ties on %d%s", len(vs[compare.Tie]), setList(vs[compare.Tie]))
	}
	if len(vs[compare.NotTested]) > 0 {
		s += fmt.Sprintf(", is not tested on %d%s", len(vs[compare.NotTested]), setList(vs[compare.NotTested]))
	}
	return s
}

// setList is " (Sim, MEN)", or "" for none.
func setList(sets []string) string {
	if len(sets) == 0 {
		return ""
	}
	return " (" + strings.Join(sets, ", ") + ")"
}

// pairClause says how two rows compare set by set, the one above on more
// sets first.
func pairClause(a, b string, vs verdictSets) string {
	if len(vs[compare.Below]) > len(vs[compare.Above]) {
		a, b = b, a
		vs[compare.Above], vs[compare.Below] = vs[compare.Below], vs[compare.Above]
	}
	tested := len(vs[compare.Above]) + len(vs[compare.Below]) + len(vs[compare.Tie])
	switch {
	case tested == 0 && len(vs[compare.NotTested]) == 0:
		return a + " and " + b + " share no ranked set"
	case tested == 0:
		return a + " against " + b + ": not tested (no bootstrap replicates)"
	case len(vs[compare.Above]) == 0 && len(vs[compare.Below]) == 0:
		s := a + " and " + b + " tie on " + strings.Join(vs[compare.Tie], ", ")
		if len(vs[compare.NotTested]) > 0 {
			s += "; not tested on " + strings.Join(vs[compare.NotTested], ", ")
		}
		return s
	}
	var parts []string
	if len(vs[compare.Above]) > 0 {
		parts = append(parts, a+" is significantly above "+b+" on "+strings.Join(vs[compare.Above], ", "))
	}
	if len(vs[compare.Below]) > 0 {
		parts = append(parts, b+" above "+a+" on "+strings.Join(vs[compare.Below], ", "))
	}
	if len(vs[compare.Tie]) > 0 {
		parts = append(parts, "ties on "+strings.Join(vs[compare.Tie], ", "))
	}
	if len(vs[compare.NotTested]) > 0 {
		parts = append(parts, "not tested on "+strings.Join(vs[compare.NotTested], ", "))
	}
	return strings.Join(parts, "; ")
}

// mainGroup is the grid's group a section's headline speaks of first: the
// one with the most methods, then the most rows, the first on ties.
func mainGroup(g scoreGrid) int {
	best, bm, br := 0, -1, -1
	for gi, gg := range g.groups {
		methods := map[string]bool{}
		for _, r := range gg.rows {
			methods[formatValue(r.Settings["method"])] = true
		}
		if len(methods) > bm || (len(methods) == bm && len(gg.rows) > br) {
			best, bm, br = gi, len(methods), len(gg.rows)
		}
	}
	return best
}

// coverageNotes collects what coverage says of a headline's verdicts,
// each (set, pair of rows) once.
type coverageNotes struct {
	seen  map[string]bool
	notes []coverageNote
}

// coverageNote is a verdict between two rows (a against b) on a set whose
// coverage differs by more than compare.CoverageGap. common is the
// verdict between them on the n pairs both cover, when their records hold
// those scores (paired; onCommonPairs): under the skip rule it is v.
type coverageNote struct {
	rule      records.Rule
	set, a, b string
	c         compare.CoverageCheck
	v         verdict
	paired    bool
	n         int
	common    verdict
}

// other is the verdict the note's clause sets against v: on the pairs both
// rows cover when paired, else under the other rule.
func (x coverageNote) other() verdict {
	if x.paired && x.rule != records.RuleSkip {
		return x.common
	}
	return x.c.Other
}

// add notes verdict v between rows a and b (their labels and cells) on
// set under rule, when their coverage differs by more than the gap and v
// is a verdict (not "not tested").
func (n *coverageNotes) add(rule records.Rule, set, a, b string, ca, cb gridCell, v verdict) {
	k := set + "\x00" + a + "\x00" + b
	if n.seen[k] {
		return
	}
	if n.seen == nil {
		n.seen = map[string]bool{}
	}
	n.seen[k] = true
	if c := compare.CheckCoverage(ca.cov, cb.cov, ca.alt, cb.alt, 3); c.Differs && v != compare.NotTested {
		note := coverageNote{rule: rule, set: set, a: a, b: b, c: c, v: v}
		if ea, eb, pairs, ok := onCommonPairs(ca, cb); ok {
			note.paired, note.n, note.common = true, pairs, compare.Compare(ea, eb, 3)
		}
		n.notes = append(n.notes, note)
	}
}

// clauses words the notes (verdictCoverage): a verdict the other rule
// repeats is said with the others of its pair of rows, in one clause at
// the first one's place; a verdict it does not repeat has a clause of its
// own.
func (n coverageNotes) clauses() []string {
	var out []string
	done := make([]bool, len(n.notes))
	for i, x := range n.notes {
		if done[i] {
			continue
		}
		group := []coverageNote{x}
		if x.other() == x.v {
			for k := i + 1; k < len(n.notes); k++ {
				if y := n.notes[k]; !done[k] && y.a == x.a && y.b == x.b && y.rule == x.rule && y.paired == x.paired && y.other() == y.v {
					group, done[k] = append(group, y), true
				}
			}
		}
		out = append(out, verdictCoverage(group))
	}
	return out
}

// verdictCoverage says what two rows' coverage of sets says of their
// verdicts there (one note, or several that agree, of one pair of rows,
// one rule and one kind of pairing): both coverages per set and, when the
// records hold their scores on the pairs both rows cover (paired), how
// many those are. Under the skip rule a paired verdict is on those pairs,
// an unpaired one compares different pairs; either is set against the
// zero rule's. Under the zero rule a verdict that the pairs both rows
// cover (paired), or else the pairs each covers (skip rule), does not
// repeat is decided by coverage.
func verdictCoverage(group []coverageNote) string {
	x := group[0]
	var covs, common []string
	for k, n := range group {
		of := "of " + setDisplay(n.set) + "'s pairs"
		if k > 0 {
			of = "of " + setDisplay(n.set) + "'s"
		}
		covs = append(covs, percent(n.c.CovA, 1)+" and "+percent(n.c.CovB, 1)+" "+of)
		common = append(common, fmt.Sprintf("%s of %s's", thousands(float64(n.n)), setDisplay(n.set)))
	}
	both := x.a + " and " + x.b
	holds := "the verdict holds"
	if len(group) > 1 {
		holds = "the verdicts hold"
	}
	onCommon := "on the " + strings.Join(common, ", ") + " pairs both cover"
	if len(group) == 1 {
		onCommon = fmt.Sprintf("on the %s pairs of %s both cover", thousands(float64(x.n)), setDisplay(x.set))
	}
	if x.rule == records.RuleSkip {
		other := holds
		if x.c.Other != x.v {
			other = verdictText(x.a, x.b, x.c.Other)
		}
		if x.paired {
			return fmt.Sprintf("%s cover %s: compared %s (paired); with the pairs they lack scoring 0 (zero rule), %s",
				both, strings.Join(covs, ", "), onCommon, other)
		}
		return fmt.Sprintf("%s are scored on %s: not the same pairs, so not a comparison on common pairs; with the pairs they lack scoring 0 (zero rule), %s",
			both, strings.Join(covs, ", "), other)
	}
	where := "on the pairs each covers (skip rule)"
	if x.paired {
		where = onCommon
	}
	switch x.other() {
	case x.v:
		return fmt.Sprintf("%s cover %s; %s %s", both, strings.Join(covs, ", "), where, holds)
	case compare.NotTested:
		return fmt.Sprintf("%s cover %s; %s the verdict is not tested", both, covs[0], where)
	}
	return fmt.Sprintf("on %s, the verdict (%s) is decided by coverage: %s cover %s; %s, %s",
		setDisplay(x.set), verdictText(x.a, x.b, x.v), both, covs[0], where, verdictText(x.a, x.b, x.other()))
}

// verdictText names a verdict of a against b: "a significantly above b",
// "b significantly above a", "a tie", "not tested".
func verdictText(a, b string, v verdict) string {
	switch v {
	case compare.Above:
		return a + " significantly above " + b
	case compare.Below:
		return b + " significantly above " + a
	case compare.Tie:
		return "a tie"
	}
	return "not tested"
}
