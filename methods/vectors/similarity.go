package vectors

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// Similarity names how two word vectors are compared.
type Similarity string

const (
	Dot    Similarity = "dot"    // dot product, as the paper
	Cosine Similarity = "cosine" // cosine of the angle, as gensim
)

// Similarities lists the allowed names.
var Similarities = []Similarity{Dot, Cosine}

// ParseSimilarity checks a name from a spec or flag.
func ParseSimilarity(name string) (Similarity, error) {
	for _, s := range Similarities {
		if name == string(s) {
			return s, nil
		}
	}
	return "", fmt.Errorf("unknown similarity %q: want dot or cosine", name)
}

// Func returns the function computing s.
func (s Similarity) Func() (func(a, b []float64) float64, error) {
	switch s {
	case Dot:
		return DotSim, nil
	case Cosine:
		return CosineSim, nil
	}
	return nil, fmt.Errorf("unknown similarity %q: want dot or cosine", string(s))
}

// DotSim is the dot product a·b. a and b must have the same length.
func DotSim(a, b []float64) float64 { return floats.Dot(a, b) }

// CosineSim is a·b / (‖a‖‖b‖), and 0 when either vector is zero (a word
// with no mass has the zero vector; 0 ranks it as unrelated rather than
// making the correlation NaN).
func CosineSim(a, b []float64) float64 {
	aa, bb := floats.Dot(a, a), floats.Dot(b, b)
	if !(aa > minSq && aa < maxSq && bb > minSq && bb < maxSq) {
		// Squares under- or overflowed (or a vector is zero): the scaled
		// norm is slower but safe.
		na, nb := floats.Norm(a, 2), floats.Norm(b, 2)
		if na == 0 || nb == 0 {
			return 0
		}
		var c float64
		for i := range a {
			c += (a[i] / na) * (b[i] / nb)
		}
		return c
	}
	return floats.Dot(a, b) / math.Sqrt(aa*bb)
}

// Bounds on a squared norm within which math.Sqrt(aa*bb) cannot under- or
// overflow.
const (
	minSq = 1e-150
	maxSq = 1e150
)
