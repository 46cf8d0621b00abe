package corpus

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"kcalab/datasets/sparse"
)

// Benchmarks on text8_prefix ($KCALAB_DATA). Besides ns/op and B/op they
// report the process CPU time per op (less inflated than wall time by other
// load on a shared machine), the tables' size, and the heap during the
// operation, sampled every millisecond (live objects and not-yet-collected
// garbage): peak_heap is absolute (it includes what the benchmark keeps,
// such as the id streams of every section), peak_growth the rise over the
// heap just before counting, which holds the id stream being counted; their
// ratio to the tables' size is the memory overhead of counting.

var (
	benchOnce  sync.Once
	benchVocab map[float64]*Vocab
	benchIDs   map[float64][]int32
)

func benchData(b *testing.B, frac float64) (*Vocab, []int32) {
	b.Helper()
	c := prefixCorpus(b, Options{})
	benchOnce.Do(func() {
		benchVocab, benchIDs = map[float64]*Vocab{}, map[float64][]int32{}
	})
	if v, ok := benchVocab[frac]; ok {
		return v, benchIDs[frac]
	}
	if frac != 1 {
		var err error
		c, err = Open(context.Background(), filepath.Dir(c.Path), "text8_prefix", Options{Fraction: frac})
		if err != nil {
			b.Fatal(err)
		}
	}
	v, ids, err := Build(context.Background(), c, VocabOptions{})
	if err != nil {
		b.Fatal(err)
	}
	benchVocab[frac], benchIDs[frac] = v, ids
	return v, ids
}

// peakHeap samples the heap while it runs.
type peakHeap struct {
	stop chan struct{}
	done chan uint64
}

func heapBytes(s []metrics.Sample) uint64 {
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func startPeak() *peakHeap {
	p := &peakHeap{stop: make(chan struct{}), done: make(chan uint64)}
	go func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak uint64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, heapBytes(s))
			select {
			case <-p.stop:
				p.done <- max(peak, heapBytes(s))
				return
			case <-tick.C:
			}
		}
	}()
	return p
}

func (p *peakHeap) end() uint64 {
	close(p.stop)
	return <-p.done
}

func tablesBytes(ms []*sparse.CSR) int64 {
	var n int64
	for _, m := range ms {
		n += m.Bytes()
	}
	return n
}

func benchOffsets(b *testing.B, v *Vocab, ids []int32, w int) {
	var peak, growth uint64
	var tb int64
	var cpu time.Duration
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		t, err := NewTables(v, ids, TableOptions{})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		base := heapBytes([]metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}})
		p := startPeak()
		c0 := cpuTime()
		b.StartTimer()
		offs, err := t.Offsets(context.Background(), w)
		b.StopTimer()
		cpu += cpuTime() - c0
		pk := p.end()
		peak = max(peak, pk)
		growth = max(growth, pk-min(base, pk))
		if err != nil {
			b.Fatal(err)
		}
		tb = tablesBytes(offs)
		b.StartTimer()
	}
	b.ReportMetric(float64(tb)/(1<<20), "tables_MiB")
	b.ReportMetric(float64(peak)/(1<<20), "peak_heap_MiB")
	b.ReportMetric(float64(growth)/(1<<20), "peak_growth_MiB")
	b.ReportMetric(float64(growth+uint64(4*len(ids)))/float64(tb), "(growth+ids)/tables")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu_s/op")
}

// BenchmarkOffsets counts N^1 … N^24 of text8_prefix (2,139,749 tokens,
// V = 22,542), the paper's window, without the cache.
func BenchmarkOffsets(b *testing.B) {
	v, ids := benchData(b, 1)
	benchOffsets(b, v, ids, 24)
}

// BenchmarkOffsetsScaling counts the 24 offsets of initial sections of
// text8_prefix, each with its own vocabulary (the scaling experiment).
func BenchmarkOffsetsScaling(b *testing.B) {
	for _, f := range []struct {
		name string
		frac float64
	}{{"1_8", 1.0 / 8}, {"1_4", 1.0 / 4}, {"1_2", 1.0 / 2}, {"1_1", 1}} {
		v, ids := benchData(b, f.frac)
		b.Run(fmt.Sprintf("frac=%s/tokens=%d/V=%d", f.name, len(ids), v.Size()), func(b *testing.B) {
			benchOffsets(b, v, ids, 24)
		})
	}
}

// BenchmarkBuild reads and tokenises text8_prefix and builds its vocabulary.
func BenchmarkBuild(b *testing.B) {
	c := prefixCorpus(b, Options{})
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Build(context.Background(), c, VocabOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(2_139_749/b.Elapsed().Seconds()*float64(b.N)/1e6, "Mtokens/s")
}

// BenchmarkCombine builds each table kind from the 24 offsets.
func BenchmarkCombine(b *testing.B) {
	v, ids := benchData(b, 1)
	t, err := NewTables(v, ids, TableOptions{})
	if err != nil {
		b.Fatal(err)
	}
	offs, err := t.Offsets(context.Background(), 24)
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range []Spec{{Kind: Flat, Window: 24}, {Kind: Skip, Window: 24}, {Kind: Cut, Window: 24},
		{Kind: Glove, Window: 24}, {Kind: Flat, Window: 24, Symmetric: true}} {
		name := string(s.Kind)
		if s.Symmetric {
			name += "_sym"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var m *sparse.CSR
			c0 := cpuTime()
			for b.Loop() {
				if m, err = Combine(offs, s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuTime()-c0).Seconds()/float64(b.N), "cpu_s/op")
			b.ReportMetric(float64(m.NNZ()), "nnz")
		})
	}
}

// BenchmarkCacheLoad loads the 24 offsets of text8_prefix from the cache.
func BenchmarkCacheLoad(b *testing.B) {
	v, ids := benchData(b, 1)
	dir := b.TempDir()
	t, err := NewTables(v, ids, TableOptions{CacheDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := t.Offsets(context.Background(), 24); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := t.Offsets(context.Background(), 24); err != nil {
			b.Fatal(err)
		}
	}
}
