package sca

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/sparse"
	"kcalab/methods/ca"
	"kcalab/methods/svd"
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

// BenchmarkPaperOperator compares one product of the paper-form operator
// (MEN-like tuning of a 20,000-word table, both sides) with the CA
// operator's, for a block of k = 50 vectors: the delayed terms should add
// little to the one product with N both share.
func BenchmarkPaperOperator(b *testing.B) {
	n := zipfTable(20000, 200)
	rng := rand.New(rand.NewPCG(2, 2))
	pairs := make([]Pair, 3000)
	for i := range pairs {
		pairs[i] = Pair{A: rng.IntN(2000), B: rng.IntN(2000), Score: rng.Float64() * 50}
	}
	ts, err := PaperTuning(20000, pairs, DefaultPaperOptions())
	if err != nil {
		b.Fatal(err)
	}
	paper, err := NewPaperOperator(n, ts, ts)
	if err != nil {
		b.Fatal(err)
	}
	caOp, err := ca.NewCAOperator(n)
	if err != nil {
		b.Fatal(err)
	}
	x := mat.NewDense(20000, 50, nil)
	for i := 0; i < 20000; i++ {
		for l := 0; l < 50; l++ {
			x.Set(i, l, rng.NormFloat64())
		}
	}
	for _, op := range []struct {
		name string
		op   svd.Operator
	}{{"ca", caOp}, {"paper", paper}} {
		b.Run(op.name, func(b *testing.B) {
			dst := mat.NewDense(20000, 50, nil)
			for b.Loop() {
				op.op.MulTo(dst, x)
				op.op.MulTTo(dst, x)
			}
		})
	}
}
