package reports

import (
	"fmt"
	"math"
	"strconv"

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
	n := float64(len(lx))
	var mx, my float64
	for i := range lx {
		mx += lx[i]
		my += ly[i]
	}
	mx, my = mx/n, my/n
	var sxx, sxy, syy float64
	for i := range lx {
		dx, dy := lx[i]-mx, ly[i]-my
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
	}
	b = sxy / sxx
	c = math.Exp(my - b*mx)
	r2 = 1.0
	if syy > 0 {
		r2 = sxy * sxy / (sxx * syy)
	}
	return b, c, r2, true
}

// lawText prints a fitted law, "3.2e-06 · V^1.95 (R² 0.998, 5 points)".
func lawText(x string, b, c, r2 float64, n int) string {
	return fmt.Sprintf("%s · %s^%s (R² %s, %d points)", sig(c, 2), x, sig(b, 3), fmt.Sprintf("%.3f", r2), n)
}

// growthTable states, for each line of the scaling figures, the power
// laws fitted to wall time and peak memory against the size and against
// the table's non-zeros, every finished trial a point. nil when no line
// has three sizes.
func growthTable(lines []line, sizeSymbol string) *Table {
	t := &Table{ID: "scaling-growth", Caption: "Fitted growth laws (least squares on log–log, every finished trial a point)",
		Header: []string{"Series", "Quantity", "Against " + sizeSymbol, "Against non-zeros (nnz)"},
		CSV: [][]string{{"series", "quantity", "exponent_" + sizeSymbol, "coefficient_" + sizeSymbol, "r2_" + sizeSymbol, "points_" + sizeSymbol,
			"exponent_nnz", "coefficient_nnz", "r2_nnz", "points_nnz"}}}
	for _, l := range lines {
		for _, q := range []struct{ metric, label string }{{metricWall, "wall time (s)"}, {metricRSS, "peak memory (MiB)"}} {
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
			row := []string{l.Name, q.label, "—", "—"}
			csv := []string{l.Name, q.metric, "", "", "", "", "", "", "", ""}
			fitted := false
			if b, c, r2, ok := powerLaw(xs, ys); ok {
				row[2], fitted = lawText(sizeSymbol, b, c, r2, len(xs)), true
				csv[2], csv[3], csv[4], csv[5] = csvNumber(b), csvNumber(c), csvNumber(r2), strconv.Itoa(len(xs))
			}
			if b, c, r2, ok := powerLaw(nz, ysNZ); ok {
				row[3], fitted = lawText("nnz", b, c, r2, len(nz)), true
				csv[6], csv[7], csv[8], csv[9] = csvNumber(b), csvNumber(c), csvNumber(r2), strconv.Itoa(len(nz))
			}
			if fitted {
				t.Rows = append(t.Rows, row)
				t.CSV = append(t.CSV, csv)
			}
		}
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}
