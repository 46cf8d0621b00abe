package harness_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kcalab/harness"
	_ "kcalab/harness/builtin"
	"kcalab/schema"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBackendName(t *testing.T) {
	for _, tt := range []struct{ source, backend, want string }{
		{"fisher", "auto", "dense"},
		{"csv", "auto", "dense"},
		{"corpus", "auto", "krylov"},
		{"synthetic", "auto", "krylov"},
		{"tables", "auto", "krylov"},
		{"corpus", "dssvd", "dssvd"},
		{"fisher", "randomized", "randomized"},
	} {
		var tr schema.Trial
		tr.Data.Source, tr.SVD.Backend = schema.Source(tt.source), tt.backend
		assert.Equal(t, tt.want, harness.BackendName(tr), "%s/%s", tt.source, tt.backend)
	}
}

func TestRunnerTableMethodErrors(t *testing.T) {
	spec := loadSpecTo(t, writeSpec(t, "name: x\nmethod: sgns\n"), t.TempDir())
	res, err := (&harness.Runner{}).Run(context.Background(), spec)
	require.Error(t, err)
	assert.Equal(t, "error", res.Records[0].Status)
	assert.Contains(t, res.Records[0].Error, `method "sgns" needs a corpus`)
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
