package harness_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kcalab/harness"
	_ "kcalab/harness/builtin"
	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The runner resumes from a log left by a kill (torn tail, repeats) and
// leaves a compacted file: one line per trial, in grid order.
func TestRunnerResumesFromKilledLog(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		mess  func(full []string) string // the file a killed run left, from the complete run's lines
		reuse int
	}{
		{name: "torn after one", mess: func(l []string) string { return l[0] + l[1][:40] }, reuse: 1},
		{name: "repeat and no final newline", mess: func(l []string) string { return l[1] + l[0] + strings.TrimSuffix(l[1], "\n") }, reuse: 2},
		{name: "empty", mess: func([]string) string { return "" }, reuse: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			spec := loadSpecTo(t, writeSpec(t, fisherSpec), out)
			_, err := (&harness.Runner{}).Run(ctx, spec)
			require.NoError(t, err)
			path := filepath.Join(out, records.FileName)
			full, err := os.ReadFile(path)
			require.NoError(t, err)
			lines := strings.SplitAfter(strings.TrimSuffix(string(full), "\n"), "\n")
			lines[len(lines)-1] += "\n"
			require.NoError(t, os.WriteFile(path, []byte(tt.mess(lines)), 0o644))

			var log bytes.Buffer
			res, err := (&harness.Runner{Log: &log}).Run(ctx, spec)
			require.NoError(t, err, log.String())
			assert.Equal(t, tt.reuse, res.Reused)
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, 3, strings.Count(string(got), "\n"), "compacted: one line per trial")
			recs, _, err := records.Read(path)
			require.NoError(t, err)
			assert.Equal(t, stable(res.Records), stable(recs))
		})
	}
}

// Hostile round 5, m12: a torn last line was dropped with "that trial will
// run again", false when the trial is no longer in the spec's grid. The
// warning names the trial, and the run says whether it computes it.
func TestRunnerTornLineNamesItsTrial(t *testing.T) {
	narrowed := strings.Replace(fisherSpec, "backend: [dense, randomized, dssvd]", "backend: [dense, randomized]", 1)
	for _, tc := range []struct {
		name, spec string
		says       string
	}{
		{"in the grid", fisherSpec, "is in this spec's grid: this run computes it again"},
		{"no longer in the grid", narrowed, "is not in this spec's grid: no record of it is left, and this run does not compute it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			first, err := (&harness.Runner{}).Run(context.Background(), loadSpecTo(t, writeSpec(t, fisherSpec), out))
			require.NoError(t, err)
			path := filepath.Join(out, records.FileName)
			full, err := os.ReadFile(path)
			require.NoError(t, err)
			lines := strings.SplitAfter(string(full), "\n")
			torn := first.Records[2].ID // the dssvd trial, last in the file
			require.Contains(t, lines[2], torn)
			require.NoError(t, os.WriteFile(path, []byte(lines[0]+lines[1]+lines[2][:60]), 0o644))

			var log bytes.Buffer
			_, err = (&harness.Runner{Log: &log}).Run(context.Background(), loadSpecTo(t, writeSpec(t, tc.spec), out))
			require.NoError(t, err, log.String())
			assert.Contains(t, log.String(), "dropped an incomplete last line of trial "+torn)
			assert.NotContains(t, log.String(), "that trial will run again")
			assert.Contains(t, log.String(), "trial "+torn+", whose last line was torn, "+tc.says)
		})
	}
}
