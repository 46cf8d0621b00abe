package sca

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/corpus"
	"kcalab/datasets/sparse"
	"kcalab/datasets/synth"
	"kcalab/methods/ca"
	"kcalab/methods/svd"
)

// gammaDense is the full tuning-ratio table 11ᵀ + Δ of size×size.
func gammaDense(size int, ts []Tuning) *mat.Dense {
	g := mat.NewDense(size, size, nil)
	for i := 0; i < size; i++ {
		for j := 0; j < size; j++ {
			g.Set(i, j, 1)
		}
	}
	for _, e := range ts {
		g.Set(e.A, e.B, e.Gamma)
		g.Set(e.B, e.A, e.Gamma)
	}
	return g
}

// paperDense is the Definition of SCA written out with dense matrices:
// X = N∘(Γʳ·N·Γᶜ) − (Γʳ·N)∘(N·Γᶜ), r and c the margins of (Γʳ·N)∘(N·Γᶜ),
// and the kernel D(r)^-1/2·X·D(c)^-1/2.
func paperDense(n *sparse.CSR, rt, ct []Tuning) (s *mat.Dense, r, c []float64) {
	rows, cols := n.Dims()
	nd := n.ToDense()
	gr, gc := gammaDense(rows, rt), gammaDense(cols, ct)
	var gn, ng, gng, first, second, x mat.Dense
	gn.Mul(gr, nd)
	ng.Mul(nd, gc)
	gng.Mul(&gn, gc)
	first.MulElem(nd, &gng)
	second.MulElem(&gn, &ng)
	x.Sub(&first, &second)
	r, c = make([]float64, rows), make([]float64, cols)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			r[i] += second.At(i, j)
			c[j] += second.At(i, j)
		}
	}
	s = mat.NewDense(rows, cols, nil)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			if r[i] > 0 && c[j] > 0 {
				s.Set(i, j, x.At(i, j)/math.Sqrt(r[i]*c[j]))
			}
		}
	}
	return s, r, c
}

// relEqual reports whether a and b agree to tol relative to b's largest
// entry.
func relEqual(t *testing.T, want, got mat.Matrix, tol float64, msg string) {
	t.Helper()
	scale := mat.Norm(want, math.Inf(1))
	var d mat.Dense
	d.Sub(want, got)
	assert.LessOrEqual(t, mat.Norm(&d, math.Inf(1)), tol*scale, msg)
}

func randomTuning(rng *rand.Rand, size, count int) []Tuning {
	seen := map[[2]int]bool{}
	var out []Tuning
	gammas := []float64{0, 0.2, 0.9, 1, 2.5, 7} // γ = 1 and 0 included
	for len(out) < count {
		a, b := rng.IntN(size), rng.IntN(size)
		if a == b || seen[[2]int{min(a, b), max(a, b)}] {
			continue
		}
		seen[[2]int{min(a, b), max(a, b)}] = true
		out = append(out, Tuning{A: a, B: b, Gamma: gammas[len(out)%len(gammas)]})
	}
	return out
}

// TestPaperDelayedMatchesDense: the delayed operator equals the dense
// formula of the Definition (products both ways, margins, materialised
// matrix, total inertia) on rectangular tables with separate row and
// column tunings, including a zero row, and on a small corpus's word
// table tuned by judged pairs.
func TestPaperDelayedMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 4))
	type tc struct {
		name   string
		n      *sparse.CSR
		rt, ct []Tuning
	}
	var cases []tc
	for _, shape := range [][2]int{{9, 7}, {6, 11}, {12, 12}} {
		n := randomSparse(rng, shape[0], shape[1], 0.4)
		cases = append(cases,
			tc{fmt.Sprintf("%dx%d rows", shape[0], shape[1]), n, randomTuning(rng, shape[0], 4), nil},
			tc{fmt.Sprintf("%dx%d cols", shape[0], shape[1]), n, nil, randomTuning(rng, shape[1], 5)},
			tc{fmt.Sprintf("%dx%d both", shape[0], shape[1]), n, randomTuning(rng, shape[0], 6), randomTuning(rng, shape[1], 6)})
	}
	zeroRow := sparse.FromDense(4, 5, []float64{3, 0, 1, 2, 2, 0, 0, 0, 0, 0, 5, 1, 1, 3, 7, 2, 0, 2, 6, 1})
	cases = append(cases, tc{"zero row", zeroRow, []Tuning{{1, 2, 0.5}, {0, 3, 3}}, []Tuning{{1, 4, 0.1}}})
	fx := newCorpusFixture(t)
	ts, err := PaperTuning(fx.v, fx.pairs, DefaultPaperOptions())
	require.NoError(t, err)
	cases = append(cases, tc{"corpus word table", fx.n, ts, ts})

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			op, err := NewPaperOperator(c.n, c.rt, c.ct)
			require.NoError(t, err)
			want, r, cm := paperDense(c.n, c.rt, c.ct)
			relEqual(t, want, op.Materialize(), 1e-13, "materialised")
			assert.InDeltaSlice(t, r, op.r, 1e-12*floats(r), "row margins")
			assert.InDeltaSlice(t, cm, op.c, 1e-12*floats(cm), "column margins")
			rows, cols := c.n.Dims()
			z := randomDense(rng, cols, 3)
			var got, exp mat.Dense
			op.MulTo(&got, z)
			exp.Mul(want, z)
			relEqual(t, &exp, &got, 1e-13, "Ŝ·z")
			w := randomDense(rng, rows, 4)
			var gotT, expT mat.Dense
			op.MulTTo(&gotT, w)
			expT.Mul(want.T(), w)
			relEqual(t, &expT, &gotT, 1e-13, "Ŝᵀ·w")
			fro := mat.Norm(want, 2)
			assert.InDelta(t, fro*fro, op.TotalInertia(), 1e-12*fro*fro)
			// Doubly centred for symmetric Γ: Ŝ·√c = 0.
			sq := mat.NewDense(cols, 1, nil)
			for j, x := range cm {
				sq.Set(j, 0, math.Sqrt(x))
			}
			var centred mat.Dense
			op.MulTo(&centred, sq)
			// (relative to ‖√c‖∞: √c is on the count-squared scale)
			assert.LessOrEqual(t, mat.Norm(&centred, math.Inf(1)), 1e-14*math.Sqrt(floats(cm)), "Ŝ·√c")
		})
	}
}

func floats(x []float64) float64 {
	var m float64
	for _, v := range x {
		m = max(m, math.Abs(v))
	}
	return m
}

func randomDense(rng *rand.Rand, r, c int) *mat.Dense {
	d := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d.Set(i, j, rng.NormFloat64())
		}
	}
	return d
}

// TestPaperUntunedIsCA: with every γ = 1 (Γ = 11ᵀ) the paper's matrix is
// n·N − R·Cᵀ and its kernel is exactly CA's S (σ factor 1), so SCA gives
// CA's singular values and row coordinates to 1e-10 on every backend,
// whether no pair is tuned, every tuned pair maps to γ = 1 (λ = 0), or
// the tuning entries say γ = 1 explicitly.
func TestPaperUntunedIsCA(t *testing.T) {
	fx := newCorpusFixture(t)
	const k = 5
	for _, b := range []svd.Backend{svd.Dense{}, svd.Randomized{}, svd.DSSVD{}} {
		want, err := ca.Decompose(context.Background(), fx.n, ca.KernelCA, b, svd.DefaultOptions(k))
		require.NoError(t, err)
		wantF := principal(want)
		for name, run := range map[string]func() (*ca.Decomposition, error){
			"no pairs": func() (*ca.Decomposition, error) {
				return DecomposePaper(context.Background(), fx.n, nil, DefaultPaperOptions(), b, svd.DefaultOptions(k))
			},
			"strength 0": func() (*ca.Decomposition, error) {
				opt := DefaultPaperOptions()
				opt.Strength = 0
				return DecomposePaper(context.Background(), fx.n, fx.pairs, opt, b, svd.DefaultOptions(k))
			},
			"explicit γ = 1": func() (*ca.Decomposition, error) {
				ts, err := PaperTuning(fx.v, fx.pairs, PaperOptions{Strength: 0})
				require.NoError(t, err)
				op, err := NewPaperOperator(fx.n, ts, ts)
				require.NoError(t, err)
				res, err := b.Decompose(context.Background(), op, svd.DefaultOptions(k))
				require.NoError(t, err)
				return &ca.Decomposition{S: res.S, U: res.U, RowMass: op.RowMass()}, nil
			},
		} {
			t.Run(b.Name()+"/"+name, func(t *testing.T) {
				got, err := run()
				require.NoError(t, err)
				assert.InDeltaSlice(t, want.S, got.S, 1e-10)
				assert.InDeltaSlice(t, want.RowMass, got.RowMass, 1e-15)
				requireEqualUpToSign(t, wantF, principal(got), 1e-10)
			})
		}
	}
	op, err := NewPaperOperator(fx.n, nil, nil)
	require.NoError(t, err)
	caOp, err := ca.NewCAOperator(fx.n)
	require.NoError(t, err)
	relEqual(t, caOp.Materialize(), op.Materialize(), 1e-14, "Ŝ = S")
	assert.InDelta(t, want0(t, fx.n), op.TotalInertia(), 1e-12)
}

func want0(t *testing.T, n *sparse.CSR) float64 {
	dec, err := ca.Decompose(context.Background(), n, ca.KernelCA, svd.Dense{}, svd.DefaultOptions(1))
	require.NoError(t, err)
	return dec.TotalInertia
}

// principal returns D(w)^-1/2·U·Σ.
func principal(d *ca.Decomposition) *mat.Dense {
	r, k := d.U.Dims()
	out := mat.NewDense(r, k, nil)
	for i := 0; i < r; i++ {
		if d.RowMass[i] == 0 {
			continue
		}
		for l := 0; l < k; l++ {
			out.Set(i, l, d.U.At(i, l)*d.S[l]/math.Sqrt(d.RowMass[i]))
		}
	}
	return out
}

func requireEqualUpToSign(t *testing.T, want, got *mat.Dense, tol float64) {
	t.Helper()
	r, k := want.Dims()
	for l := 0; l < k; l++ {
		same, flipped := 0.0, 0.0
		for i := 0; i < r; i++ {
			same = max(same, math.Abs(want.At(i, l)-got.At(i, l)))
			flipped = max(flipped, math.Abs(want.At(i, l)+got.At(i, l)))
		}
		require.LessOrEqual(t, min(same, flipped), tol, "axis %d", l)
	}
}

// TestPaperTuningMapping: γ = exp(−λ·(s − s₀)) on the scaled scores, the
// best-judged pair below 1 and the worst above, repeats averaged, pairs of
// a word with itself ignored.
func TestPaperTuningMapping(t *testing.T) {
	pairs := []Pair{{0, 1, 10}, {2, 3, 0}, {1, 0, 5}, {4, 5, 5}, {3, 3, 8}}
	ts, err := PaperTuning(6, pairs, PaperOptions{Strength: 2, Pivot: 0.5})
	require.NoError(t, err)
	require.Len(t, ts, 3)
	assert.Equal(t, Tuning{0, 1, math.Exp(-2 * (0.75 - 0.5))}, ts[0], "(1 + 0.5)/2 = 0.75")
	assert.Equal(t, Tuning{2, 3, math.Exp(2 * 0.5)}, ts[1])
	assert.Equal(t, Tuning{4, 5, 1.0}, ts[2], "s = s₀")
	assert.Less(t, ts[0].Gamma, 1.0, "judged similar: γ < 1")

	for _, bad := range []PaperOptions{{Strength: -1}, {Strength: math.NaN()}, {Strength: 1, Pivot: 1.5}} {
		_, err := PaperTuning(6, pairs, bad)
		assert.Error(t, err, "%+v", bad)
	}
}

func TestPaperErrors(t *testing.T) {
	n := sparse.FromDense(3, 3, []float64{1, 2, 0, 0, 3, 1, 2, 0, 4})
	for _, c := range []struct {
		rt   []Tuning
		want string
	}{
		{[]Tuning{{0, 3, 0.5}}, "index outside 0..2"},
		{[]Tuning{{1, 1, 0.5}}, "a category with itself"},
		{[]Tuning{{0, 1, -0.5}}, "want a finite number ≥ 0"},
		{[]Tuning{{0, 1, math.Inf(1)}}, "want a finite number ≥ 0"},
		{[]Tuning{{0, 1, 0.5}, {1, 0, 2}}, "pair given twice"},
	} {
		_, err := NewPaperOperator(n, c.rt, nil)
		assert.ErrorContains(t, err, c.want)
	}
	_, err := NewPaperOperator(sparse.FromDense(2, 2, []float64{1, -1, 0, 1}), nil, nil)
	assert.ErrorContains(t, err, "counts must be finite and non-negative")
	_, err = NewPaperOperator(sparse.FromDense(2, 2, make([]float64, 4)), nil, nil)
	assert.ErrorContains(t, err, "positive total")
	_, err = DecomposePaper(context.Background(), sparse.FromDense(2, 3, []float64{1, 2, 3, 4, 5, 6}), nil, DefaultPaperOptions(), svd.Dense{}, svd.DefaultOptions(1))
	assert.ErrorContains(t, err, "same vocabulary")
	_, err = DecomposePaper(context.Background(), n, nil, DefaultPaperOptions(), svd.Dense{}, svd.DefaultOptions(3))
	assert.ErrorContains(t, err, "rank 3 out of range")
	_, err = DecomposePaper(context.Background(), n, nil, DefaultPaperOptions(), nil, svd.DefaultOptions(1))
	assert.ErrorContains(t, err, "nil SVD backend")
}

// TestPaperFoldsNeverTuneOnScoredPair: in k-fold use, the tuning tables
// of fold f's model hold no entry for a word pair of fold f (in either
// order, repeats included), so no scored pair was tuned on; every other
// distinct pair is tuned.
func TestPaperFoldsNeverTuneOnScoredPair(t *testing.T) {
	fx := newCorpusFixture(t)
	pairs := append([]Pair(nil), fx.pairs...)
	// Repeats in either order, which must follow their twin out of the model.
	pairs = append(pairs, Pair{A: pairs[0].B, B: pairs[0].A, Score: 3}, Pair{A: pairs[7].A, B: pairs[7].B, Score: 1})
	const k = 5
	folds, err := Folds(len(pairs), k, 3)
	require.NoError(t, err)
	for f := range folds {
		ts, err := PaperTuning(fx.v, TrainPairs(pairs, folds, f), DefaultPaperOptions())
		require.NoError(t, err)
		tuned := map[[2]int]bool{}
		for _, e := range ts {
			tuned[[2]int{min(e.A, e.B), max(e.A, e.B)}] = true
		}
		scored := map[[2]int]bool{}
		for _, i := range folds[f] {
			key := unordered(pairs[i])
			scored[key] = true
			assert.False(t, tuned[key], "fold %d scores pair %v, which its model tuned on", f, key)
		}
		for _, p := range pairs {
			if key := unordered(p); !scored[key] && p.A != p.B {
				assert.True(t, tuned[key], "fold %d: training pair %v not tuned", f, key)
			}
		}
		// The model is built from exactly those entries.
		op, err := NewPaperOperator(fx.n, ts, ts)
		require.NoError(t, err)
		for _, i := range folds[f] {
			a, b := pairs[i].A, pairs[i].B
			if la, lb := op.rt.loc[a], op.rt.loc[b]; la >= 0 && lb >= 0 {
				assert.Zero(t, op.rt.delta.At(int(la), int(lb)), "fold %d: Δ(%d, %d)", f, a, b)
			}
		}
	}
}

// corpusFixture is a small synthetic corpus's word table (N^flat, window
// 5) and judged pairs scored by the corpus's clusters.
type corpusFixture struct {
	v     int
	n     *sparse.CSR
	pairs []Pair
}

func newCorpusFixture(t *testing.T) *corpusFixture {
	t.Helper()
	toks, clusterOf, err := synth.Corpus(synth.Options{Clusters: 5, WordsPerCluster: 8, Tokens: 20000, Noise: 0.3, Seed: 5})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "synth.txt")
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(toks, " ")), 0o644))
	ctx := context.Background()
	c, err := corpus.Open(ctx, "", path, corpus.Options{})
	require.NoError(t, err)
	v, ids, err := corpus.Build(ctx, c, corpus.VocabOptions{MinCount: 1})
	require.NoError(t, err)
	tabs, err := corpus.NewTables(v, ids, corpus.TableOptions{})
	require.NoError(t, err)
	n, err := tabs.Table(ctx, corpus.Spec{Kind: corpus.Flat, Window: 5})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(5, 6))
	var pairs []Pair
	seen := map[[2]int]bool{}
	for len(pairs) < 120 {
		a, b := rng.IntN(v.Size()), rng.IntN(v.Size())
		if a == b || seen[[2]int{min(a, b), max(a, b)}] {
			continue
		}
		seen[[2]int{min(a, b), max(a, b)}] = true
		score := 1 + rng.Float64()
		if clusterOf[v.Words[a]] == clusterOf[v.Words[b]] {
			score += 8
		}
		pairs = append(pairs, Pair{A: a, B: b, Score: score})
	}
	return &corpusFixture{v: v.Size(), n: n, pairs: pairs}
}
