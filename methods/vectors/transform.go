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
	scaleCoordinates(f, s, r, alpha, CARows)
	return f, nil
}

// ScaleCoordinates is Coordinates done in place on u, for matrices too large
// to hold twice (V = 71,290 words × d = 8,000 is 4.6 GB).
func ScaleCoordinates(u *mat.Dense, s, r []float64, alpha float64) error {
	return ScaleWeighted(u, s, r, alpha, CARows)
}

// CARows is the exponent β of the row weights in ScaleWeighted that makes
// CA's coordinates, D(r)^-1/2.
const CARows = -0.5

// ScaleWeighted sets u to D(w)^β·U·Σ^α in place: row i of U multiplied by
// w[i]^β, column k by s[k]^α. β = CARows (−1/2) is ScaleCoordinates, bit for
// bit; β = 0 leaves the rows unweighted, U·Σ^α, as hyperwords makes SVD
// vectors (its eig is α). A row of zero weight gets the zero vector for
// every β (its row of U is zero: the word never occurs). β must be finite.
func ScaleWeighted(u *mat.Dense, s, w []float64, alpha, beta float64) error {
	if err := checkCoordinates(u, s, w, alpha); err != nil {
		return err
	}
	if math.IsNaN(beta) || math.IsInf(beta, 0) {
		return fmt.Errorf("coordinates: row exponent β = %g: want a finite number (−1/2 CA, 0 none)", beta)
	}
	scaleCoordinates(u, s, w, alpha, beta)
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

func scaleCoordinates(u *mat.Dense, s, r []float64, alpha, beta float64) {
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
		c := rowWeight(r[i], beta)
		for k := range row {
			row[k] = c * sa[k]
		}
		floats.Mul(x, row)
	}
}

// rowWeight is w^β, with CA's w^-1/2 as 1/√w (the bits ScaleCoordinates
// has always made) and w^0 as exactly 1.
func rowWeight(w, beta float64) float64 {
	switch beta {
	case CARows:
		return 1 / math.Sqrt(w)
	case 0:
		return 1
	}
	return math.Pow(w, beta)
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
