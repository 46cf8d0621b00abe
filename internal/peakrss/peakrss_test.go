//go:build unix

package peakrss

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Touching 200 MiB raises the peak by about that much, and never lowers it.
func TestSelfSeesAnAllocation(t *testing.T) {
	before := Self()
	assert.Positive(t, before)
	ballast := make([]byte, 200<<20)
	for i := range ballast {
		ballast[i] = 1
	}
	after := Self()
	runtime.KeepAlive(ballast)
	assert.GreaterOrEqual(t, after, before)
	assert.GreaterOrEqual(t, after, uint64(200<<20), "the peak holds the touched ballast")
}
