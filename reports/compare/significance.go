package compare

import (
	"maps"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

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
// For the mean of n seed replicates, Reps are the per-resample means of
// their replicates (the pairs' part of its noise) and SeedVar the variance
// of the mean over seeds, s²/n, with SeedDF = n − 1 degrees of freedom
// (the seeds' part): see SeedEstimate.
type Estimate struct {
	Value   float64
	Reps    []float64
	SeedVar float64
	SeedDF  int
	// Draws are the seeds' own values behind a mean over n ≥ 2 seeds,
	// by the seed each trained with (nil otherwise: see withDraws). Two
	// estimates drawn with the same seeds share their training (a
	// retrofitted design and its plain twin train the very same vectors,
	// schema.SeedID), so their difference is paired by seed (seedParts).
	Draws map[uint64]float64
}

// Tested says the estimate has a value and replicates to test it with.
func (e Estimate) Tested() bool { return finite(e.Value) && len(e.Reps) > 0 }

// Interval is the estimate's 95% interval (see halfWidth); false when it
// is not tested.
func (e Estimate) Interval() (lo, hi float64, ok bool) {
	if !e.Tested() {
		return math.NaN(), math.NaN(), false
	}
	h := e.HalfWidth()
	return e.Value - h, e.Value + h, finite(h)
}

// HalfWidth is the half-width of the estimate's 95% interval, NaN when it
// is not tested.
func (e Estimate) HalfWidth() float64 {
	if !e.Tested() {
		return math.NaN()
	}
	return halfWidth(records.StdDev(e.Reps), e.SeedVar, e.SeedDF, alpha95)
}

// The interval of a score, and of a difference of two, holds two sources
// of noise that add: the pairs the set happens to hold (the bootstrap's
// standard deviation sd over resamples every row shares, so a difference
// is paired) and, for a mean over seeds, the seeds a trainer happened to
// draw (the variance of the mean over seeds, independent of the pairs).
// Its half-width at level α is
//
//	√( (z_{1−α/2}·sd)² + (t_{df, 1−α/2})²·seedVar )
//
// the normal bootstrap interval of the pairs widened by the seed
// variance with a Student t quantile on the seeds' degrees of freedom (n −
// 1 for one row; Welch–Satterthwaite's for a difference of two rows with
// seeds), so it is never narrower than the pairs-only interval, and with
// few seeds it is wide, as their spread is itself uncertain (t on 2
// degrees of freedom is 4.30 where z is 1.96). At α = 5% z is 1.96, the
// project's rule since its first bootstrap (records.Interval).
const alpha95 = 0.05

func halfWidth(sd, seedVar float64, df int, alpha float64) float64 {
	z := 1.96
	if alpha != alpha95 {
		z = distuv.UnitNormal.Quantile(1 - alpha/2)
	}
	if !(seedVar > 0 && df > 0) {
		return z * sd // the pairs alone: records.Interval's bits
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(1 - alpha/2)
	return math.Sqrt(z*z*sd*sd + t*t*seedVar)
}

// Diff is a − b with its 95% interval: the pairs' part paired (the
// standard deviation of the replicates' differences), the seeds' parts
// added (each row's seeds are its own draws). ok is false when either is
// not tested or their replicates do not pair.
func Diff(a, b Estimate) (d, lo, hi float64, ok bool) {
	sd, seedVar, df, ok := diffParts(a, b)
	if !ok {
		return math.NaN(), math.NaN(), math.NaN(), false
	}
	d = a.Value - b.Value
	h := halfWidth(sd, seedVar, df, alpha95)
	return d, d - h, d + h, finite(h)
}

// diffParts are the noise parts of a − b: the standard deviation of the
// paired replicates' differences, the summed seed variance and its
// Welch–Satterthwaite degrees of freedom (rounded down, at least 1).
func diffParts(a, b Estimate) (sd, seedVar float64, df int, ok bool) {
	if !a.Tested() || !b.Tested() || len(a.Reps) != len(b.Reps) {
		return 0, 0, 0, false
	}
	dr := make([]float64, len(a.Reps))
	for i := range dr {
		dr[i] = a.Reps[i] - b.Reps[i]
	}
	sd = records.StdDev(dr)
	seedVar, df = seedParts(a, b)
	return sd, seedVar, df, finite(sd)
}

// seedParts is the seeds' part of the noise of a − b and its degrees of
// freedom. Drawn with the same n seeds (pairedDraws), each seed's two
// values come from one training, so the seeds' noise of the difference is
// that of the per-seed differences: their variance over n on n − 1 degrees
// of freedom (a paired t), which cancels what the shared training adds to
// both. Otherwise the two rows' seeds are independent draws and their
// variances add (welch).
func seedParts(a, b Estimate) (float64, int) {
	if d := pairedDraws(a, b); d != nil {
		return pairedVar(d)
	}
	return welch(a.SeedVar, a.SeedDF, b.SeedVar, b.SeedDF)
}

// pairedDraws are a's per-seed values minus b's, by seed, when both are
// means over the same n ≥ 2 seeds; nil otherwise.
func pairedDraws(a, b Estimate) map[uint64]float64 {
	if len(a.Draws) < 2 || len(a.Draws) != len(b.Draws) {
		return nil
	}
	d := make(map[uint64]float64, len(a.Draws))
	for s, v := range a.Draws {
		w, ok := b.Draws[s]
		if !ok {
			return nil
		}
		d[s] = v - w
	}
	return d
}

// pairedVar is the variance of the mean of per-seed differences, s²/n,
// on n − 1 degrees of freedom, summed in seed order so that it does not
// depend on the map's order.
func pairedVar(d map[uint64]float64) (float64, int) {
	seeds := slices.Sorted(maps.Keys(d))
	v := make([]float64, len(seeds))
	for i, s := range seeds {
		v[i] = d[s]
	}
	sd := records.StdDev(v)
	return sd * sd / float64(len(v)), len(v) - 1
}

// withDraws is e with the seeds' own values behind its mean (values[i]
// trained with seeds[i]), so that a difference with an estimate drawn
// with the same seeds pairs them; e unchanged for fewer than two seeds,
// a seed given twice, or lengths that differ.
func (e Estimate) withDraws(seeds []uint64, values []float64) Estimate {
	if len(seeds) < 2 || len(seeds) != len(values) {
		return e
	}
	m := make(map[uint64]float64, len(seeds))
	for i, s := range seeds {
		if _, dup := m[s]; dup {
			return e
		}
		m[s] = values[i]
	}
	e.Draws = m
	return e
}

// welch combines two independent variances of means with their degrees of
// freedom: their sum, on Welch–Satterthwaite's degrees of freedom.
func welch(va float64, dfa int, vb float64, dfb int) (float64, int) {
	if !(va > 0) || dfa < 1 {
		va, dfa = 0, 0
	}
	if !(vb > 0) || dfb < 1 {
		vb, dfb = 0, 0
	}
	v := va + vb
	if v == 0 {
		return 0, 0
	}
	den := 0.0
	if dfa > 0 {
		den += va * va / float64(dfa)
	}
	if dfb > 0 {
		den += vb * vb / float64(dfb)
	}
	return v, max(1, int(math.Floor(v*v/den)))
}

// PValue is the two-sided p-value of a − b = 0 that matches Diff's
// interval: the smallest α at which the interval at level 1 − α excludes
// 0 (the normal bootstrap's z for the pairs, the t quantile for the
// seeds); NaN when the difference cannot be tested. Holm's adjustment
// (Holm) works on these.
func PValue(a, b Estimate) float64 {
	sd, seedVar, df, ok := diffParts(a, b)
	if !ok {
		return math.NaN()
	}
	return pValue(a.Value-b.Value, sd, seedVar, df)
}

func pValue(d, sd, seedVar float64, df int) float64 {
	d = math.Abs(d)
	if d == 0 {
		return 1
	}
	if sd == 0 && !(seedVar > 0 && df > 0) {
		return 0
	}
	// halfWidth falls as α rises: bisect for the α where it meets |d|.
	lo, hi := 1e-300, 1.0
	if halfWidth(sd, seedVar, df, lo) < d {
		return 0
	}
	for range 200 {
		mid := math.Sqrt(lo * hi) // α spans many decades
		if mid <= lo || mid >= hi {
			break
		}
		if halfWidth(sd, seedVar, df, mid) > d {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
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
	_, lo, hi, ok := Diff(a, b)
	switch {
	case !ok:
		return NotTested
	case lo > 0:
		return Above
	case hi < 0:
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
	ests := make([]Estimate, len(scores))
	for i := range scores {
		if i < len(replicates) {
			ests[i].Reps = replicates[i]
		}
	}
	return RankEstimates(scores, ests, digits, lowerIsBetter)
}

// RankEstimates is RankSignificant over estimates: each score's
// replicates and seed variance (Estimate; its Value is scores[i]), so a
// mean over seeds is ranked over the pairs and the seeds.
func RankEstimates(scores []float64, ests []Estimate, digits int, lowerIsBetter bool) []page.Mark {
	sign := 1.0
	if lowerIsBetter {
		sign = -1
	}
	est := make([]Estimate, len(scores))
	var tested []int
	for i, s := range scores {
		est[i].Value = sign * s
		if i < len(ests) && len(ests[i].Reps) > 0 {
			est[i].Reps = make([]float64, len(ests[i].Reps))
			for b, x := range ests[i].Reps {
				est[i].Reps[b] = sign * x
			}
			est[i].SeedVar, est[i].SeedDF = ests[i].SeedVar, ests[i].SeedDF
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

// SeedEstimate is the estimate of a mean over seed replicates (trials that
// differ only in their seed, each scored on the set's shared resamples):
// values are the seeds' scores, lists their bootstrap replicates. Its value
// is the seeds' mean, its replicates the per-resample means (the pairs'
// noise of the mean, paired with every row on the same resamples), its
// SeedVar the seeds' sample variance over n (the variance of the mean) on
// n − 1 degrees of freedom, so its interval and every verdict hold over
// the pairs and over the seeds (halfWidth), and no number of seeds makes
// the interval narrower than the pairs alone give. One seed is a trial's
// own estimate; nil replicates when any list is missing or their lengths
// differ.
func SeedEstimate(values []float64, lists [][]float64) Estimate {
	e := Estimate{Value: math.NaN()}
	n := len(values)
	if n == 0 {
		return e
	}
	sum := 0.0
	for _, v := range values {
		sum += v
	}
	e.Value = sum / float64(n)
	if len(lists) == n {
		e.Reps = MeanReplicates(lists)
	}
	if n >= 2 {
		e.SeedVar = records.StdDev(values)
		e.SeedVar *= e.SeedVar / float64(n)
		e.SeedDF = n - 1
	}
	return e
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
	est := make([][]Estimate, len(reps))
	for i := range reps {
		est[i] = make([]Estimate, len(reps[i]))
		for j := range reps[i] {
			est[i][j].Reps = reps[i][j]
		}
	}
	return RankTableEstimates(t, est)
}

// RankTableEstimates is RankTable over each score's estimate (its
// replicates and seed variance; est[i][j] for row i, column j, its Value
// the row's score), so rows that are means over seeds are ranked, and
// their intervals drawn, over the pairs and the seeds.
func RankTableEstimates(t page.ScoreTable, est [][]Estimate) page.ScoreTable {
	digits := orDefault(t.Digits, 3)
	estAt := func(i, j int) Estimate {
		if i < len(est) && j < len(est[i]) {
			return est[i][j]
		}
		return Estimate{}
	}
	rows := slices.Clone(t.Rows)
	for i := range rows {
		rows[i].Marks = make([]page.Mark, len(rows[i].Scores))
		rows[i].HalfWidths = make([]float64, len(rows[i].Scores))
		for j, v := range rows[i].Scores {
			e := estAt(i, j)
			e.Value = v
			rows[i].HalfWidths[j] = e.HalfWidth()
		}
	}
	for _, g := range page.RowGroups(rows) {
		col := make([]float64, len(g))
		rs := make([]Estimate, len(g))
		for j := range t.Columns {
			for k, i := range g {
				row := rows[i]
				col[k], rs[k] = math.NaN(), Estimate{}
				if j < len(row.Scores) {
					col[k], rs[k] = row.Scores[j], estAt(i, j)
				}
				if j < len(row.Unranked) && row.Unranked[j] {
					col[k], rs[k] = math.NaN(), Estimate{} // shown, never marked
				}
			}
			for k, m := range RankEstimates(col, rs, digits, t.LowerIsBetter) {
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
