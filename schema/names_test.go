package schema_test

import (
	"testing"

	_ "kcalab/harness/builtin"
	"kcalab/schema"

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

// A set file's scores are keyed by its base name with its extension, so a
// user's men.txt is never shown as the paper's MEN, and two files of one
// base name are refused (one score would silently replace the other).
func TestSetKeys(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"men", "men"},
		{"men.txt", "men.txt"},
		{"dir/men.txt", "men.txt"},
		{"exp/pairs/mine.tsv", "mine.tsv"},
	} {
		assert.Equal(t, tc.want, schema.SetKey(tc.in), tc.in)
	}
	assert.Equal(t, "men.txt", schema.SetLabel(schema.SetKey("a/men.txt")), "a user's file is never labelled as a built-in set")
	assert.Equal(t, "MEN", schema.SetLabel(schema.SetKey("men")))

	for _, tc := range []struct{ name, in, want string }{
		{"same base name", "name: x\neval: {sets: [a/set.txt, b/set.txt]}\n", `eval.sets: a/set.txt and b/set.txt would both be scored as "set.txt"`},
		{"in a variant", "name: x\nvariants:\n  - {eval: {sets: [men, a/set.txt, b/set.txt]}}\n", `would both be scored as "set.txt"`},
		{"twice", "name: x\neval: {sets: [men, men]}\n", "eval.sets: men is listed twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schema.DecodeSpec([]byte(tc.in), "")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	_, err := schema.DecodeSpec([]byte("name: x\neval: {sets: [men, a/men.txt]}\n"), "")
	require.NoError(t, err, "a file named like a built-in set has its own key")
}

func TestPathsRelativeToSpec(t *testing.T) {
	s, err := schema.DecodeSpec([]byte(`
name: x
data: {source: corpus, corpus: text/my.txt.gz}
eval: {sets: [men, pairs/mine.tsv]}
variants:
  - {method: sca, sca: {set: pairs/tune.txt}}
  - {method: sca, sca: {set: mturk}, data: {corpus: text8}}
`), "exp/x.yaml")
	require.NoError(t, err)
	tr := s.Trials()
	assert.Equal(t, "exp/text/my.txt.gz", tr[0].Data.Corpus)
	assert.Equal(t, []string{"men", "exp/pairs/mine.tsv"}, tr[0].Eval.Sets)
	assert.Equal(t, "exp/pairs/tune.txt", tr[0].SCA.Set)
	assert.Equal(t, "mturk", tr[1].SCA.Set)
	assert.Equal(t, "text8", tr[1].Data.Corpus)
	// The default list is never modified.
	d, _ := schema.LookupSetting("eval.sets")
	assert.Equal(t, []string{"sim", "rel", "men", "mturk", "rare", "s999"}, d.Default)
}

func TestCSVPathRelativeToSpec(t *testing.T) {
	s, err := schema.DecodeSpec([]byte("name: x\ndata: {source: csv, csv: tables/a.csv}\n"), "experiments/x.yaml")
	require.NoError(t, err)
	assert.Equal(t, "experiments/tables/a.csv", s.Trials()[0].Data.CSV)
}
