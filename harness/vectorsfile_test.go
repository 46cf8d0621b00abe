package harness_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"kcalab/datasets/wordsim"
	"kcalab/harness"
	_ "kcalab/harness/builtin"
	"kcalab/methods/eval"
	"kcalab/methods/vectors"
	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func TestVectorsFileName(t *testing.T) {
	for _, tc := range []struct{ spec, label, method, want string }{
		{"quickstart", "tail-cut", "kca", "quickstart-tail-cut-abc.txt"},
		{"quickstart", "", "sgns", "quickstart-sgns-abc.txt"},
		{"q", "LCA N^flat", "lca", "q-LCA-N-flat-abc.txt"},
		{"q", "SGNS kernel (SPPMI)", "kca", "q-SGNS-kernel-SPPMI-abc.txt"},
		{"q", "../../etc/passwd", "ca", "q-etc-passwd-abc.txt"},
		{"q", "§§§", "ca", "q-ca-abc.txt"},
		{"q", "W=5, d=300 ✓", "ca", "q-W-5-d-300-abc.txt"},
		{"q", strings.Repeat("x", 100), "ca", "q-" + strings.Repeat("x", 60) + "-abc.txt"},
	} {
		assert.Equal(t, tc.want, harness.VectorsFileName(tc.spec, tc.label, tc.method, "abc"), "%q", tc.label)
	}
}

// vectors.save writes <spec>-<label>-<id>.txt without the <unk> row, and
// the record names the file relative to the output directory.
func TestVectorsSaved(t *testing.T) {
	dir := t.TempDir()
	var text strings.Builder
	for i := 0; i < 300; i++ {
		text.WriteString("the cat sat on the mat a dog ran in the park ")
	}
	text.WriteString("rare1 rare2 rare3\n") // below min_count: <unk>
	require.NoError(t, os.WriteFile(filepath.Join(dir, "c.txt"), []byte(text.String()), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.tsv"), []byte("cat\tdog\t5\nmat\tpark\t2\nthe\ta\t7\n"), 0o644))
	spec := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(spec, []byte(`name: vec
data: {source: corpus, corpus: c.txt, min_count: 2, window: 2}
eval: {sets: [p.tsv]}
svd: {rank: 3}
vectors: {save: true}
variants:
  - {method: lca, label: "LCA N^flat", data: {table: flat}}
  - {method: lca}
`), 0o644))
	s := loadSpecTo(t, spec, filepath.Join(dir, "out"))
	res, err := (&harness.Runner{Jobs: 1}).Run(context.Background(), s)
	require.NoError(t, err)
	for i, label := range []string{"LCA-N-flat", "lca"} {
		r := res.Records[i]
		want := "vectors/vec-" + label + "-" + r.ID + ".txt"
		require.Equal(t, []string{want}, r.Files)
		b, err := os.ReadFile(filepath.Join(s.Output, want))
		require.NoError(t, err)
		assert.NotContains(t, string(b), "<unk>")
		assert.True(t, strings.HasPrefix(string(b), "10 3\n"), "10 words (no <unk>), 3 dimensions: %q", strings.SplitN(string(b), "\n", 2)[0])
	}
}

// Words a method composes (Go fastText's n-gram vectors for the evaluation
// words its corpus lacks) travel with its vectors: the export holds them
// after the vocabulary, the scores cover them, and the record counts them.
func TestComposedWordsExported(t *testing.T) {
	dir := t.TempDir()
	var text strings.Builder
	for i := 0; i < 300; i++ {
		text.WriteString("the cat sat on the mat a dog ran in the park cats dogs parking ")
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "c.txt"), []byte(text.String()), 0o644))
	// catty and parked are not in the corpus: fastText composes them.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.tsv"), []byte("cat\tdog\t5\ncatty\tcats\t8\nparked\tpark\t7\nthe\ta\t1\n"), 0o644))
	spec := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(spec, []byte(`name: ft
data: {source: corpus, corpus: c.txt, min_count: 2}
eval: {sets: [p.tsv]}
method: fasttext
train: {dim: 8, window: 2, epochs: 2, buckets: 5000}
vectors: {save: true}
`), 0o644))
	s := loadSpecTo(t, spec, filepath.Join(dir, "out"))
	res, err := (&harness.Runner{Jobs: 1}).Run(context.Background(), s)
	require.NoError(t, err)
	r := res.Records[0]
	require.Equal(t, "ok", r.Status, r.Error)
	assert.Equal(t, 2.0, r.Metrics[records.MetricComposed], "catty and parked")
	assert.Equal(t, 8.0, r.Metrics[records.MetricDim])
	assert.Equal(t, 1.0, r.Metrics[records.Coverage("p.tsv").Key()], "every pair has vectors")
	// A baseline trains on one core: the CPU time of its thread is its
	// cost, whatever shares the machine (records.MetricThreadCPU).
	if runtime.GOOS == "linux" {
		require.Contains(t, r.Metrics, records.MetricThreadCPU)
		assert.Greater(t, r.Metrics[records.MetricThreadCPU], 0.0)
		assert.LessOrEqual(t, r.Metrics[records.MetricThreadCPU], r.Timings["total"]+0.05, "one thread cannot use more than the wall time")
	}
	require.Len(t, r.Files, 1)
	vs, err := vectors.ReadTextFile(filepath.Join(s.Output, r.Files[0]))
	require.NoError(t, err)
	for _, w := range []string{"catty", "parked", "cat", "park"} {
		_, ok := vs.Index(w)
		assert.True(t, ok, "%s is in the export", w)
	}
	assert.Equal(t, []string{"catty", "parked"}, vs.Words[len(vs.Words)-2:], "composed words follow the vocabulary")
	// Scored at both similarities: the other one's key names it.
	assert.Contains(t, r.Metrics, "spearman.cosine.zero.p.tsv")
	assert.Contains(t, r.Bootstrap.Scores, "spearman.zero.p.tsv")
	assert.Contains(t, r.Bootstrap.Scores, "spearman.cosine.skip.p.tsv")
}

// smallVectorsSpec writes a one-trial word spec that saves its vectors and
// returns its path.
func smallVectorsSpec(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var text strings.Builder
	for i := 0; i < 300; i++ {
		text.WriteString("the cat sat on the mat a dog ran in the park ")
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "c.txt"), []byte(text.String()), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.tsv"), []byte("cat\tdog\t5\nmat\tpark\t2\nthe\ta\t7\n"), 0o644))
	spec := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(spec, []byte(`name: vec
data: {source: corpus, corpus: c.txt, min_count: 2, window: 2}
eval: {sets: [p.tsv]}
svd: {rank: 3}
method: lca
vectors: {save: true}
`), 0o644))
	return spec
}

// Vectors are never written through a symbolic link: a vectors/ directory
// in the output, or a trial's vectors file there or in -vectors DIR, that
// is a link is refused before any trial, naming it; the place it points to
// keeps its bytes. A -vectors directory the user names is taken
// as given, link or not.
func TestVectorsNotWrittenThroughLinks(t *testing.T) {
	tests := []struct {
		name      string
		vectorsIn bool   // -vectors DIR instead of vectors.save's vectors/
		link      string // what is a link to the victim: "dir" (the vectors directory) or "file" (the trial's file)
		wantErr   string // "" = the run succeeds and writes into the victim
	}{
		{name: "vectors/ is a link", link: "dir", wantErr: "vectors: writing {out}/vectors (a link to {victim}): is a symbolic link"},
		{name: "vectors/ file is a link", link: "file", wantErr: "vectors: writing {file} (a link to {victim}/v.txt): is a symbolic link"},
		{name: "-vectors file is a link", vectorsIn: true, link: "file", wantErr: "vectors: writing {file} (a link to {victim}/v.txt): is a symbolic link"},
		{name: "-vectors DIR itself is a link", vectorsIn: true, link: "dir"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, victim := filepath.Join(t.TempDir(), "o"), t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(victim, "v.txt"), []byte("mine\n"), 0o644))
			s := loadSpecTo(t, smallVectorsSpec(t), out)
			tr := s.Trials()[0]
			r := &harness.Runner{Jobs: 1}
			dir := filepath.Join(out, "vectors")
			if tt.vectorsIn {
				dir = filepath.Join(t.TempDir(), "vecs")
				r.VectorsDir = dir
			}
			switch tt.link {
			case "dir":
				require.NoError(t, os.MkdirAll(filepath.Dir(dir), 0o755))
				require.NoError(t, os.Symlink(victim, dir))
			case "file":
				require.NoError(t, os.MkdirAll(dir, 0o755))
				require.NoError(t, os.Symlink(filepath.Join(victim, "v.txt"), filepath.Join(dir, harness.VectorsFileName(s.Name, tr.Label, tr.Method, tr.ID))))
			}
			file := filepath.Join(dir, harness.VectorsFileName(s.Name, tr.Label, tr.Method, tr.ID))
			var log bytes.Buffer
			r.Log = &log
			_, err := r.Run(context.Background(), s)
			got, rerr := os.ReadFile(filepath.Join(victim, "v.txt"))
			require.NoError(t, rerr)
			assert.Equal(t, "mine\n", string(got), "the file the link points to keeps its bytes")
			entries, _ := os.ReadDir(victim)
			if tt.wantErr == "" {
				require.NoError(t, err)
				assert.Len(t, entries, 2, "the user's -vectors directory got the vectors")
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), strings.NewReplacer("{out}", out, "{victim}", victim, "{file}", file).Replace(tt.wantErr))
			assert.Contains(t, err.Error(), "no trial was run")
			assert.NotContains(t, log.String(), ": ok in ", "no trial ran")
			assert.Len(t, entries, 1, "nothing written into the victim")
		})
	}
}

// A trial whose saved vectors file no longer holds what it wrote is not
// reused as if it did: changed, it is computed again (said on the log) and
// the file rewritten; replaced by a link, the run is refused before any
// trial, naming the link (computing it again would write through it);
// deleted, it is reused (exported vectors are build outputs, absent from a
// fresh clone) and the file stays absent. The record keeps the file's
// SHA-256.
func TestVectorsFileChangedSinceReuse(t *testing.T) {
	tests := []struct {
		name      string
		mess      func(t *testing.T, path, victim string)
		reused    int
		wantLog   string
		wantErr   string
		rewritten bool
	}{
		{"untouched", func(*testing.T, string, string) {}, 1, "", "", true},
		{"changed", func(t *testing.T, path, _ string) {
			require.NoError(t, os.WriteFile(path, []byte("1 1\nx 0.5\n"), 0o644))
		}, 0, "has changed since the trial wrote it (its SHA-256 differs from the record's): computing it again", "", true},
		{"replaced by a link", func(t *testing.T, path, victim string) {
			require.NoError(t, os.Remove(path))
			require.NoError(t, os.Symlink(victim, path))
		}, 0, "is now a symbolic link (to {victim}): computing it again", "(a link to {victim}): is a symbolic link", false},
		{"deleted", func(t *testing.T, path, _ string) { require.NoError(t, os.Remove(path)) }, 1, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "o")
			victim := filepath.Join(t.TempDir(), "mine.txt")
			require.NoError(t, os.WriteFile(victim, []byte("mine\n"), 0o644))
			s := loadSpecTo(t, smallVectorsSpec(t), out)
			first, err := (&harness.Runner{Jobs: 1}).Run(context.Background(), s)
			require.NoError(t, err)
			rec := first.Records[0]
			require.Len(t, rec.Files, 1)
			path := filepath.Join(out, filepath.FromSlash(rec.Files[0]))
			want, err := records.FileSHA256(path)
			require.NoError(t, err)
			assert.Equal(t, map[string]string{rec.Files[0]: want}, rec.FileHashes, "the record keeps the file's hash")

			tt.mess(t, path, victim)
			var log bytes.Buffer
			res, err := (&harness.Runner{Jobs: 1, Log: &log}).Run(context.Background(), s)
			sub := strings.NewReplacer("{victim}", victim)
			if tt.wantLog != "" {
				assert.Contains(t, log.String(), sub.Replace(tt.wantLog))
			}
			got, rerr := os.ReadFile(victim)
			require.NoError(t, rerr)
			assert.Equal(t, "mine\n", string(got), "nothing written through the link")
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), sub.Replace(tt.wantErr))
				return
			}
			require.NoError(t, err, log.String())
			assert.Equal(t, tt.reused, res.Reused)
			if tt.rewritten {
				have, err := records.FileSHA256(path)
				require.NoError(t, err)
				assert.Equal(t, want, have, "the file holds the trial's vectors again")
			} else {
				assert.NoFileExists(t, path)
			}
		})
	}
}

// A trial that covers pairs outside its corpus vocabulary (fastText's
// n-gram vectors) is also scored on the vocabulary's pairs (the vocab
// rule): the pairs a model without vectors for unseen words covers, so the
// two can be compared on the same pairs. A model that covers only its
// vocabulary records no such score: its skip rule is that score.
func TestVocabRuleCommonPairs(t *testing.T) {
	dir := t.TempDir()
	var text strings.Builder
	for i := 0; i < 300; i++ {
		text.WriteString("the cat sat on the mat a dog ran in the park cats dogs parking ")
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "c.txt"), []byte(text.String()), 0o644))
	pairs := "cat\tdog\t5\ncatty\tcats\t8\nparked\tpark\t7\nthe\ta\t1\nmat\tpark\t3\nsat\tran\t6\ndogs\tcats\t9\nparking\tpark\t4\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.tsv"), []byte(pairs), 0o644))
	spec := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(spec, []byte(`name: common
data: {source: corpus, corpus: c.txt, min_count: 2, window: 2}
eval: {sets: [p.tsv]}
svd: {rank: 3}
variants:
  - {method: fasttext, train: {dim: 8, window: 2, epochs: 2, buckets: 5000}, vectors: {save: true}}
  - {method: lca}
`), 0o644))
	s := loadSpecTo(t, spec, filepath.Join(dir, "out"))
	res, err := (&harness.Runner{Jobs: 1}).Run(context.Background(), s)
	require.NoError(t, err)
	ft, lca := res.Records[0], res.Records[1]
	require.Equal(t, "ok", ft.Status, ft.Error)
	require.Equal(t, "ok", lca.Status, lca.Error)

	n, ok := records.CoveredPairs(lca, "p.tsv")
	require.True(t, ok)
	assert.Equal(t, 6, n, "every pair but the two with catty and parked")
	assert.Equal(t, float64(n), ft.Metrics[records.VocabPairs("p.tsv").Key()], "fastText's vocab rule scores the pairs LCA covers")
	assert.Equal(t, 1.0, ft.Metrics[records.Coverage("p.tsv").Key()])

	// Its ρ there is the skip rule's of its vocabulary rows alone.
	vs, err := vectors.ReadTextFile(filepath.Join(s.Output, ft.Files[0]))
	require.NoError(t, err)
	vocab, err := vectors.New(vs.Words[:len(vs.Words)-2], vs.M.Slice(0, len(vs.Words)-2, 0, vs.Dim()).(*mat.Dense))
	require.NoError(t, err)
	set, err := wordsim.LoadFile(filepath.Join(dir, "p.tsv"))
	require.NoError(t, err)
	for _, sim := range []vectors.Similarity{vectors.Dot, vectors.Cosine} {
		key := records.Score(records.RuleVocab, "p.tsv").At(records.Similarity(sim), records.Similarity(s.Trials()[0].Eval.Similarity)).Key()
		want, err := eval.Evaluate(vocab, set, sim, eval.Skip)
		require.NoError(t, err)
		assert.InDelta(t, want.Rho, ft.Metrics[key], 1e-6, "%s", key) // the export rounds to 32 bits
		assert.Contains(t, ft.Bootstrap.Scores, key, "resampled as the other rules are")
	}
	for k := range lca.Metrics {
		m := records.ParseMetric(k)
		assert.False(t, m.Rule == records.RuleVocab || m.Kind == records.VocabPairsMetric, "LCA covers only its vocabulary: %s", k)
	}
}
