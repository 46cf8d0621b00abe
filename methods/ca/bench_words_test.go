//go:build unix

package ca_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"syscall"
	"testing"
	"time"

	"kcalab/datasets/corpus"
	"kcalab/datasets/datatest"
	"kcalab/datasets/sparse"
	"kcalab/internal/peakrss"
	"kcalab/methods/ca"
	"kcalab/methods/svd"
)

// BenchmarkDSSVDWords runs the paper's word-vector SVD: DSSVD (paper
// settings, LU normaliser, seed 1) of the CA operator of text8_prefix's
// tail-cut table (V = 22,542 with <unk>, W = 24), for d = 300 and 1000.
// Building the table is not timed. Besides ns/op it reports, per
// decomposition, the process CPU time, the peak Go heap (live objects and
// uncollected garbage, sampled every millisecond) and its rise over the
// heap just before (which holds the table), and the process's peak
// resident set (Linux: VmHWM after resetting it; elsewhere the maximum RSS
// since the process started, which may come from building the table).
//
//	KCALAB_DATA=/work/shared/data go test ./methods/ca -run '^$' -bench DSSVDWords -benchtime=1x
func BenchmarkDSSVDWords(b *testing.B) {
	benchWords(b, svd.DSSVD{}, func(d int) svd.Options {
		return svd.Options{Rank: d, Oversample: 10, PowerIters: -1, Normalizer: "lu", Seed: 1, Check: true}
	})
}

// BenchmarkKrylovWords is BenchmarkDSSVDWords for the converged krylov
// backend at its default tolerance (seed 1). It also reports the column
// products, the largest residual relative to σ_1 and σ_1, σ_d.
//
//	KCALAB_DATA=/work/shared/data go test ./methods/ca -run '^$' -bench KrylovWords -benchtime=1x
func BenchmarkKrylovWords(b *testing.B) {
	benchWords(b, svd.Krylov{}, svd.DefaultOptions)
}

func benchWords(b *testing.B, backend svd.Backend, options func(d int) svd.Options) {
	n := wordsTable(b)
	op, err := ca.NewCAOperator(n)
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range []int{300, 1000} {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			opt := options(d)
			// The sketch's residuals too, measured after the timed part.
			check := opt.Check
			opt.Check = false
			var peak, growth, rss uint64
			var cpu time.Duration
			var res *svd.Result
			for b.Loop() {
				b.StopTimer()
				res = nil
				runtime.GC()
				resetPeakRSS()
				base := heapObjects()
				p := startHeapPeak()
				c0 := cpuTime()
				b.StartTimer()
				res, err = backend.Decompose(context.Background(), op, opt)
				b.StopTimer()
				cpu += cpuTime() - c0
				pk := p.end()
				peak, growth = max(peak, pk), max(growth, pk-min(base, pk))
				rss = max(rss, peakRSS())
				if err != nil {
					b.Fatal(err)
				}
				if len(res.S) != d {
					b.Fatalf("%d singular values, want %d", len(res.S), d)
				}
				if check && res.Accuracy == nil {
					if res.Accuracy, err = svd.Check(context.Background(), op, res); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
			}
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu_s/op")
			b.ReportMetric(float64(peak)/1e6, "peak_heap_MB")
			b.ReportMetric(float64(growth)/1e6, "peak_growth_MB")
			b.ReportMetric(float64(rss)/1e6, "max_rss_MB")
			b.ReportMetric(float64(n.NNZ()), "nnz")
			b.ReportMetric(float64(res.Products), "products")
			rel := math.NaN()
			if res.Accuracy != nil {
				rel = res.Accuracy.RelResidual
				b.ReportMetric(rel*1e9, "residual_ppb_of_σ1")
			}
			b.ReportMetric(res.S[0], "σ_1")
			b.ReportMetric(res.S[d-1], "σ_d")
			b.Logf("%s d=%d: σ_1..5 = %.5f, σ_%d = %.5f, %d products, largest residual %.2e·σ_1",
				backend.Name(), d, res.S[:5], d, res.S[d-1], res.Products, rel)
		})
	}
}

var words struct {
	once sync.Once
	n    *sparse.CSR
	err  error
}

// wordsTable builds text8_prefix's tail-cut W = 24 table once per process.
// The offset tables are cached under the system temporary directory, so
// later runs skip the counting.
func wordsTable(b *testing.B) *sparse.CSR {
	b.Helper()
	dir := datatest.Dir(b)
	words.once.Do(func() {
		ctx := context.Background()
		c, err := corpus.Open(ctx, dir, "text8_prefix", corpus.Options{})
		if err != nil {
			words.err = err
			return
		}
		v, ids, err := corpus.Build(ctx, c, corpus.VocabOptions{MinCount: 5})
		if err != nil {
			words.err = err
			return
		}
		cache := filepath.Join(os.TempDir(), "kcalab-bench-words-cache")
		tabs, err := corpus.NewTables(v, ids, corpus.TableOptions{CacheDir: cache})
		if err != nil {
			words.err = err
			return
		}
		words.n, words.err = tabs.Table(ctx, corpus.Spec{Kind: corpus.Cut, Window: 24})
	})
	if words.err != nil {
		b.Fatalf("text8_prefix tail-cut table: %v", words.err)
	}
	return words.n
}

func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// heapPeak samples the heap every millisecond until end.
type heapPeak struct {
	stop chan struct{}
	done chan uint64
}

func startHeapPeak() *heapPeak {
	p := &heapPeak{stop: make(chan struct{}), done: make(chan uint64)}
	go func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		var peak uint64
		for {
			peak = max(peak, heapObjects())
			select {
			case <-p.stop:
				p.done <- max(peak, heapObjects())
				return
			case <-tick.C:
			}
		}
	}()
	return p
}

func (p *heapPeak) end() uint64 {
	close(p.stop)
	return <-p.done
}

// cpuTime is the process's user + system CPU time, which other load on a
// shared machine inflates less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// resetPeakRSS and peakRSS measure the decomposition alone (package peakrss).
func resetPeakRSS()   { peakrss.Reset() }
func peakRSS() uint64 { return peakrss.Self() }
