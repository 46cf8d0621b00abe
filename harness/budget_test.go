package harness_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"kcalab/harness"
	_ "kcalab/harness/builtin"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// alive reports whether a process exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}

func readInt(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	return n
}

// An external trial over budget.seconds, measured or not, is stopped: the
// tool and what it started are killed, its temporary directory removed.
func TestExternalOverTimeBudget(t *testing.T) {
	tests := []struct {
		name     string
		measured bool
	}{
		{"in process", false},
		{"measured child process", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			probe := t.TempDir()
			script := fmt.Sprintf(`echo $$ > %[1]s/sh; pwd > %[1]s/dir; sleep 60 & echo $! > %[1]s/sleep; wait`, probe)
			body := fmt.Sprintf(`name: slow
data: {source: synthetic}
synthetic: {tokens: 2000}
eval: {sets: [synthetic]}
method: external
external: {command: [sh, -c, %q]}
budget: {seconds: 1}
measure: {process: %v}
`, script, tt.measured)
			var log bytes.Buffer
			start := time.Now()
			res, err := (&harness.Runner{Log: &log}).Run(context.Background(), loadSpecTo(t, writeSpec(t, body), t.TempDir()))
			require.NoError(t, err, log.String())
			assert.Less(t, time.Since(start), 20*time.Second)
			rec := res.Records[0]
			assert.Equal(t, "over_budget", rec.Status, rec.Error)
			assert.Contains(t, rec.Error, "budget.seconds")
			assert.Contains(t, log.String(), "runs external command: sh -c", "the command is shown before it runs")
			sh, sleep := readInt(t, filepath.Join(probe, "sh")), readInt(t, filepath.Join(probe, "sleep"))
			dir, err := os.ReadFile(filepath.Join(probe, "dir"))
			require.NoError(t, err)
			assert.Eventually(t, func() bool { return !alive(sh) && !alive(sleep) }, 5*time.Second, 50*time.Millisecond, "tool left running")
			assert.NoDirExists(t, strings.TrimSpace(string(dir)), "temporary directory left")
		})
	}
}

// budget.seconds holds for a trial that is not measured in its own
// process too.
func TestTimeBudgetWithoutMeasure(t *testing.T) {
	tests := []struct {
		name   string
		budget string
		want   string
	}{
		{"over", "0.000001", "over_budget"},
		{"within", "60", "ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A small trial (rank 10): the budget, not the work, is under test.
			body := "name: b\ndata: {source: synthetic, table: flat, window: 5}\nsynthetic: {tokens: 200000, words: 200}\neval: {sets: [synthetic]}\nmethod: lca\nsvd: {rank: 10}\nbudget: {seconds: " + tt.budget + "}\n"
			res, err := (&harness.Runner{}).Run(context.Background(), loadSpecTo(t, writeSpec(t, body), t.TempDir()))
			require.NoError(t, err)
			assert.Equal(t, tt.want, res.Records[0].Status, res.Records[0].Error)
		})
	}
}

// data.memory_mb small enough forces out-of-core counting (partial tables
// spilled to shards and merged); the tables, and so every score, are the
// same as counted in memory.
func TestCountingMemoryBudget(t *testing.T) {
	body := `name: counting
data: {source: synthetic, memory_mb: [1, 2048], window: 10}
synthetic: {tokens: 200000}
eval: {sets: [synthetic]}
method: lca
svd: {rank: 5}
`
	var log bytes.Buffer
	res, err := (&harness.Runner{Log: &log}).Run(context.Background(), loadSpecTo(t, writeSpec(t, body), t.TempDir()))
	require.NoError(t, err, log.String())
	require.Len(t, res.Records, 2)
	for _, rec := range res.Records {
		require.Equal(t, "ok", rec.Status, rec.Error)
	}
	assert.Contains(t, log.String(), "out of core", "1 MiB should spill")
	for _, key := range []string{"spearman.zero.synthetic", "nnz"} {
		require.Contains(t, res.Records[0].Metrics, key)
	}
	assert.Equal(t, res.Records[1].Metrics["spearman.zero.synthetic"], res.Records[0].Metrics["spearman.zero.synthetic"])
	assert.Equal(t, res.Records[1].Metrics["nnz"], res.Records[0].Metrics["nnz"])
	assert.NotEqual(t, res.Records[0].ID, res.Records[1].ID)
}

// Two variants that differ only in budget.table_mb are one trial (the
// setting is not part of the id: the numbers do not depend on it); the run
// says so instead of dropping the second without a word.
func TestRunNamesMergedVariants(t *testing.T) {
	body := `name: merged
data: {source: synthetic, window: 2}
synthetic: {tokens: 20000}
eval: {sets: [synthetic]}
method: lca
svd: {rank: 3}
variants:
  - {}
  - {budget: {table_mb: 0.5}}
`
	var log bytes.Buffer
	res, err := (&harness.Runner{Log: &log}).Run(context.Background(), loadSpecTo(t, writeSpec(t, body), t.TempDir()))
	require.NoError(t, err, log.String())
	require.Len(t, res.Records, 1)
	assert.Contains(t, log.String(), "kcalab: note: merged: variant 2 (budget.table_mb=0.5) runs as trial "+res.Records[0].ID+
		", the first: it differs only in budget.table_mb, which a trial id leaves out")
}
