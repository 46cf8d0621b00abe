package sca

import (
	"math/rand/v2"
	"testing"

	"kcalab/datasets/sparse"
)

// zipfTable is a v×v word table with about perRow entries per row, whose
// columns follow a Zipf law (as word contexts do).
func zipfTable(v, perRow int) *sparse.CSR {
	rng := rand.New(rand.NewPCG(1, 1))
	z := rand.NewZipf(rng, 1.1, 1, uint64(v-1))
	var ts []sparse.Triplet
	for i := 0; i < v; i++ {
		for range perRow {
			ts = append(ts, sparse.Triplet{I: int32(i), J: int32(z.Uint64()), V: 1})
		}
	}
	n, err := sparse.FromTriplets(v, v, ts)
	if err != nil {
		panic(err)
	}
	return n
}

// BenchmarkApply tunes a 20,000-word table with MEN's 3,000 pairs
// (text8's vocabulary is 71,290 words).
func BenchmarkApply(b *testing.B) {
	n := zipfTable(20000, 200)
	rng := rand.New(rand.NewPCG(2, 2))
	pairs := make([]Pair, 3000)
	for i := range pairs {
		// MEN's words are frequent ones: the first 2,000 ids.
		pairs[i] = Pair{A: rng.IntN(2000), B: rng.IntN(2000), Score: rng.Float64() * 50}
	}
	g, err := Gamma(20000, pairs, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var out *sparse.CSR
	for b.Loop() {
		if out, err = Apply(n, g); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n.NNZ()), "nnz-in")
	b.ReportMetric(float64(out.NNZ()), "nnz-out")
}
