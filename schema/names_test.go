package schema_test

import (
	_ "kcalab/harness/builtin"
	"kcalab/schema"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A misspelt corpus or set name fails when the spec is decoded, with its
// file and line and the name meant; paths and known names pass.
func TestSpecBuiltinNames(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"name: x\ndata:\n  source: corpus\n  corpus: text8_prefx\n",
			`x.yaml:4: data.corpus: unknown corpus "text8_prefx"; did you mean "text8_prefix"? (known corpora: text8, text8_prefix;`},
		{"name: x\ndata: {source: corpus}\neval:\n  sets:\n    - men\n    - simlex\n",
			`x.yaml:6: eval.sets: unknown set "simlex"; did you mean "s999"?`},
		{"name: x\nmethod: sca\nsca: {set: mturk287}\n",
			`x.yaml:3: sca.set: unknown set "mturk287"; did you mean "mturk"?`},
		{"name: x\nvariants:\n  - {data: {corpus: txt8}}\n",
			`x.yaml:3: data.corpus: unknown corpus "txt8"; did you mean "text8"?`},
		{"name: x\neval: {sets: [qwertyuiop]}\n",
			`x.yaml:2: eval.sets: unknown set "qwertyuiop" (known sets: sim, rel, men, mturk, rare, s999, synthetic; a file path needs a slash or an extension, e.g. ./qwertyuiop.txt)`},
		{"name: x\nsca: {set: synthetic}\n", `x.yaml:2: sca.set: unknown set "synthetic"`},
	} {
		_, err := schema.DecodeSpec([]byte(tc.spec), "x.yaml")
		require.Error(t, err, tc.spec)
		assert.Contains(t, err.Error(), tc.want)
	}
	for _, ok := range []string{
		"name: x\ndata: {source: corpus, corpus: text8}\n",
		"name: x\ndata: {source: corpus, corpus: my/corpus}\n",
		"name: x\ndata: {source: corpus, corpus: corpus.txt.gz}\n",
		"name: x\neval: {sets: [sim, MEN, M.Turk, synthetic, pairs.tsv]}\n",
		"name: x\neval: {sets: [mturk]}\n",
		"name: x\nmethod: sca\nsca: {set: s999}\n",
	} {
		_, err := schema.DecodeSpec([]byte(ok), "x.yaml")
		assert.NoError(t, err, ok)
	}
	// A set's display name with a dot is a name, not a file beside the spec.
	s, err := schema.DecodeSpec([]byte("name: x\neval: {sets: [M.Turk, p.tsv]}\n"), "exp/x.yaml")
	require.NoError(t, err)
	assert.Equal(t, []string{"M.Turk", "exp/p.tsv"}, s.Trials()[0].Eval.Sets)
}
