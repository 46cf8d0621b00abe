package reports

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
	"kcalab/schema"
)

// The comparisons of the scaling figures: every two lines (backends, or
// one backend with other options) that the other varying settings do not
// keep apart are compared at every size where both finished, time and
// memory each by its own rule:
//
//   - a time ratio only for times measured alike (timesCompare: both in a
//     child process, one run, a quiet machine, neither record disturbed;
//     at a size with replicates, on those measured so when both sides
//     have some, named in the row); otherwise the row says what is
//     missing and shows both times;
//   - a memory ratio for peak memory measured alike: both in a child
//     process (the whole process's max RSS) from the same code (commit),
//     whatever the load: the memory a program takes does not depend on
//     what else runs.
//
// The paper's claims (DSSVD against numPy's dense SVD, LAPACK, and
// randomized SVD) come first, beside the numbers that test them.

// scalingPair is two lines compared (a against b: ratios a/b) at each size
// where both finished.
type scalingPair struct {
	name          string // "dssvd / lapack", with the group's label when there are several
	a, b          string // the lines' names
	paper         ratioComparison
	sizes         []pairAt  // by size, ascending
	aFinished     bool      // a finished at some size
	bFinished     bool      // b finished at some size
	aSizes        []float64 // the sizes a finished at, ascending
	bSizes        []float64 // and b
	backA, backB  string    // their backends
	rankA, rankB  int       // the backends' order among the allowed values
	paperPosition int       // its place among the paper's claims; -1: not one
}

// pairAt is a pair's comparison at one size.
type pairAt struct {
	x                float64
	wallA, wallB     float64 // mean wall times
	rssA, rssB       float64 // mean peak memory
	time             float64 // a/b; NaN when not compared
	timeLo, timeHi   float64 // its range over repeats; NaN for none
	timeWhy          string  // why not compared
	timeOn           string  // the replicates the ratio stands on, when not all ("dssvd: 1 of 3")
	mem              float64 // a/b; NaN when not compared
	memWhy           string
	trialsA, trialsB []records.Record
}

// ratioComparison is the paper's claim for a pair, in words and, for a
// program, as ratios (NaN when the paper makes none).
type ratioComparison struct {
	text                string
	short               string // in a verdict: "100× faster, 10% memory"
	paperTime, paperMem float64
}

var notInPaper = ratioComparison{"— (not in the paper)", "", math.NaN(), math.NaN()}

// scalingPairs compares every two lines of one group (the lines' rest
// settings alike) at every size where both finished; disturbed names the
// records whose times are not compared (disturbedRecords).
func (p *builder) scalingPairs(lines []line, ax scalingAxis, rest []string, disturbed map[string]string) []scalingPair {
	seriesKey, _ := scalingKeys()
	backendOf := func(l line) string { return formatValue(l.Trials[0].Settings[seriesKey]) }
	groupOf := func(l line) string { return p.labelOf(l.Trials[0].Record, rest) }
	allowed := []string{}
	if s, ok := schema.LookupSetting(seriesKey); ok {
		allowed = s.Allowed()
	}
	groups := map[string]bool{}
	hasLAPACK := map[string]bool{}
	for _, l := range lines {
		groups[groupOf(l)] = true
		if backendOf(l) == "lapack" {
			hasLAPACK[groupOf(l)] = true
		}
	}
	var out []scalingPair
	for i, la := range lines {
		for _, lb := range lines[i+1:] {
			if groupOf(la) != groupOf(lb) {
				continue
			}
			a, b := la, lb
			ra, rb := slices.Index(allowed, backendOf(a)), slices.Index(allowed, backendOf(b))
			if rb > ra {
				// The later backend of the enum (the newer method) is the
				// numerator: "dssvd / lapack", "krylov / dssvd".
				a, b, ra, rb = b, a, rb, ra
			}
			sp := scalingPair{a: a.Name, b: b.Name, rankA: ra, rankB: rb, paperPosition: -1, paper: notInPaper}
			sp.name = a.Name + " / " + b.Name
			if g := groupOf(a); len(groups) > 1 && g != "" && !strings.Contains(a.Name, g) {
				sp.name = g + ": " + sp.name
			}
			if backendOf(a) == "dssvd" {
				for k, pr := range paperRatios {
					other := pr.other
					if other == "dense" && hasLAPACK[groupOf(a)] {
						// The paper's dense SVD is numPy's, LAPACK: its claim
						// is against the lapack backend; gonum's pure-Go SVD
						// is slower.
						other = "lapack"
					}
					if backendOf(b) == other {
						sp.paper, sp.paperPosition = ratioComparison{pr.text, pr.short, pr.time, pr.memory}, k
					}
				}
				if backendOf(b) == "dense" && hasLAPACK[groupOf(a)] {
					sp.paper = ratioComparison{"— (pure-Go dense; the paper's numPy SVD is LAPACK)", "", math.NaN(), math.NaN()}
				}
			}
			da, db := finishedMeans(a), finishedMeans(b)
			for x, pa := range da {
				pb, ok := db[x]
				if !ok || !finite(pa.wall) || !finite(pb.wall) {
					continue
				}
				sp.sizes = append(sp.sizes, comparePairAt(x, pa, pb, a.Name, b.Name, disturbed))
			}
			sort.Slice(sp.sizes, func(i, j int) bool { return sp.sizes[i].x < sp.sizes[j].x })
			sp.aFinished, sp.bFinished = len(da) > 0, len(db) > 0
			sp.aSizes, sp.bSizes = sortedSizes(da), sortedSizes(db)
			sp.backA, sp.backB = backendOf(a), backendOf(b)
			if len(da) > 0 || len(db) > 0 {
				out = append(out, sp)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		pi, pj := out[i].paperPosition, out[j].paperPosition
		switch {
		case (pi >= 0) != (pj >= 0):
			return pi >= 0
		case pi != pj:
			return pi < pj
		case out[i].rankA != out[j].rankA:
			return out[i].rankA > out[j].rankA
		}
		return out[i].rankB > out[j].rankB
	})
	return out
}

// comparePairAt compares two lines' finished trials (of lines named a and
// b) at one size.
func comparePairAt(x float64, pa, pb ratioPoint, a, b string, disturbed map[string]string) pairAt {
	nan := math.NaN()
	at := pairAt{x: x, wallA: pa.wall, wallB: pb.wall, rssA: pa.rss, rssB: pb.rss, time: nan, timeLo: nan, timeHi: nan, mem: nan,
		trialsA: pa.trials, trialsB: pb.trials}
	// A replicate measured while other programs competed for the cores,
	// or disturbed, is left out of the time ratio when the size has
	// replicates measured alike on a quiet machine on both sides: the
	// ratio stands on those (their mean times), and says so.
	ta, tb := pa.trials, pb.trials
	if qa, qb := undisturbed(ta, disturbed), undisturbed(tb, disturbed); len(qa) > 0 && len(qb) > 0 && len(qa)+len(qb) < len(ta)+len(tb) {
		if ok, _ := timesCompare(qa, qb); ok {
			var on []string
			for k, q := range [][]records.Record{qa, qb} {
				if n := len([][]records.Record{ta, tb}[k]); len(q) < n {
					on = append(on, fmt.Sprintf("%s: %d of %d", []string{a, b}[k], len(q), n))
				}
			}
			at.timeOn = strings.Join(on, ", ")
			ta, tb = qa, qb
			pa.wall, pb.wall = meanWall(qa), meanWall(qb)
			at.wallA, at.wallB = pa.wall, pb.wall
		}
	}
	ok, why := timesCompare(ta, tb)
	// A disturbed record is named whatever else keeps the times apart: a
	// rerun in one run would not mend it.
	var upset []string
	for k, recs := range [][]records.Record{ta, tb} {
		for _, rec := range recs {
			if d, bad := disturbed[rec.ID]; bad && !strings.Contains(why, d) {
				upset = append(upset, []string{a, b}[k]+"'s: "+d)
			}
		}
	}
	if len(upset) > 0 {
		d := fmt.Sprintf(whyDisturbedFmt, strings.Join(upset, "; "))
		if ok {
			why = d
		} else {
			why += "; " + strings.TrimPrefix(d, "not compared: ")
		}
		ok = false
	}
	if ok {
		at.time = pa.wall / pb.wall
		if lo, hi, rok := ratioRange(ta, tb); rok {
			at.timeLo, at.timeHi = lo, hi
		}
	} else {
		at.timeWhy = why
	}
	if ok, why := memoryCompare(pa.trials, pb.trials); ok && finite(pa.rss) && finite(pb.rss) && pb.rss > 0 {
		at.mem = pa.rss / pb.rss
	} else {
		at.memWhy = why
	}
	return at
}

// undisturbed are the trials measured on a quiet machine (or whose quiet
// is unknown) and not disturbed: those a time ratio may stand on.
func undisturbed(trials []records.Record, disturbed map[string]string) []records.Record {
	var out []records.Record
	for _, rec := range trials {
		if _, bad := disturbed[rec.ID]; !bad && timeFault(rec) == "" {
			out = append(out, rec)
		}
	}
	return out
}

// meanWall is the trials' mean wall time.
func meanWall(trials []records.Record) float64 {
	sum := 0.0
	for _, rec := range trials {
		sum += compare.Metric(rec, metricWall)
	}
	return sum / float64(len(trials))
}

// Why a memory ratio is not printed.
const (
	whyMemUnmeasured = "not compared: peak memory not measured alike (both in a child process)"
	whyMemOtherCode  = "not compared: measured from different code"
	whyMemNoCode     = "not compared: the records name neither one run nor one clean commit"
	whyMemMissing    = "not compared: peak memory not recorded"
)

// memoryCompare says whether the peak memory of trials a and b may form a
// ratio (see the rule above), and when not, why. One code is one run
// (one build), or one commit built from a clean tree.
func memoryCompare(a, b []records.Record) (bool, string) {
	all := slices.Concat(a, b)
	if len(a) == 0 || len(b) == 0 {
		return false, whyMemMissing
	}
	run, commit := "", ""
	sameRun, sameCommit := true, true
	for i, rec := range all {
		if !measuredInChild(rec) {
			return false, whyMemUnmeasured
		}
		if _, ok := rec.Metrics[metricRSS]; !ok {
			return false, whyMemMissing
		}
		ri := records.RunInfo{}
		if rec.Run != nil {
			ri = *rec.Run
		}
		if i == 0 {
			run, commit = ri.ID, ri.Commit
		}
		sameRun = sameRun && ri.ID != "" && ri.ID == run
		sameCommit = sameCommit && ri.Commit != "" && !ri.Dirty && ri.Commit == commit
	}
	switch {
	case sameRun, sameCommit:
		return true, ""
	case commit == "" && run == "":
		return false, whyMemNoCode
	}
	return false, whyMemOtherCode
}

// ratioPoint is the means, at one size, of a line's finished trials, and
// those trials.
type ratioPoint struct {
	wall, rss float64
	trials    []records.Record
}

// finishedMeans is a line's finished trials' mean wall time and memory per
// known size (a trial missing either makes that mean NaN), with the
// trials.
func finishedMeans(l line) map[float64]ratioPoint {
	finished := func(t trial, x float64) bool { return t.Status == "ok" && finite(x) }
	at := func(m string) []XY {
		pts, _ := l.Points(func(t trial, x float64) (float64, bool) { return compare.Metric(t.Record, m), finished(t, x) })
		return pts
	}
	out := map[float64]ratioPoint{}
	rss := at(metricRSS)
	for k, w := range at(metricWall) {
		out[w.X] = ratioPoint{wall: w.Y, rss: rss[k].Y}
	}
	for k, t := range l.Trials {
		if p, ok := out[l.Xs[k]]; ok && finished(t, l.Xs[k]) {
			p.trials = append(p.trials, t.Record)
			out[l.Xs[k]] = p
		}
	}
	return out
}

// ratioRange is the range of a time ratio over repeated measurements: the
// smallest numerator minimum over the largest denominator maximum, to the
// reverse; false unless every trial has a range (measure.repeat > 1).
func ratioRange(num, den []records.Record) (lo, hi float64, ok bool) {
	nlo, nhi, ok1 := wallSpan(num)
	dlo, dhi, ok2 := wallSpan(den)
	if !ok1 || !ok2 || dlo <= 0 || dhi <= 0 {
		return 0, 0, false
	}
	return nlo / dhi, nhi / dlo, true
}

// wallSpan is the smallest minimum and largest maximum wall time of
// trials with repeats; false when one has none.
func wallSpan(recs []records.Record) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, rec := range recs {
		l, h, ok := wallRange(rec)
		if !ok {
			return 0, 0, false
		}
		lo, hi = math.Min(lo, l), math.Max(hi, h)
	}
	return lo, hi, len(recs) > 0
}

// timeText is the time ratio as the tables print it: "2.61× faster",
// with its range over repeats.
func (at pairAt) timeText() string {
	t := timesText(at.time)
	if finite(at.timeLo) {
		t += " (" + factorRange(at.timeLo, at.timeHi) + " over repeats)"
	}
	if at.timeOn != "" {
		t += " (on the replicates measured on a quiet machine: " + at.timeOn + ")"
	}
	return t
}

// memText is the memory ratio as the tables print it: "52.2% of dssvd's".
func (at pairAt) memText(b string) string {
	return percent(at.mem, 1) + " of " + b + "'s"
}

// compared are the sizes whose times form a ratio.
func (sp scalingPair) compared() []pairAt {
	var out []pairAt
	for _, at := range sp.sizes {
		if finite(at.time) {
			out = append(out, at)
		}
	}
	return out
}

// timeSummary says how the time ratio runs over the sizes compared ("1.82×
// faster at k = 300 … 2.61× faster at k = 8,000"), or why no size compares
// and both times at the largest where both finished.
func (sp scalingPair) timeSummary(ax scalingAxis) string {
	c := sp.compared()
	switch {
	case len(c) == 1:
		return c[0].timeText() + " at " + ax.text(c[0].x)
	case len(c) > 1:
		first, last := c[0], c[len(c)-1]
		return timesText(first.time) + " at " + ax.text(first.x) + " … " + last.timeText() + " at " + ax.text(last.x)
	case len(sp.sizes) == 0:
		switch {
		case !sp.aFinished && !sp.bFinished:
			return "neither finished at " + ax.any()
		case !sp.aFinished:
			return sp.a + " finished at " + ax.none()
		case !sp.bFinished:
			return sp.b + " finished at " + ax.none()
		}
		return "no size where both finished: " + sp.a + " at " + sizesText(sp.aSizes, ax) + ", " + sp.b + " at " + sizesText(sp.bSizes, ax)
	}
	last := sp.sizes[len(sp.sizes)-1]
	return fmt.Sprintf("%s (at %s: %s against %s)", last.timeWhy, ax.text(last.x), seconds(last.wallA), seconds(last.wallB))
}

// sortedSizes are a line's finished sizes, ascending.
func sortedSizes(m map[float64]ratioPoint) []float64 {
	var out []float64
	for x := range m {
		out = append(out, x)
	}
	slices.Sort(out)
	return out
}

// sizesText prints a range of sizes: "V = 998 … 22,542", "k = 300".
func sizesText(xs []float64, ax scalingAxis) string {
	if len(xs) == 0 {
		return ax.none()
	}
	s := ax.text(xs[0])
	if len(xs) > 1 {
		s += " … " + strings.TrimPrefix(ax.text(xs[len(xs)-1]), ax.csvName()+" = ")
	}
	return s
}

// memSummary is the memory ratio at the largest size where it compares,
// or why not.
func (sp scalingPair) memSummary(ax scalingAxis) string {
	for i := len(sp.sizes) - 1; i >= 0; i-- {
		if at := sp.sizes[i]; finite(at.mem) {
			return at.memText(sp.b) + " at " + ax.text(at.x)
		}
	}
	if len(sp.sizes) == 0 {
		return "—"
	}
	return sp.sizes[len(sp.sizes)-1].memWhy
}

// pairBlocks are the comparisons: the paper's claim, one row per pair
// (how the ratios run over the sizes), and every size of every pair
// (collapsed when long).
func pairBlocks(pairs []scalingPair, ax scalingAxis) []Block {
	caption := "Each two backends at the sizes where both finished: the time ratio from the smallest to the largest size measured alike, the memory ratio at the largest"
	for _, sp := range pairs {
		if sp.backA == "lapack" || sp.backB == "lapack" {
			// gonum's pure-Go SVD is several times slower than LAPACK's: the
			// ratios against the lapack backend are the fair ones.
			caption += "; lapack is the dense SVD on LAPACK (OpenBLAS), the fastest dense solver and the paper's (numPy)"
			break
		}
	}
	sum := Table{ID: "scaling-ratios", Caption: caption,
		Header:  []string{"Comparison", "Sizes where both finished", "Time ratio", "Memory ratio", "Paper"},
		Numeric: []bool{false, false, true, true, false},
		CSV: [][]string{{"comparison", "a", "b", "sizes", ax.csvName() + "_first", ax.csvName() + "_last", "time_ratio_first", "time_ratio_last",
			"memory_ratio", "memory_" + ax.csvName(), "paper_time_ratio", "paper_memory_ratio", "time_note"}}}
	by := Table{ID: "scaling-ratios-by-size", Caption: "Every size of every comparison: both measurements, and their ratio where they were measured alike",
		Header:  []string{"Comparison", "Size", "Wall time", "Time ratio", "Peak memory", "Memory ratio"},
		Numeric: []bool{false, true, false, true, false, true},
		CSV: [][]string{{"comparison", "a", "b", ax.csvName(), "wall_s_a", "wall_s_b", "time_ratio", "time_ratio_min", "time_ratio_max", "time_note",
			"max_rss_mb_a", "max_rss_mb_b", "memory_ratio", "memory_note", "paper_time_ratio", "paper_memory_ratio"}}}
	for _, sp := range pairs {
		sizes := "none"
		if n := len(sp.sizes); n > 0 {
			xs := make([]float64, n)
			for i, at := range sp.sizes {
				xs[i] = at.x
			}
			sizes = sizesText(xs, ax)
			if n > 1 {
				sizes += fmt.Sprintf(" (%d)", n)
			}
		}
		sum.Rows = append(sum.Rows, []string{sp.name, sizes, sp.timeSummary(ax), sp.memSummary(ax), sp.paper.text})
		nan := math.NaN()
		line := []string{sp.name, sp.a, sp.b, fmt.Sprint(len(sp.sizes)), "", "", "", "", "", "", csvNumber(sp.paper.paperTime), csvNumber(sp.paper.paperMem), ""}
		if c := sp.compared(); len(c) > 0 {
			line[4], line[5], line[6], line[7] = csvNumber(c[0].x), csvNumber(c[len(c)-1].x), csvNumber(c[0].time), csvNumber(c[len(c)-1].time)
		} else if len(sp.sizes) > 0 {
			line[12] = sp.sizes[len(sp.sizes)-1].timeWhy
		}
		mem, memX := nan, nan
		for i := len(sp.sizes) - 1; i >= 0; i-- {
			if finite(sp.sizes[i].mem) {
				mem, memX = sp.sizes[i].mem, sp.sizes[i].x
				break
			}
		}
		line[8], line[9] = csvNumber(mem), csvNumber(memX)
		sum.CSV = append(sum.CSV, line)
		for _, at := range sp.sizes {
			tt, mt := at.timeWhy, at.memWhy
			if finite(at.time) {
				tt = at.timeText()
			}
			if finite(at.mem) {
				mt = at.memText(sp.b)
			}
			by.Rows = append(by.Rows, []string{sp.name, ax.text(at.x), seconds(at.wallA) + " against " + seconds(at.wallB), tt,
				megabytes(at.rssA) + " against " + megabytes(at.rssB), mt})
			by.CSV = append(by.CSV, []string{sp.name, sp.a, sp.b, csvNumber(at.x), csvNumber(at.wallA), csvNumber(at.wallB),
				csvNumber(at.time), csvNumber(at.timeLo), csvNumber(at.timeHi), at.timeWhy,
				csvNumber(at.rssA), csvNumber(at.rssB), csvNumber(at.mem), at.memWhy, csvNumber(sp.paper.paperTime), csvNumber(sp.paper.paperMem)})
		}
	}
	blocks := []Block{Paragraph("The paper's claim (section “Delayed Sparse Randomized SVD”): “" + PaperSVDClaim + "” " +
		"A time ratio is printed only for trials measured alike (each in a child process of its own, in one run, on a quiet machine, neither record disturbed; where a size has replicates and some were measured on a busy machine, the ratio stands on the others, and says how many); " +
		"a memory ratio for peak memory measured alike (each in a child process, from the same code), whatever the load. Otherwise the row says what is missing."), sum}
	if len(by.Rows) > 0 {
		blocks = append(blocks, collapse(len(by.Rows), fmt.Sprintf("Every size of every comparison (%d rows)", len(by.Rows)), by)...)
	}
	return blocks
}

// pairAnswer says how the paper's comparisons and those of the newest
// backend on the page run over the sizes (timeSummary, memSummary), next
// to the paper's claim; every pair is in the table.
func pairAnswer(pairs []scalingPair, ax scalingAxis) []string {
	newest := -1
	for _, sp := range pairs {
		newest = max(newest, sp.rankA)
	}
	var out []string
	for _, sp := range pairs {
		if len(sp.sizes) == 0 || (sp.paperPosition < 0 && sp.rankA != newest) {
			continue
		}
		c := sp.name + ": " + sp.timeSummary(ax)
		if m := sp.memSummary(ax); strings.HasPrefix(m, "not compared") {
			c += "; memory " + m
		} else {
			c += ", memory " + m
		}
		if sp.paperPosition >= 0 {
			c += " (the paper: " + sp.paper.text + ")"
		}
		out = append(out, c)
	}
	return out
}
