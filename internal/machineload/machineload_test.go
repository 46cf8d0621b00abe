package machineload

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseStat(t *testing.T) {
	tests := []struct {
		line string
		want float64
		ok   bool
	}{
		{"cpu  100 20 30 4000 50 6 7 8 9 10\n", (100 + 20 + 30 + 6 + 7 + 8) / 100.0, true},
		{"cpu  100 20 30 4000 50 6 7\n", (100 + 20 + 30 + 6 + 7) / 100.0, true},
		{"cpu0 1 2 3 4 5 6 7 8\n", 0, false},
		{"cpu  1 2 x 4 5 6 7 8\n", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseStat(tt.line)
		assert.Equal(t, tt.ok, ok, tt.line)
		assert.InDelta(t, tt.want, got, 1e-12, tt.line)
	}
}

func TestSamples(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	a, ok := BusySeconds()
	assert.True(t, ok)
	x := 0
	for i := range 50_000_000 {
		x ^= i
	}
	b, ok := BusySeconds()
	assert.True(t, ok)
	assert.GreaterOrEqual(t, b, a, "%d", x)
	l, ok := LoadAvg1()
	assert.True(t, ok)
	assert.GreaterOrEqual(t, l, 0.0)
}
