package harness

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDirtyBeyondResults(t *testing.T) {
	for in, want := range map[string]bool{
		"":                                          false,
		" M results/ci/results.jsonl\n":             false,
		"M  results/a/results.jsonl\n":              false,
		" M harness/runner.go\n":                    true,
		" M results/a/results.jsonl\nD  x\n":        true,
		"R  a.go -> b.go\n":                         true,
		"R  old.jsonl -> results/x/results.jsonl\n": false,
	} {
		assert.Equal(t, want, dirtyBeyondResults([]byte(in)), "%q", in)
	}
	var buf bytes.Buffer
	buf.WriteString(" M \"results/we ird/results.jsonl\"\n")
	assert.False(t, dirtyBeyondResults(buf.Bytes()))
}

// A recorded input that is not at its path is looked for by its trailing
// part under the bases (the data directory first), longest part first.
func TestInputCheckLocate(t *testing.T) {
	data := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(data, "wordsim"), 0o755))
	here := filepath.Join(data, "wordsim", "men.txt")
	require.NoError(t, os.WriteFile(here, []byte("a b 1\n"), 0o644))
	c := &inputCheck{bases: []string{data}}
	tests := []struct {
		recorded, want string
	}{
		{here, here},
		{"/elsewhere/shared/data/wordsim/men.txt", here},
		{"/elsewhere/shared/data/wordsim/other.txt", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, c.locate(tt.recorded), tt.recorded)
	}
}
