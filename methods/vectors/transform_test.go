package vectors

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func TestCoordinates(t *testing.T) {
	u := mat.NewDense(3, 2, []float64{
		0.6, 0.8,
		0.8, -0.6,
		1, 1,
	})
	s := []float64{4, 0}
	r := []float64{0.25, 0.04, 0}
	for _, tc := range []struct {
		name  string
		alpha float64
		want  []float64
	}{
		// row i / √r[i]: ×2, ×5, zero mass → 0; column k × s[k]^α.
		{"principal", Principal, []float64{4.8, 0, 16, 0, 0, 0}},
		{"symmetric", Symmetric, []float64{2.4, 0, 8, 0, 0, 0}},
		{"standard", Standard, []float64{1.2, 1.6, 4, -3, 0, 0}}, // Σ^0 = I, also where s = 0
		{"alpha 2", 2, []float64{19.2, 0, 64, 0, 0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Coordinates(u, s, r, tc.alpha)
			require.NoError(t, err)
			assert.InDeltaSlice(t, tc.want, f.RawMatrix().Data, 1e-12)
			assert.Equal(t, 0.6, u.At(0, 0), "U unchanged")

			g := mat.DenseCopyOf(u)
			require.NoError(t, ScaleCoordinates(g, s, r, tc.alpha))
			assert.True(t, mat.Equal(f, g), "in place gives the same bits")
		})
	}
}

// Coordinates works on a view whose stride is not its width.
func TestCoordinatesView(t *testing.T) {
	big := mat.NewDense(2, 3, []float64{1, 2, 99, 3, 4, 99})
	v := big.Slice(0, 2, 0, 2).(*mat.Dense)
	require.NoError(t, ScaleCoordinates(v, []float64{1, 2}, []float64{1, 4}, Principal))
	assert.Equal(t, []float64{1, 4, 99, 1.5, 4, 99}, big.RawMatrix().Data)
}

func TestCoordinatesErrors(t *testing.T) {
	u := mat.NewDense(2, 2, nil)
	ok := []float64{1, 1}
	for _, tc := range []struct {
		name  string
		u     *mat.Dense
		s, r  []float64
		alpha float64
		want  string
	}{
		{"nil", nil, ok, ok, 1, "empty U"},
		{"s length", u, []float64{1}, ok, 1, "1 singular values for 2 columns"},
		{"r length", u, ok, []float64{1, 1, 1}, 1, "3 row masses for 2 rows"},
		{"negative s", u, []float64{1, -1}, ok, 1, "singular value 2 is -1"},
		{"nan r", u, ok, []float64{math.NaN(), 1}, 1, "row mass 1 is NaN"},
		{"inf r", u, ok, []float64{1, math.Inf(1)}, 1, "row mass 2 is +Inf"},
		{"nan alpha", u, ok, ok, math.NaN(), "exponent α = NaN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Coordinates(tc.u, tc.s, tc.r, tc.alpha)
			assert.ErrorContains(t, err, tc.want)
			if tc.u != nil {
				assert.ErrorContains(t, ScaleCoordinates(tc.u, tc.s, tc.r, tc.alpha), tc.want)
			}
		})
	}
}

func TestNormalizeRows(t *testing.T) {
	m := mat.NewDense(3, 2, []float64{3, 4, 0, 0, -2, 0})
	NormalizeRows(m)
	assert.InDeltaSlice(t, []float64{0.6, 0.8, 0, 0, -1, 0}, m.RawMatrix().Data, 1e-15)
}

func TestSimilarity(t *testing.T) {
	a, b, z := []float64{1, 2, 2}, []float64{2, 0, 1}, []float64{0, 0, 0}
	for _, tc := range []struct {
		sim        Similarity
		ab, az, aa float64
	}{
		{Dot, 4, 0, 9},
		{Cosine, 4.0 / (3 * math.Sqrt(5)), 0, 1},
	} {
		f, err := tc.sim.Func()
		require.NoError(t, err)
		assert.InDelta(t, tc.ab, f(a, b), 1e-15, tc.sim)
		assert.Equal(t, tc.az, f(a, z), tc.sim)
		assert.InDelta(t, tc.aa, f(a, a), 1e-15, tc.sim)
		assert.Equal(t, f(a, b), f(b, a), "symmetric")
	}
	// Cosine is scale-free, also where squared norms would under- or overflow.
	for _, scale := range []float64{1e-200, 1e-80, 1, 1e80, 1e200} {
		x := []float64{scale * 1, scale * 2, scale * 2}
		y := []float64{scale * 2, 0, scale * 1}
		assert.InDelta(t, 4.0/(3*math.Sqrt(5)), CosineSim(x, y), 1e-15, "scale %g", scale)
		assert.InDelta(t, 4.0/(3*math.Sqrt(5)), CosineSim(x, b), 1e-15, "scale %g, one side", scale)
	}
	for _, name := range []string{"dot", "cosine"} {
		s, err := ParseSimilarity(name)
		require.NoError(t, err)
		assert.Equal(t, name, string(s))
	}
	_, err := ParseSimilarity("euclid")
	assert.ErrorContains(t, err, `unknown similarity "euclid": want dot or cosine`)
	_, err = Similarity("Dot").Func()
	assert.Error(t, err)
}

func ExampleCoordinates() {
	// A 2-word, 1-dimension CA: U column, singular value, row masses.
	u := mat.NewDense(2, 1, []float64{0.6, -0.8})
	f, err := Coordinates(u, []float64{0.5}, []float64{0.36, 0.64}, Principal)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.2f\n", mat.Formatted(f))
	// Output:
	// ⎡ 0.50⎤
	// ⎣-0.50⎦
}

// TestScaleWeighted: D(w)^β·U·Σ^α row by row; β = −1/2 makes the bits CA's
// coordinates always had (1/√w, not Pow), β = 0 leaves rows unweighted
// (hyperwords' U·Σ^α), a zero weight gives a zero row for every β.
func TestScaleWeighted(t *testing.T) {
	u := mat.NewDense(3, 2, []float64{
		0.6, 0.8,
		0.8, -0.6,
		1, 1,
	})
	s := []float64{4, 1}
	w := []float64{0.3, 0.07, 0}
	for _, tc := range []struct {
		name        string
		alpha, beta float64
		want        func(i, k int) float64
	}{
		{"ca standard rows", 1, CARows, func(i, k int) float64 { return u.At(i, k) * (1 / math.Sqrt(w[i])) * s[k] }},
		{"unweighted rows", 0.5, 0, func(i, k int) float64 { return u.At(i, k) * math.Sqrt(s[k]) }},
		{"rows divided by w", 1, -1, func(i, k int) float64 { return u.At(i, k) * math.Pow(w[i], -1) * s[k] }},
		{"rows times √w", 0, 0.5, func(i, k int) float64 { return u.At(i, k) * math.Pow(w[i], 0.5) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := mat.DenseCopyOf(u)
			require.NoError(t, ScaleWeighted(g, s, w, tc.alpha, tc.beta))
			for i := 0; i < 2; i++ {
				for k := 0; k < 2; k++ {
					assert.InDelta(t, tc.want(i, k), g.At(i, k), 1e-12, "(%d, %d)", i, k)
				}
			}
			assert.Equal(t, []float64{0, 0}, g.RawRowView(2), "zero weight: zero row")
		})
	}
	t.Run("beta -1/2 is ScaleCoordinates bit for bit", func(t *testing.T) {
		f, g := mat.DenseCopyOf(u), mat.DenseCopyOf(u)
		require.NoError(t, ScaleCoordinates(f, s, w, 0.5))
		require.NoError(t, ScaleWeighted(g, s, w, 0.5, CARows))
		assert.Equal(t, f.RawMatrix().Data, g.RawMatrix().Data)
		// And the old formula, written out: row / √w, column × s^α.
		for i := 0; i < 2; i++ {
			for k := 0; k < 2; k++ {
				assert.Equal(t, u.At(i, k)*((1/math.Sqrt(w[i]))*math.Pow(s[k], 0.5)), f.At(i, k))
			}
		}
	})
	for _, beta := range []float64{math.NaN(), math.Inf(-1)} {
		err := ScaleWeighted(mat.DenseCopyOf(u), s, w, 1, beta)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "row exponent")
	}
}
