package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRanks(t *testing.T) {
	for _, tc := range []struct{ x, want []float64 }{
		{nil, []float64{}},
		{[]float64{5}, []float64{1}},
		{[]float64{30, 10, 20}, []float64{3, 1, 2}},
		{[]float64{10, 20, 20, 30}, []float64{1, 2.5, 2.5, 4}},
		{[]float64{7, 7, 7}, []float64{2, 2, 2}},
		{[]float64{2, 1, 2, 1, 2}, []float64{4, 1.5, 4, 1.5, 4}},
		{[]float64{0, math.Copysign(0, -1), -1}, []float64{2.5, 2.5, 1}}, // -0 == 0
	} {
		assert.Equal(t, tc.want, Ranks(tc.x), "%v", tc.x)
	}
}

func TestSpearmanHand(t *testing.T) {
	for _, tc := range []struct {
		name string
		x, y []float64
		want float64
	}{
		// no ties: 1 − 6Σd²/(n(n²−1)), d = 0,0,2,−1,−1 → 1 − 36/120
		{"no ties", []float64{1, 2, 3, 4, 5}, []float64{1, 2, 5, 3, 4}, 0.7},
		// y ranks 1, 2, 3.5, 5, 3.5: Σdxdy = 8, Σdx² = 10, Σdy² = 9.5 →
		// 8/√95 (scipy's spearmanr docs give 0.8207826816681233)
		{"tie in y", []float64{1, 2, 3, 4, 5}, []float64{5, 6, 7, 8, 7}, 8 / math.Sqrt(95)},
		// x ranks 1.5, 1.5, 3, 4; y ranks 2, 1, 4, 3: dx = −1, −1, .5, 1.5,
		// dy = −.5, −1.5, 1.5, .5: Σdxdy = 3.5, Σdx² = 4.5, Σdy² = 5
		{"ties in x", []float64{1, 1, 2, 3}, []float64{20, 10, 40, 30}, 3.5 / math.Sqrt(22.5)},
		{"reversed", []float64{1, 2, 3}, []float64{9, 4, 1}, -1},
		{"monotone transform", []float64{0.1, 5, 2, 9}, []float64{math.Exp(0.1), math.Exp(5), math.Exp(2), math.Exp(9)}, 1},
		{"two points", []float64{1, 2}, []float64{3, 1}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rho, err := Spearman(tc.x, tc.y)
			require.NoError(t, err)
			assert.InDelta(t, tc.want, rho, 1e-15)
		})
	}
	rho, err := Spearman([]float64{1, 2, 3, 4, 5}, []float64{5, 6, 7, 8, 7})
	require.NoError(t, err)
	assert.InDelta(t, 0.8207826816681233, rho, 1e-15)
}

func TestSpearmanErrors(t *testing.T) {
	for _, tc := range []struct {
		name      string
		x, y      []float64
		want      string
		undefined bool
	}{
		{"constant x", []float64{3, 3, 3}, []float64{1, 2, 3}, "first variable is constant", true},
		{"constant y", []float64{1, 2, 3}, []float64{0, 0, 0}, "second variable is constant", true},
		{"one point", []float64{1}, []float64{2}, "1 point(s), want at least 2", true},
		{"empty", nil, nil, "0 point(s)", true},
		{"lengths", []float64{1, 2}, []float64{1}, "lengths differ: 2 and 1", false},
		{"nan", []float64{1, math.NaN()}, []float64{1, 2}, "point 2 (NaN, 2) is not finite", false},
		{"inf", []float64{1, 2}, []float64{math.Inf(-1), 2}, "point 1 (1, -Inf) is not finite", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Spearman(tc.x, tc.y)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Equal(t, tc.undefined, errorsIsUndefined(err))
		})
	}
}

// bruteRanks is the definition: 1 + #smaller + (#equal − 1)/2.
func bruteRanks(x []float64) []float64 {
	r := make([]float64, len(x))
	for i := range x {
		less, eq := 0, 0
		for j := range x {
			if x[j] < x[i] {
				less++
			} else if x[j] == x[i] {
				eq++
			}
		}
		r[i] = 1 + float64(less) + float64(eq-1)/2
	}
	return r
}

// bruteCorr is the textbook Pearson formula, in one pass.
func bruteCorr(x, y []float64) float64 {
	n := float64(len(x))
	var sx, sy, sxy, sxx, syy float64
	for i := range x {
		sx += x[i]
		sy += y[i]
		sxy += x[i] * y[i]
		sxx += x[i] * x[i]
		syy += y[i] * y[i]
	}
	return (n*sxy - sx*sy) / math.Sqrt((n*sxx-sx*sx)*(n*syy-sy*sy))
}

func TestSpearmanBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 300; trial++ {
		n := 2 + rng.IntN(60)
		levels := 1 + rng.IntN(12) // few levels: many ties
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i] = float64(rng.IntN(levels))
			y[i] = float64(rng.IntN(levels)) + 0.5*x[i]
		}
		rx, ry := bruteRanks(x), bruteRanks(y)
		require.Equal(t, rx, Ranks(x))
		rho, err := Spearman(x, y)
		if isConstant(x) || isConstant(y) {
			require.True(t, errorsIsUndefined(err), "trial %d: %v", trial, err)
			continue
		}
		require.NoError(t, err)
		require.InDelta(t, bruteCorr(rx, ry), rho, 1e-12, "trial %d", trial)
	}
}

func isConstant(x []float64) bool {
	for _, v := range x {
		if v != x[0] {
			return false
		}
	}
	return true
}

func TestPearson(t *testing.T) {
	r, err := Pearson([]float64{1, 2, 3, 4}, []float64{2, 4, 5, 9})
	require.NoError(t, err)
	// dx = −1.5 −.5 .5 1.5, dy = −3 −1 0 4: Σdxdy = 11, Σdx² = 5, Σdy² = 26
	assert.InDelta(t, 11/math.Sqrt(130), r, 1e-15)
	// Centring first keeps precision on a large offset.
	r, err = Pearson([]float64{1e9 + 1, 1e9 + 2, 1e9 + 3}, []float64{1, 2, 3})
	require.NoError(t, err)
	assert.Equal(t, 1.0, r)
}

func ExampleSpearman() {
	rho, err := Spearman([]float64{1, 2, 3, 4, 5}, []float64{5, 6, 7, 8, 7})
	fmt.Printf("%.6f %v\n", rho, err)
	_, err = Spearman([]float64{1, 2, 3}, []float64{0, 0, 0})
	fmt.Println(err)
	// Output:
	// 0.820783 <nil>
	// spearman: pearson: second variable is constant: correlation undefined
}
