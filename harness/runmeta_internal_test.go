package harness

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
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
