package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSubwordVectorsExport: with subword.max_n on, the -vectors file holds
// the evaluation set's words outside the vocabulary after the vocabulary
// (as fastText's print-word-vectors) and loads in gensim; every pair is
// scored; off, the trial keeps its id and its vectors.
func TestSubwordVectorsExport(t *testing.T) {
	dir := t.TempDir()
	pairs := filepath.Join(dir, "pairs.txt")
	// c0w01x and c1w02y are unseen: their n-grams are c0w01's and c1w02's.
	require.NoError(t, os.WriteFile(pairs, []byte("c0w01 c0w02 9\nc0w01x c0w03 8\nc1w02y c0w04 1\nc1w02 c2w01 2\n"), 0o644))
	spec := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(spec, []byte(`name: s
data: {source: synthetic, window: 5}
synthetic: {clusters: 3, words: 5, tokens: 5000}
eval: {sets: [pairs.txt]}
svd: {rank: 4}
method: kca
kca: {kernel: tailcut}
variants:
  - {label: off}
  - {label: on, subword: {max_n: 5, min_n: 2}}
  - {label: blend, subword: {max_n: 5, min_n: 2, weight: 0.5}}
`), 0o644))
	vecDir := filepath.Join(dir, "vectors")
	_, stderr, err := runCLI(t, "-out", filepath.Join(dir, "out"), "-vectors", vecDir, spec)
	require.NoError(t, err, stderr)
	recs, _, err := records.Read(filepath.Join(dir, "out", "results.jsonl"))
	require.NoError(t, err)
	require.Len(t, recs, 3)
	for _, r := range recs {
		cov := r.Metrics["coverage.pairs.txt"]
		if r.Settings["label"] == "off" {
			assert.Equal(t, 0.5, cov, "two pairs have an unseen word")
			continue
		}
		assert.Equal(t, 1.0, cov, "%v: every pair scored", r.Settings["label"])
		assert.Contains(t, r.Metrics, "vocab_skip.pairs.txt")
	}
	files, err := filepath.Glob(filepath.Join(vecDir, "*.txt"))
	require.NoError(t, err)
	require.Len(t, files, 3)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		if strings.Contains(f, "-off-") {
			assert.True(t, strings.HasPrefix(string(b), "15 4\n"), f)
			continue
		}
		assert.True(t, strings.HasPrefix(string(b), "17 4\n"), "%s: 15 words, then the 2 unseen", f)
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		require.Len(t, lines, 18)
		assert.True(t, strings.HasPrefix(lines[16], "c0w01x "), "in the set's order after the vocabulary")
		assert.True(t, strings.HasPrefix(lines[17], "c1w02y "))
	}
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import gensim").Run(); err != nil {
		t.Skipf("gensim is not installed for %s (apt install python3-gensim)", py)
	}
	for _, f := range files {
		if strings.Contains(f, "-off-") {
			continue
		}
		out, err := exec.Command(py, "-c", `import sys
from gensim.models import KeyedVectors
kv = KeyedVectors.load_word2vec_format(sys.argv[1], binary=False)
print(len(kv.index_to_key), kv.vector_size, "c0w01x" in kv, "c1w02y" in kv)`, f).CombinedOutput()
		require.NoError(t, err, string(out))
		assert.Equal(t, "17 4 True True\n", string(out))
	}
}
