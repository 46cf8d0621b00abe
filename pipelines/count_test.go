package pipelines

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"kcalab/datasets/corpus"
	"kcalab/datasets/datatest"
	"kcalab/datasets/sparse"
)

// The tests run on Beam's in-process prism runner unless -runner says
// otherwise.
func TestMain(m *testing.M) { ptest.MainWithDefault(m, "prism") }

// runPipeline counts shards into a fresh directory on the test's runner.
func runPipeline(t *testing.T, o Options) string {
	t.Helper()
	o.Out = filepath.Join(t.TempDir(), "tables")
	p, err := NewPipeline(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	t.Logf("pipeline over %d shards, W = %d: %v", len(o.Shards), o.Window, time.Since(start).Round(time.Millisecond))
	return o.Out
}

// harnessDir counts text the harness's way (corpus.Build, NewTables) and
// writes its table directory.
func harnessDir(t *testing.T, c *corpus.Corpus, vo corpus.VocabOptions, w int) (string, *corpus.Tables) {
	t.Helper()
	ctx := context.Background()
	v, ids, err := corpus.Build(ctx, c, vo)
	if err != nil {
		t.Fatal(err)
	}
	tabs, err := corpus.NewTables(v, ids, corpus.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "harness")
	if err := corpus.WriteTableDir(ctx, dir, tabs, w, "harness"); err != nil {
		t.Fatal(err)
	}
	return dir, tabs
}

// sameDirs requires the two table directories to hold the same bytes in
// every file, and manifests that differ in their Source only.
func sameDirs(t *testing.T, want, got string) {
	t.Helper()
	read := func(dir string) corpus.TableDir {
		b, err := os.ReadFile(filepath.Join(dir, corpus.ManifestFile))
		if err != nil {
			t.Fatal(err)
		}
		var d corpus.TableDir
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		d.Source = ""
		return d
	}
	wm, gm := read(want), read(got)
	if fmt.Sprint(wm) != fmt.Sprint(gm) {
		t.Fatalf("manifests differ:\nharness  %+v\npipeline %+v", wm, gm)
	}
	for _, f := range wm.Files {
		wb, err := os.ReadFile(filepath.Join(want, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		gb, err := os.ReadFile(filepath.Join(got, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(wb, gb) {
			t.Errorf("%s differs: harness %d bytes, pipeline %d bytes", f.Name, len(wb), len(gb))
		}
	}
}

// sameTables requires every table a spec can ask for (any kind, window,
// symmetric) to read back from the pipeline's directory with the bits the
// harness counts.
func sameTables(t *testing.T, counted *corpus.Tables, dir string, w int) {
	t.Helper()
	ctx := context.Background()
	stored, err := corpus.OpenTableDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for win := 1; win <= w; win++ {
		for _, kind := range corpus.Kinds {
			for _, sym := range []bool{false, true} {
				s := corpus.Spec{Kind: kind, Window: win, Symmetric: sym}
				if s.Validate() != nil {
					continue
				}
				a, err := counted.Table(ctx, s)
				if err != nil {
					t.Fatal(err)
				}
				b, err := stored.Table(ctx, s)
				if err != nil {
					t.Fatal(err)
				}
				if !sameCSR(a, b) {
					t.Errorf("%+v: pipeline's table differs from the harness's", s)
				}
			}
		}
	}
}

func sameCSR(a, b *sparse.CSR) bool {
	var x, y bytes.Buffer
	if _, err := a.WriteTo(&x); err != nil {
		return false
	}
	if _, err := b.WriteTo(&y); err != nil {
		return false
	}
	return bytes.Equal(x.Bytes(), y.Bytes())
}

// A small corpus cut into awkward shards: an empty one, a one-token one,
// one shorter than the window, shards without a final line end, a literal
// <unk>. Pairs span up to three shards.
func TestTinyCorpus(t *testing.T) {
	shards := []string{
		"the cat sat on the mat\nthe dog",
		"",
		"sat",
		" on the log a cat",
		"and a dog sat on the mat <unk> the",
		"end",
		"zebra the cat sat on the dog\n",
		"the cat",
	}
	dir := t.TempDir()
	var paths []string
	for i, s := range shards {
		p := filepath.Join(dir, fmt.Sprintf("shard-%02d.txt", i))
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	joined := filepath.Join(dir, "joined.txt")
	if err := os.WriteFile(joined, []byte(strings.Join(shards, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		vo   corpus.VocabOptions
		w    int
	}{
		{"unk", corpus.VocabOptions{MinCount: 2}, 4},
		{"drop", corpus.VocabOptions{MinCount: 2, OOV: corpus.OOVDrop}, 3},
		{"max size", corpus.VocabOptions{MinCount: 1, MaxSize: 4}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := corpus.Open(context.Background(), "", joined, corpus.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want, counted := harnessDir(t, c, tc.vo, tc.w)
			// Two rows a block: the merge, derive and write stages see
			// several blocks per table.
			got := runPipeline(t, Options{Shards: paths, Window: tc.w, Vocab: tc.vo, RowsPerBlock: 2})
			sameDirs(t, want, got)
			sameTables(t, counted, got, tc.w)
		})
	}
}

// A finished table directory is never written over.
func TestRefusesFinishedDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, corpus.ManifestFile), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := NewPipeline(context.Background(), Options{Shards: []string{"x"}, Out: dir, Window: 2})
	if err == nil || !strings.Contains(err.Error(), "already holds tables") {
		t.Fatalf("err = %v, want a refusal", err)
	}
	for _, o := range []Options{
		{Out: dir, Window: 2},
		{Shards: []string{"x"}, Out: t.TempDir()},
		{Shards: []string{"x"}, Out: t.TempDir(), Window: 2, Vocab: corpus.VocabOptions{OOV: "keep"}},
		{Shards: []string{"x"}, Out: t.TempDir(), Window: 2, Vocab: corpus.VocabOptions{MinCount: -1}},
		{Shards: []string{"x"}, Out: t.TempDir(), Window: 2, Vocab: corpus.VocabOptions{MaxSize: -1}},
	} {
		if _, err := NewPipeline(context.Background(), o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

var text8Window = flag.Int("text8_window", 5, "window of the text8_prefix pipeline test")

// text8_prefix in 4 shards: the pipeline's files are the harness's, byte
// for byte. W = 5 keeps the run near a minute on a shared 2-core machine;
// -args -text8_window 24 runs the paper's window.
func TestText8PrefixShards(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the text8_prefix pipeline run")
	}
	path := datatest.File(t, "text8_prefix.zip")
	ctx := context.Background()
	c, err := corpus.Open(ctx, filepath.Dir(path), "text8_prefix", corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var toks []string
	if err := c.Scan(ctx, func(tok []byte) error { toks = append(toks, string(tok)); return nil }); err != nil {
		t.Fatal(err)
	}
	const nShards = 4
	w := *text8Window
	dir := t.TempDir()
	var paths []string
	for i := range nShards {
		part := toks[len(toks)*i/nShards : len(toks)*(i+1)/nShards]
		p := filepath.Join(dir, fmt.Sprintf("text8_prefix-%d-of-%d.txt", i, nShards))
		if err := os.WriteFile(p, []byte(strings.Join(part, " ")), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	vo := corpus.VocabOptions{MinCount: 5}
	start := time.Now()
	want, _ := harnessDir(t, c, vo, w)
	t.Logf("harness: %d tokens, W = %d: %v", len(toks), w, time.Since(start).Round(time.Millisecond))
	got := runPipeline(t, Options{Shards: paths, Window: w, Vocab: vo})
	sameDirs(t, want, got)
}
