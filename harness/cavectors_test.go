package harness_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
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
// blocks, to the same bits as in memory (the same trial ids and seeds), for
// the matrix-free backends and the materialising ones, whatever the block
// size (about a row, odd sizes, half the table) and GOMAXPROCS; the record
// says so, and no file is left behind.
func TestTableOnDisk(t *testing.T) {
	const spec = `name: disk
data: {source: synthetic, table: flat, window: 3}
synthetic: {clusters: 4, words: 60, tokens: 60000}
eval: {sets: [synthetic]}
method: lca
vectors: {add_contexts: true}
svd: {rank: 10, backend: [krylov, dssvd, dense, randomized]}
`
	cache := t.TempDir()
	run := func(procs int, extra string) []records.Record {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		s := loadSpecTo(t, writeSpec(t, spec+extra), t.TempDir())
		res, err := (&harness.Runner{CacheDir: cache}).Run(context.Background(), s)
		require.NoError(t, err)
		require.Len(t, res.Records, 4)
		return res.Records
	}
	// The in-memory trials at each GOMAXPROCS: the disk ones match them in
	// every metric, and the one at 2 in every metric but the planned
	// buffers, which count the workers.
	mems := map[int][]records.Record{1: run(1, ""), 2: run(2, "")}
	for _, mb := range []float64{0.0001, 0.0123, 0.1} {
		for _, procs := range []int{1, 2} {
			t.Run(fmt.Sprintf("table_mb=%v/procs=%d", mb, procs), func(t *testing.T) {
				disk := run(procs, fmt.Sprintf("budget: {table_mb: %v}\n", mb))
				mem := mems[procs]
				for i := range mem {
					b := mem[i].Backend
					require.Equal(t, "ok", mem[i].Status, mem[i].Error)
					require.Equal(t, "ok", disk[i].Status, disk[i].Error)
					require.Equal(t, mem[i].ID, disk[i].ID, "budget.table_mb is not part of the id")
					require.Nil(t, mem[i].TableFile, b)
					require.NotNil(t, disk[i].TableFile, b)
					tf := disk[i].TableFile
					budget := mb * (1 << 20)
					assert.Greater(t, float64(2*tf.TableBytes), budget, "the table is above the budget")
					assert.Equal(t, 2*(32+tf.TableBytes), tf.FileBytes, "%s: a square table and its transpose, each with its header", b)
					assert.Equal(t, max(int64(budget)/4, 1), tf.BlockBytes)
					assert.Equal(t, bits(mem[i].SVD.S), bits(disk[i].SVD.S), "%s: singular values bit for bit", b)
					for k, v := range mem[i].Metrics {
						assert.Equal(t, math.Float64bits(v), math.Float64bits(disk[i].Metrics[k]), "%s: %s", b, k)
						if w, ok := mems[2][i].Metrics[k]; k != records.MetricSVDPlan {
							assert.True(t, ok, "%s: %s", b, k)
							assert.Equal(t, math.Float64bits(w), math.Float64bits(disk[i].Metrics[k]), "%s: %s against GOMAXPROCS 2", b, k)
						}
					}
					assert.Equal(t, bits(mems[2][i].SVD.S), bits(disk[i].SVD.S), "%s: singular values against GOMAXPROCS 2", b)
					assert.Equal(t, mems[2][i].Neighbours, disk[i].Neighbours, "%s: neighbours against GOMAXPROCS 2", b)
					assert.Equal(t, mem[i].Neighbours, disk[i].Neighbours, "%s: neighbours", b)
					assert.Equal(t, mem[i].WordsMap, disk[i].WordsMap, "%s: word map", b)
				}
			})
		}
	}
	left, err := filepath.Glob(filepath.Join(cache, "kcalab-table-*"))
	require.NoError(t, err)
	assert.Empty(t, left, "the table files are removed")
}

func bits(v []float64) []uint64 {
	out := make([]uint64, len(v))
	for i, x := range v {
		out[i] = math.Float64bits(x)
	}
	return out
}
