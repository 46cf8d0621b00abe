package harness_test

import (
	"context"
	"fmt"
	"kcalab/harness"
	_ "kcalab/harness/builtin"
	"kcalab/records"
	"kcalab/schema"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kcalab/datasets/corpus"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A word-vector spec on the synthetic corpus (no data needed): every CA
// method separates the planted clusters, and two runs, with different job
// counts, give identical scores.
func TestWordSpecDeterministic(t *testing.T) {
	dir := t.TempDir()
	// Tuning pairs for SCA: synthetic words are named c<cluster>w<word>.
	var pairs strings.Builder
	for c := 0; c < 4; c++ {
		for w := 0; w+1 < 8; w++ {
			fmt.Fprintf(&pairs, "c%dw%02d\tc%dw%02d\t%d\n", c, w, c, w+1, 5+w%3)
			fmt.Fprintf(&pairs, "c%dw%02d\tc%dw%02d\t%d\n", c, w, (c+1)%4, w, w%2)
		}
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pairs.txt"), []byte(pairs.String()), 0o644))
	spec := `
name: words
seed: 5
data: {source: synthetic, window: 5}
synthetic: {clusters: 4, words: 8, tokens: 20000, noise: 0.3}
eval: {sets: [synthetic]}
svd: {rank: 6}
variants:
  - {label: tail-cut, method: kca, data: {table: cut}}
  - {label: flat, method: lca, data: {table: flat}}
  - {label: skip, method: lca, data: {table: skip}, svd: {backend: [dense, dssvd]}}
  - {label: sppmi, method: kca, kca: {kernel: sppmi}, data: {table: flat}}
  - {label: gini, method: gini, data: {table: flat}}
  - {label: sca in, method: sca, sca: {set: pairs.txt, mode: in-sample}, data: {table: skip}}
  - {label: sca folds, method: sca, sca: {set: pairs.txt, mode: folds, folds: 4}, data: {table: skip}}
  - {label: sca paper, method: sca, sca: {set: pairs.txt, mode: folds, folds: 4, form: paper}, data: {table: skip}}
`
	path := filepath.Join(dir, "words.yaml")
	require.NoError(t, os.WriteFile(path, []byte(spec), 0o644))
	var runs [][]records.Record
	for _, jobs := range []int{1, 3} {
		s, err := schema.LoadSpec(path)
		require.NoError(t, err)
		s.Output = t.TempDir()
		res, err := (&harness.Runner{Jobs: jobs}).Run(context.Background(), s)
		require.NoError(t, err)
		runs = append(runs, res.Records)
	}
	assert.Empty(t, records.CompareRuns(runs[0], runs[1]))
	require.Len(t, runs[0], 9)
	for _, rec := range runs[0] {
		label := rec.Settings["label"]
		require.Equal(t, "ok", rec.Status, "%v: %s", label, rec.Error)
		rho := rec.Metrics["spearman.zero.synthetic"]
		assert.Greater(t, rho, 0.6, "%v separates the clusters", label)
		assert.Equal(t, 1.0, rec.Metrics["coverage.synthetic"])
		assert.Equal(t, 32.0, rec.Metrics["vocab"])
	}
	// dense and dssvd agree on the word vectors' scores.
	assert.InDelta(t, runs[0][2].Metrics["spearman.zero.synthetic"], runs[0][3].Metrics["spearman.zero.synthetic"], 1e-9)
	assert.Equal(t, "dense", runs[0][2].Backend)
	assert.Equal(t, "dssvd", runs[0][3].Backend)
}

// A bad kernel/table combination is a clear error (an unknown set name
// fails earlier, when the spec is decoded: TestSpecBuiltinNames).
func TestWordSpecErrors(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"tailcut needs cut", "method: kca\ndata: {source: synthetic, table: flat}\neval: {sets: [synthetic]}\n", "kca.kernel tailcut is CA of the tail-cut table: set data.table: cut"},
		{"sca on a table", "method: sca\ndata: {source: fisher}\n", `method "sca" needs a corpus`},
		{"rank too large", "method: lca\ndata: {source: synthetic}\neval: {sets: [synthetic]}\nsvd: {rank: 500}\n", "svd.rank = 500 is too large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := schema.DecodeSpec([]byte("name: e\n"+tc.body), "")
			require.NoError(t, err)
			s.Output = t.TempDir()
			res, err := (&harness.Runner{}).Run(context.Background(), s)
			require.Error(t, err)
			assert.Contains(t, res.Records[0].Error, tc.want)
		})
	}
}

// Every word decomposition records how converged it is: krylov meets
// svd.tol, a sketch reports its (larger) residual; both give the same
// leading singular values.
func TestSVDAccuracyRecorded(t *testing.T) {
	path := writeSpec(t, `name: acc
data: {source: synthetic, table: flat, window: 3}
synthetic: {clusters: 4, words: 30, tokens: 30000}
eval: {sets: [synthetic]}
method: lca
svd: {rank: 20, backend: [krylov, dssvd], tol: 1e-9}
`)
	s := loadSpecTo(t, path, t.TempDir())
	res, err := (&harness.Runner{}).Run(context.Background(), s)
	require.NoError(t, err)
	require.Len(t, res.Records, 2)
	kr, sk := res.Records[0], res.Records[1]
	require.Equal(t, "krylov", kr.Backend)
	require.NotNil(t, kr.SVD)
	require.NotNil(t, sk.SVD)
	assert.LessOrEqual(t, kr.SVD.RelResidual, 1e-9)
	assert.Equal(t, kr.SVD.RelResidual, kr.Metrics[records.MetricSVDResidual])
	assert.Greater(t, sk.SVD.RelResidual, kr.SVD.RelResidual, "the sketch is not converged")
	assert.Positive(t, kr.Metrics[records.MetricSVDProducts])
	require.Len(t, kr.SVD.S, 20)
	assert.InDelta(t, kr.SVD.S[0], sk.SVD.S[0], 1e-6)
}

// A set no vector covers, or a degenerate table, gives an "ok" trial with
// warnings a reader sees, not a silent missing ρ.
func TestWarnings(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "none.txt"), []byte("zz1 zz2 1\nzz3 zz4 2\nzz1 zz2 3\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "t.csv"), []byte("x,a,b,c\nr1,1,2,0\nr2,2,4,0\nr3,3,6,0\n"), 0o644))
	path := filepath.Join(dir, "w.yaml")
	require.NoError(t, os.WriteFile(path, []byte(`name: w
variants:
  - {method: lca, data: {source: synthetic, table: flat, window: 3}, synthetic: {tokens: 5000}, eval: {sets: [none.txt]}, svd: {rank: 4}}
  - {method: ca, data: {source: csv, csv: t.csv}, svd: {rank: 1}}
`), 0o644))
	s := loadSpecTo(t, path, filepath.Join(dir, "out"))
	var log strings.Builder
	res, err := (&harness.Runner{Log: &log}).Run(context.Background(), s)
	require.NoError(t, err)
	words, table := res.Records[0], res.Records[1]
	assert.Equal(t, "ok", words.Status)
	assert.Contains(t, strings.Join(words.Warnings, "\n"), "none.txt: no ρ under the skip rule")
	assert.Contains(t, log.String(), "none.txt: 1 repeated word pair(s) merged")
	assert.Equal(t, 2.0, words.Metrics["pairs.none.txt"], "the repeat is merged")
	w := strings.Join(table.Warnings, "\n")
	assert.Contains(t, w, `column "c" has no counts`)
	assert.Contains(t, w, "the table is independent")
}

// A directory of counted tables (as the Beam pipeline writes) is a data
// source: CA of it gives the same scores as CA of the corpus it came from.
func TestTablesSource(t *testing.T) {
	dir := t.TempDir()
	var pairs strings.Builder
	for c := 0; c < 4; c++ {
		for w := 0; w+1 < 8; w++ {
			fmt.Fprintf(&pairs, "c%dw%02d c%dw%02d %d\nc%dw%02d c%dw%02d 0\n", c, w, c, w+1, 1+w%3, c, w, (c+1)%4, w)
		}
	}
	set := filepath.Join(dir, "pairs.txt")
	require.NoError(t, os.WriteFile(set, []byte(pairs.String()), 0o644))
	base := "synthetic: {clusters: 4, words: 8, tokens: 20000}\neval: {sets: [" + set + "]}\nmethod: kca\nsvd: {rank: 6, backend: dense}\n"
	path := writeSpec(t, "name: a\ndata: {source: synthetic, table: cut, window: 5}\n"+base)
	s := loadSpecTo(t, path, filepath.Join(dir, "a"))
	r := &harness.Runner{}
	// Count the synthetic corpus through a trial, then write its tables.
	tr := harness.NewTrialRun(r, s, s.Trials()[0])
	wd, err := tr.Words(context.Background())
	require.NoError(t, err)
	tabDir := filepath.Join(dir, "tables")
	require.NoError(t, corpus.WriteTableDir(context.Background(), tabDir, wd.Tables, 5, "synthetic"))

	want, err := r.Run(context.Background(), s)
	require.NoError(t, err)
	s2 := loadSpecTo(t, writeSpec(t, "name: b\ndata: {source: tables, tables: "+tabDir+", table: cut, window: 5}\n"+base), filepath.Join(dir, "b"))
	got, err := (&harness.Runner{}).Run(context.Background(), s2)
	require.NoError(t, err)
	require.Equal(t, "ok", got.Records[0].Status, got.Records[0].Error)
	// The trial ids differ, so do their seeds: the dense backend makes the
	// analysis independent of them.
	for _, k := range []string{"spearman.zero.pairs.txt", "vocab", "nnz", "tokens"} {
		assert.InDelta(t, want.Records[0].Metrics[k], got.Records[0].Metrics[k], 1e-9, k)
	}
	_, err = (&harness.Runner{}).Run(context.Background(), loadSpecTo(t, writeSpec(t, "name: c\ndata: {source: tables, tables: "+tabDir+"}\nmethod: sgns\neval: {sets: ["+set+"]}\n"), filepath.Join(dir, "c")))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot read counted tables")
}

// synthetic.model zipf streams a corpus with text8's statistics.
func TestZipfSource(t *testing.T) {
	path := writeSpec(t, "name: z\ndata: {source: synthetic, table: flat, window: 5}\nsynthetic: {model: zipf, tokens: 200000}\nmethod: lca\nsvd: {rank: 10}\neval: {sets: []}\n")
	s := loadSpecTo(t, path, t.TempDir())
	a, err := (&harness.Runner{}).Run(context.Background(), s)
	require.NoError(t, err)
	rec := a.Records[0]
	require.Equal(t, "ok", rec.Status, rec.Error)
	assert.Equal(t, 200000.0, rec.Metrics["tokens"])
	assert.Greater(t, rec.Metrics["vocab"], 1000.0, "a Zipf vocabulary at min count 5")
	assert.Equal(t, "zipf", rec.Settings["synthetic.model"])
	b, err := (&harness.Runner{Fresh: true}).Run(context.Background(), s)
	require.NoError(t, err)
	assert.Empty(t, records.CompareRuns(a.Records, b.Records), "deterministic from the seed")
}

// A word table above budget.table_mb is decomposed from files in row
// blocks, to the same bits as in memory (the same trial ids and seeds),
// for the matrix-free backends and the dense one; the record says so, and
// no file is left behind.
func TestTableOnDisk(t *testing.T) {
	const spec = `name: disk
data: {source: synthetic, table: flat, window: 3}
synthetic: {clusters: 4, words: 60, tokens: 60000}
eval: {sets: [synthetic]}
method: lca
svd: {rank: 10, backend: [krylov, dssvd, dense]}
`
	cache := t.TempDir()
	run := func(extra string) []records.Record {
		s := loadSpecTo(t, writeSpec(t, spec+extra), t.TempDir())
		res, err := (&harness.Runner{CacheDir: cache}).Run(context.Background(), s)
		require.NoError(t, err)
		require.Len(t, res.Records, 3)
		return res.Records
	}
	mem, disk := run(""), run("budget: {table_mb: 0.01}\n")
	for i := range mem {
		b := mem[i].Backend
		require.Equal(t, "ok", disk[i].Status, disk[i].Error)
		require.Equal(t, mem[i].ID, disk[i].ID, "budget.table_mb is not part of the id")
		require.Nil(t, mem[i].TableFile, b)
		require.NotNil(t, disk[i].TableFile, b)
		tf := disk[i].TableFile
		assert.Greater(t, float64(2*tf.TableBytes), 0.01*(1<<20), "the table is above the budget")
		assert.Equal(t, 2*(32+tf.TableBytes), tf.FileBytes, "%s: a square table and its transpose, each with its header", b)
		budget := 0.01 * (1 << 20)
		assert.Equal(t, int64(budget)/4, tf.BlockBytes)
		assert.Equal(t, mem[i].SVD.S, disk[i].SVD.S, "%s: singular values bit for bit", b)
		for k, v := range mem[i].Metrics {
			assert.Equal(t, v, disk[i].Metrics[k], "%s: %s", b, k)
		}
	}
	left, err := filepath.Glob(filepath.Join(cache, "kcalab-table-*"))
	require.NoError(t, err)
	assert.Empty(t, left, "the table files are removed")
}
