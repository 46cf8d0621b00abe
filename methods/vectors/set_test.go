package vectors

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func TestNew(t *testing.T) {
	m := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	s, err := New([]string{"a", "b", "c"}, m)
	require.NoError(t, err)
	assert.Equal(t, 3, s.Len())
	assert.Equal(t, 2, s.Dim())
	i, ok := s.Index("b")
	assert.True(t, ok)
	assert.Equal(t, 1, i)
	_, ok = s.Index("z")
	assert.False(t, ok)
	v, ok := s.Vector("c")
	assert.True(t, ok)
	assert.Equal(t, []float64{5, 6}, v)

	for _, tc := range []struct {
		name  string
		words []string
		m     *mat.Dense
		want  string
	}{
		{"nil matrix", []string{"a"}, nil, "empty matrix"},
		{"row count", []string{"a", "b"}, m, "2 words but 3 matrix rows"},
		{"duplicate", []string{"a", "b", "a"}, m, `word 3 "a" repeats word 1`},
		{"empty word", []string{"a", "", "c"}, m, "word 2: empty word"},
		{"space", []string{"a", "new york", "c"}, m, `word 2: word "new york" contains whitespace`},
		{"nbsp", []string{"a", "b\u00a0c", "c"}, m, "contains whitespace"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.words, tc.m)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestOOVHook(t *testing.T) {
	s, err := New([]string{"cat"}, mat.NewDense(1, 2, []float64{1, 0}))
	require.NoError(t, err)
	_, ok := s.Vector("cats")
	assert.False(t, ok, "no hook: unknown")

	s.OOV = func(w string) ([]float64, bool) {
		if w == "cats" {
			return []float64{0.5, 0.5}, true
		}
		return nil, false
	}
	v, ok := s.Vector("cats")
	assert.True(t, ok)
	assert.Equal(t, []float64{0.5, 0.5}, v)
	_, ok = s.Vector("dog")
	assert.False(t, ok)
	v, _ = s.Vector("cat")
	assert.Equal(t, []float64{1, 0}, v, "vocabulary word: its row, not the hook")
}

// A Set built as a literal builds its index on first use, once, also under
// concurrent lookups (run with -race).
func TestLiteralSetIndex(t *testing.T) {
	s := &Set{Words: []string{"x", "y", "x"}, M: mat.NewDense(3, 1, []float64{1, 2, 3})}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			i, ok := s.Index("y")
			assert.True(t, ok)
			assert.Equal(t, 1, i)
		}()
	}
	wg.Wait()
	i, _ := s.Index("x")
	assert.Equal(t, 0, i, "first occurrence wins")
}

func ExampleSet_Vector() {
	s, err := New([]string{"cat", "dog"}, mat.NewDense(2, 2, []float64{1, 0, 0.6, 0.8}))
	if err != nil {
		fmt.Println(err)
		return
	}
	// A fastText-like hook: an unseen plural borrows its singular's vector.
	s.OOV = func(w string) ([]float64, bool) {
		if i, ok := s.Index(w[:len(w)-1]); ok && w[len(w)-1] == 's' {
			return s.Row(i), true
		}
		return nil, false
	}
	a, _ := s.Vector("cat")
	b, _ := s.Vector("dogs")
	_, known := s.Vector("cow")
	fmt.Println(DotSim(a, b), CosineSim(a, b), known)
	// Output: 0.6 0.6 false
}
