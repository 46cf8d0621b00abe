package compare

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCheckCoverage(t *testing.T) {
	reps := func(v float64) []float64 {
		out := make([]float64, 50)
		for b := range out {
			out[b] = v + 0.01*float64(b%5-2)
		}
		return out
	}
	hi, lo := Estimate{Value: 0.6, Reps: reps(0.6)}, Estimate{Value: 0.3, Reps: reps(0.3)}
	cases := []struct {
		name       string
		covA, covB float64
		a, b       Estimate
		differs    bool
		other      Verdict
	}{
		{"equal coverage", 0.412, 0.412, hi, lo, false, Above},
		{"5 points apart: not more than the gap", 0.95, 1, hi, lo, false, Above},
		{"5.1 points apart", 0.949, 1, lo, hi, true, Below},
		{"Rare: 20.2% against 100%", 0.202, 1, hi, hi, true, Tie},
		{"coverage not recorded", math.NaN(), 1, hi, lo, false, Above},
		{"no score under the other rule", 0.2, 1, Estimate{Value: math.NaN()}, lo, true, NotTested},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := CheckCoverage(c.covA, c.covB, c.a, c.b, 3)
			assert.Equal(t, c.differs, got.Differs)
			assert.Equal(t, c.other, got.Other)
		})
	}
}
