package reports

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
)

// The answer against corpus size: the same designs (chosen elsewhere, not
// re-tuned) trained on growing initial fractions of one corpus
// (data.fraction), each scored on the sets' test parts. Count models are
// known to fare relatively better on small corpora, so the question is
// whether the ordering of the best CA design and the best neural baseline
// moves with the corpus, and which way. Its rules, from the records alone:
//
//   - A design is a label with its settings, data.fraction and the
//     replicate aside; at each fraction its seeds are folded.
//   - Each design's score at a fraction is its pooled ρ: the mean over the
//     test parts (zero rule, at its own similarity), with the interval of
//     compare.Row.Pooled (pairs within each set, seeds counted).
//   - The CA family and the baselines each put forward the design of
//     highest mean dev ρ at the largest fraction (as a tuned page does: the
//     dev parts choose, never the test parts); at every fraction their
//     pooled Δρ is compared (compare.Diff), and the per-set verdicts are
//     Holm-adjusted for the sets.

// sizeDesign is one design across fractions.
type sizeDesign struct {
	label  string
	rows   map[float64]row // by fraction: the design's trials there, folded over seeds
	fracs  []float64       // ascending
	ca     bool
	base   bool
	devTop float64 // mean dev ρ at the largest fraction
}

// sizeDesigns groups the scored records into designs across data.fraction;
// nil unless some design ran at two fractions or more.
func (p *builder) sizeDesigns(recs []records.Record, testSets, devSets []string) []*sizeDesign {
	var out []*sizeDesign
	at := map[string]*sizeDesign{}
	for _, group := range compare.ReplicateGroups(recs) {
		first := group[0]
		if first.Status != records.StatusOK {
			continue
		}
		f := fractionOf(first)
		rest := map[string]any{}
		for k, v := range first.Settings {
			if k != "data.fraction" && k != records.KeyReplicate && k != "tuned_on" {
				rest[k] = v
			}
		}
		b, _ := json.Marshal(records.Normalize(rest))
		d, ok := at[string(b)]
		if !ok {
			label, _ := first.Settings[records.KeyLabel].(string)
			if label == "" {
				label = p.methodLabel(fmt.Sprint(first.Settings[records.KeyMethod]))
			}
			d = &sizeDesign{label: label, rows: map[float64]row{}, ca: p.isCAFamily(first), base: p.method(first).Baseline}
			at[string(b)] = d
			out = append(out, d)
		}
		merged := records.MergeReplicates(group)
		r := row{Trial: trial{Record: merged[0].Record}, N: merged[0].N, SD: merged[0].SD, Label: d.label}
		if merged[0].N > 1 {
			r.Members = group
		}
		d.rows[f] = r
		d.fracs = append(d.fracs, f)
	}
	many := false
	for _, d := range out {
		slices.Sort(d.fracs)
		many = many || len(d.fracs) > 1
		top := d.rows[d.fracs[len(d.fracs)-1]]
		sum, n := 0.0, 0
		for _, set := range devSets {
			key := records.Score(records.RuleZero, set).At(p.rankSim(top.Record), ownSim(top.Record)).Key()
			if v := compare.Metric(top.Record, key); finite(v) {
				sum += v
				n++
			}
		}
		d.devTop = math.NaN()
		if n == len(devSets) && n > 0 {
			d.devTop = sum / float64(n)
		}
	}
	if !many {
		return nil
	}
	return out
}

// pooledKeys are a design's score keys on sets at its ranked similarity.
func (p *builder) pooledKeys(r row, sets []string) []string {
	keys := make([]string, len(sets))
	for i, set := range sets {
		keys[i] = records.Score(records.RuleZero, set).At(p.rankSim(r.Record), ownSim(r.Record)).Key()
	}
	return keys
}

// tokensOf is the corpus tokens a design's trials read at a fraction (NaN
// when not recorded).
func tokensOf(r row) float64 {
	return compare.Metric(r.Record, records.MetricTokens)
}

// corpusSizeSubsection is the answer against corpus size, or nil when the
// records hold no design at several fractions with test-part scores; its
// verdict, when the best CA design and the best baseline ran at a common
// fraction, is their pooled verdict at each size.
func (p *builder) corpusSizeSubsection(recs []records.Record) (*Section, Verdict) {
	var testSets, devSets []string
	for _, s := range wordSets(recs) {
		switch _, part := records.SplitSetPart(s); part {
		case records.PartTest:
			testSets = append(testSets, s)
		case records.PartDev:
			devSets = append(devSets, s)
		}
	}
	if len(testSets) == 0 {
		return nil, Verdict{}
	}
	designs := p.sizeDesigns(recs, testSets, devSets)
	if designs == nil {
		return nil, Verdict{}
	}
	s := &Section{ID: "corpus-size", Title: "The answer against corpus size"}
	// Every design's pooled test ρ against tokens.
	ch := LineChart{ID: "corpus-size-rho", Title: "Pooled test-part ρ against corpus tokens", XName: "corpus tokens (data.fraction of the corpus)",
		YName: "mean ρ over the test parts (bar: 95% over pairs and seeds)", LogX: true}
	for _, d := range designs {
		var pts []XY
		for _, f := range d.fracs {
			r := d.rows[f]
			e := r.Pooled(p.pooledKeys(r, testSets))
			h := e.HalfWidth()
			if !finite(h) {
				h = 0
			}
			pts = append(pts, XY{X: tokensOf(r), Y: e.Value, Err: h, DashedErr: r.N > 1})
		}
		ch.Series = append(ch.Series, LineSeries{Name: d.label, Points: pts})
	}
	var ca, base *sizeDesign
	for _, d := range designs {
		if d.ca && finite(d.devTop) && (ca == nil || d.devTop > ca.devTop) {
			ca = d
		}
		if d.base && finite(d.devTop) && (base == nil || d.devTop > base.devTop) {
			base = d
		}
	}
	if ca == nil || base == nil {
		s.Blocks = append(s.Blocks, ch)
		return s, Verdict{}
	}
	// The best CA design against the best baseline at each fraction both
	// ran, by the rules of a tuned page's verdict (compareOn, compareCommon):
	// on the whole test parts (zero rule), and on the pairs both cover.
	var sets []string
	for _, t := range testSets {
		set, _ := records.SplitSetPart(t)
		sets = append(sets, set)
	}
	dch := LineChart{ID: "corpus-size-delta", Title: "Pooled Δρ (" + ca.label + " − " + base.label + ") against corpus tokens", XName: "corpus tokens",
		YName: "Δρ, mean over the test parts (bar: 95%)", LogX: true, Zero: "Δρ = 0"}
	t := Table{ID: "corpus-size-verdicts", Caption: "The best CA design against the best neural baseline (each chosen by dev ρ at the full corpus) at each corpus size: pooled Δρ over the test parts and the per-set verdicts after Holm's adjustment (zero rule), then the same on the pairs both cover (skip rule)",
		Header:  []string{"data.fraction", "Tokens", ca.label + " pooled ρ", base.label + " pooled ρ", "Pooled Δρ [95%]", "Pooled verdict", "Per set (Holm)", "Pairs both cover: pooled Δρ [95%]", "Verdict", "Per set (Holm)"},
		Numeric: []bool{true, true, true, true, true, false, false, true, false, false},
		CSV: [][]string{{"fraction", "tokens", "ca_rho", "baseline_rho", "delta", "lo", "hi", "verdict", "above", "below", "ties",
			"common_delta", "common_lo", "common_hi", "common_verdict", "common_above", "common_below", "common_ties"}}}
	var whole, common []XY
	var path []string
	var answer, answerCommon []atSize
	anyCommon := false
	word := map[verdict]string{compare.Above: "above", compare.Below: "below", compare.Tie: "tie", compare.NotTested: "not tested"}
	interval := func(v bestVerdict) string {
		if !v.pooledOK {
			return signed(v.poolD, 3)
		}
		return signed(v.poolD, 3) + " [" + signed(v.poolLo, 3) + ", " + signed(v.poolHi, 3) + "]"
	}
	point := func(tokens float64, v bestVerdict) XY {
		h := (v.poolHi - v.poolLo) / 2
		if !v.pooledOK || !finite(h) {
			h = 0
		}
		return XY{X: tokens, Y: v.poolD, Err: h}
	}
	for _, f := range ca.fracs {
		rb, ok := base.rows[f]
		if !ok {
			continue
		}
		ra := ca.rows[f]
		a, b := bestDesign{name: ca.label, row: ra, seeds: ra.N}, bestDesign{name: base.label, row: rb, seeds: rb.N}
		w, c := p.compareOn(a, b, sets, records.PartTest), p.compareCommon(a, b, sets)
		tokens := tokensOf(ra)
		whole = append(whole, point(tokens, w))
		nw, nc := w.tally(), c.tally()
		perSet := fmt.Sprintf("above %d · below %d · ties %d", nw[compare.Above], nw[compare.Below], nw[compare.Tie])
		row := []string{formatValue(f), thousands(tokens), formatScore(w.poolA.Value, 3), formatScore(w.poolB.Value, 3), interval(w), word[w.pooled], perSet, "", "not tested", ""}
		csv := []string{csvFloat(f), csvFloat(tokens), csvFloat(w.poolA.Value), csvFloat(w.poolB.Value), csvFloat(w.poolD), csvFloat(w.poolLo), csvFloat(w.poolHi), word[w.pooled],
			fmt.Sprint(nw[compare.Above]), fmt.Sprint(nw[compare.Below]), fmt.Sprint(nw[compare.Tie]), "", "", "", word[compare.NotTested], "", "", ""}
		anyCommon = anyCommon || c.showsCoverage()
		if c.tested {
			common = append(common, point(tokens, c))
			row[7], row[8] = interval(c), word[c.pooled]
			row[9] = fmt.Sprintf("above %d · below %d · ties %d", nc[compare.Above], nc[compare.Below], nc[compare.Tie])
			copy(csv[11:], []string{csvFloat(c.poolD), csvFloat(c.poolLo), csvFloat(c.poolHi), word[c.pooled],
				fmt.Sprint(nc[compare.Above]), fmt.Sprint(nc[compare.Below]), fmt.Sprint(nc[compare.Tie])})
			answerCommon = append(answerCommon, atSize{word[c.pooled], tokens})
		}
		t.Rows = append(t.Rows, row)
		t.CSV = append(t.CSV, csv)
		path = append(path, fmt.Sprintf("%s at %s tokens (Δρ %s)", word[w.pooled], millions(tokens), signed(w.poolD, 3)))
		answer = append(answer, atSize{word[w.pooled], tokens})
	}
	if len(whole) == 0 {
		s.Blocks = append(s.Blocks, ch)
		return s, Verdict{}
	}
	if !anyCommon {
		// Both designs cover every pair at every size: the pairs both
		// cover are the whole parts, and their columns would repeat.
		t.Header, t.Numeric, t.CSV[0] = t.Header[:7], t.Numeric[:7], t.CSV[0][:11]
		for i := range t.Rows {
			t.Rows[i], t.CSV[i+1] = t.Rows[i][:7], t.CSV[i+1][:11]
		}
	}
	dch.Series = []LineSeries{{Name: ca.label + " − " + base.label, Points: whole}}
	if anyCommon {
		dch.Series = append(dch.Series, LineSeries{Name: "on the pairs both cover", Points: common})
	}
	trend := ""
	if len(whole) > 1 {
		first, last := whole[0], whole[len(whole)-1]
		switch {
		case last.Y-first.Y > first.Err+last.Err:
			trend = fmt.Sprintf("; the CA design gains on the baseline as the corpus grows (Δρ %s → %s, more than both intervals' half-widths)", signed(first.Y, 3), signed(last.Y, 3))
		case first.Y-last.Y > first.Err+last.Err:
			trend = fmt.Sprintf("; the baseline gains on the CA design as the corpus grows (Δρ %s → %s, more than both intervals' half-widths)", signed(first.Y, 3), signed(last.Y, 3))
		default:
			trend = fmt.Sprintf("; Δρ moves from %s to %s, within the intervals' noise", signed(first.Y, 3), signed(last.Y, 3))
		}
	}
	head := Headline{fmt.Sprintf("The best CA design by dev ρ, %s, against the best neural baseline by dev ρ, %s, pooled over the test parts: %s%s.",
		ca.label, base.label, strings.Join(path, ", "), trend)}
	claims := []Claim{{Subject: ca.label + " − " + base.label, Answer: verdictsBySize(answer)}}
	if anyCommon {
		head = append(head, "On the pairs both cover (skip rule; a win under the zero rule that vanishes here is coverage): "+verdictsBySize(answerCommon)+".")
		claims = append(claims, Claim{Subject: "on the pairs both cover", Answer: verdictsBySize(answerCommon)})
	}
	s.Blocks = append(s.Blocks, head, Paragraph("The designs are not re-tuned at each size: each is the design chosen on the dev parts at the full corpus, trained again on the corpus's first tokens (data.fraction; the vocabulary is built on that section, so smaller corpora also cover fewer pairs: the zero rule charges them, and the pairs both cover separate better vectors from more of them). Each point's interval holds the pairs' noise (a bootstrap within each set) and, for seeded designs, the seeds' (dashed bars)."),
		t, Row{ch, dch})
	v := Verdict{Claims: claims, Basis: "pooled Δρ over the test parts at each corpus size, zero rule unless said, each at its own similarity"}
	return s, v
}

// atSize is a verdict at a corpus size (tokens).
type atSize struct {
	verdict string
	tokens  float64
}

// verdictsBySize spells verdicts at ascending sizes with runs of one verdict
// joined: "below at 0.53, 1.07 M tokens, tie at 2.14 M tokens".
func verdictsBySize(vs []atSize) string {
	var parts []string
	for i := 0; i < len(vs); {
		j := i
		var at []string
		for ; j < len(vs) && vs[j].verdict == vs[i].verdict; j++ {
			at = append(at, strings.TrimSuffix(millions(vs[j].tokens), " M"))
		}
		parts = append(parts, vs[i].verdict+" at "+strings.Join(at, ", ")+" M tokens")
		i = j
	}
	return strings.Join(parts, ", ")
}

// millions prints a token count as "2.14 M".
func millions(v float64) string {
	if !finite(v) {
		return "?"
	}
	return fmt.Sprintf("%.2f M", v/1e6)
}
