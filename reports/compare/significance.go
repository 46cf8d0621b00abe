package compare

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"kcalab/records"
	"kcalab/reports/page"
)

// The comparison rule of every ranked score on a page is benchstat's: two
// scores on one set differ only when the 95% interval of their paired
// bootstrap difference excludes 0. A record's bootstrap replicates are ρ
// over resamples of the set's pairs that every trial shares (they depend
// only on the set), so replicate b of two rows is ρ on one multiset of
// pairs, and their differences over b are the paired bootstrap of the
// difference (records.Difference). A score without replicates (a record
// older than the bootstrap, a Pearson r, an analogy accuracy) cannot be
// tested: it is shown, and never claimed to win.

// Estimate is a score as a comparison sees it: its value and its
// bootstrap replicates over the set's shared resamples (nil: not tested).
type Estimate struct {
	Value float64
	Reps  []float64
}

// Tested says the estimate has a value and replicates to test it with.
func (e Estimate) Tested() bool { return finite(e.Value) && len(e.Reps) > 0 }

// Interval is the estimate's 95% normal bootstrap Interval
// (records.Interval); false when it is not tested.
func (e Estimate) Interval() (lo, hi float64, ok bool) {
	if !e.Tested() {
		return math.NaN(), math.NaN(), false
	}
	lo, hi, _ = records.Interval(e.Value, e.Reps)
	return lo, hi, finite(lo) && finite(hi)
}

// HalfWidth is the half-width of the estimate's 95% normal bootstrap
// interval (records.Interval), NaN when it is not tested.
func (e Estimate) HalfWidth() float64 {
	if !e.Tested() {
		return math.NaN()
	}
	lo, hi, _ := records.Interval(e.Value, e.Reps)
	return (hi - lo) / 2
}

// Verdict is what a paired comparison says of a score a against b.
type Verdict int

const (
	NotTested Verdict = iota // either has no replicates (or they do not pair)
	Tie                      // the difference's interval holds 0, or they print the same
	Above                    // a is significantly higher
	Below                    // a is significantly lower
)

// Compare tests a against b: equal as printed with digits decimals they
// tie (a table could not show the difference); else both need replicates
// of one length (the same resamples), and the difference counts only when
// its 95% interval excludes 0.
func Compare(a, b Estimate, digits int) Verdict {
	if !finite(a.Value) || !finite(b.Value) {
		return NotTested
	}
	if roundTo(a.Value, digits) == roundTo(b.Value, digits) {
		return Tie
	}
	if !a.Tested() || !b.Tested() || len(a.Reps) != len(b.Reps) {
		return NotTested
	}
	switch _, _, sign := records.Difference(a.Value, b.Value, a.Reps, b.Reps); sign {
	case 1:
		return Above
	case -1:
		return Below
	}
	return Tie
}

// RankSignificant marks a column of scores by benchstat's rule. replicates
// holds each score's bootstrap replicates over resamples the column's
// scores share, or nil (replicates may be nil: none has any). Among the
// scores with replicates, the top one is the highest as shown (lowest
// when lowerIsBetter); Best marks every score not significantly below it
// (records.Difference: the 95% interval of the paired difference holds 0,
// or the two print the same with digits decimals), so ties share the mark
// and the top row is never alone by luck. Second marks, among the rest,
// the top one and every score not significantly below it. A score without
// replicates takes no part in that: when it is among the two highest
// distinct values as shown of the whole column (and the column shows two
// values at least) it is marked Untested, so a reader sees where it stands
// without a claim that it wins. NaN and ±Inf
// are never marked, nor is a score alone in its column (there is nothing
// to rank it against).
func RankSignificant(scores []float64, replicates [][]float64, digits int, lowerIsBetter bool) []page.Mark {
	sign := 1.0
	if lowerIsBetter {
		sign = -1
	}
	est := make([]Estimate, len(scores))
	var tested []int
	for i, s := range scores {
		est[i].Value = sign * s
		if i < len(replicates) && len(replicates[i]) > 0 {
			est[i].Reps = make([]float64, len(replicates[i]))
			for b, x := range replicates[i] {
				est[i].Reps[b] = sign * x
			}
		}
		if est[i].Tested() {
			tested = append(tested, i)
		}
	}
	// Replicates pair only when they have one length: the top's decides,
	// and a score whose replicates differ is not tested.
	if top := topOf(est, tested, digits); top >= 0 {
		tested = slices.DeleteFunc(tested, func(i int) bool { return len(est[i].Reps) != len(est[top].Reps) })
	}
	marks := make([]page.Mark, len(scores))
	finiteN := 0
	for _, s := range scores {
		if finite(s) {
			finiteN++
		}
	}
	if finiteN < 2 {
		return marks // nothing to compare with
	}
	best := tier(est, tested, digits)
	for _, i := range best {
		marks[i] = page.Best
	}
	rest := slices.DeleteFunc(slices.Clone(tested), func(i int) bool { return slices.Contains(best, i) })
	for _, i := range tier(est, rest, digits) {
		marks[i] = page.Second
	}
	// Untested scores: where they stand by value alone, when the values
	// differ at all.
	byValue := Rank(scores, digits, lowerIsBetter)
	if !slices.Contains(byValue, page.Second) {
		return marks
	}
	for i := range scores {
		if !slices.Contains(tested, i) && (byValue[i] == page.Best || byValue[i] == page.Second) {
			marks[i] = page.Untested
		}
	}
	return marks
}

// topOf is the index among cands of the highest value as shown, the first
// on ties; -1 for none.
func topOf(est []Estimate, cands []int, digits int) int {
	top := -1
	for _, i := range cands {
		if top < 0 || roundTo(est[i].Value, digits) > roundTo(est[top].Value, digits) {
			top = i
		}
	}
	return top
}

// tier is the top of cands and every candidate not significantly below
// it.
func tier(est []Estimate, cands []int, digits int) []int {
	top := topOf(est, cands, digits)
	if top < 0 {
		return nil
	}
	var out []int
	for _, i := range cands {
		if i == top || Compare(est[top], est[i], digits) != Above {
			out = append(out, i)
		}
	}
	return out
}

// SeedReplicates is the bootstrap of a mean over seed replicates (trials
// that differ only in their seed, each scored on the set's shared
// resamples) whose spread holds both sources of noise: replicate b draws
// the seeds again, n of them with replacement, and averages their
// replicate b, so it varies with the pairs (b's resample, shared by every
// row, which keeps the comparison paired) and with the seeds (the draw).
// Deviations from the mean of all seeds at b are scaled by √(n/(n−1)), so
// that the seed part's variance is the mean's, s²/n, not the plug-in
// (n−1)/n of it. The draws come from salt (the row's identity) and b
// alone, so a page renders to the same bytes every time. One list is
// returned as it is (no seed spread to add); nil when any list is missing
// or their lengths differ.
func SeedReplicates(lists [][]float64, salt string) []float64 {
	mean := MeanReplicates(lists)
	n := len(lists)
	if mean == nil || n < 2 {
		return mean
	}
	h := fnv.New64a()
	h.Write([]byte(salt))
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x5eed5))
	scale := math.Sqrt(float64(n) / float64(n-1))
	out := make([]float64, len(mean))
	for b := range out {
		var sum float64
		for range n {
			sum += lists[rng.IntN(n)][b]
		}
		out[b] = mean[b] + scale*(sum/float64(n)-mean[b])
	}
	return out
}

// MeanReplicates averages replicate lists per resample (the bootstrap of a
// mean over seed replicates, each scored on the same resamples); nil when
// any list is missing or their lengths differ.
func MeanReplicates(lists [][]float64) []float64 {
	if len(lists) == 0 {
		return nil
	}
	out := make([]float64, len(lists[0]))
	for _, l := range lists {
		if len(l) == 0 || len(l) != len(out) {
			return nil
		}
		for b, x := range l {
			out[b] += x
		}
	}
	for b := range out {
		out[b] /= float64(len(lists))
	}
	return out
}

// RankTable decides what t's rows show besides their scores, so that the
// page only prints it: per group of rows and column, the marks of
// RankSignificant over the rows' scores with their bootstrap replicates
// (reps[i][j] for row i, column j; reps or any part nil for none), a score
// flagged Unranked shown but never marked; and per score with replicates
// the half-width of its 95% interval. Reference rows take no mark. The
// rows are copied; t is not changed.
func RankTable(t page.ScoreTable, reps [][][]float64) page.ScoreTable {
	digits := orDefault(t.Digits, 3)
	repsAt := func(i, j int) []float64 {
		if i < len(reps) && j < len(reps[i]) {
			return reps[i][j]
		}
		return nil
	}
	rows := slices.Clone(t.Rows)
	for i := range rows {
		rows[i].Marks = make([]page.Mark, len(rows[i].Scores))
		rows[i].HalfWidths = make([]float64, len(rows[i].Scores))
		for j, v := range rows[i].Scores {
			rows[i].HalfWidths[j] = Estimate{Value: v, Reps: repsAt(i, j)}.HalfWidth()
		}
	}
	for _, g := range page.RowGroups(rows) {
		col := make([]float64, len(g))
		rs := make([][]float64, len(g))
		for j := range t.Columns {
			for k, i := range g {
				row := rows[i]
				col[k], rs[k] = math.NaN(), nil
				if j < len(row.Scores) {
					col[k], rs[k] = row.Scores[j], repsAt(i, j)
				}
				if j < len(row.Unranked) && row.Unranked[j] {
					col[k], rs[k] = math.NaN(), nil // shown, never marked
				}
			}
			for k, m := range RankSignificant(col, rs, digits, t.LowerIsBetter) {
				if i := g[k]; j < len(rows[i].Marks) {
					rows[i].Marks[j] = m
				}
			}
		}
	}
	t.Rows = rows
	return t
}

// Rank marks the best and second-best of scores at the given number of
// decimals. Scores that round to the same shown value tie and share a mark:
// every score equal to the best shown value is Best, and every score equal
// to the next distinct shown value is Second (dense ranking), so the marks
// never depend on the order of the rows. NaN and ±Inf are never marked.
func Rank(scores []float64, digits int, lowerIsBetter bool) []page.Mark {
	shown := make([]float64, len(scores))
	var distinct []float64
	for i, s := range scores {
		if !finite(s) {
			continue
		}
		shown[i] = roundTo(s, digits)
		distinct = append(distinct, shown[i])
	}
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	if !lowerIsBetter {
		slices.Reverse(distinct)
	}
	marks := make([]page.Mark, len(scores))
	for i, s := range scores {
		if !finite(s) {
			continue
		}
		switch {
		case shown[i] == distinct[0]:
			marks[i] = page.Best
		case len(distinct) > 1 && shown[i] == distinct[1]:
			marks[i] = page.Second
		}
	}
	return marks
}
