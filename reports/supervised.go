package reports

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
	"kcalab/schema"
)

// What known pairs buy (docs/supervised.md): the page of a spec whose
// trials learn from the dev parts' pairs (SCA tuned on them, sca.set: dev;
// any method's vectors retrofitted to them, retrofit.lexicon: dev). Its
// rules, computed from the records alone:
//
//   - A design is a tuning group's choice (records.Choose, by the
//     cross-fitted dev scores), or an untuned trial with its seeds.
//   - A supervised design's base is the plain design of the same settings
//     but the supervision's (sca.*, retrofit.*; SCA's CA is the CA of the
//     same word table, whichever of ca, lca or kca with the tailcut or lca
//     kernel names it): (a) what the pairs buy a method is the supervised
//     design minus its base, on the test parts, per set (Holm) and pooled,
//     and pooled over the test pairs whose words the dev pairs touch and
//     over those they do not (eval.touched).
//   - (b) The supervised CA design (SCA or retrofitted CA) of highest dev ρ
//     against the supervised neural baseline of highest dev ρ, each at its
//     own similarity, seeds counted, as the tuned page's verdict
//     (verdict.go); and the best SCA design against it when the best
//     supervised CA is not SCA.
//   - SCA's gain over its CA against retrofitting's gain over its base
//     (the best supervised baseline's), pooled: the difference of the two
//     differences, each pair of rows paired on the sets' shared resamples
//     (compare.Sub).

// supervisedSectionID is the id of the section.
const supervisedSectionID = "supervised"

// Kinds of supervision a design's settings say it learned from.
const (
	supPlain    = ""
	supSCA      = "sca"
	supRetrofit = "retrofit"
	supOther    = "other" // SCA tuned on one set (in-sample or folds): not this page's question
)

// supDesign is a design as the supervised section compares it.
type supDesign struct {
	bestDesign
	kind string
	base string // its settings but the supervision's (baseKey)
}

func (d supDesign) dev() float64 {
	if d.choice.Chosen < 0 {
		return math.NaN()
	}
	return d.choice.Candidates[d.choice.Chosen].Score
}

// supervisionOf is the kind of supervision of a record's settings.
func supervisionOf(set map[string]any) string {
	if lex, _ := set[schema.KeyRetrofitLexicon].(string); lex != "" && lex != schema.RetrofitNone {
		return supRetrofit
	}
	if m, _ := set[records.KeyMethod].(string); m == "sca" {
		if mode, _ := set["sca.mode"].(string); mode == schema.SCAModeCrossfit {
			return supSCA
		}
		return supOther
	}
	return supPlain
}

// baseKey spells a record's settings without its supervision and without
// what names or keeps a trial rather than makes its vectors: a supervised
// design and its base share it. CA of a word table is one analysis under
// four names (ca, lca, kca with kernel tailcut or lca, the CA that sca
// tunes).
func baseKey(set map[string]any) string {
	out := map[string]any{}
	method, _ := set[records.KeyMethod].(string)
	kernel, _ := set["kca.kernel"].(string)
	isCA := method == "ca" || method == "lca" || method == "sca" || (method == "kca" && (kernel == "tailcut" || kernel == "lca"))
	for k, v := range set {
		switch {
		case k == records.KeyLabel || k == records.KeyReplicate || k == keyTunedOn,
			strings.HasPrefix(k, "tune."), strings.HasPrefix(k, "retrofit."), strings.HasPrefix(k, "sca."),
			k == "vectors.save", k == "svd.record_sigma", k == "svd.shared_rank",
			isCA && (k == "kca.kernel" || k == "kca.shift"):
			continue
		}
		out[k] = v
	}
	if isCA {
		out[records.KeyMethod] = "ca"
	}
	b, _ := json.Marshal(records.Normalize(out))
	return string(b)
}

// supDesigns are the page's designs with test-part scores: the chosen
// design of each tuning group, and each untuned trial with its seeds, in
// record order.
func (p *builder) supDesigns(recs []records.Record, cs []records.Choice) []supDesign {
	byID := map[string]records.Record{}
	tuned := map[string]bool{}
	for _, rec := range recs {
		byID[rec.ID] = rec
	}
	var out []supDesign
	add := func(d bestDesign) {
		if !p.hasTestParts(d.row.Record) {
			return
		}
		out = append(out, supDesign{bestDesign: d, kind: supervisionOf(d.row.Record.Settings), base: baseKey(d.row.Record.Settings)})
	}
	for _, c := range cs {
		for _, cand := range c.Candidates {
			for _, id := range cand.IDs {
				tuned[id] = true
			}
		}
		if d, ok := p.chosenDesign(c, byID); ok {
			add(d)
		}
	}
	var plain []records.Record
	for _, rec := range recs {
		if !tuned[rec.ID] && rec.Status == records.StatusOK {
			plain = append(plain, rec)
		}
	}
	// Untuned trials are grouped with their seeds: equal settings but the
	// replicate (as records.MergeReplicates).
	groups := map[string][]records.Record{}
	var order []string
	for _, rec := range plain {
		k := withoutReplicate(rec)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], rec)
	}
	for _, k := range order {
		trials := groups[k]
		rec := trials[0]
		method, _ := rec.Settings[records.KeyMethod].(string)
		name := givenName(rec)
		if name == "" {
			name = p.methodLabel(method)
		}
		on := evalSetKeys(rec)
		var ids []string
		for _, t := range trials {
			ids = append(ids, t.ID)
		}
		c := records.Choice{Label: name, Method: method, On: on, Rule: records.RuleMean,
			Similarity: p.ownSimilarity(rec), Chosen: 0,
			Candidates: []records.Candidate{{IDs: ids, Score: p.devMean(trials, on)}}}
		add(designOf(c, name, trials))
	}
	return out
}

// withoutReplicate spells a record's settings but its replicate.
func withoutReplicate(r records.Record) string {
	s := map[string]any{}
	for k, v := range r.Settings {
		if k != records.KeyReplicate {
			s[k] = v
		}
	}
	b, _ := json.Marshal(records.Normalize(s))
	return string(b)
}

// evalSetKeys are the metric keys of a record's eval.sets.
func evalSetKeys(rec records.Record) []string {
	var out []string
	for _, s := range schema.RecordSettings(rec.Settings).Eval.Sets {
		out = append(out, schema.SetKey(s))
	}
	return out
}

// devMean is the tune rule's score of an untuned design: the mean over
// sets of its seeds' mean dev ρ (zero rule, its method's own similarity);
// NaN when a seed lacks one.
func (p *builder) devMean(trials []records.Record, sets []string) float64 {
	if len(sets) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, set := range sets {
		var total float64
		for _, rec := range trials {
			v, ok := rec.Metrics[records.Score(records.RuleZero, records.SetPart(set, records.PartDev)).At(p.ownSimilarity(rec), ownSim(rec)).Key()]
			if !ok || math.IsNaN(v) {
				return math.NaN()
			}
			total += v
		}
		sum += total / float64(len(trials))
	}
	return sum / float64(len(sets))
}

// hasTestParts says a record scored its sets' test parts (eval.parts).
func (p *builder) hasTestParts(rec records.Record) bool {
	for k := range rec.Metrics {
		if m := records.ParseMetric(k); m.Kind == records.ScoreMetric {
			if _, part := records.SplitSetPart(m.Set); part == records.PartTest {
				return true
			}
		}
	}
	return false
}

// gain is one supervised design against its base: on the test parts,
// and on their touched and untouched pairs.
type gain struct {
	sup, base          supDesign
	test               bestVerdict
	touched, untouched *bestVerdict
}

// supervisedSection lays out what the known pairs buy; nil when the page
// has no supervised design.
func (p *builder) supervisedSection(recs []records.Record, cs []records.Choice) *Section {
	if !slices.ContainsFunc(recs, func(rec records.Record) bool {
		k := supervisionOf(rec.Settings)
		return rec.Status == records.StatusOK && (k == supSCA || k == supRetrofit)
	}) {
		return nil
	}
	designs := p.supDesigns(recs, cs)
	var sup, plain []supDesign
	for _, d := range designs {
		switch d.kind {
		case supSCA, supRetrofit:
			sup = append(sup, d)
		case supPlain:
			plain = append(plain, d)
		}
	}
	if len(sup) == 0 {
		return nil
	}
	s := &Section{ID: supervisedSectionID, Title: "What known pairs buy, on pairs they never saw"}
	var head Headline
	var gains []gain
	var orphans []string
	for _, d := range sup {
		i := slices.IndexFunc(plain, func(b supDesign) bool { return b.base == d.base })
		if i < 0 {
			orphans = append(orphans, d.name)
			continue
		}
		b := plain[i]
		sets := commonSets(d.bestDesign, b.bestDesign)
		if len(sets) == 0 {
			continue
		}
		g := gain{sup: d, base: b, test: p.compareBest(d.bestDesign, b.bestDesign, sets)}
		if p.hasPart(d, records.PartTestTouched) && p.hasPart(b, records.PartTestTouched) {
			t := p.compareOn(d.bestDesign, b.bestDesign, sets, records.PartTestTouched)
			u := p.compareOn(d.bestDesign, b.bestDesign, sets, records.PartTestUntouched)
			g.touched, g.untouched = &t, &u
		}
		gains = append(gains, g)
	}
	for _, g := range gains {
		line := fmt.Sprintf("(a) %s over %s: pooled over the %d test parts Δρ %s; per set (Holm): %s.",
			p.supName(g.sup), g.base.name, len(g.test.sets), g.test.pooledText(), g.test.counts())
		if g.touched != nil {
			line += fmt.Sprintf(" On the test pairs a dev pair's words touch: %s; on those they do not: %s.", g.touched.pooledText(), g.untouched.pooledText())
		}
		if seeds := seedsOf(g.sup); g.sup.kind == supRetrofit && slices.Equal(seeds, seedsOf(g.base)) {
			line += " It retrofits its base's very vectors"
			if len(seeds) > 1 {
				line += fmt.Sprintf(" (the same %d seeds), so the difference is paired by seed", len(seeds))
			}
			line += "."
		}
		head = append(head, line)
	}
	// (b) The best supervised CA against the best supervised baseline.
	byDev := func(a, b supDesign) int { return cmp.Compare(b.dev(), a.dev()) }
	var supCA, supSCAs, supBase []supDesign
	for _, d := range sup {
		switch {
		case p.isCAFamily(d.row.Record):
			supCA = append(supCA, d)
			if d.kind == supSCA {
				supSCAs = append(supSCAs, d)
			}
		case p.method(d.row.Record).Baseline:
			supBase = append(supBase, d)
		}
	}
	slices.SortStableFunc(supCA, byDev)
	slices.SortStableFunc(supSCAs, byDev)
	slices.SortStableFunc(supBase, byDev)
	var best, bestCommon []bestVerdict
	if len(supCA) > 0 && len(supBase) > 0 {
		against := []supDesign{supCA[0]}
		if supCA[0].kind != supSCA && len(supSCAs) > 0 {
			against = append(against, supSCAs[0])
		}
		for k, a := range against {
			sets := commonSets(a.bestDesign, supBase[0].bestDesign)
			if len(sets) == 0 {
				continue
			}
			v := p.compareBest(a.bestDesign, supBase[0].bestDesign, sets)
			best = append(best, v)
			what := "the best supervised CA design by dev ρ"
			if k > 0 {
				what = "the best SCA design by dev ρ"
			}
			head = append(head, fmt.Sprintf("(b) %s, %s, against the best supervised neural baseline by dev ρ, %s: pooled over the %d test parts Δρ %s; per set (Holm): %s.",
				what, p.supName(a), p.supName(supBase[0]), len(sets), v.pooledText(), v.counts()))
			c := p.compareCommon(a.bestDesign, supBase[0].bestDesign, sets)
			bestCommon = append(bestCommon, c)
			if c.showsCoverage() {
				head = append(head, fmt.Sprintf("The same on the pairs both cover (skip rule; a design with vectors for unseen words on its vocabulary's pairs): pooled Δρ %s; per set (Holm): %s.",
					c.pooledText(), c.counts()))
			}
		}
	}
	// SCA's gain over its CA against retrofitting's over its base.
	scaGain, retroGain := bestGain(gains, supSCAs), bestGain(gains, supBase)
	var gainLine string
	gainV := compare.NotTested
	if scaGain != nil && retroGain != nil && slices.Equal(scaGain.test.sets, retroGain.test.sets) {
		ga, gb := compare.Sub(scaGain.test.poolA, scaGain.test.poolB), compare.Sub(retroGain.test.poolA, retroGain.test.poolB)
		d, lo, hi, ok := compare.Diff(ga, gb)
		switch {
		case !ok:
			gainLine = fmt.Sprintf("SCA's gain over its CA (%s) against retrofitting's over %s (%s): %s, not tested (a design lacks replicates).",
				signed(ga.Value, 3), retroGain.base.name, signed(gb.Value, 3), signed(ga.Value-gb.Value, 3))
		default:
			word := "a tie: not shown to differ"
			gainV = compare.Tie
			switch {
			case lo > 0:
				word, gainV = "SCA's is significantly larger", compare.Above
			case hi < 0:
				word, gainV = "SCA's is significantly smaller", compare.Below
			}
			gainLine = fmt.Sprintf("SCA's gain over its CA (%s, pooled) against retrofitting's over %s (%s): difference %s [%s, %s]: %s.",
				signed(ga.Value, 3), retroGain.base.name, signed(gb.Value, 3), signed(d, 3), signed(lo, 3), signed(hi, 3), word)
		}
		head = append(head, gainLine)
	}
	if len(best) > 0 && gainLine != "" {
		head = append(head, goalLine(best[0], gainV))
	}
	// The page's answer in one line: the best supervised CA design against
	// the best supervised baseline, and SCA's gain against retrofitting's.
	if len(best) > 0 {
		v := Verdict{Claims: []Claim{best[0].claim("supervised " + best[0].a.name + " − " + best[0].b.name)},
			Basis: "learned from the dev pairs, test parts, zero rule"}
		if c := bestCommon[0]; c.showsCoverage() {
			// On the pairs both cover the zero rule and the skip rule agree:
			// the basis holds for this claim too.
			v.Claims = append(v.Claims, c.claim("on pairs both cover"))
		}
		if gainV != compare.NotTested {
			v.Claims = append(v.Claims, Claim{Subject: "SCA's gain − retrofitting's", Answer: map[verdict]string{compare.Above: "larger", compare.Below: "smaller", compare.Tie: "tie"}[gainV]})
		}
		p.setVerdict(supervisedSectionID, v)
	}
	s.Blocks = append(s.Blocks, head, Paragraph(supervisedIntro))
	if len(orphans) > 0 {
		s.Blocks = append(s.Blocks, Paragraph(fmt.Sprintf("No plain design of the same settings is on this page for %s: what their pairs buy is not shown.", strings.Join(orphans, ", "))))
	}
	if len(gains) > 0 {
		vs, names := make([]bestVerdict, len(gains)), make([]string, len(gains))
		for i, g := range gains {
			vs[i], names[i] = g.test, g.sup.name+" − "+g.base.name
		}
		s.Blocks = append(s.Blocks, verdictTableOf(vs, "supervised-gain",
			"What the pairs buy each method: Δρ of the supervised design over its base on each test part, 95% interval over pairs and seeds, Holm-adjusted p and verdict; the pooled mean over the test parts",
			"Supervised − base", "test", []string{"supervised", "base", "coverage_supervised", "coverage_base"}, names))
		var parts []bestVerdict
		var partNames []string
		for _, g := range gains {
			if g.touched != nil {
				parts = append(parts, *g.touched, *g.untouched)
				partNames = append(partNames, g.sup.name+" − "+g.base.name+": touched", g.sup.name+" − "+g.base.name+": untouched")
			}
		}
		if len(parts) > 0 {
			s.Blocks = append(s.Blocks, verdictTableOf(parts, "supervised-touched",
				fmt.Sprintf("Beyond the labelled words: Δρ on the test pairs with a word in some dev pair (touched) and on those with neither word in any (untouched); a part of fewer than %d pairs is not tested and left out of the pool", records.MinRankedPairs),
				"Supervised − base, test pairs", "test", []string{"supervised", "base", "coverage_supervised", "coverage_base"}, partNames),
				p.touchedSizes(gains))
		}
	}
	if len(best) > 0 {
		s.Blocks = append(s.Blocks, verdictTableOf(best, "supervised-best",
			"The best supervised CA design against the best supervised neural baseline (each by dev ρ): Δρ on each test part, 95% interval over pairs and seeds, Holm-adjusted p and verdict; the pooled mean",
			"Supervised CA − supervised baseline", "test", []string{"supervised_ca", "supervised_baseline", "coverage_ca", "coverage_baseline"}, nil))
	}
	if commonTested(bestCommon) {
		s.Blocks = append(s.Blocks, verdictTableOf(bestCommon, "supervised-best-common",
			"The same on the pairs both cover in each test part (their number; skip rule, a design with vectors for unseen words scored on its corpus vocabulary's pairs): a win under the zero rule that vanishes here is coverage; the pooled mean over the tested parts",
			"Supervised CA − supervised baseline", "test", []string{"supervised_ca", "supervised_baseline", "coverage_ca", "coverage_baseline"}, nil))
	}
	return s
}

// supervisedIntro says how to read the section.
const supervisedIntro = "How it was measured: the supervised designs learn from the pairs of the sets' dev parts (about 30% of each set) and nothing else; a pair's part depends on its two words alone, so no test pair of any set is a dev pair of another. " +
	"Each dev pair is scored by a model that learned from the other dev folds (the folds of a seeded hash of the word pair), which makes the dev scores held out too: the designs of SCA and of retrofitting were chosen by them (tune:), never by a test part. " +
	"Every other pair, the test parts' among them, is scored by the model that learned from every dev pair. Δρ is the supervised design's Spearman ρ minus its plain base's (the same settings without the pairs), zero rule, each method at its own similarity; its interval holds the pairs' noise (a paired bootstrap over the sets' shared resamples) and the seeds' (a design trained over several); a per-set verdict counts only when its Holm-adjusted p-value is below 5%. " +
	"A test pair is touched when a dev pair of any set holds one of its words: retrofitting moves only those words, so its untouched pairs score as before; a gain there means the pairs taught the model about words nobody labelled."

// goalLine checks the question the section answers against its bar:
// supervised CA significantly above the best supervised baseline pooled
// and on at least two test parts, below on none; and SCA's gain over its
// CA at least retrofitting's over its base (gain: the verdict on their
// difference).
func goalLine(v bestVerdict, gain verdict) string {
	n := map[verdict]int{}
	for _, x := range v.vs {
		n[x]++
	}
	met := "no"
	if v.pooled == compare.Above && n[compare.Above] >= 2 && n[compare.Below] == 0 {
		met = "yes"
	}
	pooled := map[verdict]string{compare.Above: "above", compare.Below: "below", compare.Tie: "a tie", compare.NotTested: "not tested"}[v.pooled]
	gainText := map[verdict]string{compare.Above: "yes: significantly larger", compare.Tie: "within noise: not significantly smaller, not shown larger",
		compare.Below: "no: significantly smaller", compare.NotTested: "not tested"}[gain]
	return fmt.Sprintf("Is supervised CA significantly above the supervised baseline pooled and on at least two test parts, below on none? %s (pooled: %s; above on %d, below on %d). Is SCA's gain over its CA at least retrofitting's over its base? %s.",
		met, pooled, n[compare.Above], n[compare.Below], gainText)
}

// bestGain is the gain of the first of designs (sorted by dev ρ) that has
// one.
func bestGain(gains []gain, designs []supDesign) *gain {
	for _, d := range designs {
		for i := range gains {
			if gains[i].sup.row.Record.ID == d.row.Record.ID {
				return &gains[i]
			}
		}
	}
	return nil
}

// supName names a supervised design with its chosen values and its dev ρ.
func (p *builder) supName(d supDesign) string {
	var parts []string
	if c := d.choice; len(c.Axes) > 0 && c.Chosen >= 0 {
		parts = append(parts, valuesText(c.Axes, c.Candidates[c.Chosen].Values))
	}
	if dev := d.dev(); finite(dev) {
		parts = append(parts, "dev "+formatScore(dev, 3))
	}
	if d.seeds > 1 {
		parts = append(parts, fmt.Sprintf("%d seeds", d.seeds))
	}
	if len(parts) == 0 {
		return d.name
	}
	return d.name + " (" + strings.Join(parts, "; ") + ")"
}

// seedsOf are the seeds of a design's trials, sorted.
func seedsOf(d supDesign) []uint64 {
	members := d.row.Members
	if len(members) == 0 {
		members = []records.Record{d.row.Record}
	}
	out := make([]uint64, len(members))
	for i, m := range members {
		out[i] = m.Seed
	}
	slices.Sort(out)
	return out
}

// hasPart says a design's record scored a part of some set.
func (p *builder) hasPart(d supDesign, part string) bool {
	for k := range d.row.Record.Metrics {
		if m := records.ParseMetric(k); m.Kind == records.ScoreMetric {
			if _, pt := records.SplitSetPart(m.Set); pt == part {
				return true
			}
		}
	}
	return false
}

// touchedSizes is how many pairs each set's test part splits into.
func (p *builder) touchedSizes(gains []gain) Table {
	t := Table{ID: "supervised-touched-sizes", Caption: "Test pairs the dev pairs touch and do not touch, per set (the same for every design of a spec's sets)",
		Header: []string{"Set", "Test pairs", "Touched", "Untouched"}, Numeric: []bool{false, true, true, true}}
	rec := gains[0].base.row.Record
	for _, set := range gains[0].test.sets {
		n := func(part string) string {
			v := compare.Metric(rec, records.Pairs(records.SetPart(set, part)).Key())
			if !finite(v) {
				return "0"
			}
			return fmt.Sprintf("%d", int(v))
		}
		t.Rows = append(t.Rows, []string{setDisplay(set), n(records.PartTest), n(records.PartTestTouched), n(records.PartTestUntouched)})
	}
	return t
}
