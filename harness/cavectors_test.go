package harness_test

import (
	"context"
	"path/filepath"
	"testing"

	"kcalab/harness"
	_ "kcalab/harness/builtin"
	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
	assert.Positive(t, kr.Metrics[records.MetricSVDPlan], "the backend's planned buffers, MiB")
	require.Len(t, kr.SVD.S, 20)
	assert.InDelta(t, kr.SVD.S[0], sk.SVD.S[0], 1e-6)
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
