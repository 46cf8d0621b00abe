package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func recLine(t *testing.T, id, status string) string {
	t.Helper()
	b, err := json.Marshal(Record{ID: id, Spec: "s", Status: status})
	require.NoError(t, err)
	return string(b) + "\n"
}

// A run killed mid-append leaves a torn last line; a -fresh run leaves an
// old and a new record of a trial. Both read back as a valid file.
func TestReadResultsLog(t *testing.T) {
	a, b, a2 := recLine(t, "a", "ok"), recLine(t, "b", "ok"), recLine(t, "a", "error")
	tests := []struct {
		name    string
		body    string
		ids     []string
		status  []string
		warn    bool
		wantErr string
	}{
		{name: "clean", body: a + b, ids: []string{"a", "b"}, status: []string{"ok", "ok"}},
		{name: "torn last line", body: a + b + b[:len(b)/2], ids: []string{"a", "b"}, status: []string{"ok", "ok"}, warn: true},
		{name: "only a torn line", body: a[:10], warn: true},
		{name: "last line complete but no newline", body: a + strings.TrimSuffix(b, "\n"), ids: []string{"a", "b"}, status: []string{"ok", "ok"}},
		{name: "repeated id: last wins", body: a + b + a2, ids: []string{"a", "b"}, status: []string{"error", "ok"}},
		{name: "malformed middle line", body: a + "{not json\n" + b, wantErr: ":2:"},
		{name: "malformed last line with its newline", body: a + "{not json\n", wantErr: ":2:"},
		{name: "two records on a line", body: strings.TrimSuffix(a, "\n") + b, wantErr: ":1:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ResultsFile)
			require.NoError(t, os.WriteFile(path, []byte(tt.body), 0o644))
			var warn bytes.Buffer
			recs, err := ReadResultsWarn(path, &warn)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			var ids, status []string
			for _, r := range recs {
				ids, status = append(ids, r.ID), append(status, r.Status)
			}
			assert.Equal(t, tt.ids, ids)
			assert.Equal(t, tt.status, status)
			if tt.warn {
				assert.Contains(t, warn.String(), "incomplete last line")
			} else {
				assert.Empty(t, warn.String())
			}
		})
	}
}

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
			_, err := (&Runner{}).Run(ctx, spec)
			require.NoError(t, err)
			path := filepath.Join(out, ResultsFile)
			full, err := os.ReadFile(path)
			require.NoError(t, err)
			lines := strings.SplitAfter(strings.TrimSuffix(string(full), "\n"), "\n")
			lines[len(lines)-1] += "\n"
			require.NoError(t, os.WriteFile(path, []byte(tt.mess(lines)), 0o644))

			var log bytes.Buffer
			res, err := (&Runner{Log: &log}).Run(ctx, spec)
			require.NoError(t, err, log.String())
			assert.Equal(t, tt.reuse, res.Reused)
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, 3, strings.Count(string(got), "\n"), "compacted: one line per trial")
			recs, err := ReadResults(path)
			require.NoError(t, err)
			assert.Equal(t, stable(res.Records), stable(recs))
		})
	}
}
