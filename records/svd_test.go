package records

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSVDAccuracyKeep(t *testing.T) {
	for _, tc := range []struct {
		name  string
		s     []float64
		keep  []int // successive cuts
		wantS []float64
		rank  int
		last  float64
	}{
		{"all kept", []float64{3, 2, 1}, []int{0}, []float64{3, 2, 1}, 3, 1},
		{"more than there are", []float64{3, 2, 1}, []int{5}, []float64{3, 2, 1}, 3, 1},
		{"the leading two", []float64{3, 2, 1}, []int{2}, []float64{3, 2}, 3, 1},
		{"cut twice: k and σ_k stay the decomposition's", []float64{4, 3, 2, 1}, []int{3, 1}, []float64{4}, 4, 1},
		{"empty", nil, []int{2}, nil, 0, math.NaN()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &SVDAccuracy{S: tc.s}
			for _, n := range tc.keep {
				a.Keep(n)
			}
			assert.Equal(t, tc.wantS, a.S)
			assert.Equal(t, tc.rank, a.Rank())
			if math.IsNaN(tc.last) {
				assert.True(t, math.IsNaN(a.Last()))
			} else {
				assert.Equal(t, tc.last, a.Last())
			}
		})
	}
}
