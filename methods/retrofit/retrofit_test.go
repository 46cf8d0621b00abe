package retrofit

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// reference is testdata/reference.json (testdata/make_reference.py).
type reference struct {
	Vectors [][]float64 `json:"vectors"`
	Edges   [][]float64 `json:"edges"`
	Cases   []struct {
		Name       string      `json:"name"`
		Alpha      float64     `json:"alpha"`
		Beta       float64     `json:"beta"`
		Iterations int         `json:"iterations"`
		Normalize  bool        `json:"normalize"`
		Score      bool        `json:"score"`
		Passes     [][]float64 `json:"passes"`
		FixedPoint [][]float64 `json:"fixed_point"`
	} `json:"cases"`
}

func dense(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

func maxAbsDiff(t *testing.T, got *mat.Dense, want [][]float64) float64 {
	t.Helper()
	r, c := got.Dims()
	require.Equal(t, len(want), r)
	worst := 0.0
	for i := range r {
		require.Len(t, want[i], c)
		for j := range c {
			worst = math.Max(worst, math.Abs(got.At(i, j)-want[i][j]))
		}
	}
	return worst
}

// The update equals an independent numpy computation of Faruqui et al.'s
// formula: the passes, and, after enough of them, the fixed point solved
// as a linear system.
func TestRetrofitMatchesNumpy(t *testing.T) {
	b, err := os.ReadFile("testdata/reference.json")
	require.NoError(t, err)
	var ref reference
	require.NoError(t, json.Unmarshal(b, &ref))
	require.NotEmpty(t, ref.Cases)
	q := dense(ref.Vectors)
	for _, c := range ref.Cases {
		t.Run(c.Name, func(t *testing.T) {
			var edges []Edge
			for _, e := range ref.Edges {
				w := e[2]
				if !c.Score && w > 0 {
					w = 1
				}
				edges = append(edges, Edge{I: int(e[0]), J: int(e[1]), W: w})
			}
			before := mat.DenseCopyOf(q)
			got, err := Retrofit(q, edges, Options{Alpha: c.Alpha, Beta: c.Beta, Iterations: c.Iterations, Normalize: c.Normalize})
			require.NoError(t, err)
			assert.True(t, mat.Equal(before, q), "the input is left as it is")
			assert.LessOrEqual(t, maxAbsDiff(t, got, c.Passes), 1e-12, "passes")
			if c.FixedPoint != nil {
				assert.LessOrEqual(t, maxAbsDiff(t, got, c.FixedPoint), 1e-12, "fixed point")
			}
		})
	}
}

// A word without neighbours keeps its vector (scaled with Normalize); with
// α = β = 1 a word with one neighbour that has no other ends halfway
// between the two.
func TestRetrofitSmall(t *testing.T) {
	q := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 3, 4})
	got, err := Retrofit(q, []Edge{{I: 0, J: 1, W: 1}}, Options{Alpha: 1, Beta: 1, Iterations: 1})
	require.NoError(t, err)
	// Row 0 first: (q̂0 + q1)/2 = (0.5, 0.5); then row 1 reads the new
	// row 0: (q̂1 + (0.5, 0.5))/2 = (0.25, 0.75).
	assert.Equal(t, []float64{0.5, 0.5}, got.RawRowView(0))
	assert.Equal(t, []float64{0.25, 0.75}, got.RawRowView(1))
	assert.Equal(t, []float64{3, 4}, got.RawRowView(2))

	norm, err := Retrofit(q, nil, Options{Alpha: 1, Beta: 1, Iterations: 10, Normalize: true})
	require.NoError(t, err)
	assert.InDelta(t, 0.6, norm.At(2, 0), 1e-7)
	assert.InDelta(t, 0.8, norm.At(2, 1), 1e-7)

	same, err := Retrofit(q, []Edge{{I: 0, J: 1, W: 1}}, Options{Alpha: 1, Beta: 0, Iterations: 5})
	require.NoError(t, err)
	assert.True(t, mat.Equal(q, same), "β = 0 moves nothing")
}

func TestRetrofitRefuses(t *testing.T) {
	q := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	for _, tc := range []struct {
		name  string
		edges []Edge
		opt   Options
		want  string
	}{
		{"alpha 0", nil, Options{Alpha: 0, Beta: 1}, "alpha"},
		{"alpha NaN", nil, Options{Alpha: math.NaN(), Beta: 1}, "alpha"},
		{"beta negative", nil, Options{Alpha: 1, Beta: -1}, "beta"},
		{"iterations", nil, Options{Alpha: 1, Beta: 1, Iterations: -1}, "iterations"},
		{"row", []Edge{{I: 0, J: 2, W: 1}}, Faruqui(), "outside"},
		{"weight", []Edge{{I: 0, J: 1, W: -1}}, Faruqui(), "weight"},
		{"weight NaN", []Edge{{I: 0, J: 1, W: math.NaN()}}, Faruqui(), "weight"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Retrofit(q, tc.edges, tc.opt)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	_, err := Retrofit(nil, nil, Faruqui())
	assert.Error(t, err)
}
