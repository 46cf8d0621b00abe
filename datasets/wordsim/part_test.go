package wordsim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParts(t *testing.T) {
	s := &Set{Name: "s"}
	for i := 0; i < 2000; i++ {
		s.Pairs = append(s.Pairs, Pair{W1: fmt.Sprintf("w%d", i), W2: fmt.Sprintf("v%d", i%97), Score: float64(i)})
	}
	dev, err := s.Part(PartDev)
	require.NoError(t, err)
	test, err := s.Part(PartTest)
	require.NoError(t, err)
	assert.Equal(t, len(s.Pairs), len(dev.Pairs)+len(test.Pairs), "the parts split the set")
	assert.InDelta(t, 0.3, float64(len(dev.Pairs))/float64(len(s.Pairs)), 0.03)
	assert.Equal(t, "s@dev", dev.Name)
	// A pair's part is its words' alone: either order, either case.
	assert.Equal(t, PartOf("Cat", "dog"), PartOf("DOG", "cat"))
	_, err = s.Part("train")
	assert.Error(t, err)
}
