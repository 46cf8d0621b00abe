package reports

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

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
