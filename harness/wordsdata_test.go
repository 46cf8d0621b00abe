package harness_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kcalab/harness"
	_ "kcalab/harness/builtin"
	"kcalab/records"
	"kcalab/schema"

	"kcalab/datasets/corpus"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
