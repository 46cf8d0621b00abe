package baselines

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"kcalab/datasets/sparse"
	"kcalab/methods/vectors"
)

// GloVeConfig holds GloVe's hyperparameters; DefaultGloVe gives glove.c's
// defaults (stanfordnlp/GloVe master). Zero values are not defaults.
type GloVeConfig struct {
	Dim    int     // -vector-size; 50
	Epochs int     // -iter: passes over the non-zeros; 25 (the repository's demo.sh uses 15)
	Eta    float64 // -eta: initial AdaGrad learning rate; 0.05
	Alpha  float64 // -alpha: exponent of the weighting f(x) = min(1, (x/XMax)^Alpha); 0.75
	XMax   float64 // -x-max; 100
	// GradClip bounds each gradient component to [−GradClip, GradClip]
	// before the AdaGrad step: 100 in glove.c master, +Inf for no clipping
	// (glove.c v1.2).
	GradClip float64
	// EtaOnBias multiplies the bias steps by Eta. glove.c master does not
	// (its bias step is f·diff/√G); v1.2 did. false.
	EtaOnBias bool
	// ShuffleEachEpoch reshuffles the non-zeros before every epoch; false
	// shuffles once before training, as glove.c's shuffle tool does. true.
	ShuffleEachEpoch bool
	Seed             uint64    // seeds initialisation and shuffles
	Progress         io.Writer // progress lines; nil = silent
}

// DefaultGloVe returns glove.c's defaults.
func DefaultGloVe() GloVeConfig {
	return GloVeConfig{Dim: 50, Epochs: 25, Eta: 0.05, Alpha: 0.75, XMax: 100, GradClip: 100, ShuffleEachEpoch: true, Seed: 1}
}

func (c GloVeConfig) check() error {
	pos := func(x float64) bool { return x > 0 && !math.IsInf(x, 0) }
	switch {
	case c.Dim < 1:
		return fmt.Errorf("config: Dim = %d, want ≥ 1", c.Dim)
	case c.Epochs < 1:
		return fmt.Errorf("config: Epochs = %d, want ≥ 1", c.Epochs)
	case !pos(c.Eta):
		return fmt.Errorf("config: Eta = %g, want finite > 0", c.Eta)
	case !(c.Alpha >= 0) || math.IsInf(c.Alpha, 0):
		return fmt.Errorf("config: Alpha = %g, want finite ≥ 0", c.Alpha)
	case !pos(c.XMax):
		return fmt.Errorf("config: XMax = %g, want finite > 0", c.XMax)
	case !(c.GradClip > 0):
		return fmt.Errorf("config: GradClip = %g, want > 0 (+Inf = no clipping)", c.GradClip)
	}
	return nil
}

// TrainGloVe fits GloVe to the co-occurrence matrix x (square, one row and
// column per word of words, positive values; glove.c's input is symmetric
// with 1/distance weights, which is not checked) as glove.c does
// (single-threaded). Non-zeros in the row or column skipID (−1 = none) are
// left out and that word gets no vector. The output is word + context
// vector (glove.c -model 2).
func TrainGloVe(ctx context.Context, x *sparse.CSR, words []string, skipID int, cfg GloVeConfig) (*vectors.Set, error) {
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("glove: %w", err)
	}
	g, err := newGloVe(x, words, skipID, cfg)
	if err != nil {
		return nil, fmt.Errorf("glove: %w", err)
	}
	if err := g.train(ctx, newProgress(cfg.Progress, "glove")); err != nil {
		return nil, fmt.Errorf("glove: %w", err)
	}
	set, err := output(words, int32(skipID), cfg.Dim, g.vector)
	if err != nil {
		return nil, fmt.Errorf("glove: %w", err)
	}
	return set, nil
}

type glove struct {
	cfg GloVeConfig
	v   int
	d1  int       // Dim + 1: a row is the vector then the bias
	w   []float64 // 2v rows: word rows, then context rows
	gsq []float64 // AdaGrad sums, same layout, start at 1

	rowOf   []int32 // row of each stored non-zero
	indices []int32
	data    []float64
	perm    []uint32 // training order: positions into indices/data
	r       *rand.Rand
	up1     []float64
	up2     []float64

	// counters for the report
	skipped int64 // non-finite diffs (glove.c skips those updates too)
}

func newGloVe(x *sparse.CSR, words []string, skipID int, cfg GloVeConfig) (*glove, error) {
	if x == nil {
		return nil, fmt.Errorf("nil co-occurrence matrix")
	}
	rows, cols := x.Dims()
	if rows != cols || rows != len(words) {
		return nil, fmt.Errorf("co-occurrence matrix is %d×%d, want %d×%d (one row and column per word)", rows, cols, len(words), len(words))
	}
	if skipID < -1 || skipID >= len(words) {
		return nil, fmt.Errorf("skip id %d, want -1 (none) or a word id in [0, %d)", skipID, len(words))
	}
	if err := checkWords(words, skipID); err != nil {
		return nil, err
	}
	indptr, indices, data := x.Raw()
	if int64(len(data)) > math.MaxUint32 {
		return nil, fmt.Errorf("%d non-zeros: more than this trainer indexes (%d)", len(data), uint32(math.MaxUint32))
	}
	g := &glove{cfg: cfg, v: rows, d1: cfg.Dim + 1, indices: indices, data: data,
		rowOf: make([]int32, len(data)), perm: make([]uint32, 0, len(data)),
		r:   rand.New(rand.NewPCG(cfg.Seed, 0x676c6f76)), // stream "glov"
		up1: make([]float64, cfg.Dim), up2: make([]float64, cfg.Dim)}
	for i := 0; i < rows; i++ {
		for p := indptr[i]; p < indptr[i+1]; p++ {
			g.rowOf[p] = int32(i)
			if v := data[p]; !(v > 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("co-occurrence (%d %q, %d %q) = %g, want finite > 0 (GloVe fits its log)",
					i, words[i], indices[p], words[indices[p]], v)
			}
			if i != skipID && int(indices[p]) != skipID {
				g.perm = append(g.perm, uint32(p))
			}
		}
	}
	if len(g.perm) == 0 {
		return nil, fmt.Errorf("no non-zeros to train on")
	}
	// glove.c: every parameter, biases included, uniform in [−0.5, 0.5)/Dim;
	// AdaGrad sums start at 1 so the first step has rate Eta.
	g.w = make([]float64, 2*rows*g.d1)
	g.gsq = make([]float64, 2*rows*g.d1)
	for k := range g.w {
		g.w[k] = (g.r.Float64() - 0.5) / float64(cfg.Dim)
		g.gsq[k] = 1
	}
	return g, nil
}

func (g *glove) shuffle() {
	p := g.perm
	for i := len(p) - 1; i > 0; i-- {
		j := g.r.IntN(i + 1)
		p[i], p[j] = p[j], p[i]
	}
}

func (g *glove) train(ctx context.Context, pr *progress) error {
	start := time.Now()
	total := int64(g.cfg.Epochs) * int64(len(g.perm))
	var done int64
	for epoch := 0; epoch < g.cfg.Epochs; epoch++ {
		if epoch == 0 || g.cfg.ShuffleEachEpoch {
			g.shuffle()
		}
		var cost float64
		for k, p := range g.perm {
			if k&0xffff == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
				pr.update(float64(done+int64(k))/float64(total), g.cfg.Eta, done+int64(k), "nnz")
			}
			cost += g.step(int(g.rowOf[p]), int(g.indices[p]), g.data[p])
		}
		done += int64(len(g.perm))
		pr.note("iter %03d, cost %.6f, %.0fk nnz/s", epoch+1, cost/float64(len(g.perm)), float64(done)/time.Since(start).Seconds()/1e3)
	}
	if g.skipped > 0 {
		pr.note("%d updates skipped (non-finite error)", g.skipped)
	}
	return nil
}

// step is one glove.c update on co-occurrence x of word i with context j and
// returns its cost ½·f(x)·diff².
func (g *glove) step(i, j int, x float64) float64 {
	d, cfg := g.cfg.Dim, &g.cfg
	l1, l2 := i*g.d1, (g.v+j)*g.d1
	w, c := g.w[l1:l1+g.d1], g.w[l2:l2+g.d1]
	gw, gc := g.gsq[l1:l1+g.d1], g.gsq[l2:l2+g.d1]

	diff := dot64(w[:d], c[:d]) + w[d] + c[d] - math.Log(x)
	fdiff := diff
	if !(x > cfg.XMax) {
		fdiff = math.Pow(x/cfg.XMax, cfg.Alpha) * diff
	}
	if !finite(diff) || !finite(fdiff) {
		g.skipped++
		return 0
	}
	up1, up2 := g.up1[:d], g.up2[:d]
	var sum1, sum2 float64
	for b := range up1 {
		t1 := clip(fdiff*c[b], cfg.GradClip) * cfg.Eta
		t2 := clip(fdiff*w[b], cfg.GradClip) * cfg.Eta
		up1[b] = t1 / math.Sqrt(gw[b])
		up2[b] = t2 / math.Sqrt(gc[b])
		sum1 += up1[b]
		sum2 += up2[b]
		gw[b] += t1 * t1
		gc[b] += t2 * t2
	}
	if finite(sum1) && finite(sum2) {
		for b := range up1 {
			w[b] -= up1[b]
			c[b] -= up2[b]
		}
	}
	fb := fdiff
	if cfg.EtaOnBias {
		fb *= cfg.Eta
	}
	w[d] -= finiteOr0(fb / math.Sqrt(gw[d]))
	c[d] -= finiteOr0(fb / math.Sqrt(gc[d]))
	gw[d] += fb * fb
	gc[d] += fb * fb
	return 0.5 * fdiff * diff
}

// vector writes word i's output vector: word plus context vector.
func (g *glove) vector(i int, dst []float64) {
	w := g.w[i*g.d1 : i*g.d1+g.cfg.Dim]
	c := g.w[(g.v+i)*g.d1 : (g.v+i)*g.d1+g.cfg.Dim]
	for k := range dst {
		dst[k] = w[k] + c[k]
	}
}

func dot64(x, y []float64) float64 {
	y = y[:len(x)]
	var s float64
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

func clip(v, m float64) float64 {
	if v < -m {
		return -m
	}
	if v > m {
		return m
	}
	return v
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func finiteOr0(v float64) float64 {
	if finite(v) {
		return v
	}
	return 0
}
