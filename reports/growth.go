package reports

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"kcalab/internal/corr"
	"kcalab/records"
)

// powerLaw fits y = c·x^b by least squares on log y against log x and
// returns b, c and the R² of that linear fit. ok is false unless there are
// at least three distinct positive x values (two points fit any law
// exactly) and every y is positive.
func powerLaw(xs, ys []float64) (b, c, r2 float64, ok bool) {
	distinct := map[float64]bool{}
	var lx, ly []float64
	for i := range xs {
		if !(xs[i] > 0) || !(ys[i] > 0) || !finite(xs[i]) || !finite(ys[i]) {
			return 0, 0, 0, false
		}
		distinct[xs[i]] = true
		lx, ly = append(lx, math.Log(xs[i])), append(ly, math.Log(ys[i]))
	}
	if len(distinct) < 3 {
		return 0, 0, 0, false
	}
	s := corr.Centred(lx, ly)
	b = s.XY / s.XX
	c = math.Exp(s.MY - b*s.MX)
	r2 = 1.0
	if s.YY > 0 {
		r2 = s.XY * s.XY / (s.XX * s.YY)
	}
	return b, c, r2, true
}

// lawText prints a fitted law, "3.2e-06 · V^1.95 (R² 0.998, 5 points)".
func lawText(x string, b, c, r2 float64, n int) string {
	return fmt.Sprintf("%s · %s^%s (R² %s, %d points)", sig(c, 2), x, sig(b, 3), fmt.Sprintf("%.3f", r2), n)
}

// growth is how one measurement of one line grows with the size: the
// means per size, the local slopes of log y against log x between
// consecutive sizes, and a power law fitted to every point, which the
// page states only where it holds (lawHolds); a flat quantity gets no law.
type growth struct {
	xs, means []float64 // distinct sizes, ascending, and the mean at each
	slopes    []float64 // between consecutive sizes
	flat      bool      // max/min of the means at most flatRatio
	b, c, r2  float64   // the least-squares power law over every point
	n         int       // its points
	fitted    bool      // powerLaw could fit (three sizes)
}

// flatRatio is the largest max/min of a quantity over the sizes that
// counts as flat: no law is fitted to it.
const flatRatio = 1.25

// slopeSpread is how far a local slope may be from a fitted exponent for
// the law to hold over the range.
const slopeSpread = 0.25

// growthOf measures the growth of ys against xs (every finished trial a
// point); ok is false below three distinct positive sizes.
func growthOf(xs, ys []float64) (g growth, ok bool) {
	byX := map[float64][]float64{}
	for i := range xs {
		if !(xs[i] > 0) || !(ys[i] > 0) || !finite(xs[i]) || !finite(ys[i]) {
			return growth{}, false
		}
		byX[xs[i]] = append(byX[xs[i]], ys[i])
	}
	if len(byX) < 3 {
		return growth{}, false
	}
	for x := range byX {
		g.xs = append(g.xs, x)
	}
	slices.Sort(g.xs)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range g.xs {
		m := mean(byX[x])
		g.means = append(g.means, m)
		lo, hi = math.Min(lo, m), math.Max(hi, m)
	}
	for i := 1; i < len(g.xs); i++ {
		g.slopes = append(g.slopes, math.Log(g.means[i]/g.means[i-1])/math.Log(g.xs[i]/g.xs[i-1]))
	}
	g.flat = hi <= flatRatio*lo
	g.b, g.c, g.r2, g.fitted = powerLaw(xs, ys)
	g.n = len(xs)
	return g, true
}

// lawHolds says the fitted power law describes the whole range: the
// quantity is not flat and every local slope is within slopeSpread of the
// exponent.
func (g growth) lawHolds() bool {
	if g.flat || !g.fitted {
		return false
	}
	for _, s := range g.slopes {
		if math.Abs(s-g.b) > slopeSpread {
			return false
		}
	}
	return true
}

// slopesText prints the local slopes in order: "0.83 → 1.31 → 1.64".
func (g growth) slopesText() string {
	parts := make([]string, len(g.slopes))
	for i, s := range g.slopes {
		parts[i] = slopeText(s)
	}
	return strings.Join(parts, " → ")
}

// slopeText prints a slope to two decimals, "1.00" and "−0.03" alike.
func slopeText(s float64) string {
	return strings.Replace(strconv.FormatFloat(tidy(s), 'f', 2, 64), "-", "−", 1)
}

// lawCell is what the table says of a power law against x: the law with
// its fit, or why none is stated.
func (g growth) lawCell(x string) string {
	switch {
	case g.flat:
		return "— (flat: no law)"
	case !g.fitted:
		return "—"
	case !g.lawHolds():
		lo, hi := slices.Min(g.slopes), slices.Max(g.slopes)
		return fmt.Sprintf("— (not one power law: the local slopes run from %s to %s)", slopeText(lo), slopeText(hi))
	}
	return lawText(x, g.b, g.c, g.r2, g.n)
}

// growthRow is one row of the growth table: a line's measurement.
type growthRow struct {
	line, what, unit string // "krylov", "wall time", "s"
	size, nnz        growth
	hasNNZ           bool
}

// growthTable states, for each line of the scaling figures, how wall time
// and peak memory grow against the size (and against the table's
// non-zeros when they vary): the range, the local slopes and the power
// law where it holds; every finished trial a point. nil when no line has
// three sizes.
func growthTable(lines []line, sizeSymbol string, text func(float64) string) (*Table, []growthRow) {
	var rows []growthRow
	anyNNZ := false
	for _, l := range lines {
		for _, q := range []struct{ metric, what, unit string }{{metricWall, "wall time", "s"}, {metricRSS, "peak memory", "MiB"}} {
			var xs, nz, ys, ysNZ []float64
			for k, t := range l.Trials {
				y, ok := t.Metrics[q.metric]
				if t.Status != "ok" || !ok {
					continue
				}
				xs, ys = append(xs, l.Xs[k]), append(ys, y)
				if v, ok := t.Metrics[records.MetricNNZ]; ok {
					nz, ysNZ = append(nz, v), append(ysNZ, y)
				}
			}
			g, ok := growthOf(xs, ys)
			if !ok {
				continue
			}
			r := growthRow{line: l.Name, what: q.what, unit: q.unit, size: g}
			if gn, ok := growthOf(nz, ysNZ); ok {
				r.nnz, r.hasNNZ, anyNNZ = gn, true, true
			}
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return nil, nil
	}
	t := &Table{ID: "scaling-growth", Caption: "How time and memory grow: the range, the local slopes of log y against log " + sizeSymbol + " between consecutive sizes, and a power law only where the slopes agree with it",
		Header:  []string{"Series", "Quantity", "Range", "Local slopes against " + sizeSymbol, "Power law against " + sizeSymbol},
		Numeric: []bool{false, false, false, false, false},
		CSV: [][]string{{"series", "quantity", sizeSymbol + "_min", sizeSymbol + "_max", "value_at_min", "value_at_max", "flat",
			"exponent_" + sizeSymbol, "coefficient_" + sizeSymbol, "r2_" + sizeSymbol, "points_" + sizeSymbol, "law_holds",
			"exponent_nnz", "coefficient_nnz", "r2_nnz", "points_nnz", "law_holds_nnz"}}}
	// One column per local slope: slope_1 is between the first two sizes.
	slopes := 0
	for _, r := range rows {
		slopes = max(slopes, len(r.size.slopes))
	}
	for i := range slopes {
		t.CSV[0] = append(t.CSV[0], fmt.Sprintf("slope_%d", i+1))
	}
	if anyNNZ {
		t.Header = append(t.Header, "Power law against non-zeros (nnz)")
		t.Numeric = append(t.Numeric, false)
	}
	value := func(v float64, unit string) string {
		if unit == "s" {
			return seconds(v)
		}
		return megabytes(v)
	}
	for _, r := range rows {
		g := r.size
		first, last := 0, len(g.xs)-1
		rng := value(g.means[first], r.unit) + " at " + text(g.xs[first]) + " … " + value(g.means[last], r.unit) + " at " + text(g.xs[last])
		row := []string{r.line, r.what, rng, g.slopesText(), g.lawCell(sizeSymbol)}
		if anyNNZ {
			cell := "—"
			if r.hasNNZ {
				cell = r.nnz.lawCell("nnz")
			}
			row = append(row, cell)
		}
		t.Rows = append(t.Rows, row)
		csv := []string{r.line, r.what, csvNumber(g.xs[first]), csvNumber(g.xs[last]), csvNumber(g.means[first]), csvNumber(g.means[last]),
			strconv.FormatBool(g.flat)}
		csv = append(csv, lawCSV(g)...)
		if r.hasNNZ {
			csv = append(csv, lawCSV(r.nnz)...)
		} else {
			csv = append(csv, "", "", "", "", "")
		}
		for i := range slopes {
			cell := ""
			if i < len(g.slopes) {
				cell = csvNumber(g.slopes[i])
			}
			csv = append(csv, cell)
		}
		t.CSV = append(t.CSV, csv)
	}
	return t, rows
}

// lawCSV is a fitted law for a program: exponent, coefficient, R²,
// points and whether it holds; empty when nothing could be fitted.
func lawCSV(g growth) []string {
	if !g.fitted {
		return []string{"", "", "", "", ""}
	}
	return []string{csvNumber(g.b), csvNumber(g.c), csvNumber(g.r2), strconv.Itoa(g.n), strconv.FormatBool(g.lawHolds())}
}

// growthAnswer says how each line's wall time and memory grow: by the
// law where it holds, by the local slopes where they change, and flat
// where the quantity barely moves.
func growthAnswer(rows []growthRow, sizeSymbol string, text func(float64) string) []string {
	var out []string
	for _, r := range rows {
		g := r.size
		over := " over " + text(g.xs[0]) + " … " + strings.TrimPrefix(text(g.xs[len(g.xs)-1]), sizeSymbol+" = ")
		switch {
		case g.flat:
			out = append(out, fmt.Sprintf("%s's %s is flat%s", r.line, r.what, over))
		case g.lawHolds():
			out = append(out, fmt.Sprintf("%s's %s grows as %s^%s (R² %.3f, %d points)%s", r.line, r.what, sizeSymbol, sig(g.b, 3), g.r2, g.n, over))
		default:
			out = append(out, fmt.Sprintf("%s's %s: local slopes %s%s", r.line, r.what, g.slopesText(), over))
		}
	}
	return out
}
