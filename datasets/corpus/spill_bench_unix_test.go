//go:build unix

package corpus

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"kcalab/datasets/sparse"
	"kcalab/internal/peakrss"
)

// peakRSS is the process's peak resident set in bytes (package peakrss:
// VmHWM, which does not inherit the go command's): it counts everything the
// process ever held, heap or not, so run the benchmark alone (-run '^$'
// -bench BenchmarkCountOutOfCore).
func peakRSS() int64 { return int64(peakrss.Self()) }

// BenchmarkCountOutOfCore counts N^1 … N^24 (the paper's W = 24) of a
// Zipf(s = 1.1) stream over V = 71,000 words (text8's vocabulary at min
// count 5) within a 2 GiB budget (data.memory_mb's default), generating the
// stream as it goes so the corpus is never held whole. Each finished table
// is measured and dropped. $KCALAB_BENCH_TOKENS sets the length (default
// 100 M); $KCALAB_BENCH_MEMORY_MB the budget. Reports peak RSS (getrusage)
// and the peak Go heap (sampled), against the budget.
func BenchmarkCountOutOfCore(b *testing.B) {
	tokens := envInt(b, "KCALAB_BENCH_TOKENS", 100_000_000)
	budget := int64(envInt(b, "KCALAB_BENCH_MEMORY_MB", 2048)) << 20
	const v, w = 71_000, 24
	ks := make([]int, w)
	for i := range ks {
		ks[i] = i + 1
	}
	for b.Loop() {
		c, err := NewCounter(v, ks, CounterOptions{MemoryBytes: budget, TempDir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		p := startPeak()
		t0, cpu0 := time.Now(), cpuTime()
		r := rand.New(rand.NewPCG(1, 2))
		z := rand.NewZipf(r, 1.1, 1, v-1)
		piece := make([]int32, 1<<16)
		for done := 0; done < tokens; done += len(piece) {
			piece = piece[:min(len(piece), tokens-done)]
			for i := range piece {
				piece[i] = int32(z.Uint64())
			}
			if err := c.Add(context.Background(), piece); err != nil {
				b.Fatal(err)
			}
		}
		tCount := time.Since(t0)
		var nnz, maxTable int64
		err = c.Finish(context.Background(), func(k int, m *sparse.CSR) error {
			nnz += int64(m.NNZ())
			maxTable = max(maxTable, m.Bytes())
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		elapsed, cpu := time.Since(t0), cpuTime()-cpu0
		heap := p.end()
		st := c.Stats()
		if err := c.Close(); err != nil {
			b.Fatal(err)
		}
		rss := peakRSS()
		b.ReportMetric(float64(tokens)/1e6, "Mtokens")
		b.ReportMetric(float64(budget)/(1<<20), "budget_MiB")
		b.ReportMetric(float64(rss)/(1<<20), "peak_rss_MiB")
		b.ReportMetric(float64(heap)/(1<<20), "peak_heap_MiB")
		b.ReportMetric(float64(maxTable)/(1<<20), "largest_table_MiB")
		b.ReportMetric(float64(nnz)/1e6, "Mnnz_all_tables")
		b.ReportMetric(float64(st.Spills), "spills")
		b.ReportMetric(float64(st.ShardBytes)/(1<<30), "shard_GiB")
		b.ReportMetric(tCount.Seconds(), "count_s")
		b.ReportMetric((elapsed - tCount).Seconds(), "finish_s")
		b.ReportMetric(cpu.Seconds(), "cpu_s")
		b.Logf("%d tokens, V = %d, W = %d, budget %d MiB: %d chunks of %d tokens, arena %d MiB, %d spills (%.2f GiB of shards), %.1f M non-zeros, largest table %.0f MiB; stream %v, finish (last chunk and merge) %v, CPU %v; peak RSS %.0f MiB, peak heap %.0f MiB",
			tokens, v, w, budget>>20, st.Chunks, st.Plan.ChunkTokens, st.Plan.ArenaBytes>>20, st.Spills, float64(st.ShardBytes)/(1<<30),
			float64(nnz)/1e6, float64(maxTable)/(1<<20), tCount.Round(time.Second), (elapsed - tCount).Round(time.Second), cpu.Round(time.Second), float64(rss)/(1<<20), float64(heap)/(1<<20))
		// The budget bounds counting; a finished table (handed over one
		// at a time) comes on top. Past both, the bound failed.
		if limit := budget + 2*maxTable + 256<<20; rss > limit {
			b.Errorf("peak RSS %d MiB over the budget %d MiB + twice the largest table %d MiB + 256 MiB runtime slack", rss>>20, budget>>20, maxTable>>20)
		}
	}
}

func envInt(b *testing.B, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		b.Fatalf("$%s = %q: want a positive integer", name, s)
	}
	return n
}
