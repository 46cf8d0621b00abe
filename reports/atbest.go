package reports

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
)

// The verdict of a tuned page: each method at its best, the best CA design
// against the best of the paper's neural baselines, on the test parts
// (which no choice saw). Its rules, computed from the records alone:
//
//   - A design is a tuning group's choice (records.Choose), folded over its
//     seeds. The CA family (tail-cut KCA, LCA, SCA: CA axes compared by the
//     dot product) and the baselines (schema.MethodInfo.Baseline: SGNS,
//     CBOW, GloVe, fastText) each put forward the design of highest mean dev
//     ρ, the number each was chosen by: which design stands for a family is
//     chosen on the dev parts too, never on the test parts.
//   - Each is scored at its own similarity, zero rule (the paper's), on the
//     test part of every set its group was chosen on; each per-set
//     difference has the 95% interval over the pairs and the seeds
//     (compare.Diff), and its verdict is adjusted for the family of sets
//     it is counted over by Holm's step-down (compare.HolmVerdicts).
//   - One pooled verdict answers across the sets: the mean Δρ over the test
//     parts, its bootstrap resampling pairs within each set, seeds counted
//     (compare.Row.Pooled).
//   - The best CA design is also set against each baseline's own best, so a
//     reader sees every baseline at its best, not only the strongest.

// bestDesign is a tuning group's chosen design as a verdict compares it.
type bestDesign struct {
	choice records.Choice
	name   string // the group's name
	row    row    // the chosen trials folded over their seeds
	seeds  int
}

// bestDesigns are the chosen designs of the CA family and of the
// baselines, each sorted by mean dev ρ, highest first (the first in
// record order on a tie).
func (p *builder) bestDesigns(recs []records.Record, cs []records.Choice) (ca, base []bestDesign) {
	byID := map[string]records.Record{}
	for _, rec := range recs {
		byID[rec.ID] = rec
	}
	for _, c := range cs {
		d, ok := p.chosenDesign(c, byID)
		if !ok {
			continue
		}
		switch {
		case p.isCAFamily(d.row.Record):
			ca = append(ca, d)
		case p.method(d.row.Record).Baseline:
			base = append(base, d)
		}
	}
	byDev := func(a, b bestDesign) int {
		return cmp.Compare(b.choice.Candidates[b.choice.Chosen].Score, a.choice.Candidates[a.choice.Chosen].Score)
	}
	slices.SortStableFunc(ca, byDev)
	slices.SortStableFunc(base, byDev)
	return ca, base
}

// chosenDesign is a tuning group's chosen design folded over its seeds;
// false when none was chosen or none of its trials finished.
func (p *builder) chosenDesign(c records.Choice, byID map[string]records.Record) (bestDesign, bool) {
	if c.Chosen < 0 {
		return bestDesign{}, false
	}
	var trials []records.Record
	for _, id := range c.ChosenIDs() {
		if rec, ok := byID[id]; ok && rec.Status == records.StatusOK {
			trials = append(trials, rec)
		}
	}
	if len(trials) == 0 {
		return bestDesign{}, false
	}
	return designOf(c, p.groupName(c), trials), true
}

// designOf is a design of trials (its seeds) standing for choice c.
func designOf(c records.Choice, name string, trials []records.Record) bestDesign {
	merged := records.MergeReplicates(trials)
	r := row{Trial: trial{Record: merged[0].Record}, N: merged[0].N, SD: merged[0].SD, Label: name}
	if merged[0].N > 1 {
		r.Members = trials
	}
	return bestDesign{choice: c, name: name, row: r, seeds: len(trials)}
}

// bestVerdict is one comparison of two designs over a family of sets: per
// set the difference a − b with its interval, its p-value, Holm's adjusted
// one and the verdict after the adjustment; and the pooled difference.
type bestVerdict struct {
	a, b             bestDesign
	sets             []string // set keys (their test parts are compared)
	d, lo, hi        []float64
	p, adj           []float64
	vs               []verdict
	covA, covB       []float64
	poolD, poolLo    float64
	poolHi, poolP    float64
	poolA, poolB     estimate // each design's pooled estimate
	pooled           verdict
	tested, pooledOK bool // any set tested; pooled tested
	pooledSets       int  // the sets the pool is over (those tested)
	// common, for a verdict on the pairs both cover (compareCommon), is
	// how many pairs of each set's test part it compares (0: not tested);
	// nil for a verdict on whole parts.
	common []int
}

// compareBest compares a against b on the test parts of sets.
func (p *builder) compareBest(a, b bestDesign, sets []string) bestVerdict {
	return p.compareOn(a, b, sets, records.PartTest)
}

// compareOn compares a against b on one held-out part of each of sets
// (records.HeldOutPart), zero rule. A part of fewer than
// records.MinRankedPairs pairs on either side is not tested, and left out
// of the pool.
func (p *builder) compareOn(a, b bestDesign, sets []string, part string) bestVerdict {
	few := func(d bestDesign, set string) bool {
		n := compare.Metric(d.row.Record, records.Pairs(records.SetPart(set, part)).Key())
		return !(n >= records.MinRankedPairs)
	}
	return p.compareKeys(a, b, sets, part, func(_ int, set string) (ka, kb string, ok bool) {
		if part != records.PartTest && (few(a, set) || few(b, set)) {
			return "", "", false
		}
		return p.scoreKey(a, records.RuleZero, records.SetPart(set, part)), p.scoreKey(b, records.RuleZero, records.SetPart(set, part)), true
	})
}

// compareCommon compares a against b on the test part of each of sets on
// the pairs both cover (compare.CommonRules): skip rule, a design with
// vectors for unseen words scored on its corpus vocabulary's pairs where
// the other has none. It separates better vectors from more of them: under
// the zero rule a design is charged 0 for each pair it has no vector for.
// A set where the two designs' records cannot bring them to the same pairs
// (another vocabulary, no vocabulary score) is not tested, and left out of
// the pool; v.common holds how many pairs each set compares.
func (p *builder) compareCommon(a, b bestDesign, sets []string) bestVerdict {
	common := make([]int, len(sets))
	v := p.compareKeys(a, b, sets, records.PartTest, func(i int, set string) (ka, kb string, ok bool) {
		if vocabularyOf(a.row.Record) != vocabularyOf(b.row.Record) {
			return "", "", false
		}
		sp := records.SetPart(set, records.PartTest)
		sa := commonSide(a.row, sp, p.rankSim(a.row.Record))
		sb := commonSide(b.row, sp, p.rankSim(b.row.Record))
		ra, rb, n, ok := compare.CommonRules(sa, sb)
		if !ok {
			return "", "", false
		}
		common[i] = n
		return p.scoreKey(a, ra, sp), p.scoreKey(b, rb, sp), true
	})
	v.common = common
	return v
}

// scoreKey is the key of design d's score under rule on set (a set part),
// at the similarity its page ranks it by.
func (p *builder) scoreKey(d bestDesign, rule records.Rule, set string) string {
	return records.Score(rule, set).At(p.rankSim(d.row.Record), ownSim(d.row.Record)).Key()
}

// compareKeys compares a against b on each of sets, reading each set's
// scores by the keys keys gives for set i (false: the set is not tested and left out
// of the pool): per set the difference with its interval over the pairs
// and seeds, Holm's adjusted verdicts, and the pooled difference over the
// tested sets. Coverage is read on part.
func (p *builder) compareKeys(a, b bestDesign, sets []string, part string, keys func(i int, set string) (ka, kb string, ok bool)) bestVerdict {
	v := bestVerdict{a: a, b: b, sets: sets}
	ea, eb := make([]estimate, len(sets)), make([]estimate, len(sets))
	var ka, kb []string
	for i, set := range sets {
		if k1, k2, ok := keys(i, set); ok {
			ka, kb = append(ka, k1), append(kb, k2)
			ea[i], eb[i] = a.row.Estimate(k1), b.row.Estimate(k2)
		} else {
			ea[i], eb[i] = estimate{Value: math.NaN()}, estimate{Value: math.NaN()}
		}
		cov := records.Coverage(records.SetPart(set, part)).Key()
		v.covA = append(v.covA, compare.Metric(a.row.Record, cov))
		v.covB = append(v.covB, compare.Metric(b.row.Record, cov))
	}
	v.vs, v.p, v.adj = compare.HolmVerdicts(ea, eb)
	for i := range sets {
		d, lo, hi, ok := compare.Diff(ea[i], eb[i])
		if !ok {
			d = ea[i].Value - eb[i].Value
		}
		v.d, v.lo, v.hi = append(v.d, d), append(v.lo, lo), append(v.hi, hi)
		v.tested = v.tested || ok
	}
	v.pooledSets = len(ka)
	pa, pb := a.row.Pooled(ka), b.row.Pooled(kb)
	v.poolA, v.poolB = pa, pb
	d, lo, hi, ok := compare.Diff(pa, pb)
	v.poolD, v.poolLo, v.poolHi, v.pooledOK = d, lo, hi, ok
	v.poolP = compare.PValue(pa, pb)
	switch {
	case !ok:
		v.pooled, v.poolD = compare.NotTested, pa.Value-pb.Value
	case lo > 0:
		v.pooled = compare.Above
	case hi < 0:
		v.pooled = compare.Below
	default:
		v.pooled = compare.Tie
	}
	return v
}

// counts spells the per-set verdicts after Holm's adjustment, "above on
// MEN, Rare; ties on 4" (sets named when few).
func (v bestVerdict) counts() string {
	by := map[verdict][]string{}
	for i, set := range v.sets {
		by[v.vs[i]] = append(by[v.vs[i]], setDisplay(set))
	}
	name := func(sets []string) string {
		if len(sets) <= 3 {
			return strings.Join(sets, ", ")
		}
		return strconv.Itoa(len(sets)) + " sets"
	}
	var parts []string
	if s := by[compare.Above]; len(s) > 0 {
		parts = append(parts, "above on "+name(s))
	}
	if s := by[compare.Below]; len(s) > 0 {
		parts = append(parts, "below on "+name(s))
	}
	if s := by[compare.Tie]; len(s) > 0 {
		parts = append(parts, "ties on "+name(s))
	}
	if s := by[compare.NotTested]; len(s) > 0 {
		parts = append(parts, "not tested on "+name(s))
	}
	return strings.Join(parts, "; ")
}

// pooledText is the pooled verdict, "+0.012 [−0.004, +0.028]: a tie".
func (v bestVerdict) pooledText() string {
	if !v.pooledOK {
		return fmt.Sprintf("%s (not tested: a design lacks replicates or a test part)", signed(v.poolD, 3))
	}
	word := map[verdict]string{compare.Above: "significantly above", compare.Below: "significantly below", compare.Tie: "a tie"}[v.pooled]
	over := ""
	if v.pooledSets > 0 && v.pooledSets < len(v.sets) {
		over = fmt.Sprintf(" (over %d of %d sets)", v.pooledSets, len(v.sets))
	}
	return fmt.Sprintf("%s [%s, %s]%s: %s", signed(v.poolD, 3), signed(v.poolLo, 3), signed(v.poolHi, 3), over, word)
}

// claim is the comparison in one claim of a page's verdict: "best CA −
// best baseline: above 1 · ties 5 (Holm), pooled: tie (+0.012)".
func (v bestVerdict) claim(subject string) Claim {
	n := v.tally()
	var parts []string
	for _, k := range []struct {
		v    verdict
		name string
	}{{compare.Above, "above"}, {compare.Below, "below"}, {compare.Tie, "ties"}, {compare.NotTested, "not tested"}} {
		if n[k.v] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k.name, n[k.v]))
		}
	}
	pooled := map[verdict]string{compare.Above: "above", compare.Below: "below", compare.Tie: "tie", compare.NotTested: "not tested"}[v.pooled]
	return Claim{Subject: subject, Answer: strings.Join(parts, " · ") + " (Holm)", Pooled: pooled + " (Δρ " + signed(v.poolD, 3) + ")"}
}

// tally counts the per-set verdicts by kind.
func (v bestVerdict) tally() map[verdict]int {
	n := map[verdict]int{}
	for _, x := range v.vs {
		n[x]++
	}
	return n
}

// commonSets are the sets a comparison is made on: those the CA design's
// group was chosen on that the baseline's was too, in its order.
func commonSets(a, b bestDesign) []string {
	var out []string
	for _, s := range a.choice.On {
		if slices.Contains(b.choice.On, s) {
			out = append(out, s)
		}
	}
	return out
}

// verdictBlocks are the verdict's headline, its table and the verdicts
// on the pairs both cover, with the headline's two verdicts (the second
// nil when no set could be compared on common pairs, or when both designs
// cover every pair); nil when the page has no CA design or no baseline
// chosen.
func (p *builder) verdictBlocks(recs []records.Record, cs []records.Choice) ([]Block, *bestVerdict, *bestVerdict) {
	ca, base := p.bestDesigns(recs, cs)
	if len(ca) == 0 || len(base) == 0 {
		return nil, nil, nil
	}
	best := ca[0]
	var vs, common []bestVerdict
	for _, b := range base {
		if sets := commonSets(best, b); len(sets) > 0 {
			vs = append(vs, p.compareBest(best, b, sets))
			common = append(common, p.compareCommon(best, b, sets))
		}
	}
	if len(vs) == 0 {
		return nil, nil, nil
	}
	head := vs[0]
	devOf := func(d bestDesign) string {
		return formatScore(d.choice.Candidates[d.choice.Chosen].Score, 3)
	}
	seedsOf := func(d bestDesign) string {
		if d.seeds > 1 {
			return fmt.Sprintf(", %d seeds", d.seeds)
		}
		return ""
	}
	lines := Headline{fmt.Sprintf("Each method at its best, on the test parts (zero rule, each at its own similarity, seeds counted): the best CA design by dev ρ, %s (%s; dev %s), against the best neural baseline by dev ρ, %s (%s; dev %s%s): pooled over the %d test parts Δρ %s; per set after Holm's adjustment for the %d sets: %s.",
		best.name, valuesText(best.choice.Axes, best.choice.Candidates[best.choice.Chosen].Values), devOf(best),
		head.b.name, valuesText(head.b.choice.Axes, head.b.choice.Candidates[head.b.choice.Chosen].Values), devOf(head.b), seedsOf(head.b),
		len(head.sets), head.pooledText(), len(head.sets), head.counts())}
	for _, v := range vs[1:] {
		lines = append(lines, fmt.Sprintf("Against %s at its best (dev %s%s): pooled Δρ %s; per set (Holm): %s.", v.b.name, devOf(v.b), seedsOf(v.b), v.pooledText(), v.counts()))
	}
	intro := Paragraph("How to read it: Δρ is the CA design's Spearman ρ minus the baseline's on a set's test part (about 70% of its pairs, never seen by any choice). " +
		"Its interval holds the noise of the pairs (a paired bootstrap over 200 resamples of the set's pairs, shared by both designs) and, for a design trained over several seeds, of the seeds (their variance widens the interval with a t quantile on n − 1 degrees of freedom, so seeds never narrow it). " +
		"A per-set verdict counts only when its p-value, adjusted by Holm's step-down for the number of sets compared, is below 5%: six separate 95% tests of no difference come up with a \"significant\" one about one time in four. " +
		"The pooled verdict is the mean Δρ over the test parts, its bootstrap resampling the pairs within each set. Under the zero rule a design is charged 0 for pairs it has no vector for: the coverage columns say how much each covers.")
	blocks := []Block{lines, intro, verdictTable(vs)}
	if !commonTested(common) {
		return blocks, &vs[0], nil
	}
	blocks = append(blocks, commonBlocks(common)...)
	if !common[0].showsCoverage() {
		// Where both cover every pair, the common pairs are the whole
		// parts: the claim would repeat the first.
		return blocks, &vs[0], nil
	}
	return blocks, &vs[0], &common[0]
}

// showsCoverage reports whether v, a verdict on the pairs both cover, was
// tested and says more than the whole parts' verdict: either design
// leaves some pair of a compared set without a vector.
func (v bestVerdict) showsCoverage() bool {
	return v.tested && v.partial()
}

// partial reports whether either design of v leaves some pair of a
// compared set without a vector.
func (v bestVerdict) partial() bool {
	for i := range v.sets {
		if (finite(v.covA[i]) && v.covA[i] < 1) || (finite(v.covB[i]) && v.covB[i] < 1) {
			return true
		}
	}
	return false
}

// commonTested reports whether any verdict on the pairs both cover was
// tested on some set.
func commonTested(vs []bestVerdict) bool {
	for _, v := range vs {
		if v.tested {
			return true
		}
	}
	return false
}

// commonBlocks are the verdicts on the pairs both cover: a headline, how
// to read it, and their table.
func commonBlocks(vs []bestVerdict) []Block {
	var parts []string
	for _, v := range vs {
		parts = append(parts, fmt.Sprintf("against %s, pooled Δρ %s; per set (Holm): %s", v.b.name, v.pooledText(), v.counts()))
	}
	head := Headline{fmt.Sprintf("On the pairs both cover (skip rule, each at its own similarity, seeds counted), %s: %s.", vs[0].a.name, strings.Join(parts, "; "))}
	how := Paragraph("The zero rule charges a design 0 for every pair it has no vector for, so a design that covers more of a set can win by its coverage alone. " +
		"Here both designs are scored on the same pairs of each test part: those both have vectors for (a design with vectors for unseen words, fastText's n-grams or subword rows, is scored on the pairs of its corpus vocabulary, which a design without them covers), paired over the same resamples. " +
		"A win here is better vectors for the words both know; a win under the zero rule that vanishes here is coverage. A set whose records cannot bring the two to the same pairs is not tested and stays out of the pool.")
	t := verdictTableOf(vs, "verdict-common", "Δρ on the pairs both cover in each test part (their number), 95% interval over pairs and seeds, Holm-adjusted p and verdict; the pooled mean over the tested parts",
		"CA design − baseline", "test", []string{"ca_design", "baseline", "coverage_ca", "coverage_baseline"}, nil)
	return []Block{head, how, t}
}

// verdictTable lays out every comparison: per set Δρ with its interval,
// the adjusted verdict, and the pooled difference.
func verdictTable(vs []bestVerdict) Table {
	return verdictTableOf(vs, "verdict", "Δρ on each test part, 95% interval over pairs and seeds, Holm-adjusted p and verdict; the pooled mean over the test parts (coverage of the test part: CA design / baseline)",
		"CA design − baseline", "test", []string{"ca_design", "baseline", "coverage_ca", "coverage_baseline"}, nil)
}

// verdictTableOf is verdictTable with its id, caption, first column,
// the part its set columns name, the CSV's column names (below) and,
// when not nil, each row's first cell. csvNames names the CSV's columns of
// the two designs and of their coverages.
func verdictTableOf(vs []bestVerdict, id, caption, first, part string, csvNames []string, rowNames []string) Table {
	sets := vs[0].sets
	header := []string{first}
	numeric := []bool{false}
	for _, s := range sets {
		header = append(header, setDisplay(s)+" "+part)
		numeric = append(numeric, true)
	}
	header = append(header, "Pooled")
	numeric = append(numeric, true)
	t := Table{ID: id, Caption: caption,
		Header: header, Numeric: numeric,
		CSV: [][]string{{csvNames[0], csvNames[1], "set", "delta", "lo", "hi", "p", "p_holm", "verdict", csvNames[2], csvNames[3]}}}
	if vs[0].common != nil {
		t.CSV[0] = append(t.CSV[0], "pairs")
	}
	word := map[verdict]string{compare.Above: "above", compare.Below: "below", compare.Tie: "tie", compare.NotTested: "not tested"}
	for k, v := range vs {
		cells := []string{v.a.name + " − " + v.b.name}
		if rowNames != nil {
			cells[0] = rowNames[k]
		}
		for i := range v.sets {
			if i >= len(sets) || v.sets[i] != sets[i] {
				cells = append(cells, "—")
				continue
			}
			if v.common != nil && v.common[i] == 0 {
				cells = append(cells, "not tested: not the same pairs")
				v.csvRow(&t, i, word)
				continue
			}
			c := signed(v.d[i], 3)
			if finite(v.lo[i]) {
				c += fmt.Sprintf(" [%s, %s] p(Holm) %s %s", signed(v.lo[i], 3), signed(v.hi[i], 3), pValueText(v.adj[i]), word[v.vs[i]])
			}
			if v.common != nil {
				c += fmt.Sprintf(" (%d pairs)", v.common[i])
			} else if finite(v.covA[i]) && finite(v.covB[i]) && math.Abs(v.covA[i]-v.covB[i]) > compare.CoverageGap {
				c += " (coverage " + percent(v.covA[i], 1) + " / " + percent(v.covB[i], 1) + ")"
			}
			cells = append(cells, c)
			v.csvRow(&t, i, word)
		}
		pooled := v.pooledText()
		if finite(v.poolP) {
			pooled += " p " + pValueText(v.poolP)
		}
		cells = append(cells, pooled)
		t.Rows = append(t.Rows, cells)
		pooledRow := []string{v.a.name, v.b.name, "pooled", csvFloat(v.poolD), csvFloat(v.poolLo), csvFloat(v.poolHi), csvFloat(v.poolP), "", word[v.pooled], "", ""}
		if v.common != nil {
			total := 0
			for _, n := range v.common {
				total += n
			}
			pooledRow = append(pooledRow, strconv.Itoa(total))
		}
		t.CSV = append(t.CSV, pooledRow)
	}
	return t
}

func (v bestVerdict) csvRow(t *Table, i int, word map[verdict]string) {
	r := []string{v.a.name, v.b.name, v.sets[i], csvFloat(v.d[i]), csvFloat(v.lo[i]), csvFloat(v.hi[i]), csvFloat(v.p[i]), csvFloat(v.adj[i]),
		word[v.vs[i]], csvFloat(v.covA[i]), csvFloat(v.covB[i])}
	if v.common != nil {
		r = append(r, strconv.Itoa(v.common[i]))
	}
	t.CSV = append(t.CSV, r)
}

// pValueText prints a p-value: "<0.001", "0.032", "1".
func pValueText(p float64) string {
	switch {
	case math.IsNaN(p):
		return "—"
	case p < 0.001:
		return "<0.001"
	case p >= 0.9995:
		return "1"
	}
	return strconv.FormatFloat(p, 'f', 3, 64)
}
