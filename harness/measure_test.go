package harness_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"kcalab/harness"
	_ "kcalab/harness/builtin"
	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A measured trial runs in a child process (this test binary, see
// TestMain) and records the operating system's figures.
func TestRunnerMeasuredTrial(t *testing.T) {
	spec := loadSpecTo(t, writeSpec(t, fisherSpec+"measure: {process: true, repeat: 3}\n"), t.TempDir())
	res, err := (&harness.Runner{Jobs: 2}).Run(context.Background(), spec)
	require.NoError(t, err)
	for _, rec := range res.Records {
		require.Equal(t, "ok", rec.Status, rec.Error)
		assert.Greater(t, rec.Metrics["max_rss_mb"], 1.0)
		assert.Greater(t, rec.Metrics["wall_s"], 0.0)
		assert.LessOrEqual(t, rec.Metrics["wall_s.min"], rec.Metrics["wall_s"])
		assert.GreaterOrEqual(t, rec.Metrics["wall_s.max"], rec.Metrics["wall_s"])
		assert.Contains(t, rec.Metrics, "cpu_s")
		assert.InDelta(t, 0.4464, rec.CA.SingularValues[0], 5e-5, "the child's result is kept")
	}
}

// A measured trial's peak memory is its own, not the runner's: Linux
// carries the parent's high-water mark over fork and exec into the child's
// ru_maxrss, so without the child's own VmHWM a small trial started by a
// runner that had grown large reported the runner's size.
func TestRunnerMeasuredPeakIsTheChilds(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the carried-over high-water mark is Linux's; elsewhere the child's rusage is used as is")
	}
	ballast := make([]byte, 600<<20)
	for i := range ballast {
		ballast[i] = 1 // resident, not just reserved
	}
	spec := loadSpecTo(t, writeSpec(t, fisherSpec+"measure: {process: true}\n"), t.TempDir())
	res, err := (&harness.Runner{}).Run(context.Background(), spec)
	require.NoError(t, err)
	runtime.KeepAlive(ballast)
	rec := res.Records[0]
	require.Equal(t, "ok", rec.Status, rec.Error)
	assert.Greater(t, rec.Metrics[records.MetricRSS], 1.0)
	assert.Less(t, rec.Metrics[records.MetricRSS], 300.0, "the child's peak includes the parent's 600 MB")
	assert.NotContains(t, rec.Metrics, "peak_rss_mb", "the child's figure travels beside its record, not in its metrics")
}

// A measured word trial keeps everything its child recorded: the SVD's
// accuracy, the table file, the word map and neighbours, as unmeasured.
func TestRunnerMeasuredWordTrialKeepsRecord(t *testing.T) {
	const spec = `name: mw
data: {source: synthetic, table: flat, window: 3}
synthetic: {clusters: 4, words: 60, tokens: 60000}
eval: {sets: [synthetic]}
method: lca
svd: {rank: 10, backend: krylov}
budget: {table_mb: 0.01}
`
	plain := loadSpecTo(t, writeSpec(t, spec), t.TempDir())
	want, err := (&harness.Runner{}).Run(context.Background(), plain)
	require.NoError(t, err)
	measured := loadSpecTo(t, writeSpec(t, spec+"measure: {process: true}\n"), t.TempDir())
	got, err := (&harness.Runner{}).Run(context.Background(), measured)
	require.NoError(t, err)
	w, g := want.Records[0], got.Records[0]
	require.Equal(t, "ok", g.Status, g.Error)
	// measure.process is part of the id, so the seeds differ: krylov's
	// converged values agree to its tolerance.
	require.NotNil(t, g.SVD)
	assert.InDeltaSlice(t, w.SVD.S, g.SVD.S, 1e-8)
	assert.LessOrEqual(t, g.SVD.RelResidual, 1e-8)
	assert.Equal(t, w.TableFile, g.TableFile)
	assert.NotNil(t, g.TableFile)
	require.NotNil(t, g.WordsMap)
	assert.Equal(t, w.WordsMap.Words, g.WordsMap.Words)
	assert.Len(t, g.Neighbours, len(w.Neighbours))
	assert.Len(t, g.NeighboursOther, len(w.NeighboursOther), "the neighbours at the other similarity travel too")
	assert.NotEmpty(t, g.NeighboursOther)
	assert.NotEmpty(t, g.Neighbours)
	require.NotNil(t, g.Bootstrap, "the scores' bootstrap replicates travel with them")
	assert.Equal(t, w.Bootstrap.B, g.Bootstrap.B)
	assert.Equal(t, len(w.Bootstrap.Scores), len(g.Bootstrap.Scores))
}

func TestRunnerMeasuredTimeBudget(t *testing.T) {
	spec := loadSpecTo(t, writeSpec(t, fisherSpec+"measure: {process: true}\nbudget: {seconds: 0.000001}\n"), t.TempDir())
	res, err := (&harness.Runner{}).Run(context.Background(), spec)
	require.NoError(t, err)
	for _, rec := range res.Records {
		assert.Equal(t, "over_budget", rec.Status)
		assert.Contains(t, rec.Error, "time budget")
	}
}

// A measured trial's record has the parent's times and the inputs the
// child read.
func TestRunInfoMeasured(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "t.csv")
	require.NoError(t, os.WriteFile(csvPath, []byte(",a,b,c\nx,1,2,3\ny,3,1,4\nz,2,5,1\n"), 0o644))
	spec := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(spec, []byte("name: m\ndata: {source: csv, csv: t.csv}\nsvd: {rank: 1}\nmeasure: {process: true}\n"), 0o644))
	res, err := (&harness.Runner{Jobs: 1}).Run(context.Background(), loadSpecTo(t, spec, filepath.Join(dir, "out")))
	require.NoError(t, err)
	r := res.Records[0]
	require.NotNil(t, r.Run)
	assert.NotEmpty(t, r.Run.Start)
	assert.NotEmpty(t, r.Run.End)
	assert.Equal(t, map[string]string{csvPath: sha256File(t, csvPath)}, r.Run.Inputs)
}

// A measured trial records how busy the machine was: with another program
// burning a core beside it, other processes' CPU time is most of its wall
// time and the trial is not quiet (records.Quiet).
func TestRunnerMeasuredSeesABusyMachine(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the machine's load is read from /proc")
	}
	spec := loadSpecTo(t, writeSpec(t, sharedSpecMeasured), t.TempDir())
	burn := exec.Command("sh", "-c", "while :; do :; done")
	require.NoError(t, burn.Start())
	defer func() { _ = burn.Process.Kill(); _ = burn.Wait() }()
	res, err := (&harness.Runner{}).Run(context.Background(), spec)
	require.NoError(t, err)
	rec := res.Records[0]
	require.Equal(t, "ok", rec.Status, rec.Error)
	require.Contains(t, rec.Metrics, records.MetricOthersCPU)
	require.Contains(t, rec.Metrics, records.MetricLoadAvg)
	quiet, cores, known := records.Quiet(rec)
	assert.True(t, known)
	assert.False(t, quiet)
	assert.Greater(t, cores, 0.5, "the burner's core (wall %gs, others %gs)", rec.Metrics["wall_s"], rec.Metrics[records.MetricOthersCPU])
}

const sharedSpecMeasured = `
name: busy
seed: 5
data: {source: synthetic, table: flat, window: 3}
synthetic: {tokens: 200000, noise: 0.6, words: 40}
eval: {sets: [synthetic]}
method: lca
svd: {backend: krylov, rank: 6}
measure: {process: true}
`
