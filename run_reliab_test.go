package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An unwritable output directory is refused before the first trial, with
// the runner's reason, not a report error after all the work.
func TestRunUnwritableOutput(t *testing.T) {
	tests := []struct {
		name string
		out  func(t *testing.T) string
		want string
	}{
		{"parent is a file", func(t *testing.T) string {
			f := filepath.Join(t.TempDir(), "file")
			require.NoError(t, os.WriteFile(f, nil, 0o644))
			return filepath.Join(f, "out")
		}, "not a directory"},
		{"read-only directory", func(t *testing.T) string {
			if os.Geteuid() == 0 {
				t.Skip("root writes to read-only directories")
			}
			d := t.TempDir()
			require.NoError(t, os.Chmod(d, 0o555))
			t.Cleanup(func() { os.Chmod(d, 0o755) })
			return d
		}, "is not writable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, err := runCLI(t, "-out", tt.out(t), "experiments/fisher.yaml")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), "-out")
			assert.NotContains(t, err.Error(), "report")
			assert.NotContains(t, stderr, "kcalab: [", "no trial ran")
		})
	}
}
