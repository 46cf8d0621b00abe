package sca

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/sparse"
)

func TestGammaNormalisation(t *testing.T) {
	tests := []struct {
		name   string
		v      int
		pairs  []Pair
		weight float64
		want   [][]float64
	}{
		{
			// Scores 2, 4, 10: s = 0, 0.25, 1; λ = 2 gives γ = 0, 0.5, 2.
			"min max", 4, []Pair{{0, 1, 2}, {1, 2, 4}, {3, 0, 10}}, 2,
			[][]float64{
				{1, 0, 0, 2},
				{0, 1, 0.5, 0},
				{0, 0.5, 1, 0},
				{2, 0, 0, 1},
			},
		},
		{
			// (0,1) twice, once reversed: s = 1 and 0.5, mean 0.75. The
			// self-pair's score 100 neither counts for max nor tunes.
			"duplicates and self pair", 3, []Pair{{0, 1, 5}, {2, 2, 100}, {1, 0, 3}, {1, 2, 1}}, 1,
			[][]float64{
				{1, 0.75, 0},
				{0.75, 1, 0},
				{0, 0, 1},
			},
		},
		{"all equal", 3, []Pair{{0, 2, 7}, {1, 2, 7}}, 0.5, [][]float64{
			{1, 0, 0.5},
			{0, 1, 0.5},
			{0.5, 0.5, 1},
		}},
		{"weight zero", 2, []Pair{{0, 1, 7}}, 0, [][]float64{{1, 0}, {0, 1}}},
		{"no pairs", 2, nil, 1, [][]float64{{1, 0}, {0, 1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Gamma(tc.v, tc.pairs, tc.weight)
			require.NoError(t, err)
			assert.Equal(t, tc.want, dense(g))
		})
	}
}

func TestGammaErrors(t *testing.T) {
	tests := []struct {
		name   string
		v      int
		pairs  []Pair
		weight float64
		want   string
	}{
		{"no words", 0, nil, 1, "vocabulary size 0"},
		{"index", 3, []Pair{{0, 1, 1}, {0, 3, 1}}, 1, "pair 2 (0, 3): word index outside the vocabulary 0..2"},
		{"negative index", 3, []Pair{{-1, 1, 1}}, 1, "pair 1 (-1, 1)"},
		{"NaN score", 3, []Pair{{0, 1, math.NaN()}}, 1, "score NaN is not finite"},
		{"negative weight", 3, nil, -1, "weight -1: want a finite number ≥ 0"},
		{"NaN weight", 3, nil, math.NaN(), "weight NaN"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Gamma(tc.v, tc.pairs, tc.weight)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func dense(m *sparse.CSR) [][]float64 {
	r, c := m.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = make([]float64, c)
		for j := range out[i] {
			out[i][j] = m.At(i, j)
		}
	}
	return out
}

// randomSparse is an r×c matrix with about density·r·c non-zero entries.
func randomSparse(rng *rand.Rand, r, c int, density float64) *sparse.CSR {
	vals := make([]float64, r*c)
	for i := range vals {
		if rng.Float64() < density {
			vals[i] = float64(1 + rng.IntN(9))
		}
	}
	return sparse.FromDense(r, c, vals)
}

// TestApplyMatchesDense: Γ·N·Γᵀ computed sparsely equals the dense
// product, for an asymmetric table and Γ from Gamma or any (asymmetric) Γ.
func TestApplyMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := randomSparse(rng, 7, 7, 0.4)
	fromPairs, err := Gamma(7, []Pair{{0, 3, 5}, {1, 6, 2}, {3, 5, 9}, {2, 4, 1}, {6, 0, 7}}, 1.5)
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		gamma *sparse.CSR
	}{
		{"gamma", fromPairs},
		{"identity", mustGamma(t, 7, nil)},
		{"asymmetric", randomSparse(rng, 7, 7, 0.3)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Apply(n, tc.gamma)
			require.NoError(t, err)
			var want mat.Dense
			g := tc.gamma.ToDense()
			want.Product(g, n.ToDense(), g.T())
			assert.True(t, mat.EqualApprox(&want, got.ToDense(), 1e-12), "got\n%v\nwant\n%v",
				mat.Formatted(got.ToDense()), mat.Formatted(&want))
			_, _, data := got.Raw()
			for _, x := range data {
				require.NotZero(t, x, "no explicit zeros")
			}
		})
	}
}

func mustGamma(t *testing.T, v int, pairs []Pair) *sparse.CSR {
	g, err := Gamma(v, pairs, 1)
	require.NoError(t, err)
	return g
}

func TestApplyErrors(t *testing.T) {
	n := sparse.FromDense(2, 3, []float64{1, 0, 2, 0, 1, 1})
	_, err := Apply(n, mustGamma(t, 2, nil))
	require.ErrorContains(t, err, "the table is 2×3: rows and columns must be the same vocabulary")
	sq := sparse.FromDense(2, 2, []float64{1, 0, 2, 1})
	_, err = Apply(sq, mustGamma(t, 3, nil))
	require.ErrorContains(t, err, "Γ is 3×3, want 2×2")
	_, err = Apply(nil, sq)
	require.ErrorContains(t, err, "nil table")
}

func TestFolds(t *testing.T) {
	for _, tc := range []struct{ n, k int }{{10, 2}, {10, 3}, {7, 7}, {3000, 5}, {203, 10}} {
		for _, seed := range []uint64{0, 1, 42} {
			t.Run(fmt.Sprintf("n%d/k%d/seed%d", tc.n, tc.k, seed), func(t *testing.T) {
				folds, err := Folds(tc.n, tc.k, seed)
				require.NoError(t, err)
				require.Len(t, folds, tc.k)
				seen := make([]int, tc.n)
				lo, hi := tc.n, 0
				for _, f := range folds {
					lo, hi = min(lo, len(f)), max(hi, len(f))
					for p, i := range f {
						require.True(t, i >= 0 && i < tc.n)
						seen[i]++
						if p > 0 {
							require.Less(t, f[p-1], i, "sorted")
						}
					}
				}
				for i, c := range seen {
					require.Equal(t, 1, c, "index %d in exactly one fold", i)
				}
				assert.LessOrEqual(t, hi-lo, 1, "fold sizes differ by at most one")
				again, err := Folds(tc.n, tc.k, seed)
				require.NoError(t, err)
				assert.Equal(t, folds, again, "deterministic")
			})
		}
	}
	a, err := Folds(100, 5, 1)
	require.NoError(t, err)
	b, err := Folds(100, 5, 2)
	require.NoError(t, err)
	assert.NotEqual(t, a, b, "the seed matters")

	for _, tc := range []struct {
		n, k int
		want string
	}{{10, 1, "1 folds: want at least 2"}, {3, 5, "3 pairs cannot fill 5 folds"}, {0, 2, "0 pairs"}} {
		_, err := Folds(tc.n, tc.k, 1)
		require.ErrorContains(t, err, tc.want)
	}
}

func TestFoldOf(t *testing.T) {
	const k = 5
	counts := make([]int, k)
	for i := 0; i < 1000; i++ {
		a, b := fmt.Sprintf("w%d", i), fmt.Sprintf("v%d", i*7)
		f := FoldOf(a, b, k, 9)
		require.True(t, f >= 0 && f < k)
		require.Equal(t, f, FoldOf(b, a, k, 9), "unordered")
		require.Equal(t, f, FoldOf(a, b, k, 9), "deterministic")
		counts[f]++
	}
	for f, c := range counts {
		assert.InDelta(t, 200, c, 60, "fold %d roughly uniform: %v", f, counts)
	}
	differ := 0
	for i := 0; i < 100; i++ {
		if FoldOf(fmt.Sprint(i), "x", k, 1) != FoldOf(fmt.Sprint(i), "x", k, 2) {
			differ++
		}
	}
	assert.Greater(t, differ, 50, "the seed matters")
	assert.NotEqual(t, FoldOf("ab", "c", 1000, 1), FoldOf("a", "bc", 1000, 1), "fields are delimited")
	assert.Equal(t, 0, FoldOf("a", "b", 1, 1))
	assert.Equal(t, 0, FoldOf("a", "b", 0, 1))
}

// TestTrainPairsHoldOut: in k-fold use no pair of a fold's test set is
// among the pairs that build the fold's Γ, not even as a repeat in another
// fold (in either order); every other pair is used.
func TestTrainPairsHoldOut(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const v = 30
	var pairs []Pair
	for len(pairs) < 120 {
		a, b := rng.IntN(v), rng.IntN(v)
		if a != b {
			pairs = append(pairs, Pair{a, b, float64(rng.IntN(10))})
		}
	}
	// Repeats, one reversed, land in other folds by chance.
	pairs = append(pairs, pairs[3], Pair{pairs[10].B, pairs[10].A, 2}, pairs[50])
	folds, err := Folds(len(pairs), 5, 11)
	require.NoError(t, err)
	foldOf := map[int]int{}
	for f, idx := range folds {
		for _, i := range idx {
			foldOf[i] = f
		}
	}
	crossing := 0
	for _, d := range [][2]int{{3, 120}, {10, 121}, {50, 122}} {
		if foldOf[d[0]] != foldOf[d[1]] {
			crossing++
		}
	}
	require.Positive(t, crossing, "some repeat must sit in another fold for the test to bite")
	for f := range folds {
		train := TrainPairs(pairs, folds, f)
		held := map[[2]int]bool{}
		for _, i := range folds[f] {
			held[unordered(pairs[i])] = true
		}
		trainSet := map[[2]int]bool{}
		for _, p := range train {
			require.False(t, held[unordered(p)], "fold %d: test pair %v used for training", f, p)
			trainSet[unordered(p)] = true
		}
		for _, p := range pairs {
			assert.True(t, held[unordered(p)] || trainSet[unordered(p)], "fold %d: pair %v neither held out nor used", f, p)
		}
		// So Γ has no entry for any test pair.
		g, err := Gamma(v, train, 1)
		require.NoError(t, err)
		for _, i := range folds[f] {
			p := pairs[i]
			assert.Zero(t, g.At(p.A, p.B), "fold %d: Γ links test pair %v", f, p)
			assert.Zero(t, g.At(p.B, p.A))
		}
	}
}

func ExampleGamma() {
	// Three judged pairs over a vocabulary of 3 words; scores 1, 4 and 7
	// become s = 0, 0.5 and 1.
	g, err := Gamma(3, []Pair{{A: 0, B: 1, Score: 7}, {A: 1, B: 2, Score: 4}, {A: 0, B: 2, Score: 1}}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(mat.Formatted(g.ToDense()))
	// Output:
	// ⎡  1    1    0⎤
	// ⎢  1    1  0.5⎥
	// ⎣  0  0.5    1⎦
}

// Blend keeps every row mass, is the identity at alpha = 0 and for words
// without pairs, moves a word toward a partner judged more similar than
// average and away from one judged less similar.
func TestBlend(t *testing.T) {
	tab := sparse.FromDense(4, 4, []float64{
		0, 6, 0, 0, // word 0: context 1
		2, 0, 0, 2, // word 1: contexts 0 and 3
		0, 0, 0, 9, // word 2: context 3
		1, 1, 1, 0, // word 3: no pairs
	})
	// s: pair (0, 2) = 1, pair (0, 1) = 0; mean 0.5, so 2 attracts 0 and 1 repels it.
	pairs := []Pair{{A: 0, B: 2, Score: 7}, {A: 0, B: 1, Score: 1}}

	same, err := Blend(tab, pairs, 0)
	require.NoError(t, err)
	assert.Equal(t, tab, same)

	out, err := Blend(tab, pairs, 0.5)
	require.NoError(t, err)
	assert.InDeltaSlice(t, tab.RowSums(), out.RowSums(), 1e-12, "row masses")
	cols, vals := out.Row(3)
	assert.Equal(t, []int32{0, 1, 2}, cols, "a word without pairs keeps its row")
	assert.Equal(t, []float64{1, 1, 1}, vals)
	// Word 0: p = (0,1,0,0); attract (0,0,0,1) with weight ½, repel
	// (½,0,0,½) with weight −½, Σ|w| = 1, alpha ½:
	// p' = p + ½(½(p2 − p) − ½(p1 − p)) = (−⅛, 1, 0, ⅛) → clip, rescale to 6.
	assert.InDeltaSlice(t, []float64{0, 6 * 8 / 9.0, 0, 6 / 9.0}, rowOf(out, 0), 1e-12)

	_, err = Blend(tab, pairs, 1.5)
	assert.ErrorContains(t, err, "0 ≤ alpha ≤ 1")
	_, err = Blend(sparse.FromDense(2, 3, make([]float64, 6)), nil, 0.5)
	assert.ErrorContains(t, err, "same vocabulary")
}

func rowOf(m *sparse.CSR, i int) []float64 {
	_, c := m.Dims()
	out := make([]float64, c)
	cols, vals := m.Row(i)
	for k, j := range cols {
		out[j] = vals[k]
	}
	return out
}
