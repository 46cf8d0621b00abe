package retrofit

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Edge is a pair of the lexicon graph: rows I and J of the vectors, with
// weight W (a judged similarity, or 1). Edges are undirected; an edge
// given twice counts twice, an edge of a row with itself or of weight 0
// counts not at all.
type Edge struct {
	I, J int
	W    float64
}

// Options are retrofitting's knobs (see the package documentation).
type Options struct {
	// Alpha (α > 0) weighs a word's own vector, Beta (β ≥ 0) its
	// neighbours' weighted mean; α = β = 1 is the paper's.
	Alpha, Beta float64
	// Iterations is the number of passes (10 in the paper; 0 changes
	// nothing but Normalize).
	Iterations int
	// Normalize scales every vector to unit length first, as the
	// reference tool does: q̂ / √(‖q̂‖² + 10⁻⁶).
	Normalize bool
}

// Faruqui are the paper's options: α = β = 1, 10 passes, unit-length
// input vectors.
func Faruqui() Options { return Options{Alpha: 1, Beta: 1, Iterations: 10, Normalize: true} }

func (o Options) validate() error {
	switch {
	case math.IsNaN(o.Alpha) || math.IsInf(o.Alpha, 0) || o.Alpha <= 0:
		return fmt.Errorf("retrofit: alpha = %v: want a finite number > 0 (the weight of a word's own vector)", o.Alpha)
	case math.IsNaN(o.Beta) || math.IsInf(o.Beta, 0) || o.Beta < 0:
		return fmt.Errorf("retrofit: beta = %v: want a finite number ≥ 0 (the weight of its neighbours)", o.Beta)
	case o.Iterations < 0:
		return fmt.Errorf("retrofit: %d iterations: want ≥ 0", o.Iterations)
	}
	return nil
}

// neighbour is one row's neighbour and its share β_ij of β.
type neighbour struct {
	j    int
	beta float64
}

// Retrofit returns the retrofitted vectors of q (rows are words), which it
// leaves as they are. The result is the same bits whatever GOMAXPROCS is.
func Retrofit(q *mat.Dense, edges []Edge, opt Options) (*mat.Dense, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if q == nil || q.IsEmpty() {
		return nil, fmt.Errorf("retrofit: no vectors")
	}
	rows, dim := q.Dims()
	adj, err := neighbours(rows, edges, opt.Beta)
	if err != nil {
		return nil, err
	}
	hat := mat.DenseCopyOf(q)
	if opt.Normalize {
		for i := 0; i < rows; i++ {
			Normalize(hat.RawRowView(i))
		}
	}
	out := mat.DenseCopyOf(hat)
	next := make([]float64, dim)
	for range opt.Iterations {
		for i, ns := range adj {
			if len(ns) == 0 {
				continue
			}
			own := hat.RawRowView(i)
			for l := range next {
				next[l] = opt.Alpha * own[l]
			}
			for _, n := range ns {
				qj := out.RawRowView(n.j)
				for l := range next {
					next[l] += n.beta * qj[l]
				}
			}
			dst := out.RawRowView(i)
			den := opt.Alpha + opt.Beta
			for l := range dst {
				dst[l] = next[l] / den
			}
		}
	}
	return out, nil
}

// neighbours lists each row's neighbours in the order the edges give them,
// with β_ij = β·w_ij/Σ_k w_ik.
func neighbours(rows int, edges []Edge, beta float64) ([][]neighbour, error) {
	adj := make([][]neighbour, rows)
	sum := make([]float64, rows)
	for k, e := range edges {
		if e.I < 0 || e.I >= rows || e.J < 0 || e.J >= rows {
			return nil, fmt.Errorf("retrofit: edge %d (%d, %d): row outside 0..%d", k+1, e.I, e.J, rows-1)
		}
		if math.IsNaN(e.W) || math.IsInf(e.W, 0) || e.W < 0 {
			return nil, fmt.Errorf("retrofit: edge %d (%d, %d): weight %v: want a finite number ≥ 0", k+1, e.I, e.J, e.W)
		}
		if e.I == e.J || e.W == 0 {
			continue
		}
		adj[e.I] = append(adj[e.I], neighbour{e.J, e.W})
		adj[e.J] = append(adj[e.J], neighbour{e.I, e.W})
		sum[e.I] += e.W
		sum[e.J] += e.W
	}
	for i, ns := range adj {
		for k := range ns {
			ns[k].beta = beta * ns[k].beta / sum[i]
		}
		adj[i] = ns
	}
	return adj, nil
}

// Normalize scales v in place as the reference tool scales its input
// vectors: v / √(‖v‖² + 10⁻⁶).
func Normalize(v []float64) {
	var ss float64
	for _, x := range v {
		ss += x * x
	}
	n := math.Sqrt(ss + 1e-6)
	for l := range v {
		v[l] /= n
	}
}
