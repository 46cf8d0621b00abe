package reports

import (
	"fmt"
	"math"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
)

// scoreGrid is one statistic under one rule (Spearman ρ under the zero
// rule, …) on a page's sets, its rows in ranking groups (groupByDim), each
// cell read at its row's ranked similarity (rankSim): what a score table
// shows and what its headline says, from one place.
type scoreGrid struct {
	sets   []string
	of     func(set string) records.Metric // the statistic on a set, at a trial's own similarity
	groups []gridGroup
}

// gridGroup is a ranking group's rows and their cells.
type gridGroup struct {
	rowGroup
	cells [][]gridCell // per row, per set
}

// gridCell is one score as every ranking reads it.
type gridCell struct {
	estimate                    // at the row's ranked similarity
	sim      records.Similarity // that similarity
	other    float64            // the score at the other similarity; NaN when not recorded
	tuned    bool               // in-sample: the row's design was tuned on this set
	// few is the number of covered pairs behind the score when it is below
	// records.MinRankedPairs (0: enough, or not recorded).
	few int
	cov float64  // the share of the set's pairs the row covers; NaN when not recorded
	alt estimate // the statistic under the other OOV rule, at the same similarity (Value NaN: none)
	// side holds the row's scores for a comparison on the pairs two rows
	// both cover (compare.CommonPairs), at the same similarity; vocab
	// names its corpus vocabulary: only rows of one vocabulary pair.
	side  compare.Side
	vocab string
}

// ranked says the cell takes part in rankings and headlines: it has a
// value, is not in-sample and rests on enough pairs.
func (c gridCell) ranked() bool { return finite(c.Value) && !c.tuned && c.few == 0 }

// fewPairs is the number of covered pairs of a record's score on a set
// when below records.MinRankedPairs, else 0. A cell with none covered
// gets 1 (its ρ, if any, is undefined anyway).
func fewPairs(rec records.Record, set string) int {
	n, ok := records.CoveredPairs(rec, set)
	if !ok || n >= records.MinRankedPairs {
		return 0
	}
	return max(n, 1)
}

// grid reads the cells of a statistic (of: the metric on a set at a
// trial's own similarity) for the groups' rows on sets.
func (p *builder) grid(groups []rowGroup, sets []string, of func(set string) records.Metric) scoreGrid {
	g := scoreGrid{sets: sets, of: of}
	for _, rg := range groups {
		gg := gridGroup{rowGroup: rg, cells: make([][]gridCell, len(rg.rows))}
		for i, r := range rg.rows {
			sim, own := p.rankSim(r.Record), ownSim(r.Record)
			gg.cells[i] = make([]gridCell, len(sets))
			for j, set := range sets {
				m := of(set)
				alt := estimate{Value: math.NaN()}
				if m.Rule != "" {
					am := m
					am.Rule = otherRule(m.Rule)
					alt = r.Estimate(am.At(sim, own).Key())
				}
				gg.cells[i][j] = gridCell{
					estimate: r.Estimate(m.At(sim, own).Key()),
					sim:      sim,
					other:    compare.Metric(r.Record, m.At(otherSim(sim), own).Key()),
					tuned:    p.tunedOn(r.Record, set),
					few:      fewPairs(r.Record, set),
					cov:      compare.Metric(r.Record, records.Coverage(set).Key()),
					alt:      alt,
					side:     commonSide(r, set, sim),
					vocab:    vocabularyOf(r.Record),
				}
			}
		}
		g.groups = append(g.groups, gg)
	}
	return g
}

// otherRule is the out-of-vocabulary rule that is not r.
func otherRule(r records.Rule) records.Rule {
	if r == records.RuleSkip {
		return records.RuleZero
	}
	return records.RuleSkip
}

// rows are every row of the grid, in its order.
func (g scoreGrid) rows() []row {
	var out []row
	for _, gg := range g.groups {
		out = append(out, gg.rows...)
	}
	return out
}

// empty says no cell of the grid has a value at either similarity.
func (g scoreGrid) empty() bool {
	for _, gg := range g.groups {
		for _, cs := range gg.cells {
			for _, c := range cs {
				if finite(c.Value) || finite(c.other) {
					return false
				}
			}
		}
	}
	return true
}

// scoreTable lays the grid out as a ScoreTable: one row per grid row, in
// its group; each cell its score at the ranked similarity with its
// bootstrap replicates, and in small type its coverage where the
// coverage varies among the rows (withCoverage), the other similarity's
// score, † and no rank when in-sample, the seed replicates' spread, then
// whatever decorate adds (group gi, row i, set j). The footer holds the
// coverage common to all rows.
func (g scoreGrid) scoreTable(id, caption string, withCoverage bool, decorate func(gi, i, j int, c *cell)) ScoreTable {
	all := table{Rows: g.rows(), Cols: setColumns(g.sets, g.of, withCoverage)}
	footer, perCell := all.Coverage()
	st := ScoreTable{ID: id, RowHeader: "Trial", Columns: all.Header(), Caption: caption}
	if withCoverage {
		st.Footer = []TextRow{{Name: "pairs covered", Cells: footer}}
	}
	tuned, few, seeded := false, false, false
	var reps [][]estimate // per row and set, the score's estimate (replicates, seed variance)
	for gi, gg := range g.groups {
		for i, r := range gg.rows {
			sr := ScoreRow{Name: r.Label, Group: gg.label, Scores: make([]float64, len(g.sets)), Notes: make([]string, len(g.sets)),
				Unranked: make([]bool, len(g.sets)), Quantities: make([][]Quantity, len(g.sets))}
			rowReps := make([]estimate, len(g.sets))
			for j := range g.sets {
				gc := gg.cells[i][j]
				c := cell{Value: gc.Value, N: r.N}
				if lo, hi, ok := gc.Interval(); ok {
					c.Quantity("lo", lo)
					c.Quantity("hi", hi)
				}
				// † and ‡ qualify the score itself: they come first, next to
				// it, before the notes on other numbers (the other
				// similarity's score, the coverage).
				if gc.tuned {
					c.Note("†")
					c.Unranked = true
					tuned = true
				}
				if gc.few > 0 && finite(gc.Value) {
					c.Note(fmt.Sprintf("‡ %d pair%s", gc.few, plural(gc.few)))
					c.Unranked = true
					few = true
				}
				if v, ok := r.Metrics[all.Cols[j].Coverage]; ok {
					c.Quantity("coverage", v)
					if withCoverage && perCell[j] {
						c.Note(percent(v, 1))
					}
				}
				if finite(gc.Value) || finite(gc.other) {
					c.Note(simName(otherSim(gc.sim)) + " " + formatScore(gc.other, 3))
					c.Quantity(string(otherSim(gc.sim)), gc.other)
				}
				key := g.of(g.sets[j]).At(gc.sim, ownSim(r.Record)).Key()
				c.SD, c.HasSD = r.SD[key]
				if c.HasSD {
					c.Quantity("sd", c.SD)
				}
				if c.N > 1 {
					c.Quantity("n", float64(c.N))
					seeded = seeded || finite(c.Value)
				}
				c.Note(c.Spread())
				if decorate != nil {
					decorate(gi, i, j, &c)
				}
				sr.Scores[j], sr.Notes[j], sr.Unranked[j] = c.Value, strings.Join(c.Notes, " "), c.Unranked
				rowReps[j], sr.Quantities[j] = gc.estimate, c.Quantities
			}
			st.Rows = append(st.Rows, sr)
			reps = append(reps, rowReps)
		}
	}
	var legends []string
	if tuned {
		legends = append(legends, tunedLegend)
	}
	if few {
		legends = append(legends, fewPairsLegend)
	}
	if seeded {
		legends = append(legends, seedsLegend)
	}
	st = compare.RankTableEstimates(st, reps)
	// Under the skip rule, rows of unequal coverage are ranked on the
	// pairs both cover (commonpairs.go).
	if len(g.sets) > 0 {
		if m := g.of(g.sets[0]); m.Kind == records.ScoreMetric && m.Rule == records.RuleSkip {
			var changed, other bool
			st, changed, other = g.markOnCommonPairs(st)
			if changed {
				legends = append(legends, commonPairsLegend)
			}
			if other {
				legends = append(legends, otherPairsLegend)
			}
		}
	}
	st.Legend = strings.Join(legends, " ")
	return st
}

// tunedLegend says what † means wherever a table has one.
const tunedLegend = "†: in-sample: the row's design was tuned on this set (or part of it: its tuned_on, or SCA trained on its pairs, sca.mode = in-sample); shown, never ranked."

// seedsLegend says how a row over seeds is compared (compare.SeedEstimate).
const seedsLegend = "A row over seeds (\"n seeds\") is their mean; its ± and every verdict about it hold over the pairs and over the seeds: the pairs' bootstrap interval is widened by the seeds' variance of the mean with a t quantile on n − 1 degrees of freedom, so seeds never narrow it and one seed's lucky draw cannot decide a win."

// fewPairsLegend says what ‡ means wherever a table has one.
var fewPairsLegend = fmt.Sprintf("‡ n pairs: too few pairs: the score rests on n < %d pairs covered (both words with a vector), too few for ρ or its interval to mean much; shown, never ranked.", records.MinRankedPairs)

// meanRanked is the mean of a row's ranked cells, NaN without any: how a
// headline picks a group's representative rows.
func meanRanked(cells []gridCell) float64 {
	sum, n := 0.0, 0
	for _, c := range cells {
		if c.ranked() {
			sum += c.Value
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// commonSide is what row r holds on set at similarity sim for a
// comparison on the pairs two rows both cover (compare.Side).
func commonSide(r row, set string, sim records.Similarity) compare.Side {
	own := ownSim(r.Record)
	side := compare.Side{
		Skip:  r.Estimate(records.Score(records.RuleSkip, set).At(sim, own).Key()),
		Vocab: r.Estimate(records.Score(records.RuleVocab, set).At(sim, own).Key()),
	}
	side.Covered, _ = records.CoveredPairs(r.Record, set)
	if n, ok := r.Record.Metrics[records.VocabPairs(set).Key()]; ok {
		side.VocabPairs = int(n)
	}
	return side
}

// vocabularyOf names the settings that fix a trial's corpus vocabulary
// (the corpus, its section and case, and which words are kept), which
// every word method's record holds: two trials with equal names count
// words alike, so the pairs each covers of a set are nested
// (compare.CommonPairs). How a table is counted from the vocabulary
// (data.table, data.window, …) is no part of it.
func vocabularyOf(rec records.Record) string {
	var b strings.Builder
	for _, k := range []string{"data.source", "data.corpus", "data.tables", "data.fraction", "data.lowercase", "data.min_count", "data.max_vocab"} {
		b.WriteString(k + "=" + formatValue(rec.Settings[k]) + ";")
	}
	return b.String()
}

// onCommonPairs is two cells' scores on the pairs both rows cover, and how
// many pairs that is; false when the rows are of different vocabularies
// or their records do not hold such scores.
func onCommonPairs(a, b gridCell) (ea, eb estimate, n int, ok bool) {
	if a.vocab != b.vocab {
		return estimate{}, estimate{}, 0, false
	}
	return compare.CommonPairs(a.side, b.side)
}

// cellVerdict compares two cells of a grid of rule's scores. Under the
// skip rule each row is scored on the pairs it covers, so two rows that
// cover different pairs are compared on the pairs both cover, when their
// records hold those scores (onCommonPairs); otherwise, and under the zero
// rule (every pair counts), their own scores are compared.
func cellVerdict(rule records.Rule, a, b gridCell) verdict {
	ea, eb := cellPair(rule, a, b)
	return compare.Compare(ea, eb, 3)
}

// cellPair are the two estimates cellVerdict compares.
func cellPair(rule records.Rule, a, b gridCell) (estimate, estimate) {
	if rule == records.RuleSkip {
		if ea, eb, _, ok := onCommonPairs(a, b); ok {
			return ea, eb
		}
	}
	return a.estimate, b.estimate
}

// familyVerdicts are cellVerdict's verdicts over a family of cells (a
// headline's sets), adjusted for the family's size by Holm's step-down
// (compare.FamilyVerdicts): six separate 95% tests come up with a chance
// "significant" one about one time in four.
func familyVerdicts(rule records.Rule, a, b []gridCell) []verdict {
	ea, eb := make([]estimate, len(a)), make([]estimate, len(a))
	for i := range a {
		ea[i], eb[i] = cellPair(rule, a[i], b[i])
	}
	return compare.FamilyVerdicts(ea, eb, 3)
}
