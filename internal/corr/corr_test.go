package corr_test

import (
	"math"
	"testing"

	"kcalab/internal/corr"

	"github.com/stretchr/testify/assert"
)

func TestRanks(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    []float64
		want []float64
	}{
		{"empty", nil, []float64{}},
		{"distinct", []float64{30, 10, 20}, []float64{3, 1, 2}},
		{"ties share their mean rank", []float64{10, 20, 20, 30}, []float64{1, 2.5, 2.5, 4}},
		{"all tied", []float64{5, 5, 5}, []float64{2, 2, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, corr.Ranks(tc.x))
		})
	}
}

func TestCentred(t *testing.T) {
	for _, tc := range []struct {
		name string
		x, y []float64
		want corr.Sums
	}{
		{"empty", nil, nil, corr.Sums{}},
		// x̄ = 2, ȳ = 4: dx = −1, 0, 1; dy = −2, 0, 2.
		{"a line", []float64{1, 2, 3}, []float64{2, 4, 6}, corr.Sums{MX: 2, MY: 4, XX: 2, XY: 4, YY: 8}},
		{"y constant", []float64{1, 2, 3}, []float64{7, 7, 7}, corr.Sums{MX: 2, MY: 7, XX: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, corr.Centred(tc.x, tc.y))
		})
	}
}

func TestSumsR(t *testing.T) {
	assert.Equal(t, 1.0, corr.Centred([]float64{1, 2, 3}, []float64{2, 4, 6}).R())
	assert.Equal(t, -1.0, corr.Centred([]float64{1, 2, 3}, []float64{6, 4, 2}).R())
	assert.InDelta(t, 0.5, corr.Centred([]float64{1, 2, 3}, []float64{1, 3, 2}).R(), 1e-15)
	assert.True(t, math.IsNaN(corr.Centred([]float64{1, 2, 3}, []float64{7, 7, 7}).R()), "a constant sample has none")
}
