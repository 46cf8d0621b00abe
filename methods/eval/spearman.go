package eval

import (
	"errors"
	"fmt"
	"math"

	"kcalab/internal/corr"
)

// ErrUndefined is wrapped by the errors of a correlation that has no value:
// fewer than two points, or a constant variable (zero variance), where
// scipy returns NaN.
var ErrUndefined = errors.New("correlation undefined")

// Ranks returns the 1-based ranks of x, ties getting the average of the
// ranks they span (x = 10, 20, 20, 30 → 1, 2.5, 2.5, 4). x must hold no NaN.
func Ranks(x []float64) []float64 { return corr.Ranks(x) }

// Spearman is the Pearson correlation of the ranks of x and y (average ranks
// for ties). It fails, wrapping ErrUndefined, when there are fewer than two
// points or x or y is constant, and on unequal lengths or non-finite values.
func Spearman(x, y []float64) (float64, error) {
	if err := checkXY(x, y); err != nil {
		return 0, fmt.Errorf("spearman: %w", err)
	}
	rho, err := Pearson(Ranks(x), Ranks(y))
	if err != nil {
		return 0, fmt.Errorf("spearman: %w", err)
	}
	return rho, nil
}

// Pearson is the Pearson correlation coefficient of x and y, computed from
// centred values (two passes) and clamped to [-1, 1]. Its errors are those
// of Spearman.
func Pearson(x, y []float64) (float64, error) {
	if err := checkXY(x, y); err != nil {
		return 0, fmt.Errorf("pearson: %w", err)
	}
	s := corr.Centred(x, y)
	switch {
	case s.XX == 0:
		return 0, fmt.Errorf("pearson: first variable is constant: %w", ErrUndefined)
	case s.YY == 0:
		return 0, fmt.Errorf("pearson: second variable is constant: %w", ErrUndefined)
	}
	return s.R(), nil
}

func checkXY(x, y []float64) error {
	if len(x) != len(y) {
		return fmt.Errorf("lengths differ: %d and %d", len(x), len(y))
	}
	if len(x) < 2 {
		return fmt.Errorf("%d point(s), want at least 2: %w", len(x), ErrUndefined)
	}
	for i := range x {
		if math.IsNaN(x[i]) || math.IsInf(x[i], 0) || math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
			return fmt.Errorf("point %d (%g, %g) is not finite", i+1, x[i], y[i])
		}
	}
	return nil
}
