package eval

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/datatest"
	"kcalab/datasets/wordsim"
	"kcalab/methods/vectors"
)

// randomSet is a V×d set of Gaussian vectors whose first words are given
// (so a real set's words are covered) and the rest are "w<i>".
func randomSet(b *testing.B, first []string, v, d int) *vectors.Set {
	rng := rand.New(rand.NewPCG(1, 1))
	words := make([]string, 0, v)
	seen := map[string]bool{}
	for _, w := range first {
		if !seen[w] && len(words) < v {
			seen[w] = true
			words = append(words, w)
		}
	}
	for i := 0; len(words) < v; i++ {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	data := make([]float64, v*d)
	for i := range data {
		data[i] = rng.NormFloat64()
	}
	s, err := vectors.New(words, mat.NewDense(v, d, data))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// syntheticMEN has MEN's shape: 3000 pairs over about 750 words, a few of
// them out of vocabulary.
func syntheticMEN() *wordsim.Set {
	rng := rand.New(rand.NewPCG(2, 2))
	set := &wordsim.Set{Name: "synthetic MEN"}
	word := func() string {
		if rng.IntN(100) == 0 {
			return fmt.Sprintf("oov%d", rng.IntN(50))
		}
		return fmt.Sprintf("w%d", rng.IntN(750))
	}
	for i := 0; i < 3000; i++ {
		set.Pairs = append(set.Pairs, wordsim.Pair{W1: word(), W2: word(), Score: float64(rng.IntN(51))})
	}
	return set
}

func benchEvaluate(b *testing.B, vs *vectors.Set, set *wordsim.Set) {
	for _, sim := range vectors.Similarities {
		for _, rule := range Rules {
			b.Run(string(sim)+"/"+string(rule), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Evaluate(vs, set, sim, rule); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkEvaluateMEN scores the real MEN set (3000 pairs) on a random
// 70,000 × 300 set holding its words.
func BenchmarkEvaluateMEN(b *testing.B) {
	men, err := wordsim.Load(datatest.Dir(b), "men")
	if err != nil {
		b.Fatal(err)
	}
	benchEvaluate(b, randomSet(b, men.Words(), 70000, 300), men)
}

// BenchmarkEvaluateSynthetic needs no data: MEN-shaped pairs on a random
// 70,000 × 300 set.
func BenchmarkEvaluateSynthetic(b *testing.B) {
	benchEvaluate(b, randomSet(b, nil, 70000, 300), syntheticMEN())
}

func BenchmarkSpearman3000(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 3))
	x, y := make([]float64, 3000), make([]float64, 3000)
	for i := range x {
		x[i] = float64(rng.IntN(51))
		y[i] = rng.NormFloat64()
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Spearman(x, y); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnalogy1000 answers 1000 random questions over a random
// 70,000 × 300 set (the Google set has 19,544 questions).
func BenchmarkAnalogy1000(b *testing.B) {
	vs := randomSet(b, nil, 70000, 300)
	rng := rand.New(rand.NewPCG(4, 4))
	qs := make([]wordsim.Question, 1000)
	for i := range qs {
		w := func() string { return vs.Words[rng.IntN(30000)] }
		qs[i] = wordsim.Question{A: w(), AStar: w(), B: w(), BStar: w()}
	}
	for b.Loop() {
		if _, _, err := Analogy(vs, qs, 0); err != nil {
			b.Fatal(err)
		}
	}
}
