package eval

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/wordsim"
	"kcalab/methods/vectors"
)

func errorsIsUndefined(err error) bool { return errors.Is(err, ErrUndefined) }

// toy is a 4-word, 2-d set; toyPairs gives each pair's dot and cosine.
func toy(t testing.TB) *vectors.Set {
	s, err := vectors.New([]string{"cat", "dog", "car", "bus"}, mat.NewDense(4, 2, []float64{
		1, 0,
		2, 1,
		0, 1,
		0, 3,
	}))
	require.NoError(t, err)
	return s
}

var toyPairs = &wordsim.Set{Name: "toy", Pairs: []wordsim.Pair{
	{W1: "cat", W2: "dog", Score: 8},  // dot 2, cos 2/√5
	{W1: "car", W2: "bus", Score: 9},  // dot 3, cos 1
	{W1: "cat", W2: "car", Score: 1},  // dot 0, cos 0
	{W1: "dog", W2: "bus", Score: 3},  // dot 3, cos 1/√5
	{W1: "cat", W2: "cow", Score: 7},  // cow unknown
	{W1: "fox", W2: "cow", Score: 10}, // both unknown
}}

func TestEvaluate(t *testing.T) {
	vs := toy(t)
	for _, tc := range []struct {
		sim   vectors.Similarity
		rule  Rule
		human []float64
		model []float64
	}{
		{vectors.Dot, Skip, []float64{8, 9, 1, 3}, []float64{2, 3, 0, 3}},
		{vectors.Dot, Zero, []float64{8, 9, 1, 3, 7, 10}, []float64{2, 3, 0, 3, 0, 0}},
		{vectors.Cosine, Skip, []float64{8, 9, 1, 3}, []float64{2 / math.Sqrt(5), 1, 0, 1 / math.Sqrt(5)}},
		{vectors.Cosine, Zero, []float64{8, 9, 1, 3, 7, 10}, []float64{2 / math.Sqrt(5), 1, 0, 1 / math.Sqrt(5), 0, 0}},
	} {
		t.Run(string(tc.sim)+"/"+string(tc.rule), func(t *testing.T) {
			want, err := Spearman(tc.human, tc.model)
			require.NoError(t, err)
			sc, err := Evaluate(vs, toyPairs, tc.sim, tc.rule)
			require.NoError(t, err)
			wantR, err := Pearson(tc.human, tc.model)
			require.NoError(t, err)
			assert.Equal(t, Score{Set: "toy", Rho: want, Pearson: wantR, Pairs: 6, Covered: 4}, sc)
			assert.InDelta(t, 4.0/6, sc.Coverage(), 1e-15)
		})
	}
}

func TestEvaluateHandValue(t *testing.T) {
	// Skip/dot: human 8 9 1 3 → ranks 3 4 1 2; model 2 3 0 3 → 2 3.5 1 3.5.
	// dx = .5 1.5 −1.5 −.5, dy = −.5 1 −1.5 1: Σdxdy = 3, Σdx² = 5, Σdy² = 4.5.
	sc, err := Evaluate(toy(t), toyPairs, vectors.Dot, Skip)
	require.NoError(t, err)
	assert.InDelta(t, 3/math.Sqrt(22.5), sc.Rho, 1e-15)
	// Pearson on the values: dx = 2.75 3.75 −4.25 −2.25, dy = 0 1 −2 1:
	// Σdxdy = 10, Σdx² = 44.75, Σdy² = 6.
	assert.InDelta(t, 10/math.Sqrt(44.75*6), sc.Pearson, 1e-15)

	// Zero/dot: human ranks 4 5 1 2 3 6; model 2 3 0 3 0 0 → 4 5.5 2 5.5 2 2.
	// Σdxdy = 1, Σdx² = 17.5, Σdy² = 15.
	sc, err = Evaluate(toy(t), toyPairs, vectors.Dot, Zero)
	require.NoError(t, err)
	assert.InDelta(t, 1/math.Sqrt(262.5), sc.Rho, 1e-15)
}

func TestEvaluateOOVHook(t *testing.T) {
	vs := toy(t)
	vs.OOV = func(w string) ([]float64, bool) {
		if w == "cow" {
			return []float64{1, 1}, true
		}
		return nil, false
	}
	sc, err := Evaluate(vs, toyPairs, vectors.Dot, Skip)
	require.NoError(t, err)
	assert.Equal(t, 5, sc.Covered, "cat–cow covered through the hook; fox–cow not")
	want, err := Spearman([]float64{8, 9, 1, 3, 7}, []float64{2, 3, 0, 3, 1})
	require.NoError(t, err)
	assert.Equal(t, want, sc.Rho)

	vs.OOV = func(string) ([]float64, bool) { return []float64{1}, true }
	_, err = Evaluate(vs, toyPairs, vectors.Dot, Skip)
	assert.ErrorContains(t, err, `evaluate on toy: OOV hook gave 1 values for "cow", want 2`)
}

func TestEvaluateErrors(t *testing.T) {
	vs := toy(t)
	none := &wordsim.Set{Name: "none", Pairs: []wordsim.Pair{{W1: "x", W2: "y", Score: 1}, {W1: "x", W2: "z", Score: 2}}}
	for _, tc := range []struct {
		name      string
		vs        *vectors.Set
		set       *wordsim.Set
		sim       vectors.Similarity
		rule      Rule
		want      string
		undefined bool
	}{
		{"nil set", vs, nil, vectors.Dot, Zero, "empty word-similarity set", false},
		{"no vectors", nil, toyPairs, vectors.Dot, Zero, "evaluate on toy: no word vectors", false},
		{"bad sim", vs, toyPairs, "l2", Zero, `unknown similarity "l2"`, false},
		{"bad rule", vs, toyPairs, vectors.Dot, "drop", `unknown out-of-vocabulary rule "drop": want zero or skip`, false},
		{"nothing covered skip", vs, none, vectors.Dot, Skip, "evaluate on none: 0 of 2 pairs covered, rule skip: spearman: 0 point(s)", true},
		{"nothing covered zero", vs, none, vectors.Dot, Zero, "0 of 2 pairs covered, rule zero: spearman: pearson: second variable is constant", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Evaluate(tc.vs, tc.set, tc.sim, tc.rule)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Equal(t, tc.undefined, errorsIsUndefined(err))
			assert.True(t, math.IsNaN(sc.Rho))
		})
	}
}

func TestEvaluateAll(t *testing.T) {
	none := &wordsim.Set{Name: "none", Pairs: []wordsim.Pair{{W1: "x", W2: "y", Score: 1}}}
	scores, err := EvaluateAll(toy(t), []*wordsim.Set{toyPairs, none, toyPairs}, vectors.Dot, Skip)
	require.Error(t, err)
	assert.True(t, errorsIsUndefined(err))
	assert.Contains(t, err.Error(), "evaluate on none")
	require.Len(t, scores, 3)
	assert.Equal(t, scores[0], scores[2])
	assert.False(t, math.IsNaN(scores[0].Rho))
	assert.Equal(t, "none", scores[1].Set)
	assert.True(t, math.IsNaN(scores[1].Rho))

	scores, err = EvaluateAll(toy(t), []*wordsim.Set{toyPairs}, vectors.Cosine, Zero)
	require.NoError(t, err)
	require.Len(t, scores, 1)
}

func TestParseRule(t *testing.T) {
	for _, name := range []string{"zero", "skip"} {
		r, err := ParseRule(name)
		require.NoError(t, err)
		assert.Equal(t, name, string(r))
	}
	_, err := ParseRule("Zero")
	assert.ErrorContains(t, err, `unknown out-of-vocabulary rule "Zero": want zero or skip`)
}

func ExampleEvaluate() {
	vs, err := vectors.New([]string{"cat", "dog", "car", "bus"}, mat.NewDense(4, 2, []float64{
		1, 0,
		2, 1,
		0, 1,
		0, 3,
	}))
	if err != nil {
		fmt.Println(err)
		return
	}
	set, err := wordsim.Parse(strings.NewReader("cat dog 8\ncar bus 9\ncat car 1\ndog bus 3\ncat cow 7\nfox cow 10\n"), "toy")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, rule := range Rules {
		sc, err := Evaluate(vs, set, vectors.Dot, rule)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: rho %.3f over %d pairs, %d covered\n", rule, sc.Rho, sc.Pairs, sc.Covered)
	}
	// Output:
	// zero: rho 0.062 over 6 pairs, 4 covered
	// skip: rho 0.632 over 6 pairs, 4 covered
}

// FoldCase and FoldSet look words up as gensim's
// evaluate_word_pairs(case_insensitive=True): a folded word takes the first
// row of its form.
func TestFoldCase(t *testing.T) {
	vs, err := vectors.New([]string{"Cat", "cat", "DOG", "bus"}, mat.NewDense(4, 2, []float64{
		1, 0,
		0, 1,
		2, 1,
		0, 3,
	}))
	require.NoError(t, err)
	set := &wordsim.Set{Name: "s", Pairs: []wordsim.Pair{
		{W1: "CAT", W2: "Dog", Score: 1}, {W1: "cat", W2: "BUS", Score: 2}, {W1: "dog", W2: "bus", Score: 3},
	}}
	exact, err := Evaluate(vs, set, vectors.Dot, Skip)
	require.ErrorIs(t, err, ErrUndefined)
	assert.Equal(t, 0, exact.Covered)
	sc, err := Evaluate(FoldCase(vs), FoldSet(set), vectors.Dot, Skip)
	require.NoError(t, err)
	assert.Equal(t, 3, sc.Covered)
	// cat is "Cat" (1, 0): dots 2, 0, 3 against scores 1, 2, 3.
	want, err := Spearman([]float64{1, 2, 3}, []float64{2, 0, 3})
	require.NoError(t, err)
	assert.Equal(t, want, sc.Rho)
	assert.Equal(t, "CAT", set.Pairs[0].W1, "FoldSet copies")
}

// Correlate applies the OOV rules to given model scores as Evaluate does to
// similarities: an uncovered pair scores 0 under zero and is left out under
// skip.
func TestCorrelate(t *testing.T) {
	set := &wordsim.Set{Name: "s", Pairs: []wordsim.Pair{{W1: "a", W2: "b", Score: 1}, {W1: "a", W2: "c", Score: 2}, {W1: "b", W2: "c", Score: 3}, {W1: "x", W2: "y", Score: 4}}}
	model := []float64{0.1, 0.3, 0.2, 99}
	covered := []bool{true, true, true, false}
	zero, err := Correlate(set, model, covered, Zero)
	require.NoError(t, err)
	want, _ := Spearman([]float64{1, 2, 3, 4}, []float64{0.1, 0.3, 0.2, 0})
	assert.InDelta(t, want, zero.Rho, 1e-15, "the uncovered pair scores 0, not its model value")
	assert.Equal(t, 3, zero.Covered)
	skip, err := Correlate(set, model, covered, Skip)
	require.NoError(t, err)
	want, _ = Spearman([]float64{1, 2, 3}, []float64{0.1, 0.3, 0.2})
	assert.InDelta(t, want, skip.Rho, 1e-15)
	_, err = Correlate(set, model[:2], covered, Zero)
	assert.ErrorContains(t, err, "2 model scores")
	_, err = Correlate(set, model, []bool{true, false, false, false}, Skip)
	assert.ErrorIs(t, err, ErrUndefined)
}
