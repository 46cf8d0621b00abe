package subword

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/sparse"
	"kcalab/datasets/synth"
	"kcalab/methods/ca"
	"kcalab/methods/svd"
	"kcalab/methods/vectors"
)

func TestNgrams(t *testing.T) {
	var got []string
	Ngrams("ab", 1, 3, func(g string) { got = append(got, g) })
	// "<" and ">" alone are not n-grams.
	assert.Equal(t, []string{"<a", "<ab", "a", "ab", "ab>", "b", "b>"}, got)
	got = nil
	Ngrams("né", 3, 3, func(g string) { got = append(got, g) })
	assert.Equal(t, []string{"<né", "né>"}, got, "characters, not bytes")
}

// caWords decomposes a planted table and names its rows, returning the
// words, the table and the principal coordinates (α = 1).
func caWords(t *testing.T, words []string) (*sparse.CSR, *ca.Decomposition, *mat.Dense) {
	o := synth.TableOptions{Groups: 3, RowsPerGroup: len(words) / 3, ColsPerGroup: 5, Total: 4000, Noise: 0.3, Seed: 3}
	tab, err := synth.Table(o)
	require.NoError(t, err)
	n := tab.N
	r, _ := n.Dims()
	require.Equal(t, len(words), r)
	dec, err := ca.Decompose(context.Background(), n, ca.KernelCA, svd.Dense{}, svd.DefaultOptions(2))
	require.NoError(t, err)
	f, err := vectors.Coordinates(dec.U, dec.S, dec.RowMass, 1)
	require.NoError(t, err)
	return n, dec, f
}

var testWords = []string{"walk", "walked", "walking", "talk", "talker", "stalk",
	"dog", "dogs", "doghouse", "hotdog", "bog", "fog",
	"sun", "sunny", "sunset", "run", "runny", "gun"}

// TestPointsAreSupplementaryProjections: an n-gram's point (mass weights)
// is the transition formula's image of its words' summed count rows, and
// an n-gram only one word has (the whole word "<walk>") is that word's
// own row projected as a supplementary point: its own coordinates, 1e-10.
func TestPointsAreSupplementaryProjections(t *testing.T) {
	n, dec, f := caWords(t, testWords)
	p, err := dec.RowProjector(n)
	require.NoError(t, err)
	v := Vocabulary{Words: testWords, Mass: dec.RowMass, F: f}
	o := Options{MinN: 3, MaxN: 6, Weighting: IDF}
	pts, known, err := Points(v, o, []string{"<walk>", "alk", "dog", "<s", "zzz"})
	require.NoError(t, err)
	assert.Equal(t, []bool{true, true, true, false, false}, known, "<s is 2 characters; zzz is nobody's")
	assert.InDeltaSlice(t, f.RawRowView(0), pts.RawRowView(0), 1e-10, "own row as a supplementary point")
	for q, words := range map[int][]int{1: {0, 1, 2, 3, 4, 5}, 2: {6, 7, 8, 9}} {
		var ts []sparse.Triplet
		for _, w := range words {
			cols, vals := n.Row(w)
			for c, j := range cols {
				ts = append(ts, sparse.Triplet{I: 0, J: j, V: vals[c]})
			}
		}
		_, c := n.Dims()
		sum, err := sparse.FromTriplets(1, c, ts)
		require.NoError(t, err)
		sup, err := p.Project(sum)
		require.NoError(t, err)
		assert.InDeltaSlice(t, sup.Principal.RawRowView(0), pts.RawRowView(q), 1e-10, "n-gram %d", q)
	}
}

// TestUnseenWordNearestItsWord: a word outside the vocabulary made of a
// known word's n-grams ("walkk" shares all but its last n-grams with
// "walk") lands nearest that word of all the vocabulary's words.
func TestUnseenWordNearestItsWord(t *testing.T) {
	words := []string{"walk", "dog", "sun", "house", "tree", "river"}
	f := mat.NewDense(6, 6, nil)
	for i := range 6 {
		f.Set(i, i, 1) // six orthogonal words: only letters can tie them
	}
	v := Vocabulary{Words: words, Mass: []float64{1, 2, 3, 1, 2, 3}, F: f}
	for _, wt := range Weightings {
		for _, pt := range []PointWeighting{MassPoint, EqualPoint} {
			o := Options{MinN: 3, MaxN: 6, Weighting: wt, Point: pt, Length: true}
			got, ok, err := Compose(v, o, []string{"walkk", "sunny", "qqq"})
			require.NoError(t, err)
			assert.Equal(t, []bool{true, true, false}, ok)
			for q, want := range []int{0, 2} {
				best, bestSim := -1, math.Inf(-1)
				for i := range words {
					if s := floats.Dot(got.RawRowView(q), f.RawRowView(i)); s > bestSim {
						best, bestSim = i, s
					}
				}
				assert.Equal(t, want, best, "%s %s", wt, pt)
			}
		}
	}
}

// TestExtend: off (no blend, no extra word) keeps the rows bit for bit;
// unseen words follow the vocabulary once each; zero-mass words are never
// blended; two runs give identical vectors.
func TestExtend(t *testing.T) {
	_, dec, f := caWords(t, testWords)
	mass := append([]float64(nil), dec.RowMass...)
	mass[5] = 0 // as <unk>
	v := Vocabulary{Words: testWords, Mass: mass, F: f}
	o := Options{MinN: 3, MaxN: 6, Weighting: IDF, Point: EqualPoint, Length: true}
	w, g, err := Extend(v, o, nil)
	require.NoError(t, err)
	assert.Equal(t, testWords, w)
	assert.True(t, mat.Equal(f, g), "blend 0, no extra word: identical")

	extra := []string{"walk", "walkers", "sunning", "walkers", "qqq"}
	w, g, err = Extend(v, o, extra)
	require.NoError(t, err)
	assert.Equal(t, append(append([]string(nil), testWords...), "walkers", "sunning"), w)
	assert.True(t, mat.Equal(f, g.Slice(0, len(testWords), 0, 2)), "vocabulary rows kept")

	o.Blend = 0.5
	w1, g1, err := Extend(v, o, extra)
	require.NoError(t, err)
	w2, g2, err := Extend(v, o, extra)
	require.NoError(t, err)
	assert.Equal(t, w1, w2)
	assert.True(t, mat.Equal(g1, g2), "deterministic")
	assert.Equal(t, f.RawRowView(5), g1.RawRowView(5), "zero mass: own row")
	assert.NotEqual(t, f.RawRowView(0), g1.RawRowView(0), "blended")
	assert.Equal(t, g.RawRowView(len(testWords)), g1.RawRowView(len(testWords)), "unseen rows do not depend on the blend")

	_, _, err = Extend(v, Options{MinN: 4, MaxN: 3}, extra)
	assert.Error(t, err)
}

// TestBlendCount: a word seen K times takes half the blend, a very frequent
// one almost none, and counts are required.
func TestBlendCount(t *testing.T) {
	_, dec, f := caWords(t, testWords)
	counts := make([]float64, len(testWords))
	for i := range counts {
		counts[i] = 10
	}
	counts[1] = 1e9
	v := Vocabulary{Words: testWords, Mass: dec.RowMass, F: f}
	o := Options{MinN: 3, MaxN: 6, Weighting: IDF, Point: EqualPoint, Length: true, Blend: 0.8}
	_, full, err := Extend(v, o, nil)
	require.NoError(t, err)

	o.BlendCount = 10
	_, _, err = Extend(v, o, nil)
	assert.ErrorContains(t, err, "needs the words' counts")
	v.Counts = counts
	_, g, err := Extend(v, o, nil)
	require.NoError(t, err)
	// Row 0, seen K times: share 0.4 = half of 0.8. full = 0.2·own + 0.8·comp.
	own, blended := f.RawRowView(0), full.RawRowView(0)
	for l := range own {
		comp := (blended[l] - 0.2*own[l]) / 0.8
		assert.InDelta(t, 0.6*own[l]+0.4*comp, g.At(0, l), 1e-12)
	}
	assert.InDeltaSlice(t, f.RawRowView(1), g.RawRowView(1), 1e-8, "seen 1e9 times: its own row")

	o.BlendCount = math.Inf(1)
	_, _, err = Extend(v, o, nil)
	assert.ErrorContains(t, err, "blend count")
}

// TestShrink: the composed length is L^(1−s)·m^s, L the words' mean length
// and m the plain mean's; the direction never changes; shrink needs Length.
func TestShrink(t *testing.T) {
	_, dec, f := caWords(t, testWords)
	v := Vocabulary{Words: testWords, Mass: dec.RowMass, F: f}
	targets := []string{"walkers", "sunning"}
	o := Options{MinN: 1, MaxN: 6, Weighting: Uniform, Point: EqualPoint}
	mean, _, err := Compose(v, o, targets)
	require.NoError(t, err)
	o.Length = true
	full, _, err := Compose(v, o, targets)
	require.NoError(t, err)
	for _, s := range []float64{0, 0.2, 0.5, 1} {
		o.Shrink = s
		got, _, err := Compose(v, o, targets)
		require.NoError(t, err)
		for i := range targets {
			m, l := floats.Norm(mean.RawRowView(i), 2), floats.Norm(full.RawRowView(i), 2)
			require.Less(t, m, l, "a mean of different directions is shorter")
			g := got.RawRowView(i)
			n := floats.Norm(g, 2)
			assert.InDelta(t, math.Pow(l, 1-s)*math.Pow(m, s), n, 1e-12*l, "shrink %g", s)
			assert.InDelta(t, 1, floats.Dot(g, mean.RawRowView(i))/(n*m), 1e-12, "same direction")
		}
	}
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{MinN: 1, MaxN: 6, Shrink: 0.2}, "needs the words' length"},
		{Options{MinN: 1, MaxN: 6, Length: true, Shrink: 1.5}, "shrink 1.5"},
		{Options{MinN: 1, MaxN: 6, Length: true, Shrink: math.NaN()}, "shrink NaN"},
	} {
		_, _, err := Compose(v, tc.o, targets)
		assert.ErrorContains(t, err, tc.want)
	}
}
