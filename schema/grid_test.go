package schema_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	_ "kcalab/harness/builtin"
	"kcalab/schema"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
	_, err = schema.DecodeSpec([]byte("name: r\ndata: {window: [1,2,3,4,5,6,7,8,9,10]}\nsvd: {rank: [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50]}\nreplicates: 50\n"), "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "replicates: 50")
}

// A grid is counted before it is expanded: one whose axes multiply past
// MaxTrials is refused at decode, its axes named, instead of exhausting
// memory.
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
			"s.yaml:1: the grid has more than 20000 trials: data.window: 100 × svd.rank: 100 × svd.oversample: 100 values multiply past the limit"},
		{"variants add up", "name: x\nsvd: {rank: " + list(100, 1) + "}\nvariants:\n  - {data: {window: " + list(120, 1) + "}}\n  - {data: {window: " + list(120, 200) + "}}\n",
			"(with the variant at line 5): svd.rank: 100 × data.window: 120"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schema.DecodeSpec([]byte(tc.in), "s.yaml")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	s, err := schema.DecodeSpec([]byte("name: x\ndata: {window: "+list(200, 1)+"}\nsvd: {rank: "+list(100, 1)+"}\n"), "s.yaml")
	require.NoError(t, err, "exactly the limit is allowed")
	assert.Len(t, s.Trials(), schema.MaxTrials)
}

// A grid point whose settings differ from an earlier trial's only in
// settings outside the trial id runs as that trial, and Merged says so;
// points whose settings coincide, or that differ in a setting of the id
// (a label), are not listed.
func TestMergedGridPoints(t *testing.T) {
	for _, c := range []struct {
		name, spec string
		trials     int
		merged     []string // "title → kept title: keys"
	}{
		{"table_mb only", "variants:\n  - {}\n  - {budget: {table_mb: 0.5}}\n", 1,
			[]string{"variant 2 (budget.table_mb=0.5) → : budget.table_mb"}},
		{"an axis of table_mb", "budget: {table_mb: [0, 1, 2]}\n", 1,
			[]string{"budget.table_mb=1 → budget.table_mb=0: budget.table_mb", "budget.table_mb=2 → budget.table_mb=0: budget.table_mb"}},
		{"identical variants", "variants:\n  - {svd: {rank: 3}}\n  - {svd: {rank: 3}}\n", 1, nil},
		{"labelled", "variants:\n  - {label: a}\n  - {label: b, budget: {table_mb: 0.5}}\n", 2, nil},
		{"rank differs", "svd: {rank: [2, 3]}\nbudget: {table_mb: 1}\n", 2, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := schema.DecodeSpec([]byte("name: m\n"+c.spec), "m.yaml")
			require.NoError(t, err)
			assert.Len(t, s.Trials(), c.trials)
			var got []string
			for _, m := range s.Merged() {
				assert.Contains(t, s.Trials(), m.Into)
				got = append(got, m.String()+" → "+m.Into.Title+": "+strings.Join(m.Keys, ", "))
			}
			assert.Equal(t, c.merged, got)
		})
	}
}

// Hostile round 5, m2: a trial id does not depend on how the spec file's
// path is spelled (relative or absolute) nor on the working directory: a
// data path is hashed as the spec writes it, relative to the spec's
// directory when it lies there. A path outside it stays absolute.
func TestTrialIDIgnoresSpecPathSpelling(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "specs", "tables"), 0o755))
	outside := filepath.Join(t.TempDir(), "other.csv")
	body := func(csv string) string {
		return "name: m2\ndata: {source: csv, csv: [" + csv + "]}\nmethod: ca\neval: {sets: [men, tables/p.tsv]}\n"
	}
	write := func(b string) string {
		p := filepath.Join(dir, "specs", "s.yaml")
		require.NoError(t, os.WriteFile(p, []byte(b), 0o644))
		return p
	}
	ids := func(path string) []string {
		t.Helper()
		s, err := schema.LoadSpec(path)
		require.NoError(t, err)
		var out []string
		for _, tr := range s.Trials() {
			out = append(out, tr.ID)
		}
		return out
	}
	abs := write(body("tables/t.csv, " + outside))
	t.Chdir(dir)
	want := ids(filepath.Join("specs", "s.yaml"))
	assert.Equal(t, want, ids(abs), "absolute spelling of the spec path")
	t.Chdir(filepath.Join(dir, "specs"))
	assert.Equal(t, want, ids("s.yaml"), "another working directory")
	assert.Equal(t, want, ids("../specs/./s.yaml"))
	// The same file written absolute, inside the spec's directory, is the
	// same data path.
	write(body(filepath.Join(dir, "specs", "tables", "t.csv") + ", " + outside))
	assert.Equal(t, want, ids("s.yaml"))
	// Another file is another trial.
	write(body("tables/u.csv, " + outside))
	assert.NotEqual(t, want[0], ids("s.yaml")[0])
	assert.Equal(t, want[1], ids("s.yaml")[1])
}
