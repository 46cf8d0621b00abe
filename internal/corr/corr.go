package corr

import (
	"math"
	"slices"
)

// Ranks returns the 1-based ranks of x, ties getting the average of the
// ranks they span (x = 10, 20, 20, 30 → 1, 2.5, 2.5, 4). x must hold no NaN.
func Ranks(x []float64) []float64 {
	type item struct {
		v float64
		i int
	}
	items := make([]item, len(x))
	for i, v := range x {
		items[i] = item{v, i}
	}
	// Ties broken by index: a total order, so the result never depends on
	// the sort's internals.
	slices.SortFunc(items, func(a, b item) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return a.i - b.i
	})
	r := make([]float64, len(x))
	for i := 0; i < len(items); {
		j := i + 1
		for j < len(items) && items[j].v == items[i].v {
			j++
		}
		// positions i..j-1 (0-based) hold ranks i+1..j: their mean is (i+1+j)/2.
		avg := float64(i+1+j) / 2
		for _, it := range items[i:j] {
			r[it.i] = avg
		}
		i = j
	}
	return r
}

// Sums are the centred sums of two paired samples: their means and
// Σ(x−x̄)², Σ(x−x̄)(y−ȳ), Σ(y−ȳ)², from two passes (means first).
type Sums struct {
	MX, MY     float64
	XX, XY, YY float64
}

// Centred computes the Sums of x and y (y at least as long as x).
func Centred(x, y []float64) Sums {
	var s Sums
	if len(x) == 0 {
		return s
	}
	n := float64(len(x))
	for i := range x {
		s.MX += x[i]
		s.MY += y[i]
	}
	s.MX /= n
	s.MY /= n
	for i := range x {
		dx, dy := x[i]-s.MX, y[i]-s.MY
		s.XY += dx * dy
		s.XX += dx * dx
		s.YY += dy * dy
	}
	return s
}

// R is Pearson's correlation from the sums, clamped to [−1, 1] against
// rounding; NaN when either sample is constant.
func (s Sums) R() float64 {
	if s.XX == 0 || s.YY == 0 {
		return math.NaN()
	}
	return max(-1, min(1, s.XY/math.Sqrt(s.XX*s.YY)))
}
