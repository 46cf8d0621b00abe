package baselines

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/datasets/sparse"
)

func sig64(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func dotF(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func to64(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// nsLoss is the negative-sampling loss of hidden vector h with output rows
// u[0] (positive) and u[1:] (negatives).
func nsLoss(h []float64, u [][]float64) float64 {
	l := -math.Log(sig64(dotF(h, u[0])))
	for _, uk := range u[1:] {
		l -= math.Log(sig64(-dotF(h, uk)))
	}
	return l
}

// numGrad is the central finite-difference gradient of f at x.
func numGrad(f func() float64, x []float64) []float64 {
	const eps = 1e-6
	g := make([]float64, len(x))
	for i := range x {
		x0 := x[i]
		x[i] = x0 + eps
		fp := f()
		x[i] = x0 - eps
		fm := f()
		x[i] = x0
		g[i] = (fp - fm) / (2 * eps)
	}
	return g
}

func randVec(r *rand.Rand, n int, scale float32) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = scale * (2*r.Float32() - 1)
	}
	return v
}

func assertClose(t *testing.T, want []float64, got []float32, tol float64, msg string) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		assert.InDelta(t, want[i], float64(got[i]), tol, "%s [%d]", msg, i)
	}
}

// One negative-sampling step (SGNS, CBOW and fastText share it) equals
// −alpha times the finite-difference gradient of the loss, for the hidden
// vector (returned in e) and for each output row.
func TestNegStepGradient(t *testing.T) {
	const dim, alpha = 7, 0.1
	r := rand.New(rand.NewPCG(1, 2))
	for _, sig := range []*sigmoid{word2vecSigmoid(true), fastTextSigmoid(true)} {
		h := randVec(r, dim, 1)
		out := alignedFloat32s(5 * dim)
		copy(out, randVec(r, 5*dim, 1))
		targets := []int32{3, 0, 4, 1} // positive 3; distinct negatives

		h64 := to64(h)
		u64 := make([][]float64, len(targets))
		for k, tg := range targets {
			u64[k] = to64(out[int(tg)*dim : int(tg+1)*dim])
		}
		loss := func() float64 { return nsLoss(h64, u64) }
		gh := numGrad(loss, h64)
		gu := make([][]float64, len(targets))
		for k := range targets {
			gu[k] = numGrad(loss, u64[k])
		}

		e := make([]float32, dim)
		sig.negStep(h, e, out, dim, targets, alpha)
		want := make([]float64, dim)
		for i := range want {
			want[i] = -alpha * gh[i]
		}
		assertClose(t, want, e, 1e-6, "e = −α∂L/∂h")
		for k, tg := range targets {
			for i := range want {
				want[i] = u64[k][i] - alpha*gu[k][i]
			}
			assertClose(t, want, out[int(tg)*dim:int(tg+1)*dim], 1e-6, "u − α∂L/∂u")
		}
	}
}

// The lookup-table sigmoids stay close to σ and saturate like the references.
func TestSigmoidTables(t *testing.T) {
	for _, tc := range []struct {
		s   *sigmoid
		tol float64
	}{
		// word2vec.c (and gensim) index by (x+6)·83 and so read σ at x − 0.004(x+6) − [0, 0.012): up to 0.009 low near 0.
		{word2vecSigmoid(false), 0.01},
		{fastTextSigmoid(false), 0.008},
	} {
		for k := -1000; k <= 1000; k++ {
			x := float32(k) / 100
			got := float64(tc.s.at(x))
			switch {
			case x > tc.s.max:
				assert.Equal(t, 1.0, got)
			case x < -tc.s.max:
				assert.Equal(t, 0.0, got)
			default:
				assert.InDelta(t, sig64(float64(x)), got, tc.tol, "x=%g", x)
			}
		}
		assert.Equal(t, float32(0), tc.s.at(float32(math.NaN())))
	}
	// word2vec.c's index uses 1000/6/2 = 83 in integer arithmetic.
	w := word2vecSigmoid(false)
	assert.Equal(t, float32(83), w.scale)
	assert.Equal(t, w.table[498], w.at(0))
}

// refNeg is negStep in float64 with the exact sigmoid: sequential over
// targets, so a repeated target sees its own earlier update.
func refNeg(h []float64, out [][]float64, targets []int, alpha float64) []float64 {
	e := make([]float64, len(h))
	for k, tg := range targets {
		label := 0.0
		if k == 0 {
			label = 1
		}
		g := alpha * (label - sig64(dotF(h, out[tg])))
		for i := range e {
			e[i] += g * out[tg][i]
		}
		for i := range e {
			out[tg][i] += g * h[i]
		}
	}
	return e
}

func rows64(m []float32, v, dim int) [][]float64 {
	out := make([][]float64, v)
	for i := range out {
		out[i] = to64(m[i*dim : (i+1)*dim])
	}
	return out
}

func assertRows(t *testing.T, want [][]float64, got []float32, dim int, msg string) {
	t.Helper()
	for i, w := range want {
		assertClose(t, w, got[i*dim:(i+1)*dim], 1e-6, msg)
	}
}

// tinyW2V is a trainer on vocabulary {a, b, c} whose negatives are always c.
func tinyW2V(t *testing.T, cbow bool) *w2v {
	cfg := DefaultSGNS()
	cfg.CBOW, cfg.Dim, cfg.Window, cfg.Negative, cfg.ExactSigmoid = cbow, 5, 1, 2, true
	cfg.Alpha = 0.2
	c, err := Corpus{Tokens: []int32{0, 1, 2}, Words: []string{"a", "b", "c"}, SkipID: -1}.check()
	require.NoError(t, err)
	w, err := newW2V(c, cfg)
	require.NoError(t, err)
	w.neg, err = newAlias([]float64{0, 0, 1})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(3, 4))
	copy(w.syn1neg, randVec(r, len(w.syn1neg), 0.5)) // non-zero so every term matters
	return w
}

// word2vec.c's skip-gram: at each position, each context word's input
// vector predicts the centre word against negatives; a negative equal to
// the centre word is skipped, a repeated one is applied twice in turn.
func TestSkipGramSentenceStep(t *testing.T) {
	w := tinyW2V(t, false)
	const dim = 5
	in, out := rows64(w.syn0, 3, dim), rows64(w.syn1neg, 3, dim)
	alpha := float64(w.alpha)
	// Window 1 has no reduced form: position 0 (a) has context b, position
	// 1 (b) has contexts a and c, position 2 (c) has context b. Centre c's
	// negatives (c, c) are both skipped.
	for _, step := range []struct{ centre, ctx int }{{0, 1}, {1, 0}, {1, 2}, {2, 1}} {
		targets := []int{step.centre}
		if step.centre != 2 {
			targets = append(targets, 2, 2)
		}
		e := refNeg(in[step.ctx], out, targets, alpha)
		for i := range e {
			in[step.ctx][i] += e[i]
		}
	}
	w.sen = append(w.sen[:0], 0, 1, 2)
	w.sgSentence()
	assertRows(t, in, w.syn0, dim, "input vectors")
	assertRows(t, out, w.syn1neg, dim, "output vectors")
}

// word2vec.c's CBOW: the mean of the context vectors predicts the centre
// word; every context vector gets the whole error e = −α∂L/∂h.
func TestCBOWSentenceStep(t *testing.T) {
	w := tinyW2V(t, true)
	const dim = 5
	in, out := rows64(w.syn0, 3, dim), rows64(w.syn1neg, 3, dim)
	alpha := float64(w.alpha)
	for _, step := range []struct {
		centre int
		ctx    []int
	}{{0, []int{1}}, {1, []int{0, 2}}, {2, []int{1}}} {
		h := make([]float64, dim)
		for _, c := range step.ctx {
			for i := range h {
				h[i] += in[c][i] / float64(len(step.ctx))
			}
		}
		targets := []int{step.centre}
		if step.centre != 2 {
			targets = append(targets, 2, 2)
		}
		// With distinct targets e is −α∂L/∂h; check that on the first
		// target pair before the repeated negative makes it sequential.
		if step.centre == 1 {
			hh := append([]float64(nil), h...)
			oo := [][]float64{append([]float64(nil), out[1]...), append([]float64(nil), out[2]...)}
			g := numGrad(func() float64 { return nsLoss(hh, oo) }, hh)
			e1 := refNeg(hh, [][]float64{oo[0], oo[1]}, []int{0, 1}, alpha)
			for i := range g {
				assert.InDelta(t, -alpha*g[i], e1[i], 1e-8)
			}
		}
		e := refNeg(h, out, targets, alpha)
		for _, c := range step.ctx {
			for i := range e {
				in[c][i] += e[i]
			}
		}
	}
	w.sen = append(w.sen[:0], 0, 1, 2)
	w.cbowSentence()
	assertRows(t, in, w.syn0, dim, "input vectors")
	assertRows(t, out, w.syn1neg, dim, "output vectors")
}

// fastText's update: hidden = mean of the subword rows; each of those rows
// gets the whole error −lr∂L/∂h, output rows −lr∂L/∂u. With Negative 3 the
// one possible negative repeats and is applied in turn.
func TestFastTextUpdateGradient(t *testing.T) {
	for _, neg := range []int{1, 3} {
		cfg := DefaultFastText()
		cfg.Dim, cfg.Negative, cfg.Bucket, cfg.ExactSigmoid = 6, neg, 1000, true
		const dim, lr = 6, 0.2
		c, err := Corpus{Tokens: []int32{0, 1, 2, 3}, Words: []string{"ab", "cd", "ef", "gh"}, SkipID: -1}.check()
		require.NoError(t, err)
		m := newFTModel(c, cfg)
		tr, err := newFTTrainer(c, m, cfg)
		require.NoError(t, err)
		tr.neg, err = newAlias([]float64{0, 0, 1, 0}) // every negative is ef
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(5, 6))
		copy(tr.out, randVec(r, len(tr.out), 0.5))

		input := m.subwords(0) // "ab": its word row and the n-grams of "<ab>"
		require.Len(t, input, 1+3)
		nrows := len(m.in) / dim
		in, out := rows64(m.in, nrows, dim), rows64(tr.out, 4, dim)
		h := make([]float64, dim)
		for _, id := range input {
			for i := range h {
				h[i] += in[id][i] / float64(len(input))
			}
		}
		targets := []int{1}
		for k := 0; k < neg; k++ {
			targets = append(targets, 2)
		}
		if neg == 1 {
			hh := append([]float64(nil), h...)
			u := [][]float64{append([]float64(nil), out[1]...), append([]float64(nil), out[2]...)}
			loss := func() float64 { return nsLoss(hh, u) }
			gh := numGrad(loss, hh)
			e := refNeg(append([]float64(nil), h...), [][]float64{append([]float64(nil), u[0]...), append([]float64(nil), u[1]...)}, []int{0, 1}, lr)
			for i := range gh {
				assert.InDelta(t, -lr*gh[i], e[i], 1e-8)
			}
		}
		e := refNeg(h, out, targets, lr)
		for _, id := range input {
			for i := range e {
				in[id][i] += e[i]
			}
		}
		tr.update(input, 1, lr)
		assertRows(t, in, m.in, dim, "input rows")
		assertRows(t, out, tr.out, dim, "output rows")
	}
}

// One glove.c step on a non-zero: an AdaGrad step on
// J = ½·f(x)·(w·c + b_w + b_c − log x)², whose squared-gradient sums start
// at 1, so the first step is −η∇J for the vectors and (glove.c master) −∂J/∂b
// for the biases; v1.2 (EtaOnBias) scales the bias step by η too. The second
// step is divided by √(1 + (η∇J)²) per component. Gradient clipping bounds
// each component before η.
func TestGloVeStepGradient(t *testing.T) {
	x, err := sparse.FromTriplets(2, 2, []sparse.Triplet{{I: 0, J: 1, V: 3}, {I: 1, J: 0, V: 3}, {I: 1, J: 1, V: 250}})
	require.NoError(t, err)
	for _, tc := range []struct {
		name      string
		etaOnBias bool
		clip      float64
		val       float64 // the co-occurrence stepped on: below and above XMax
		i, j      int
	}{
		{"master", false, 100, 3, 0, 1},
		{"v1.2", true, math.Inf(1), 3, 0, 1},
		{"above xmax", false, 100, 250, 1, 1},
		{"clipped", false, 1e-3, 3, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultGloVe()
			cfg.Dim, cfg.EtaOnBias, cfg.GradClip = 4, tc.etaOnBias, tc.clip
			g, err := newGloVe(x, []string{"a", "b"}, -1, cfg)
			require.NoError(t, err)
			d, d1, eta := cfg.Dim, cfg.Dim+1, cfg.Eta
			wOff, cOff := tc.i*d1, (2+tc.j)*d1
			fx := math.Min(1, math.Pow(tc.val/cfg.XMax, cfg.Alpha))
			for stepNo := 0; stepNo < 2; stepNo++ {
				w := append([]float64(nil), g.w[wOff:wOff+d1]...)
				c := append([]float64(nil), g.w[cOff:cOff+d1]...)
				gsqW := append([]float64(nil), g.gsq[wOff:wOff+d1]...)
				gsqC := append([]float64(nil), g.gsq[cOff:cOff+d1]...)
				cost := func() float64 {
					diff := dotF(w[:d], c[:d]) + w[d] + c[d] - math.Log(tc.val)
					return 0.5 * fx * diff * diff
				}
				gw, gc := numGrad(cost, w), numGrad(cost, c)
				j0 := cost()
				got := g.step(tc.i, tc.j, tc.val)
				assert.InDelta(t, j0, got, 1e-12, "returned cost")
				for b := 0; b < d1; b++ {
					sw, sc := eta*clip(gw[b], tc.clip), eta*clip(gc[b], tc.clip)
					if b == d && !tc.etaOnBias {
						sw, sc = gw[b], gc[b]
					}
					assert.InDelta(t, w[b]-sw/math.Sqrt(gsqW[b]), g.w[wOff+b], 1e-9, "step %d w[%d]", stepNo, b)
					assert.InDelta(t, c[b]-sc/math.Sqrt(gsqC[b]), g.w[cOff+b], 1e-9, "step %d c[%d]", stepNo, b)
					assert.InDelta(t, gsqW[b]+sw*sw, g.gsq[wOff+b], 1e-6, "step %d G_w[%d]", stepNo, b)
					assert.InDelta(t, gsqC[b]+sc*sc, g.gsq[cOff+b], 1e-6, "step %d G_c[%d]", stepNo, b)
				}
			}
		})
	}
}
