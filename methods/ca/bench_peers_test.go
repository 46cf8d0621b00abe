//go:build unix

package ca_test

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"kcalab/datasets/sparse"
	"kcalab/methods/ca"
	"kcalab/methods/svd"
)

// BenchmarkSVDPeers times, in one run on the same machine, the SVD stage of
// the paper's word-vector decomposition (text8_prefix's tail-cut table, W =
// 24, V = 22,542) for kcalab's krylov and dssvd backends and for the exact
// peers of issue 13: R's RSpectra::svds and scipy's svds (ARPACK), each run
// as a child process on the same table by the scripts in testdata/peers.
// Every sub-benchmark reports wall and CPU seconds of the decomposition,
// its peak resident set (reset just before it), the column-products and
// σ_1, σ_d; a peer that is not installed is skipped with the package to
// install (Debian: r-cran-rspectra, python3-scipy).
//
//	KCALAB_DATA=/work/shared/data go test ./methods/ca -run '^$' -bench SVDPeers -benchtime=1x
func BenchmarkSVDPeers(b *testing.B) {
	n := wordsTable(b)
	op, err := ca.NewCAOperator(n)
	if err != nil {
		b.Fatal(err)
	}
	table := filepath.Join(b.TempDir(), "table.bin")
	if err := writePeerTable(table, n); err != nil {
		b.Fatal(err)
	}
	for _, d := range []int{300, 1000} {
		b.Run(fmt.Sprintf("d=%d/krylov", d), func(b *testing.B) {
			benchBackend(b, op, n, svd.Krylov{}, svd.DefaultOptions(d))
		})
		b.Run(fmt.Sprintf("d=%d/dssvd", d), func(b *testing.B) {
			benchBackend(b, op, n, svd.DSSVD{}, svd.Options{Rank: d, Oversample: 10, PowerIters: -1, Normalizer: "lu", Seed: 1})
		})
		b.Run(fmt.Sprintf("d=%d/rspectra", d), func(b *testing.B) {
			benchPeer(b, d, []string{"Rscript", "-e", "library(RSpectra)"}, "r-cran-rspectra",
				"Rscript", filepath.Join("testdata", "peers", "svds_rspectra.R"), table, strconv.Itoa(d))
		})
		b.Run(fmt.Sprintf("d=%d/scipy", d), func(b *testing.B) {
			benchPeer(b, d, []string{"/usr/bin/python3", "-c", "import scipy.sparse.linalg"}, "python3-scipy",
				"/usr/bin/python3", filepath.Join("testdata", "peers", "svds_scipy.py"), table, strconv.Itoa(d))
		})
	}
}

// benchBackend runs one kcalab backend as benchWords does, reporting the
// same metrics as the peers.
func benchBackend(b *testing.B, op svd.Operator, n *sparse.CSR, backend svd.Backend, opt svd.Options) {
	var res *svd.Result
	var cpu time.Duration
	var rss uint64
	for b.Loop() {
		b.StopTimer()
		res = nil
		resetPeakRSS()
		c0 := cpuTime()
		b.StartTimer()
		var err error
		res, err = backend.Decompose(context.Background(), op, opt)
		b.StopTimer()
		cpu += cpuTime() - c0
		rss = max(rss, peakRSS())
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu_s/op")
	b.ReportMetric(float64(rss)/1e6, "max_rss_MB")
	b.ReportMetric(float64(res.Products), "products")
	b.ReportMetric(res.S[0], "σ_1")
	b.ReportMetric(res.S[opt.Rank-1], "σ_d")
	b.Logf("%s d=%d: σ_1..5 = %.5f, σ_%d = %.6g, %d products", backend.Name(), opt.Rank, res.S[:5], opt.Rank, res.S[opt.Rank-1], res.Products)
}

// benchPeer runs a peer script, which times its own decomposition (not the
// interpreter's start or reading the table) and prints key=value pairs.
func benchPeer(b *testing.B, d int, probe []string, pkg string, argv ...string) {
	if err := exec.Command(probe[0], probe[1:]...).Run(); err != nil {
		b.Skipf("%s is not installed (Debian: apt install %s): %v", probe[0], pkg, err)
	}
	var kv map[string]string
	var wall, cpu float64
	for b.Loop() {
		out, err := exec.Command(argv[0], argv[1:]...).Output()
		if err != nil {
			b.Fatalf("%s: %v", strings.Join(argv, " "), err)
		}
		if kv, err = parsePeerLine(out); err != nil {
			b.Fatalf("%s: %v", strings.Join(argv, " "), err)
		}
		wall += peerFloat(b, kv, "seconds")
		cpu += peerFloat(b, kv, "cpu_seconds")
	}
	// ns/op would time the interpreter and the reading too: the peer's own
	// clock is the comparable number.
	b.ReportMetric(wall/float64(b.N), "svd_s/op")
	b.ReportMetric(cpu/float64(b.N), "cpu_s/op")
	b.ReportMetric(peerFloat(b, kv, "peak_rss_mb")*(1<<20)/1e6, "max_rss_MB")
	b.ReportMetric(peerFloat(b, kv, "products"), "products")
	b.ReportMetric(peerFloat(b, kv, "sigma_k"), "σ_d")
	b.Logf("%s d=%d: σ_1..5 = %s, σ_%d = %s, %s products", kv["peer"], d, kv["sigma1_5"], d, kv["sigma_k"], kv["products"])
}

func parsePeerLine(out []byte) (map[string]string, error) {
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "peer=") {
			continue
		}
		kv := map[string]string{}
		for f := range strings.FieldsSeq(line) {
			k, v, ok := strings.Cut(f, "=")
			if !ok {
				return nil, fmt.Errorf("field %q is not key=value", f)
			}
			kv[k] = v
		}
		return kv, nil
	}
	return nil, fmt.Errorf("no peer= line in its output %q", out)
}

func peerFloat(b *testing.B, kv map[string]string, key string) float64 {
	v, err := strconv.ParseFloat(kv[key], 64)
	if err != nil || math.IsNaN(v) {
		b.Fatalf("peer output: %s = %q is not a number", key, kv[key])
	}
	return v
}

// writePeerTable writes n in the peers' binary CSR layout (see
// testdata/peers/svds_rspectra.R).
func writePeerTable(path string, n *sparse.CSR) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	r, c := n.Dims()
	indptr, indices, data := n.Raw()
	hdr := []float64{float64(r), float64(c), float64(len(data))}
	ptr := make([]float64, len(indptr))
	for i, p := range indptr {
		ptr[i] = float64(p)
	}
	for _, part := range []any{hdr, ptr, indices, data} {
		if err := binary.Write(w, binary.LittleEndian, part); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
