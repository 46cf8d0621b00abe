package records_test

import (
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
)

func TestQuiet(t *testing.T) {
	tests := []struct {
		name    string
		metrics map[string]float64
		quiet   bool
		cores   float64
		known   bool
	}{
		{"quiet", map[string]float64{"wall_s": 100, "others_cpu_s": 5}, true, 0.05, true},
		{"another run beside it", map[string]float64{"wall_s": 100, "others_cpu_s": 90}, false, 0.9, true},
		{"not sampled", map[string]float64{"wall_s": 100}, false, 0, false},
		{"repeats: the worst one decides", map[string]float64{"wall_s": 100, "wall_s.min": 90, "others_cpu_s": 1, "others_cpu_s.max": 45}, false, 0.5, true},
		{"negative noise reads as none", map[string]float64{"wall_s": 10, "others_cpu_s": -0.02}, true, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, c, k := records.Quiet(records.Record{Metrics: tt.metrics})
			assert.Equal(t, tt.quiet, q)
			assert.InDelta(t, tt.cores, c, 1e-12)
			assert.Equal(t, tt.known, k)
		})
	}
}
