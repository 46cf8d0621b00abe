package schema_test

import (
	"fmt"
	_ "kcalab/harness/builtin"
	"kcalab/schema"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeSpecDefaults(t *testing.T) {
	s, err := schema.DecodeSpec([]byte("name: fisher\n"), "")
	require.NoError(t, err)
	assert.Equal(t, "fisher", s.Name)
	assert.Equal(t, uint64(1), s.Seed)
	assert.Equal(t, "results/fisher", s.Output)
	assert.Empty(t, s.Axes())
	trials := s.Trials()
	require.Len(t, trials, 1)
	for _, set := range schema.TrialSettings() {
		assert.Equal(t, set.Default, trials[0].Values[set.Key], set.Key)
	}
}

func TestDecodeSpecGrid(t *testing.T) {
	s, err := schema.DecodeSpec([]byte(`
name: g
seed: 7
svd:
  backend: [dense, dssvd]
  rank: 2
method: [ca, gini]
data:
  window: [1, 2, 3]
`), "g.yaml")
	require.NoError(t, err)
	assert.Equal(t, []string{"svd.backend", "method", "data.window"}, s.Axes())
	trials := s.Trials()
	require.Len(t, trials, 12)
	// First axis varies slowest.
	assert.Equal(t, "dense", trials[0].SVD.Backend)
	assert.Equal(t, "ca", trials[0].Method)
	assert.Equal(t, []int{1, 2, 3}, []int{trials[0].Data.Window, trials[1].Data.Window, trials[2].Data.Window})
	assert.Equal(t, "dssvd", trials[6].SVD.Backend)
	assert.Equal(t, "svd.backend=dense method=ca data.window=1", trials[0].Title)
	ids := map[string]bool{}
	for _, tr := range trials {
		assert.Equal(t, 2, tr.SVD.Rank)
		assert.False(t, ids[tr.ID], "ids unique")
		ids[tr.ID] = true
		assert.Equal(t, schema.TrialSeed(7, tr.ID), tr.Seed)
	}
}

// Adding a value to an axis (a new trial) must not change any other trial's id or seed.
func TestTrialIdentityStable(t *testing.T) {
	a, err := schema.DecodeSpec([]byte("name: a\nsvd: {backend: [dense, dssvd]}\n"), "")
	require.NoError(t, err)
	b, err := schema.DecodeSpec([]byte("name: b\nsvd: {backend: [randomized, dssvd, dense], rank: 0}\n"), "")
	require.NoError(t, err)
	ta, tb := a.Trials(), b.Trials()
	assert.Equal(t, ta[0].ID, tb[2].ID) // dense
	assert.Equal(t, ta[1].ID, tb[1].ID) // dssvd
	assert.Equal(t, ta[0].Seed, tb[2].Seed)
	// A different spec seed changes seeds but not ids.
	c, err := schema.DecodeSpec([]byte("name: c\nseed: 2\nsvd: {backend: [dense, dssvd]}\n"), "")
	require.NoError(t, err)
	assert.Equal(t, ta[0].ID, c.Trials()[0].ID)
	assert.NotEqual(t, ta[0].Seed, c.Trials()[0].Seed)
}

func TestDecodeSpecErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "s.yaml: empty spec"},
		{"not a mapping", "- a\n", "s.yaml:1: a spec is a mapping"},
		{"missing name", "seed: 1\n", `s.yaml:1: missing required key "name"`},
		{"bad name", "name: ../x\n", "must be a plain file name"},
		{"unknown top", "name: x\nmethdo: ca\n", `s.yaml:2: unknown key "methdo"; did you mean "method"?`},
		{"unknown nested", "name: x\nsvd:\n  rnak: 3\n", `s.yaml:3: unknown key "svd.rnak"; did you mean "rank"? (allowed in svd: backend, normalizer, oversample, power_iters, projected, rank, tol)`},
		{"section not mapping", "name: x\nsvd: 3\n", "s.yaml:2: svd is a section"},
		{"enum", "name: x\nsvd:\n  backend: dens\n", `s.yaml:3: svd.backend: "dens" is not allowed (allowed: auto, dense, lapack, randomized, dssvd, krylov)`},
		{"enum in list", "name: x\nsvd:\n  backend: [dense,\n    qr]\n", `svd.backend: line 4: "qr" is not allowed`},
		{"int type", "name: x\nsvd:\n  rank: three\n", `s.yaml:3: svd.rank: want an integer, got "three"`},
		{"float for int", "name: x\nsvd:\n  rank: 2.5\n", `want an integer, got "2.5"`},
		{"range", "name: x\nsvd:\n  rank: -2\n", "svd.rank: -2 is out of range (allowed: at least 0)"},
		{"float range", "name: x\ndata:\n  fraction: 1.5\n", "data.fraction: 1.5 is out of range (allowed: 1e-09 to 1)"},
		{"bool", "name: x\ndata:\n  lowercase: yes\n", `data.lowercase: want true or false, got "yes"`},
		{"seed list", "name: x\nseed: [1, 2]\n", "seed: want a single integer, not a list"},
		{"empty axis", "name: x\nmethod: []\n", "method: an empty list gives no trials"},
		{"repeat axis", "name: x\nmethod: [ca, ca]\n", "value ca repeats"},
		{"twice", "name: x\nmethod: ca\nmethod: gini\n", "s.yaml:3: key \"method\" given twice"},
		{"nested list", "name: x\nmethod: [[ca]]\n", "want a string, got a list"},
		{"yaml syntax", "name: [x\n", "s.yaml: yaml:"},
		{"string for number", "name: x\ndata:\n  fraction: half\n", `want a number, got "half"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schema.DecodeSpec([]byte(tc.in), "s.yaml")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestCSVPathRelativeToSpec(t *testing.T) {
	s, err := schema.DecodeSpec([]byte("name: x\ndata: {source: csv, csv: tables/a.csv}\n"), "experiments/x.yaml")
	require.NoError(t, err)
	assert.Equal(t, "experiments/tables/a.csv", s.Trials()[0].Data.CSV)
}

func FuzzDecodeSpec(f *testing.F) {
	f.Add("name: fisher\nsvd:\n  backend: [dense, dssvd]\n")
	f.Add("name: x\nmethod: [[ca]]\n")
	f.Add("name: x\ndata: {fraction: 0.5, window: [1, 2]}\n")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := schema.DecodeSpec([]byte(in), "fuzz.yaml")
		if err != nil {
			return
		}
		for _, tr := range s.Trials() {
			require.Len(t, tr.ID, 12)
		}
	})
}

func TestDecodeSpecVariants(t *testing.T) {
	_, err := schema.DecodeSpec([]byte(`
name: v
data: {source: corpus, window: 24}
svd: {rank: [300, 1000]}
variants:
  - {label: tail-cut, method: kca, data: {table: cut}}
  - {label: flat, method: lca, data: {table: flat, window: [5, 10]}}
  - {label: SGNS, method: sgns, svd: {rank: 300}}
  - {label: SGNS again, method: sgns, svd: {rank: 300}, label: x}
`), "v.yaml")
	if err == nil {
		t.Fatal("a key given twice in a variant must be an error")
	}
	assert.Contains(t, err.Error(), `v.yaml:9: key "label" given twice`)

	s, err := schema.DecodeSpec([]byte(`
name: v
data: {source: corpus, window: 24}
svd: {rank: [300, 1000]}
variants:
  - {label: tail-cut, method: kca, data: {table: cut}}
  - {label: flat, method: lca, data: {table: flat, window: [5, 10]}}
  - {label: SGNS, method: sgns, svd: {rank: 300}}
  - {label: SGNS, method: sgns, svd: {rank: [300]}}
`), "v.yaml")
	require.NoError(t, err)
	trials := s.Trials()
	var got []string
	for _, tr := range trials {
		got = append(got, fmt.Sprintf("%s %s w=%d d=%d", tr.Label, tr.Data.Table, tr.Data.Window, tr.SVD.Rank))
	}
	// Variants in file order, shared axes inside; a variant's own value
	// replaces a shared axis; identical trials run once.
	assert.Equal(t, []string{
		"tail-cut cut w=24 d=300", "tail-cut cut w=24 d=1000",
		"flat flat w=5 d=300", "flat flat w=10 d=300", "flat flat w=5 d=1000", "flat flat w=10 d=1000",
		"SGNS cut w=24 d=300",
	}, got)
	for i, tr := range trials {
		assert.Equal(t, i, tr.Index)
	}
	assert.Equal(t, "tail-cut svd.rank=300", trials[0].Title)
}

func TestDecodeSpecVariantErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"not a list", "name: x\nvariants: {method: ca}\n", "s.yaml:2: variants: want a non-empty list"},
		{"entry not mapping", "name: x\nvariants:\n  - ca\n", "s.yaml:3: variants: each entry is a mapping"},
		{"unknown key", "name: x\nvariants:\n  - {methd: ca}\n", `s.yaml:3: unknown key "methd"; did you mean "method"?`},
		{"run key", "name: x\nvariants:\n  - {seed: 2}\n", "seed describes the whole run"},
		{"bad value", "name: x\nvariants:\n  - {method: pca}\n", `method: "pca" is not allowed`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schema.DecodeSpec([]byte(tc.in), "s.yaml")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
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

// A grid whose axes multiply to 10^6 used to exhaust memory while it was
// expanded; it is refused at decode, its axes named.
func TestGridSizeLimit(t *testing.T) {
	list := func(n, from int) string {
		var parts []string
		for i := 0; i < n; i++ {
			parts = append(parts, strconv.Itoa(from+i))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	for _, tc := range []struct{ name, in, want string }{
		{"axes", "name: x\ndata: {window: " + list(100, 1) + "}\nsvd: {rank: " + list(100, 1) + ", oversample: " + list(100, 0) + "}\n",
			"s.yaml:1: the grid has more than 10000 trials: data.window: 100 × svd.rank: 100 × svd.oversample: 100 values multiply past the limit"},
		{"variants add up", "name: x\nsvd: {rank: " + list(100, 1) + "}\nvariants:\n  - {data: {window: " + list(60, 1) + "}}\n  - {data: {window: " + list(60, 100) + "}}\n",
			"(with the variant at line 5): svd.rank: 100 × data.window: 60"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schema.DecodeSpec([]byte(tc.in), "s.yaml")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	s, err := schema.DecodeSpec([]byte("name: x\ndata: {window: "+list(100, 1)+"}\nsvd: {rank: "+list(100, 1)+"}\n"), "s.yaml")
	require.NoError(t, err, "exactly the limit is allowed")
	assert.Len(t, s.Trials(), schema.MaxTrials)
}

// Two set files with one base name used to lose a score silently, and a
// user's men.txt was shown as the paper's MEN.
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

// Replicates differ only in their seed; replicate 0 keeps the trial's id,
// so asking for replicates recomputes nothing that exists.
func TestReplicates(t *testing.T) {
	one, err := schema.DecodeSpec([]byte("name: r\nsvd: {backend: [dense, dssvd]}\n"), "")
	require.NoError(t, err)
	three, err := schema.DecodeSpec([]byte("name: r\nsvd: {backend: [dense, dssvd]}\nvariants:\n  - {replicates: 3}\n"), "")
	require.NoError(t, err)
	a, b := one.Trials(), three.Trials()
	require.Len(t, a, 2)
	require.Len(t, b, 6)
	assert.Equal(t, a[0].ID, b[0].ID, "replicate 0 is the trial itself")
	assert.Equal(t, a[0].Seed, b[0].Seed)
	assert.Equal(t, a[1].ID, b[3].ID)
	assert.NotEqual(t, b[0].Seed, b[1].Seed)
	assert.Equal(t, 2, b[2].Replicate)
	assert.Equal(t, "svd.backend=dense replicate=2", b[2].Title)
	assert.NotContains(t, b[0].RecordSettings(), "replicate")
	assert.Equal(t, 1, b[1].RecordSettings()["replicate"])
	_, err = schema.DecodeSpec([]byte("name: r\ndata: {window: [1,2,3,4,5,6,7,8,9,10]}\nsvd: {rank: [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50]}\nreplicates: 30\n"), "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "replicates: 30")
}
