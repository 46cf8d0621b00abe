package reports

import (
	"math"
	"testing"

	"kcalab/reports/compare"

	"github.com/stretchr/testify/assert"
)

func TestMeanPoints(t *testing.T) {
	pts, many := compare.MeanPoints(map[float64][]float64{3: {1, 3}, 1: {5}})
	assert.True(t, many)
	assert.Equal(t, []XY{{X: 1, Y: 5}, {X: 3, Y: 2, Err: math.Sqrt2}}, pts)
	pts, many = compare.MeanPoints(map[float64][]float64{2: {1}})
	assert.False(t, many)
	assert.Equal(t, []XY{{X: 2, Y: 1}}, pts)
}

func TestTimesText(t *testing.T) {
	for _, c := range []struct {
		ratio float64
		want  string
	}{
		{2.03, "2.03× slower"},
		{1 / 2.03, "2.03× faster"},
		{1.0 / 1200, "1200× faster"},
		{1.003, "as fast"},
		{0, "—"},
		{math.NaN(), "—"},
	} {
		assert.Equal(t, c.want, timesText(c.ratio), "%g", c.ratio)
	}
}

// TestSettingColor: one value of the series setting has one colour on
// every page, whatever else the chart draws.
func TestSettingColor(t *testing.T) {
	a, b := settingColor("svd.backend", "dssvd"), settingColor("svd.backend", "krylov")
	assert.NotEmpty(t, a)
	assert.NotEqual(t, a, b)
	assert.Empty(t, settingColor("svd.backend", "no such backend"))
	assert.Empty(t, settingColor("no.such.key", "dssvd"))
}
