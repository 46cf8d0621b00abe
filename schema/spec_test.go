package schema_test

import (
	"fmt"
	"testing"

	_ "kcalab/harness/builtin"
	"kcalab/schema"

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

func TestDecodeSpecErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "s.yaml: empty spec"},
		{"not a mapping", "- a\n", "s.yaml:1: a spec is a mapping"},
		{"missing name", "seed: 1\n", `s.yaml:1: missing required key "name"`},
		{"bad name", "name: ../x\n", "must be a plain file name"},
		{"unknown top", "name: x\nmethdo: ca\n", `s.yaml:2: unknown key "methdo"; did you mean "method"?`},
		{"unknown nested", "name: x\nsvd:\n  rnak: 3\n", `s.yaml:3: unknown key "svd.rnak"; did you mean "rank"? (allowed in svd: backend, normalizer, oversample, power_iters, projected, rank, record_sigma, shared_rank, tol)`},
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

// Small refusals: a bounded power_iters, distinct variant labels.
func TestSpecSmallRefusals(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"power_iters too large", "name: x\nsvd: {power_iters: 1000000000}\n", "spec.yaml:2: svd.power_iters: 1e+09 is out of range (allowed: -1 to 100)"},
		{"power_iters at the bound", "name: x\nsvd: {power_iters: 100}\n", ""},
		{"table_mb past int64 bytes", "name: x\nbudget: {table_mb: 1e13}\n", "spec.yaml:2: budget.table_mb: 1e+13 is out of range (allowed: 0 to 1e+09)"},
		{"seconds past a Duration", "name: x\nbudget: {seconds: 1e13}\n", "budget.seconds: 1e+13 is out of range (allowed: 0 to 1e+09)"},
		{"duplicate variant labels", "name: x\nvariants:\n  - {label: a, method: ca}\n  - {label: b, method: gini}\n  - {label: a, method: lca}\n",
			`spec.yaml:5: variants: label "a" repeats the label of the variant at line 3`},
		{"distinct variant labels", "name: x\nvariants:\n  - {label: a, method: ca}\n  - {label: b, method: gini}\n", ""},
		{"an identical variant repeated", "name: x\nvariants:\n  - {label: a, method: ca}\n  - {label: a, method: ca}\n", ""},
		{"a tuning group widened by its label", "name: x\neval: {parts: true}\nvariants:\n  - {label: a, method: sgns, train: {window: [5, 10], negative: [1, 5]}, tune: {axes: [train.window, train.negative]}}\n  - {label: a, method: sgns, train: {window: [10], negative: [15]}, tune: {axes: [train.window, train.negative]}}\n", ""},
		{"a widening that changes an untuned setting", "name: x\neval: {parts: true}\nvariants:\n  - {label: a, method: sgns, train: {window: [5, 10], epochs: 3}, tune: {axes: [train.window]}}\n  - {label: a, method: sgns, train: {window: [20], epochs: 9}, tune: {axes: [train.window]}}\n",
			`spec.yaml:5: variants: label "a" repeats the label of the variant at line 4 with other settings`},
		{"a widening that tunes other axes", "name: x\neval: {parts: true}\nvariants:\n  - {label: a, method: sgns, train: {window: [5, 10], epochs: [3, 9]}, tune: {axes: [train.window]}}\n  - {label: a, method: sgns, train: {window: [20], epochs: [3, 9]}, tune: {axes: [train.window, train.epochs]}}\n",
			`spec.yaml:5: variants: label "a" repeats the label of the variant at line 4 with other settings`},
		{"untuned variants differing in a list", "name: x\nvariants:\n  - {label: a, method: sgns, train: {window: [5, 10]}}\n  - {label: a, method: sgns, train: {window: [20]}}\n",
			`spec.yaml:4: variants: label "a" repeats the label of the variant at line 3 with other settings`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := schema.DecodeSpec([]byte(tt.body), "spec.yaml")
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestReportSettings(t *testing.T) {
	spec, err := schema.DecodeSpec([]byte("name: t\nreport: {lead: scaling, paper_rows: [SCA+MEN=SCA+MEN in-sample, tail-cut=494f6ad161fe], check: true}\n"), "")
	require.NoError(t, err)
	assert.Equal(t, schema.ReportSettings{Lead: "scaling", PaperRows: []string{"SCA+MEN=SCA+MEN in-sample", "tail-cut=494f6ad161fe"}, Similarity: "declared", Check: true}, spec.Report)
	assert.Empty(t, spec.Axes(), "report keys are not grid axes")

	spec, err = schema.DecodeSpec([]byte("name: t\n"), "")
	require.NoError(t, err)
	assert.Equal(t, "auto", spec.Report.Lead)

	_, err = schema.DecodeSpec([]byte("name: t\nreport: {lead: nowhere}\n"), "")
	assert.ErrorContains(t, err, "nowhere")
	_, err = schema.DecodeSpec([]byte("name: t\nvariants:\n  - {label: a, report: {lead: ca}}\n"), "")
	assert.ErrorContains(t, err, "whole run")
	_, err = schema.DecodeSpec([]byte("name: t\nreport: {lead: [ca, trials]}\n"), "")
	assert.Error(t, err, "a run key is never a grid axis")
}

// Settings that contradict each other, and a list where a count belongs,
// are refused when the spec is read, not after hours of work (or silently).
func TestSpecContradictions(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"subword min_n > max_n", "name: x\ndata: {source: synthetic}\nmethod: kca\nsubword: {min_n: 5, max_n: 3}\n",
			"subword.min_n = 5 is larger than subword.max_n = 3: want min_n ≤ max_n"},
		{"subword off", "name: x\ndata: {source: synthetic}\nmethod: kca\nsubword: {min_n: 5}\n", ""},
		{"fasttext min_n > max_n", "name: x\ndata: {source: synthetic}\nmethod: fasttext\ntrain: {min_n: 7}\n",
			"train.min_n = 7 is larger than train.max_n = 6"},
		{"replicates as a list", "name: x\nreplicates: [1, 3]\n", "replicates: [1 3] is a list, but replicates is a count"},
		{"replicates as a list in a variant", "name: x\nvariants:\n  - {replicates: [2, 3]}\n", "is a list, but replicates is a count"},
		{"supplementary rows on a corpus", "name: x\ndata: {source: synthetic, supplementary_rows: [a]}\nmethod: kca\n",
			"data.supplementary_rows/cols apply to a table (data.source fisher or csv), not to data.source synthetic"},
		{"supplementary rows on a table", "name: x\ndata: {source: fisher, supplementary_rows: [fair]}\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := schema.DecodeSpec([]byte(tt.body), "spec.yaml")
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), "spec.yaml:")
		})
	}
}

// tuned_on names only sets the trial scores (eval.sets, their @dev and
// @test parts with eval.parts, eval.analogies): a typo or an unscored set
// would leave an in-sample cell unmarked and ranked. The error names the
// file, the name's line and what is allowed, with the nearest name.
func TestTunedOnNamesAScoredSet(t *testing.T) {
	tests := []struct {
		name, body string
		want       string // "" = accepted
	}{
		{"a scored set", "eval: {sets: [men, rare]}\ntuned_on: [men]\n", ""},
		{"the default sets", "tuned_on: [sim, rel, men, mturk, rare, s999]\n", ""},
		{"a part with parts", "eval: {sets: [men, rare], parts: true}\ntuned_on: [rare@dev]\n", ""},
		{"an analogy set", "eval: {sets: [men], analogies: [google]}\ntuned_on: [google]\n", ""},
		{"a file's set by its key", "eval: {sets: [data/my-pairs.txt]}\ntuned_on: [my-pairs.txt]\n", ""},
		{"a typo", "eval: {sets: [men, rare]}\ntuned_on: [mne]\n",
			`s.yaml:3: tuned_on: "mne" is no set this trial scores; did you mean "men"? (allowed: men, rare)`},
		{"no such set", "eval: {sets: [men, rare]}\ntuned_on:\n  - men\n  - nosuchset\n",
			`s.yaml:5: tuned_on: "nosuchset" is no set this trial scores (allowed: men, rare)`},
		{"empty name", "eval: {sets: [men]}\ntuned_on: ['']\n", `s.yaml:3: tuned_on: "" is no set this trial scores (allowed: men)`},
		{"a set not evaluated", "eval: {sets: [men]}\ntuned_on: [rare]\n", `tuned_on: "rare" is no set this trial scores (allowed: men)`},
		{"a part without parts", "eval: {sets: [men, rare]}\ntuned_on: [rare@dev]\n",
			`s.yaml:3: tuned_on: "rare@dev" is no set this trial scores: rare is scored without its parts (set eval.parts: true to score rare@dev)`},
		{"a part's typo", "eval: {sets: [men, rare], parts: true}\ntuned_on: [rare@dve]\n", "a part of a set is dev or test"},
		{"in a variant, against its own sets", "eval: {sets: [men, rare]}\nvariants:\n  - {label: a, tuned_on: [men]}\n  - {label: b, eval: {sets: [rare]}, tuned_on: [men]}\n",
			`s.yaml:5: tuned_on: "men" is no set this trial scores (allowed: rare)`},
		{"top level, taken by a variant that changes the sets", "tuned_on: [men]\nvariants:\n  - {label: a}\n  - {label: b, eval: {sets: [rare]}}\n",
			`s.yaml:2: tuned_on: "men" is no set this trial scores`},
		{"top level, every variant overriding it", "tuned_on: [nosuchset]\nvariants:\n  - {label: a, tuned_on: [men]}\n", ""},
		{"no sets at all", "eval: {sets: []}\ntuned_on: [men]\n", `tuned_on: "men" is no set this trial scores: it scores none (eval.sets is empty)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := schema.DecodeSpec([]byte("name: x\n"+tt.body), "s.yaml")
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// Hostile round 5, m8: svd.tol 1e-15 was accepted, and a record ended ok
// with a residual of 2.1e-14·σ_1; a tolerance below what double precision
// resolves is refused at decode.
func TestSVDTolBelowPrecision(t *testing.T) {
	_, err := schema.DecodeSpec([]byte("name: t\ndata: {source: fisher}\nsvd: {tol: 1e-15}\n"), "s.yaml")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "s.yaml:3")
	assert.Contains(t, err.Error(), "svd.tol")
	_, err = schema.DecodeSpec([]byte("name: t\ndata: {source: fisher}\nsvd: {tol: 1e-14}\n"), "s.yaml")
	require.NoError(t, err)
}
