package records

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReplicatesRoundTrip(t *testing.T) {
	xs := []float64{0.41, 0.39, 0.45, math.NaN(), 0.30, 0.4201}
	enc := EncodeReplicates(xs, 0.4)
	got, err := DecodeReplicates(enc, 0.4)
	require.NoError(t, err)
	require.Len(t, got, len(xs))
	step := 0.1 / 127 // the largest deviation is 0.1
	for i, x := range xs {
		if math.IsNaN(x) {
			assert.True(t, math.IsNaN(got[i]))
			continue
		}
		assert.InDelta(t, x, got[i], step/2+1e-9, "replicate %d", i)
	}
	same, err := DecodeReplicates(EncodeReplicates([]float64{0.5, 0.5}, 0.5), 0.5)
	require.NoError(t, err)
	assert.Equal(t, []float64{0.5, 0.5}, same, "no spread: exact")
	_, err = DecodeReplicates("!!", 0)
	assert.Error(t, err)
	b := &Bootstrap{B: 6, Scores: map[string]string{"spearman.zero.men": enc}}
	r, ok := b.Replicates("spearman.zero.men", 0.4)
	assert.True(t, ok)
	assert.Len(t, r, 6)
	_, ok = b.Replicates("spearman.skip.men", 0.4)
	assert.False(t, ok)
	_, ok = (*Bootstrap)(nil).Replicates("spearman.zero.men", 0.4)
	assert.False(t, ok)
}

func TestIntervalAndDifference(t *testing.T) {
	lo, hi, sd := Interval(0.5, []float64{0.4, 0.6, 0.5, math.NaN()})
	assert.InDelta(t, 0.1, sd, 1e-12)
	assert.InDelta(t, 0.5-0.196, lo, 1e-12)
	assert.InDelta(t, 0.5+0.196, hi, 1e-12)
	_, _, sd = Interval(0.5, []float64{0.4})
	assert.True(t, math.IsNaN(sd))

	// b moves with a (the same resamples): their difference is steady, so a
	// 0.02 margin is significant although each alone spreads by 0.1.
	ra := []float64{0.40, 0.60, 0.50, 0.45, 0.55}
	rb := []float64{0.38, 0.58, 0.48, 0.43, 0.53}
	lo, hi, sign := Difference(0.5, 0.48, ra, rb)
	assert.Equal(t, 1, sign)
	assert.InDelta(t, 0.02, lo, 1e-9)
	assert.InDelta(t, 0.02, hi, 1e-9)
	_, _, sign = Difference(0.48, 0.5, rb, ra)
	assert.Equal(t, -1, sign)
	// Unpaired noise of the same size: a tie.
	rc := []float64{0.58, 0.38, 0.53, 0.43, 0.48}
	_, _, sign = Difference(0.5, 0.48, ra, rc)
	assert.Equal(t, 0, sign)
	_, _, sign = Difference(0.5, 0.48, ra, rc[:2])
	assert.Equal(t, 0, sign, "mismatched replicates cannot be told")
}
