package vectors

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Exponents α of Σ in Coordinates.
const (
	Standard  = 0.0 // D(r)^-1/2 U: CA standard coordinates
	Symmetric = 0.5 // D(r)^-1/2 U Σ^½: half the inertia on each side
	Principal = 1.0 // D(r)^-1/2 U Σ: CA principal coordinates, the paper's word vectors
)

// Coordinates returns F = D(r)^-1/2 U Σ^α as a new matrix: row i of U
// divided by √r[i], column k multiplied by s[k]^α. A row with zero mass (a
// word that never occurs) gets the zero vector, not Inf or NaN. U is V×d,
// s holds d singular values (non-negative), r the V row masses
// (non-negative), α is finite; Σ^0 is the identity even where s[k] = 0.
func Coordinates(u *mat.Dense, s, r []float64, alpha float64) (*mat.Dense, error) {
	if err := checkCoordinates(u, s, r, alpha); err != nil {
		return nil, err
	}
	f := mat.DenseCopyOf(u)
	scaleCoordinates(f, s, r, alpha)
	return f, nil
}

// ScaleCoordinates is Coordinates done in place on u, for matrices too large
// to hold twice (V = 71,290 words × d = 8,000 is 4.6 GB).
func ScaleCoordinates(u *mat.Dense, s, r []float64, alpha float64) error {
	if err := checkCoordinates(u, s, r, alpha); err != nil {
		return err
	}
	scaleCoordinates(u, s, r, alpha)
	return nil
}

func checkCoordinates(u *mat.Dense, s, r []float64, alpha float64) error {
	if u == nil || u.IsEmpty() {
		return fmt.Errorf("coordinates: empty U")
	}
	n, d := u.Dims()
	if len(s) != d {
		return fmt.Errorf("coordinates: %d singular values for %d columns of U", len(s), d)
	}
	if len(r) != n {
		return fmt.Errorf("coordinates: %d row masses for %d rows of U", len(r), n)
	}
	for k, v := range s {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("coordinates: singular value %d is %g: want finite and ≥ 0", k+1, v)
		}
	}
	for i, v := range r {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("coordinates: row mass %d is %g: want finite and ≥ 0", i+1, v)
		}
	}
	if math.IsNaN(alpha) || math.IsInf(alpha, 0) {
		return fmt.Errorf("coordinates: exponent α = %g: want a finite number (0 standard, 0.5 symmetric, 1 principal)", alpha)
	}
	return nil
}

func scaleCoordinates(u *mat.Dense, s, r []float64, alpha float64) {
	n, d := u.Dims()
	sa := make([]float64, d)
	for k, v := range s {
		sa[k] = math.Pow(v, alpha) // Pow(0, 0) = 1
	}
	row := make([]float64, d)
	for i := 0; i < n; i++ {
		x := u.RawRowView(i)
		if r[i] == 0 {
			clear(x)
			continue
		}
		c := 1 / math.Sqrt(r[i])
		for k := range row {
			row[k] = c * sa[k]
		}
		floats.Mul(x, row)
	}
}

// NormalizeRows scales every row of m to unit Euclidean length, in place;
// zero rows stay zero. After it the dot product is the cosine.
func NormalizeRows(m *mat.Dense) {
	n, _ := m.Dims()
	for i := 0; i < n; i++ {
		x := m.RawRowView(i)
		if nrm := floats.Norm(x, 2); nrm > 0 {
			floats.Scale(1/nrm, x)
		}
	}
}
