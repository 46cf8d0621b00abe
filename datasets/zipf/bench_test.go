package zipf

import (
	"context"
	"io"
	"runtime"
	"runtime/metrics"
	"testing"
)

// BenchmarkWrite10M writes 10 M tokens of the calibrated corpus to
// io.Discard and reports the heap in use at the end (the generator's
// tables; the corpus is never held) and the peak of the Go runtime's
// mapped memory, as the streaming claims' evidence:
//
//	go test -run '^$' -bench Write10M -benchmem ./datasets/zipf
func BenchmarkWrite10M(b *testing.B) {
	const n = 10_000_000
	p := Calibrated()
	for b.Loop() {
		if err := Write(context.Background(), io.Discard, p, n); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	b.ReportMetric(float64(s[0].Value.Uint64())/(1<<20), "runtime-MB")
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heapsys-MB")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/token")
}
