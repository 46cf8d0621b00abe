package baselines

import (
	"fmt"
	"math"
	"math/rand/v2"
	"unsafe"

	"gonum.org/v1/gonum/blas/gonum"
)

// blas gives the float32 dot and axpy kernels: gonum's SSE assembly on
// amd64 is 2–5× faster than a plain Go loop at d = 100..300.
var blas gonum.Implementation

// alignedFloat32s returns n zeroed float32s whose first element is 64-byte
// aligned. gonum's Sdot peels elements until y is 16-byte aligned, so its
// summation order depends on y's address; rows of an aligned matrix make that
// order a function of the row index only, hence reproducible bits.
func alignedFloat32s(n int) []float32 {
	buf := make([]float32, n+16)
	off := 0
	if n > 0 {
		if rem := uintptr(unsafe.Pointer(&buf[0])) % 64; rem != 0 {
			off = int(64-rem) / 4
		}
	}
	return buf[off : off+n : off+n]
}

// sigmoid is the logistic function as the references compute it: a lookup
// table with saturation beyond ±max, or (exact) 1/(1+e^−x).
type sigmoid struct {
	table []float32
	max   float32 // |x| beyond which σ(x) is taken as 0 or 1
	scale float32 // table index = int((x + max)·scale)
	exact bool
}

// word2vecSigmoid is word2vec.c's EXP_TABLE: 1000 entries over [−6, 6).
// word2vec.c indexes it with (x+6)·(1000/6/2) in integer arithmetic, i.e.
// ·83 instead of ·83.33; we keep that, so values match the C code.
func word2vecSigmoid(exact bool) *sigmoid {
	const size, maxExp = 1000, 6
	t := make([]float32, size)
	for i := range t {
		e := float32(math.Exp(float64((float32(i)/size*2 - 1) * maxExp)))
		t[i] = e / (e + 1)
	}
	return &sigmoid{table: t, max: maxExp, scale: float32(size / maxExp / 2), exact: exact}
}

// fastTextSigmoid is fastText's t_sigmoid_: 513 entries over [−8, 8].
func fastTextSigmoid(exact bool) *sigmoid {
	const size, maxSig = 512, 8
	t := make([]float32, size+1)
	for i := range t {
		x := float32(i*2*maxSig)/size - maxSig
		t[i] = float32(1 / (1 + math.Exp(-float64(x))))
	}
	return &sigmoid{table: t, max: maxSig, scale: float32(size) / maxSig / 2, exact: exact}
}

func (s *sigmoid) at(x float32) float32 {
	if s.exact {
		return float32(1 / (1 + math.Exp(-float64(x))))
	}
	if x > s.max {
		return 1
	}
	if x >= -s.max {
		return s.table[int((x+s.max)*s.scale)]
	}
	return 0 // also NaN: no index from it
}

// negStep is the negative-sampling update shared by the three trainers (word2vec.c's inner loop,
// fastText's BinaryLogisticLoss::binaryLogistic). h is the hidden vector, e
// accumulates the error to add to the input vectors afterwards (zeroed by the
// caller), out holds output rows of length dim. targets[0] is the positive
// target, the rest negatives. For each target t in order:
//
//	g = alpha·(label − σ(h·u_t));  e += g·u_t;  u_t += g·h
//
// which is a step of −alpha times the gradient of
// L = −log σ(h·u₀) − Σ_{k≥1} log σ(−h·u_k) (exactly so when the targets are
// distinct and the sigmoid is exact).
func (s *sigmoid) negStep(h, e, out []float32, dim int, targets []int32, alpha float32) {
	label := float32(1)
	for _, t := range targets {
		u := out[int(t)*dim : int(t)*dim+dim]
		g := (label - s.at(dotF32(h[:dim], u))) * alpha
		negUpdate(g, u, h[:dim], e[:dim])
		label = 0
	}
}

// alias draws indices with probability proportional to given weights in O(1)
// (Walker's alias method, Vose's construction). It replaces the references'
// big lookup tables (word2vec.c: 1e8 slots, fastText: 1e7) and samples the
// exact distribution rather than its table rounding.
type alias struct {
	prob   []float64
	thresh []uint64 // prob·2³², rounded: draw's test on 32 random bits
	alias  []int32
}

func newAlias(w []float64) (*alias, error) {
	n := len(w)
	var total float64
	for i, x := range w {
		if x < 0 || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("sampling weight %d is %g, want finite ≥ 0", i, x)
		}
		total += x
	}
	if total == 0 {
		return nil, fmt.Errorf("all %d sampling weights are zero", n)
	}
	a := &alias{prob: make([]float64, n), alias: make([]int32, n)}
	scaled := make([]float64, n)
	var small, large []int32
	for i, x := range w {
		scaled[i] = x * float64(n) / total
		if scaled[i] < 1 {
			small = append(small, int32(i))
		} else {
			large = append(large, int32(i))
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		a.prob[s], a.alias[s] = scaled[s], l
		scaled[l] -= 1 - scaled[s]
		if scaled[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	// Leftovers have scaled ≈ 1 up to rounding.
	for _, i := range append(small, large...) {
		a.prob[i], a.alias[i] = 1, i
	}
	a.thresh = make([]uint64, n)
	for i, p := range a.prob {
		a.thresh[i] = uint64(math.Round(p * (1 << 32)))
	}
	return a, nil
}

// draw takes one 64-bit draw: the high half picks the slot (multiply-shift,
// bias below n/2³²), the low half decides slot or alias. One generator call
// per negative instead of two: the draws are a tenth of SGNS's inner loop.
func (a *alias) draw(r *rand.Rand) int32 {
	u := r.Uint64()
	i := (u >> 32) * uint64(len(a.thresh)) >> 32
	if u&(1<<32-1) < a.thresh[i] {
		return int32(i)
	}
	return a.alias[i]
}

// unigramWeights returns count^power per word, 0 for the skipped id.
func unigramWeights(counts []int64, skip int32, power float64) []float64 {
	w := make([]float64, len(counts))
	for i, c := range counts {
		if int32(i) != skip && c > 0 {
			w[i] = math.Pow(float64(c), power)
		}
	}
	return w
}
