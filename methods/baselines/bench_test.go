package baselines

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// zipfCorpus is a synthetic benchmark corpus: nTokens tokens over vocab
// words drawn from a Zipf law (s = 1.1), each word a random a–z string of
// 3–10 letters (text8's words average about 5 letters), so fastText has
// n-grams to handle.
func zipfCorpus(nTokens, vocab int) Corpus {
	r := rand.New(rand.NewPCG(42, 42))
	names := make([]string, vocab)
	seen := map[string]bool{}
	for i := range names {
		for {
			b := make([]byte, 3+r.IntN(8))
			for k := range b {
				b[k] = byte('a' + r.IntN(26))
			}
			if s := string(b); !seen[s] {
				seen[s], names[i] = true, s
				break
			}
		}
	}
	z := rand.NewZipf(r, 1.1, 1, uint64(vocab-1))
	text := make([]string, nTokens)
	for i := range text {
		text[i] = names[z.Uint64()]
	}
	return buildCorpus(text, 1)
}

var benchCorpus = sync.OnceValue(func() Corpus { return zipfCorpus(200000, 10000) })

// meter times a benchmark in wall-clock and CPU time.
type meter struct {
	wall    time.Time
	cpu     time.Duration
	haveCPU bool
}

func startMeter() meter {
	c, ok := cpuTime()
	return meter{wall: time.Now(), cpu: c, haveCPU: ok}
}

// report reports units processed per second of wall time and per second of
// this process's CPU time (the honest figure when the cores are shared).
func (m meter) report(b *testing.B, units float64, unit string) {
	b.ReportMetric(units/time.Since(m.wall).Seconds(), unit+"/s")
	if c, ok := cpuTime(); ok && m.haveCPU {
		b.ReportMetric(units/(c-m.cpu).Seconds(), unit+"/cpu-s")
	}
}

// words is the number of in-vocabulary words trained on: what word2vec.c
// and fastText count in their words/s (per core: training is single-threaded).
func words(b *testing.B, c Corpus, epochs int) float64 {
	n := int64(len(c.Tokens))
	if c.SkipID >= 0 {
		n -= c.Counts[c.SkipID]
	}
	return float64(n) * float64(epochs) * float64(b.N)
}

func BenchmarkWord2Vec(b *testing.B) {
	c := benchCorpus()
	for _, tc := range []struct {
		cbow     bool
		dim, win int
	}{{false, 100, 5}, {false, 300, 10}, {true, 100, 5}, {true, 300, 10}} {
		cfg := DefaultSGNS()
		if tc.cbow {
			cfg = DefaultCBOW()
		}
		cfg.Dim, cfg.Window, cfg.Epochs = tc.dim, tc.win, 1
		for _, fma := range []bool{true, false} {
			if fma && !hasFMA {
				continue
			}
			b.Run(fmt.Sprintf("%s-d%d-w%d/fma=%v", cfg.name(), tc.dim, tc.win, fma), func(b *testing.B) {
				defer func(old bool) { hasFMA = old }(hasFMA)
				hasFMA = fma
				m := startMeter()
				for i := 0; i < b.N; i++ {
					_, err := TrainWord2Vec(context.Background(), c, cfg)
					require.NoError(b, err)
				}
				m.report(b, words(b, c, cfg.Epochs), "words")
			})
		}
	}
}

func BenchmarkFastText(b *testing.B) {
	c := benchCorpus()
	for _, dim := range []int{100, 300} {
		cfg := DefaultFastText()
		cfg.Dim, cfg.Epochs = dim, 1
		b.Run(fmt.Sprintf("d%d-w5", dim), func(b *testing.B) {
			m := startMeter()
			for i := 0; i < b.N; i++ {
				_, err := TrainFastText(context.Background(), c, cfg)
				require.NoError(b, err)
			}
			m.report(b, words(b, c, cfg.Epochs), "words")
		})
	}
}

func BenchmarkGloVe(b *testing.B) {
	c := benchCorpus()
	x := cooccur(b, c, 15)
	cfg := DefaultGloVe()
	cfg.Epochs = 1
	for _, dim := range []int{50, 300} {
		cfg.Dim = dim
		b.Run(fmt.Sprintf("d%d", dim), func(b *testing.B) {
			m := startMeter()
			for i := 0; i < b.N; i++ {
				_, err := TrainGloVe(context.Background(), x, c.Words, c.SkipID, cfg)
				require.NoError(b, err)
			}
			m.report(b, float64(x.NNZ())*float64(cfg.Epochs)*float64(b.N), "nnz")
		})
	}
}

// BenchmarkText8 trains one epoch of each baseline on text8_prefix (2.14M
// tokens, min count 5, <unk> skipped) with the settings of the gensim
// timings quoted in the package report (d300, w10); GloVe uses the first
// 500k tokens, window 10. Needs KCALAB_DATA; run with -benchtime=1x.
func BenchmarkText8(b *testing.B) {
	c := buildCorpus(text8Prefix(b, 0), 5)
	b.Logf("text8_prefix: %d tokens, %d words", len(c.Tokens), len(c.Words))
	ctx := context.Background()
	run := func(name string, epochs int, train func() error) {
		b.Run(name, func(b *testing.B) {
			m := startMeter()
			for i := 0; i < b.N; i++ {
				require.NoError(b, train())
			}
			m.report(b, words(b, c, epochs), "words")
		})
	}
	sg := DefaultSGNS()
	sg.Dim, sg.Window, sg.Epochs = 300, 10, 1
	run("sgns-d300-w10", 1, func() error { _, err := TrainWord2Vec(ctx, c, sg); return err })
	cb := DefaultCBOW()
	cb.Dim, cb.Window, cb.Epochs = 300, 10, 1
	run("cbow-d300-w10", 1, func() error { _, err := TrainWord2Vec(ctx, c, cb); return err })
	ft := DefaultFastText()
	ft.Dim, ft.Epochs = 300, 1
	run("fasttext-d300-w5", 1, func() error { _, err := TrainFastText(ctx, c, ft); return err })

	gc := buildCorpus(text8Prefix(b, 500000), 5)
	x := cooccur(b, gc, 10)
	gl := DefaultGloVe()
	gl.Epochs = 1
	b.Run("glove-d50", func(b *testing.B) {
		m := startMeter()
		for i := 0; i < b.N; i++ {
			_, err := TrainGloVe(ctx, x, gc.Words, gc.SkipID, gl)
			require.NoError(b, err)
		}
		m.report(b, float64(x.NNZ())*float64(b.N), "nnz")
	})
}
