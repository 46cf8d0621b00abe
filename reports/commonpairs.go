package reports

import (
	"slices"

	"kcalab/records"
	"kcalab/reports/compare"
	"kcalab/reports/page"
)

// Under the skip rule each row is scored on the pairs of a set it covers,
// so two rows whose coverage differs are not scored on the same pairs: a
// mark between them must rest on the pairs both cover, as the headlines'
// verdicts do (cellVerdict). For a column of a skip-rule table of
// Spearman ρ in which a group's ranked rows differ in coverage by more
// than compare.CoverageGap, the marks are decided by this rule instead of
// ranking every row's own score against the top one's:
//
//   - Two rows are compared as the headline compares them: on the pairs
//     both cover where their coverage differs (onCommonPairs, when their
//     records hold those scores), on their own scores otherwise. Rows of
//     different coverage whose records hold no such scores are not
//     compared at all.
//   - Best marks every row that no row of the group is significantly
//     above; Second, among the rest, every row that none of the rest is
//     significantly above. No score of a smaller share of the set is the
//     bar for one of a larger share, nor the reverse.
//   - A row compared with no other row takes no mark, and its cell says so
//     (otherPairsNote); with fewer than two rows compared, none is marked.
//
// Where every ranked row covers alike, the table keeps the rule of every
// table (compare.RankSignificant).

// otherPairsNote marks a skip-rule score that could not be compared on
// common pairs with the column's top row.
const otherPairsNote = "≠ pairs"

// otherPairsLegend says what otherPairsNote means wherever a table has one.
const otherPairsLegend = "≠ pairs: this row covers a different share of the set than the row its column is ranked against, and its record holds no scores on the pairs both cover: not ranked against it."

// commonPairsLegend says how a skip-rule table ranks rows of unequal
// coverage.
const commonPairsLegend = "Under the skip rule, where rows cover different shares of a set, they are compared on the pairs both cover, as the headline compares them: a score is best when no row of its group is significantly above it there, second best the same among the rest."

// markOnCommonPairs re-decides the marks of st (laid out from g, a grid of
// Spearman ρ under the skip rule) in the columns where a group's ranked
// rows differ in coverage, by the rule above; it says whether any column
// was re-decided and whether any cell was left unranked (otherPairsNote).
func (g scoreGrid) markOnCommonPairs(st ScoreTable) (out ScoreTable, changed, other bool) {
	out = st
	out.Rows = slices.Clone(st.Rows)
	first := 0
	for _, gg := range g.groups {
		for j := range g.sets {
			var cands []int // ranked, tested cells of the column, by row of gg
			for i, c := range gg.cells {
				r := out.Rows[first+i]
				if c[j].ranked() && c[j].Tested() && !(r.Unranked != nil && r.Unranked[j]) {
					cands = append(cands, i)
				}
			}
			if !coverageDiffers(gg, j, cands) {
				continue
			}
			changed = true
			marks := map[int]page.Mark{}
			apart := apartOf(gg, j, cands)
			ranked := slices.DeleteFunc(slices.Clone(cands), func(i int) bool { return slices.Contains(apart, i) })
			if len(ranked) >= 2 {
				best := skipTier(gg, j, ranked)
				for _, i := range best {
					marks[i] = page.Best
				}
				rest := slices.DeleteFunc(slices.Clone(ranked), func(i int) bool { return slices.Contains(best, i) })
				for _, i := range skipTier(gg, j, rest) {
					marks[i] = page.Second
				}
			}
			for _, i := range cands {
				k := first + i
				r := out.Rows[k]
				r.Marks = slices.Clone(r.Marks)
				r.Marks[j] = marks[i]
				if slices.Contains(apart, i) {
					r.Notes = slices.Clone(r.Notes)
					r.Notes[j] = joinNote(otherPairsNote, r.Notes[j])
					other = true
				}
				out.Rows[k] = r
			}
		}
		first += len(gg.rows)
	}
	return out, changed, other
}

// coverageDiffers says some two of the candidates' cells on set j differ
// in coverage by more than compare.CoverageGap.
func coverageDiffers(gg gridGroup, j int, cands []int) bool {
	for a, i := range cands {
		for _, k := range cands[a+1:] {
			if compare.CheckCoverage(gg.cells[i][j].cov, gg.cells[k][j].cov, estimate{}, estimate{}, 3).Differs {
				return true
			}
		}
	}
	return false
}

// apartOf are the candidates on set j that can be compared with no other
// candidate (see the rule above).
func apartOf(gg gridGroup, j int, cands []int) []int {
	var out []int
	for _, i := range cands {
		if !slices.ContainsFunc(cands, func(k int) bool { return k != i && pairVerdict(gg.cells[k][j], gg.cells[i][j]) != compare.NotTested }) {
			out = append(out, i)
		}
	}
	return out
}

// skipTier is the tier of the candidates on set j (see the rule above):
// those no other candidate is significantly above.
func skipTier(gg gridGroup, j int, cands []int) []int {
	var tier []int
	for _, i := range cands {
		if !slices.ContainsFunc(cands, func(k int) bool { return k != i && pairVerdict(gg.cells[k][j], gg.cells[i][j]) == compare.Above }) {
			tier = append(tier, i)
		}
	}
	return tier
}

// pairVerdict compares two skip-rule cells as the headline does: on the
// pairs both cover where their coverage differs, NotTested when their
// records hold no such scores.
func pairVerdict(a, b gridCell) verdict {
	if compare.CheckCoverage(a.cov, b.cov, estimate{}, estimate{}, 3).Differs {
		if _, _, _, ok := onCommonPairs(a, b); !ok {
			return compare.NotTested
		}
	}
	return cellVerdict(records.RuleSkip, a, b)
}

// joinNote puts a note before a cell's others.
func joinNote(note, rest string) string {
	if rest == "" {
		return note
	}
	return note + " " + rest
}
