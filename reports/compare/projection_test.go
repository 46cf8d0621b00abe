package compare

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"kcalab/reports/page"
)

// TestMeanPoints: values at one x fold into their mean, the sample SD
// their error bar, sorted by x.
func TestMeanPoints(t *testing.T) {
	pts, many := MeanPoints(map[float64][]float64{3: {1, 3}, 1: {5}})
	assert.True(t, many)
	assert.Equal(t, []page.XY{{X: 1, Y: 5}, {X: 3, Y: 2, Err: math.Sqrt2}}, pts)
	pts, many = MeanPoints(map[float64][]float64{2: {1}})
	assert.False(t, many)
	assert.Equal(t, []page.XY{{X: 2, Y: 1}}, pts)
}
