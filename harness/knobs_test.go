package harness_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/corpus"
	"kcalab/harness"
	_ "kcalab/harness/builtin"
	"kcalab/methods/ca"
	"kcalab/methods/kca"
	"kcalab/methods/svd"
	"kcalab/methods/vectors"
	"kcalab/records"
)

// knobsBase is a small synthetic word trial shared by the knob tests.
const knobsBase = `name: knobs
data: {source: synthetic, window: 2DATA}
synthetic: {clusters: 4, words: 15, tokens: 20000}
eval: {sets: [synthetic]}
svd: {rank: 5, backend: dense}
`

// knobsSpec is knobsBase with data settings added to its data map (", key:
// value"; the table is N^flat unless they name one) and extra appended.
func knobsSpec(data, extra string) string {
	if !strings.Contains(data, "table:") {
		data = ", table: flat" + data
	}
	return strings.Replace(knobsBase, "DATA", data, 1) + extra
}

// runKnobs runs a spec (knobsBase plus extra) and returns its records and
// its trials' exported vectors, by trial id.
func runKnobs(t *testing.T, extra string) ([]records.Record, map[string]*vectors.Set) {
	t.Helper()
	return runKnobsData(t, "", extra)
}

// runKnobsData is runKnobs with data settings (see knobsSpec).
func runKnobsData(t *testing.T, data, extra string) ([]records.Record, map[string]*vectors.Set) {
	t.Helper()
	s := loadSpecTo(t, writeSpec(t, knobsSpec(data, extra)), t.TempDir())
	vdir := t.TempDir()
	res, err := (&harness.Runner{VectorsDir: vdir}).Run(context.Background(), s)
	require.NoError(t, err)
	vs := map[string]*vectors.Set{}
	for _, rec := range res.Records {
		if rec.Status != "ok" {
			continue
		}
		files, err := filepath.Glob(filepath.Join(vdir, "*-"+rec.ID+".txt"))
		require.NoError(t, err)
		require.Len(t, files, 1, rec.ID)
		v, err := vectors.ReadTextFile(files[0])
		require.NoError(t, err)
		vs[rec.ID] = v
	}
	return res.Records, vs
}

// Spelling out every knob at its default is today's trial: the same id,
// seed, metrics and exported vectors, byte for byte.
func TestKnobDefaultsAreToday(t *testing.T) {
	for _, method := range []string{"lca", "gini", "kca"} {
		t.Run(method, func(t *testing.T) {
			m := "method: " + method + "\nkca: {kernel: sppmi}\n"
			plain, pv := runKnobs(t, m)
			spelled, sv := runKnobsData(t, ", subsample: 0", "method: "+method+"\nkca: {kernel: sppmi, cds: 1}\nvectors: {beta: -0.5, add_contexts: false}\n")
			require.Len(t, plain, 1)
			require.Len(t, spelled, 1)
			a, b := plain[0], spelled[0]
			require.Equal(t, "ok", a.Status, a.Error)
			assert.Equal(t, a.ID, b.ID)
			assert.Equal(t, a.Seed, b.Seed)
			assert.Equal(t, a.SVD.S, b.SVD.S)
			for k, v := range a.Metrics {
				if !strings.HasSuffix(k, "_s") && !strings.HasPrefix(k, "max_rss") && k != records.MetricSVDPlan {
					assert.Equal(t, v, b.Metrics[k], k)
				}
			}
			assert.Equal(t, pv[a.ID].M.RawMatrix().Data, sv[b.ID].M.RawMatrix().Data)
		})
	}
}

// kca.cds smooths the context distribution of the trial's kernel: the
// recorded singular values are those of ca.DecomposeWith(CDS) (ca, gini)
// or of the plain SVD of kca.SPPMIWith (sppmi) of the same table, and
// differ from the unsmoothed ones.
func TestKCACDS(t *testing.T) {
	for _, tc := range []struct {
		name, data, method, kca string
		kernel                  ca.Kernel
	}{
		{"lca", "", "lca", "", ca.KernelCA},
		{"tailcut", ", table: cut", "kca", "kernel: tailcut", ca.KernelCA},
		{"gini", "", "gini", "", ca.KernelGini},
		{"sppmi", "", "kca", "kernel: sppmi", ca.KernelPlain},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := func(cds string) string {
				return "method: " + tc.method + "\nkca: {" + strings.Trim(tc.kca+", "+cds, ", ") + "}\n"
			}
			smooth, _ := runKnobsData(t, tc.data, spec("cds: 0.75"))
			plain, _ := runKnobsData(t, tc.data, spec(""))
			require.Equal(t, "ok", smooth[0].Status, smooth[0].Error)
			assert.NotEqual(t, smooth[0].ID, plain[0].ID)
			assert.NotEqual(t, plain[0].SVD.S, smooth[0].SVD.S, "smoothing changes the spectrum")

			s := loadSpecTo(t, writeSpec(t, knobsSpec(tc.data, spec(""))), t.TempDir())
			tr := harness.NewTrialRun(&harness.Runner{}, s, s.Trials()[0])
			wd, err := tr.Words(context.Background())
			require.NoError(t, err)
			n, err := tr.WordTable(context.Background(), wd)
			require.NoError(t, err)
			opt := svd.DefaultOptions(5)
			var dec *ca.Decomposition
			if tc.kernel == ca.KernelPlain {
				m, err := kca.SPPMIWith(n, 1, 0.75)
				require.NoError(t, err)
				dec, err = ca.Decompose(context.Background(), m, ca.KernelPlain, svd.Dense{}, opt)
				require.NoError(t, err)
			} else {
				dec, err = ca.DecomposeWith(context.Background(), n, tc.kernel, svd.Dense{}, opt, ca.DecomposeOptions{CDS: 0.75})
				require.NoError(t, err)
			}
			assert.InDeltaSlice(t, dec.S, smooth[0].SVD.S, 1e-12)
		})
	}
}

// vectors.beta weights the rows: β = 0 leaves U Σ^α unweighted, so each
// CA word vector is its β = −1/2 vector times one factor of its own (√r),
// not one factor for all; for gini, whose row weights are ones, β changes
// nothing.
func TestVectorsBeta(t *testing.T) {
	for _, tc := range []struct {
		method   string
		rowsDiff bool
	}{{"lca", true}, {"gini", false}} {
		t.Run(tc.method, func(t *testing.T) {
			ca, cav := runKnobs(t, "method: "+tc.method+"\n")
			hw, hwv := runKnobs(t, "method: "+tc.method+"\nvectors: {beta: 0}\n")
			require.Equal(t, "ok", hw[0].Status, hw[0].Error)
			assert.Equal(t, ca[0].SVD.S, hw[0].SVD.S, "the decomposition is the same")
			f, g := cav[ca[0].ID], hwv[hw[0].ID]
			if !tc.rowsDiff {
				assert.Equal(t, f.M.RawMatrix().Data, g.M.RawMatrix().Data)
				return
			}
			var factors []float64
			for i, w := range f.Words {
				fr, _ := f.Vector(w)
				gr, ok := g.Vector(w)
				require.True(t, ok)
				k := 0 // the largest component: the best-defined ratio
				for j := range fr {
					if abs(fr[j]) > abs(fr[k]) {
						k = j
					}
				}
				ratio := gr[k] / fr[k]
				for j := range fr {
					assert.InDelta(t, ratio*fr[j], gr[j], 1e-5*abs(gr[k]), "word %d component %d", i, j)
				}
				factors = append(factors, ratio)
			}
			spread := 0.0
			for _, x := range factors {
				spread = max(spread, abs(x/factors[0]-1))
			}
			assert.Greater(t, spread, 0.01, "one factor per word (√r), not one for all")
		})
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// vectors.add_contexts adds each word's context vector: the trial's vectors
// are D(r)^β U Σ^α + D(c)^β V Σ^α of the same table, computed here from
// ca.DecomposeWith with V kept (dense: exact, so equal up to the sign of
// each column, which U and V share).
func TestVectorsAddContexts(t *testing.T) {
	for _, tc := range []struct {
		name, spec  string
		alpha, beta float64
	}{
		{"ca coordinates", "method: lca\nvectors: {add_contexts: true}\n", 1, vectors.CARows},
		{"hyperwords' w + c", "method: lca\nvectors: {add_contexts: true, alpha: 0.5, beta: 0}\nkca: {cds: 0.75}\n", 0.5, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs, vs := runKnobs(t, tc.spec)
			require.Equal(t, "ok", recs[0].Status, recs[0].Error)
			got := vs[recs[0].ID]

			s := loadSpecTo(t, writeSpec(t, knobsSpec("", tc.spec)), t.TempDir())
			trial := s.Trials()[0]
			tr := harness.NewTrialRun(&harness.Runner{}, s, trial)
			wd, err := tr.Words(context.Background())
			require.NoError(t, err)
			n, err := tr.WordTable(context.Background(), wd)
			require.NoError(t, err)
			dec, err := ca.DecomposeWith(context.Background(), n, ca.KernelCA, svd.Dense{}, svd.DefaultOptions(5),
				ca.DecomposeOptions{CDS: trial.KCA.CDS, KeepV: true})
			require.NoError(t, err)
			require.NoError(t, vectors.ScaleWeighted(dec.U, dec.S, dec.RowMass, tc.alpha, tc.beta))
			require.NoError(t, vectors.ScaleWeighted(dec.V, dec.S, dec.ColMass, tc.alpha, tc.beta))
			var want mat.Dense
			want.Add(dec.U, dec.V)
			words := wd.Vocab.Words
			for k := 0; k < 5; k++ {
				same, flipped := 0.0, 0.0
				scale := 0.0
				for i, w := range words {
					if w == corpus.Unk {
						continue
					}
					v, ok := got.Vector(w)
					require.True(t, ok, w)
					same = max(same, abs(v[k]-want.At(i, k)))
					flipped = max(flipped, abs(v[k]+want.At(i, k)))
					scale = max(scale, abs(want.At(i, k)))
				}
				assert.LessOrEqual(t, min(same, flipped), 1e-5*scale, "column %d", k)
			}
		})
	}
}

// data.subsample drops frequent tokens before counting: the table shrinks;
// the trials of a spec (here two windows) count the same draw, replicates
// draw anew, a rerun draws the same, and the unsubsampled trial of the same
// cache is untouched.
func TestDataSubsample(t *testing.T) {
	cache := t.TempDir()
	run := func(data, extra string, fresh bool) map[string]records.Record {
		s := loadSpecTo(t, writeSpec(t, strings.Replace(knobsSpec(data, "method: lca\n"+extra), "window: 2", "window: [2, 3]", 1)), t.TempDir())
		res, err := (&harness.Runner{CacheDir: cache, Fresh: fresh}).Run(context.Background(), s)
		require.NoError(t, err)
		out := map[string]records.Record{}
		for _, r := range res.Records {
			require.Equal(t, "ok", r.Status, r.Error)
			sub, ok := r.Settings["data.subsample"]
			if !ok {
				sub = 0 // a record leaves it out at its default (omitdefault)
			}
			key := fmt.Sprintf("W=%v sub=%v rep=%v", r.Settings["data.window"], sub, r.Settings["replicate"])
			out[key] = r
		}
		return out
	}
	recs := run(", subsample: [0, 1e-3]", "replicates: 2\n", false)
	require.Len(t, recs, 8)
	all, sub, sub3, subRep := recs["W=2 sub=0 rep=<nil>"], recs["W=2 sub=0.001 rep=<nil>"], recs["W=3 sub=0.001 rep=<nil>"], recs["W=2 sub=0.001 rep=1"]
	for _, r := range []records.Record{all, sub, sub3, subRep} {
		require.NotEmpty(t, r.ID, "%v", recs)
	}
	_, ok := all.Metrics[records.MetricTokensKept]
	assert.False(t, ok, "no subsampling, no tokens_kept")
	kept := sub.Metrics[records.MetricTokensKept]
	assert.Less(t, kept, all.Metrics[records.MetricTokens], "tokens dropped")
	assert.Less(t, sub.Metrics[records.MetricNNZ], all.Metrics[records.MetricNNZ], "fewer pairs counted")
	assert.Equal(t, kept, sub3.Metrics[records.MetricTokensKept], "one draw for the trials of a spec")
	assert.NotEqual(t, kept, subRep.Metrics[records.MetricTokensKept], "a replicate draws anew")
	assert.NotEqual(t, sub.SVD.S, subRep.SVD.S)
	again := run(", subsample: [0, 1e-3]", "replicates: 2\n", true)
	assert.Equal(t, sub.SVD.S, again["W=2 sub=0.001 rep=<nil>"].SVD.S, "the same trial draws the same tokens")
	alone := run("", "", false)
	assert.Equal(t, all.ID, alone["W=2 sub=0 rep=<nil>"].ID)
	assert.Equal(t, all.SVD.S, alone["W=2 sub=0 rep=<nil>"].SVD.S, "the subsampled tables did not take the full table's cache entries")
}

// Settings a trial cannot honour are refused with a message naming them.
func TestKnobsRefused(t *testing.T) {
	tabs := t.TempDir()
	text := filepath.Join(t.TempDir(), "c.txt")
	require.NoError(t, os.WriteFile(text, []byte(strings.Repeat("a b c a b d ", 50)), 0o644))
	c, err := corpus.Open(context.Background(), "", text, corpus.Options{})
	require.NoError(t, err)
	v, ids, err := corpus.Build(context.Background(), c, corpus.VocabOptions{MinCount: 1})
	require.NoError(t, err)
	tb, err := corpus.NewTables(v, ids, corpus.TableOptions{})
	require.NoError(t, err)
	require.NoError(t, corpus.WriteTableDir(context.Background(), tabs, tb, 2, "test"))
	pairs := filepath.Join(t.TempDir(), "pairs.txt")
	require.NoError(t, os.WriteFile(pairs, []byte("a\tb\t1\n"), 0o644))
	for _, tc := range []struct {
		name, spec, msg string
	}{
		{"w + c of Fisher's table", "name: r\ndata: {source: fisher}\nmethod: ca\nvectors: {add_contexts: true}\n", "one vocabulary"},
		{"cds with glove-log", knobsSpec("", "method: kca\nkca: {kernel: glove-log, cds: 0.75}\n"), "glove-log has none"},
		{"cds with sca paper", knobsSpec("", "method: sca\nsca: {form: paper, set: "+pairs+", mode: in-sample}\nkca: {cds: 0.75}\n"), "sca.form paper"},
		{"w + c with sca paper", knobsSpec("", "method: sca\nsca: {form: paper, set: "+pairs+", mode: in-sample}\nvectors: {add_contexts: true}\n"), "sca.form paper"},
		{"subsampling counted tables", "name: r\ndata: {source: tables, tables: " + tabs + ", table: flat, window: 2, subsample: 1e-3}\nmethod: lca\nsvd: {rank: 2}\neval: {sets: []}\n", "data.subsample"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := loadSpecTo(t, writeSpec(t, tc.spec), t.TempDir())
			res, err := (&harness.Runner{}).Run(context.Background(), s)
			require.Error(t, err, "a run whose every trial failed fails")
			assert.Contains(t, err.Error(), tc.msg)
			require.Len(t, res.Records, 1)
			assert.Equal(t, "error", res.Records[0].Status)
			assert.Contains(t, res.Records[0].Error, tc.msg)
		})
	}
}
