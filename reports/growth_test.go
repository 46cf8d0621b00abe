package reports

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPowerLaw(t *testing.T) {
	for _, tt := range []struct {
		name    string
		xs, ys  []float64
		b, c    float64
		ok      bool
		exactR2 bool
	}{
		{name: "exact quadratic", xs: []float64{10, 100, 1000}, ys: []float64{300, 30000, 3e6}, b: 2, c: 3, ok: true, exactR2: true},
		{name: "linear with repeats", xs: []float64{1, 1, 2, 4}, ys: []float64{5, 5, 10, 20}, b: 1, c: 5, ok: true, exactR2: true},
		{name: "two sizes fit anything", xs: []float64{1, 1, 2}, ys: []float64{1, 2, 3}},
		{name: "a zero cannot be logged", xs: []float64{1, 2, 3}, ys: []float64{0, 2, 3}},
		{name: "no points", xs: nil, ys: nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, c, r2, ok := powerLaw(tt.xs, tt.ys)
			assert.Equal(t, tt.ok, ok)
			if !tt.ok {
				return
			}
			assert.InDelta(t, tt.b, b, 1e-12)
			assert.InEpsilon(t, tt.c, c, 1e-12)
			if tt.exactR2 {
				assert.InDelta(t, 1, r2, 1e-12)
			}
		})
	}
	// Noise lowers R².
	_, _, r2, ok := powerLaw([]float64{1, 2, 4, 8}, []float64{1, 3, 3, 9})
	assert.True(t, ok)
	assert.Less(t, r2, 0.99)
	assert.Equal(t, "3 · V^2 (R² 1.000, 3 points)", lawText("V", 2, 3, 1, 3))
}
