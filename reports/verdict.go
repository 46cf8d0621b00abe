package reports

import (
	"fmt"
	"strings"
	"unicode"

	"kcalab/records"
	"kcalab/reports/compare"
	"kcalab/schema"
)

// A page's verdict is its answer in one line: what the index row shows
// under the question, what the page's header shows, and what a run prints
// in the terminal. It is computed from the same comparisons as the
// section's headline, which stays one click away with every caveat.
//
// A verdict is a few claims, each "subject: answer" ("ordering: holds 1 ·
// ties 4 · reversed 1"), and the basis they rest on ("d chosen on dev
// parts, test parts, zero rule"). A claim over several sets may carry a
// verdict pooled over them (Claim.Pooled), printed after its answer.

// Claim is one part of a verdict.
type Claim struct {
	Subject string // what it is about: "ordering", "d = 100", "krylov / dssvd"; "" for none
	Answer  string // what the records say: "holds 1 · ties 4 · reversed 1"
	// Pooled is the verdict on the claim's sets pooled into one ("tie",
	// "reversed"), printed as ", pooled: tie" after the answer; "" prints
	// nothing. Where a section computes a verdict pooled over sets, it
	// sets this field of its claims (orderingClaim is the place for the
	// ordering); nothing else changes.
	Pooled string
}

// String is "subject: answer, pooled: …".
func (c Claim) String() string {
	s := c.Answer
	if c.Subject != "" {
		s = c.Subject + ": " + s
	}
	if c.Pooled != "" {
		s += ", pooled: " + c.Pooled
	}
	return s
}

// Verdict is a page's answer in one line.
type Verdict struct {
	Claims []Claim
	Basis  string // what every claim rests on: "test parts, zero rule"; "" for nothing to add
	// Provisional, when not empty, says why the claims may change (the
	// grid's trials not all run: Report.Unfinished).
	Provisional string
}

// String is the claims joined by "; ", then " — " and the basis; a
// provisional verdict starts by saying so.
func (v Verdict) String() string {
	parts := make([]string, len(v.Claims))
	for i, c := range v.Claims {
		parts[i] = c.String()
	}
	s := strings.Join(parts, "; ")
	if v.Basis != "" && s != "" {
		s += " — " + v.Basis
	}
	if v.Provisional != "" && s != "" {
		s = "provisional (" + v.Provisional + "): " + s
	}
	return s
}

// Empty says the verdict has no claim.
func (v Verdict) Empty() bool { return len(v.Claims) == 0 }

// verdictWords is the most words a verdict taken from a headline may
// have: beyond, only the headline's first clause is taken (see
// verdictFromHeadline), the rest is a click away.
const verdictWords = 55

// verdictFromHeadline is the verdict of a section that computes none of
// its own: its headline when that is short, else the headline's first
// sentence, cut to its first clause when still long, with "…" for the
// rest.
func verdictFromHeadline(h Headline) Verdict {
	if len(h) == 0 {
		return Verdict{}
	}
	whole := strings.Join(h, " ")
	if words(whole) <= verdictWords {
		return Verdict{Claims: []Claim{{Answer: strings.TrimSuffix(whole, ".")}}}
	}
	first := firstSentence(h[0])
	if words(first) > verdictWords {
		if i := strings.Index(first, "; "); i > 0 {
			first = first[:i]
		}
	}
	if words(first) > verdictWords {
		f := strings.Fields(first)
		first = strings.Join(f[:verdictWords], " ")
	}
	return Verdict{Claims: []Claim{{Answer: strings.TrimSuffix(first, ".") + " …"}}}
}

// words counts a text's words as a reader sees them: its tokens with a
// letter or digit ("·", "=", "—" are no words).
func words(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	return n
}

// setVerdict records the verdict of the section id (the page's builder
// keeps one per section; Summarize takes the one of the section it
// quotes).
func (p *builder) setVerdict(id string, v Verdict) {
	if v.Empty() {
		return
	}
	if p.verdicts == nil {
		p.verdicts = map[string]Verdict{}
	}
	p.verdicts[id] = v
}

// verdictOf is the verdict the builder recorded for the section (or, when
// none, for its first subsection that has one), else one made of its
// headline.
func (p *builder) verdictOf(s Section) Verdict {
	if v, ok := p.verdicts[s.ID]; ok {
		return v
	}
	for _, sub := range s.Subsections {
		if v, ok := p.verdicts[sub.ID]; ok {
			return v
		}
	}
	return verdictFromHeadline(headlineOf(s))
}

// orderingVerdicts answers the ordering per set, for the headline and the
// claim alike: at each set the best CA row against the best baseline row,
// the sets' verdicts adjusted for their number (familyVerdicts, Holm), each
// noted in covered with the rows and cells it came from.
func orderingVerdicts(g scoreGrid, gg gridGroup, ca, base []int, rule records.Rule, covered *coverageNotes) verdictSets {
	vs := verdictSets{}
	var js, as, bs []int
	var ac, bc []gridCell
	for j := range g.sets {
		a, b := bestAt(gg, ca, j), bestAt(gg, base, j)
		if a < 0 || b < 0 {
			continue
		}
		js, as, bs = append(js, j), append(as, a), append(bs, b)
		ac, bc = append(ac, gg.cells[a][j]), append(bc, gg.cells[b][j])
	}
	for k, v := range familyVerdicts(rule, ac, bc) {
		j, set := js[k], g.sets[js[k]]
		vs[v] = append(vs[v], setDisplay(set))
		covered.add(rule, set, gg.rows[as[k]].Label, gg.rows[bs[k]].Label, gg.cells[as[k]][j], gg.cells[bs[k]][j], v)
	}
	return vs
}

// orderingClaim is what ranking group gi of the grid says of the paper's
// ordering under rule, in one claim (groupHeadline's rules, its first
// clauses): on how many sets the best CA row is significantly above the
// best baseline ("holds"), in a tie, or below ("reversed"), with how many
// of those verdicts coverage decides (the other rule, or the pairs both
// rows cover, says otherwise); without rows of both kinds, the leading
// pair's count. false when the group holds fewer than two methods.
func (p *builder) orderingClaim(g scoreGrid, gi int, rule records.Rule) (Claim, bool) {
	gg := g.groups[gi]
	methods := map[string]bool{}
	var ca, base []int
	tested := false
	for i, r := range gg.rows {
		if !finiteAny(gg.cells[i]) {
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
		return Claim{}, false
	}
	if !tested {
		return Claim{Subject: "ordering", Answer: "not tested (no bootstrap replicates)"}, true
	}
	var covered coverageNotes
	if len(ca) > 0 && len(base) > 0 {
		vs := orderingVerdicts(g, gg, ca, base, rule, &covered)
		return Claim{Subject: "ordering", Answer: countsText(vs, "holds", "ties", "reversed") + decidedText(covered)}, true
	}
	a, b := leadingPair(gg, ca, base)
	if a < 0 || b < 0 {
		return Claim{}, false
	}
	vs := comparePerSet(rule, g.sets, gg.cells[a], gg.cells[b]).sets
	la, lb := gg.rows[a].Label, gg.rows[b].Label
	if len(vs[compare.Below]) > len(vs[compare.Above]) {
		la, lb = lb, la
		vs[compare.Above], vs[compare.Below] = vs[compare.Below], vs[compare.Above]
	}
	return Claim{Subject: la + " against " + lb, Answer: countsText(vs, "above", "ties", "below")}, true
}

// countsText counts verdicts set by set: "holds 1 · ties 4 · reversed 1",
// and "not tested 2" when any set was not tested.
func countsText(vs verdictSets, above, tie, below string) string {
	parts := []string{fmt.Sprintf("%s %d", above, len(vs[compare.Above]))}
	if n := len(vs[compare.Tie]); n > 0 {
		parts = append(parts, fmt.Sprintf("%s %d", tie, n))
	} else {
		parts = append(parts, tie+" 0")
	}
	parts = append(parts, fmt.Sprintf("%s %d", below, len(vs[compare.Below])))
	if n := len(vs[compare.NotTested]); n > 0 {
		parts = append(parts, fmt.Sprintf("not tested %d", n))
	}
	return strings.Join(parts, " · ")
}

// decidedText says how many of the notes' verdicts coverage decides
// (verdictCoverage's "decided by coverage" under the zero rule, "not the
// same pairs" under the skip rule): " (2 by coverage)", or "".
func decidedText(n coverageNotes) string {
	decided := 0
	for _, x := range n.notes {
		switch {
		case x.rule == records.RuleSkip && !x.paired:
			decided++
		case x.rule != records.RuleSkip && x.other() != x.v && x.other() != compare.NotTested:
			decided++
		}
	}
	if decided == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d by coverage)", decided)
}

// orderingVerdict is the verdict of a word-similarity grid family under
// rule: one claim per ranking group (orderingClaim), each named by its
// group when there are several, and the basis: the one group's label,
// the family's scope and the rule.
func (p *builder) orderingVerdict(g scoreGrid, rule records.Rule, scope string) Verdict {
	var v Verdict
	ordering := false
	for gi, gg := range g.groups {
		c, ok := p.orderingClaim(g, gi, rule)
		if !ok {
			continue
		}
		if len(g.groups) > 1 {
			// The group names the claim; the basis names the ordering.
			if c.Subject == "ordering" {
				c.Subject, ordering = gg.label, true
			} else {
				c.Subject = gg.label + ", " + c.Subject
			}
		}
		v.Claims = append(v.Claims, c)
	}
	var basis []string
	if ordering {
		basis = append(basis, "the paper's ordering")
	}
	if len(v.Claims) > 0 && len(g.groups) == 1 {
		basis = append(basis, g.groups[0].label)
	}
	if scope != "" {
		basis = append(basis, scope)
	}
	v.Basis = strings.Join(append(basis, string(rule)+" rule"), ", ")
	return v
}

// scalingVerdict is a scaling page's verdict: the paper's comparisons
// that have sizes both finished at, the newest backend against DSSVD (the
// paper's), and the lines that finished nowhere. Each comparison is its
// time ratio from the smallest to the largest size measured alike, and
// its memory ratio at the largest size where memory compares; a reason
// every comparison shares for not comparing times is said once.
func scalingVerdict(pairs []scalingPair, lines []line, ax scalingAxis) Verdict {
	newest := -1
	for _, sp := range pairs {
		newest = max(newest, sp.rankA)
	}
	var chosen []scalingPair
	for _, sp := range pairs {
		if len(sp.sizes) > 0 && (sp.paperPosition >= 0 || (sp.rankA == newest && sp.backB == "dssvd")) {
			chosen = append(chosen, sp)
		}
	}
	// Why times do not compare, when every chosen comparison says the same.
	shared := ""
	for i, sp := range chosen {
		why := ""
		if len(sp.compared()) == 0 {
			why = withoutParens(strings.TrimPrefix(sp.sizes[len(sp.sizes)-1].timeWhy, "not compared: "))
		}
		if i == 0 {
			shared = why
		} else if why != shared {
			shared = ""
		}
	}
	var v Verdict
	for _, sp := range chosen {
		var parts []string
		switch c := sp.compared(); {
		case len(c) == 1:
			parts = append(parts, timesText(c[0].time)+" at "+ax.text(c[0].x))
		case len(c) > 1:
			first, last := c[0], c[len(c)-1]
			lastX := strings.TrimPrefix(ax.text(last.x), ax.csvName()+" = ")
			// Both ratios one way: "1.3–682× faster, V = 998–14,569", the
			// first size's ratio first, so that an index row stays short.
			fa, wa, _ := strings.Cut(timesText(first.time), " ")
			fb, wb, _ := strings.Cut(timesText(last.time), " ")
			switch {
			case wa == wb && fa == fb:
				parts = append(parts, fmt.Sprintf("%s %s, %s–%s", fa, wa, ax.text(first.x), lastX))
			case wa == wb && wa != "fast":
				parts = append(parts, fmt.Sprintf("%s–%s %s, %s–%s", strings.TrimSuffix(fa, "×"), fb, wa, ax.text(first.x), lastX))
			default:
				parts = append(parts, fmt.Sprintf("%s at %s to %s at %s", timesText(first.time), ax.text(first.x), timesText(last.time), lastX))
			}
		case shared == "":
			parts = append(parts, "time not compared ("+withoutParens(strings.TrimPrefix(sp.sizes[len(sp.sizes)-1].timeWhy, "not compared: "))+")")
		}
		for i := len(sp.sizes) - 1; i >= 0; i-- {
			if at := sp.sizes[i]; finite(at.mem) {
				mem := "memory " + percent(at.mem, 1)
				if c := sp.compared(); len(c) == 0 || c[len(c)-1].x != at.x {
					mem += " at " + ax.text(at.x)
				}
				parts = append(parts, mem)
				break
			}
		}
		c := Claim{Subject: sp.a + " / " + sp.b, Answer: strings.Join(parts, ", ")}
		if sp.paperPosition >= 0 {
			c.Answer += " (paper: " + sp.paper.short + ")"
		}
		v.Claims = append(v.Claims, c)
	}
	for _, u := range unfinishedAnswer(lines, ax) {
		v.Claims = append(v.Claims, Claim{Answer: u})
	}
	if shared != "" && len(v.Claims) > 0 {
		v.Basis = "times not compared: " + shared
	}
	return v
}

// sweepVerdictOf is a sweep's verdict: where each line's mean ρ over the
// sets is highest (sweepPeaks), differences not tested.
func sweepVerdictOf(sk schema.Setting, peaks []sweepPeak, sets int, unit string) Verdict {
	if len(peaks) == 0 {
		return Verdict{}
	}
	parts := make([]string, len(peaks))
	for i, pk := range peaks {
		parts[i] = pk.name + " " + formatValue(pk.x)
	}
	return Verdict{Claims: []Claim{{Subject: "mean ρ highest at " + sweepSymbol(sk), Answer: strings.Join(parts, ", ")}},
		Basis: fmt.Sprintf("mean over %d %s, zero rule, not tested (each set's verdict is on the page)", sets, unit)}
}

// pairClaim is one Go trainer against its reference on a family of sets
// in one claim: "Go higher 0 · ties 5 · reference higher 1".
func pairClaim(name string, vs verdictSets) Claim {
	return Claim{Subject: name, Answer: countsText(vs, "Go higher", "ties", "reference higher")}
}

// analogyClaim is which row is best by one rule, in one claim: "SGNS
// significantly best", "SGNS highest, tie with tail-cut", "not tested".
func analogyClaim(how string, cells []analogyCell) (Claim, bool) {
	if len(cells) < 2 {
		return Claim{}, false
	}
	top := -1
	for i, c := range cells {
		if c.Tested() && (top < 0 || roundTo(c.Value, 3) > roundTo(cells[top].Value, 3)) {
			top = i
		}
	}
	if top < 0 {
		return Claim{Subject: how, Answer: "not tested (no bootstrap replicates)"}, true
	}
	var ties []string
	for i, c := range cells {
		if i != top && compare.Compare(cells[top].estimate, c.estimate, 3) != compare.Above {
			ties = append(ties, c.label)
		}
	}
	if len(ties) == 0 {
		return Claim{Subject: how, Answer: cells[top].label + " significantly best"}, true
	}
	return Claim{Subject: how, Answer: cells[top].label + " highest, tie with " + joinAnd(ties)}, true
}

// checkVerdict is a check page's verdict: how many numbers pass, and
// whether they were recomputed or reused (a reused number passes by
// construction).
func checkVerdict(c *Check, recs []records.Record) Verdict {
	if c == nil || len(c.Reference) == 0 {
		return Verdict{}
	}
	items := records.CheckDetails(c.Reference, recs, c.Tolerance)
	if len(items) == 0 {
		return Verdict{}
	}
	reused := reusedTrials(c.Reference, recs)
	fails, nReused := 0, 0
	for _, it := range items {
		if !it.Pass {
			fails++
		}
		if reused[it.ID] {
			nReused++
		}
	}
	answer := fmt.Sprintf("all %d pass", len(items))
	if fails > 0 {
		answer = fmt.Sprintf("%d of %d FAIL", fails, len(items))
	}
	how := "every one recomputed by this run"
	switch {
	case nReused == len(items):
		how = "every one reused from the reference, not recomputed: compared with themselves (-fresh recomputes)"
	case nReused > 0:
		how = fmt.Sprintf("%d reused from the reference (pass by construction), %d recomputed", nReused, len(items)-nReused)
	}
	return Verdict{Claims: []Claim{{Subject: "numbers against the reference", Answer: answer}, {Answer: how}}}
}

// withoutParens drops the parenthesised parts of a text (nested ones
// too) and the space before each: a reason without its details.
func withoutParens(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
