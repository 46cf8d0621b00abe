package compare

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSub(t *testing.T) {
	for _, tc := range []struct {
		name    string
		a, b    Estimate
		want    Estimate
		testedW bool
	}{
		{"paired", Estimate{Value: 0.5, Reps: []float64{0.4, 0.6}}, Estimate{Value: 0.3, Reps: []float64{0.35, 0.2}},
			Estimate{Value: 0.2, Reps: []float64{0.05, 0.4}}, true},
		{"seeds add", Estimate{Value: 0.5, Reps: []float64{0.5}, SeedVar: 0.01, SeedDF: 2}, Estimate{Value: 0.1, Reps: []float64{0.1}, SeedVar: 0.01, SeedDF: 2},
			Estimate{Value: 0.4, Reps: []float64{0.4}, SeedVar: 0.02, SeedDF: 4}, true},
		{"one without replicates", Estimate{Value: 0.5}, Estimate{Value: 0.2, Reps: []float64{0.2}}, Estimate{Value: 0.3}, false},
		{"unpaired", Estimate{Value: 0.5, Reps: []float64{0.5}}, Estimate{Value: 0.2, Reps: []float64{0.2, 0.1}}, Estimate{Value: 0.3}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Sub(tc.a, tc.b)
			assert.InDelta(t, tc.want.Value, got.Value, 1e-15)
			assert.Equal(t, tc.testedW, got.Tested())
			assert.InDeltaSlice(t, tc.want.Reps, got.Reps, 1e-15)
			assert.InDelta(t, tc.want.SeedVar, got.SeedVar, 1e-15)
			assert.Equal(t, tc.want.SeedDF, got.SeedDF)
		})
	}
	// The difference of two gains over one base is the difference of the
	// two supervised rows: the base cancels, pair by pair.
	a := Estimate{Value: 0.6, Reps: []float64{0.55, 0.62, 0.6}}
	b := Estimate{Value: 0.5, Reps: []float64{0.48, 0.5, 0.53}}
	base := Estimate{Value: 0.4, Reps: []float64{0.41, 0.37, 0.42}}
	d1, lo1, hi1, ok1 := Diff(Sub(a, base), Sub(b, base))
	d2, lo2, hi2, ok2 := Diff(a, b)
	assert.True(t, ok1 && ok2)
	for _, p := range [][2]float64{{d1, d2}, {lo1, lo2}, {hi1, hi2}} {
		assert.False(t, math.IsNaN(p[0]))
		assert.InDelta(t, p[1], p[0], 1e-12)
	}
}
