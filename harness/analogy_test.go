package harness_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kcalab/harness"
	_ "kcalab/harness/builtin"
	"kcalab/records"
	"kcalab/schema"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/methods/eval"
)

// Analogies and case folding on the synthetic corpus (words
// c<cluster>w<word>): "google" is read from the data directory, a file
// relative to the spec; every key is recorded; the defaults leave a trial's
// id alone.
func TestAnalogyAndCaseInsensitiveScores(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	require.NoError(t, os.MkdirAll(filepath.Join(data, "analogy"), 0o755))
	// Within-cluster questions, upper case as the Google file's capitals
	// are; one section has a word outside the vocabulary.
	var q strings.Builder
	q.WriteString(": within\n")
	for c := 0; c < 4; c++ {
		fmt.Fprintf(&q, "C%dW00 C%dW01 C%dW02 C%dW03\n", c, c, c, c)
	}
	q.WriteString(": unknown\nC0W00 C0W01 nosuch C0W03\n")
	require.NoError(t, os.WriteFile(filepath.Join(data, "analogy", "questions-words.txt"), []byte(q.String()), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "mine.txt"), []byte(q.String()), 0o644))
	var pairs strings.Builder
	for c := 0; c < 4; c++ {
		for w := 0; w+1 < 8; w++ {
			fmt.Fprintf(&pairs, "C%dW%02d\tc%dw%02d\t%d\n", c, w, c, w+1, 5+w%3)
			fmt.Fprintf(&pairs, "c%dw%02d\tC%dW%02d\t%d\n", c, w, (c+1)%4, w, w%2)
		}
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "upper.txt"), []byte(pairs.String()), 0o644))
	spec := `
name: analogies
data: {source: synthetic, window: 5}
synthetic: {clusters: 4, words: 8, tokens: 20000, noise: 0.3}
method: lca
svd: {rank: 6}
eval: {sets: [synthetic, upper.txt], analogies: [google, mine.txt], analogy_vocab: 0, case_insensitive: [false, true]}
`
	path := filepath.Join(dir, "a.yaml")
	require.NoError(t, os.WriteFile(path, []byte(spec), 0o644))
	s, err := schema.LoadSpec(path)
	require.NoError(t, err)
	s.Output = t.TempDir()
	res, err := (&harness.Runner{Jobs: 1, DataDir: data}).Run(context.Background(), s)
	require.NoError(t, err)
	require.Len(t, res.Records, 2)
	for i, rec := range res.Records {
		require.Equal(t, "ok", rec.Status, rec.Error)
		m := rec.Metrics
		for _, set := range []string{"google", "mine.txt"} {
			assert.InDelta(t, 4.0/5, m[records.AnalogyCoverage(set, "").Key()], 1e-12, set)
			assert.Equal(t, 1.0, m[records.AnalogyCoverage(set, "within").Key()], set)
			assert.Equal(t, 0.0, m[records.AnalogyCoverage(set, "unknown").Key()], set)
			assert.Contains(t, m, records.Analogy(set, false, "").Key())
			assert.Contains(t, m, records.Analogy(set, true, "within").Key())
			assert.NotContains(t, m, records.Analogy(set, false, "unknown").Key(), "nothing covered: no accuracy")
			// Words within a cluster are alike, so the exact answer is luck.
			assert.True(t, m[records.Analogy(set, false, "").Key()] >= 0 && m[records.Analogy(set, false, "").Key()] <= 1, set)
		}
		assert.Equal(t, m[records.Analogy("google", false, "").Key()], m[records.Analogy("mine.txt", false, "").Key()])
		assert.Contains(t, m, records.Pearson(records.Rule(eval.Zero), "synthetic").Key())
		assert.Contains(t, m, records.Pearson(records.Rule(eval.Skip), "synthetic").Key())
		// Upper-case set words find their vectors only when folded.
		want := []float64{0, 1}[i]
		assert.Equal(t, want, m[records.Coverage("upper.txt").Key()], "case_insensitive %v", rec.Settings["eval.case_insensitive"])
	}
	// The defaults (no analogies, case-sensitive) add nothing to an id.
	base := map[string]any{"method": "lca"}
	with := map[string]any{"method": "lca", "eval.analogies": []string{}, "eval.analogy_vocab": 30000, "eval.case_insensitive": false}
	assert.Equal(t, schema.TrialID(base), schema.TrialID(with))
}

func TestAnalogyNames(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.yaml")
	require.NoError(t, os.WriteFile(path, []byte("name: a\neval: {analogies: [gogle]}\n"), 0o644))
	_, err := schema.LoadSpec(path)
	require.ErrorContains(t, err, `did you mean "google"`)
	require.NoError(t, os.WriteFile(path, []byte("name: a\neval: {analogies: [q/a.txt, r/a.txt]}\n"), 0o644))
	_, err = schema.LoadSpec(path)
	require.ErrorContains(t, err, `would both be scored as "a.txt"`)
	require.NoError(t, os.WriteFile(path, []byte("name: a\neval: {sets: [analogy.txt]}\n"), 0o644))
	_, err = schema.LoadSpec(path)
	require.ErrorContains(t, err, `may not start with "analogy."`)
}

// -check guards an analogy set's total accuracies (3CosAdd and 3CosMul) and
// Pearson r through their metadata; a section's accuracy is not guarded.
func TestCheckAnalogies(t *testing.T) {
	rec := func(add, mul, section, r float64) records.Record {
		return records.Record{ID: "a", Status: "ok", Settings: map[string]any{"label": "tail-cut", "method": "ca"},
			Metrics: map[string]float64{records.Analogy("google", false, "").Key(): add, records.Analogy("google", true, "").Key(): mul,
				records.Analogy("google", false, "family").Key(): section, records.AnalogyCoverage("google", "").Key(): 0.5,
				records.Pearson(records.Rule(eval.Zero), "men").Key(): r}}
	}
	ref := []records.Record{rec(0.30, 0.32, 0.5, 0.4)}
	assert.Empty(t, records.CheckScores(ref, []records.Record{rec(0.295, 0.32, 0.1, 0.4)}, 0.01), "a section may move")
	assert.Equal(t, []string{
		"tail-cut (trial a): google analogies (3CosAdd) fell to 0.2500 from the reference 0.3000 (by 0.0500, tolerance 0.01)",
		"tail-cut (trial a): google analogies (3CosMul) fell to 0.2000 from the reference 0.3200 (by 0.1200, tolerance 0.01)",
		"tail-cut (trial a): men (Pearson r, zero rule) fell to 0.3000 from the reference 0.4000 (by 0.1000, tolerance 0.01)",
	}, records.CheckScores(ref, []records.Record{rec(0.25, 0.20, 0.5, 0.3)}, 0.01))
}

// On a corpus whose four most frequent words are w0…w3 and with
// eval.analogy_vocab 4, every answer is forced: a question on w0…w3 has one
// candidate left, the one it expects (right), or it expects an input
// (wrong); a question with another word is not covered. The counts are
// recorded, and the bootstrap replicates of both accuracies are the
// accuracy over the set's shared resamples of its questions: the same for
// two trials with other vectors, and what eval.BootstrapAnalogies gives on
// the known answers.
func TestAnalogyCountsAndReplicates(t *testing.T) {
	dir := t.TempDir()
	var corpus strings.Builder
	counts := map[string]int{"w0": 400, "w1": 300, "w2": 200, "w3": 150}
	for i := range 8 {
		counts[fmt.Sprintf("e%d", i)] = 40
	}
	var tokens []string
	for w, n := range counts {
		for range n {
			tokens = append(tokens, w)
		}
	}
	slices.Sort(tokens)
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(tokens), func(i, j int) { tokens[i], tokens[j] = tokens[j], tokens[i] })
	corpus.WriteString(strings.Join(tokens, " "))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "corpus.txt"), []byte(corpus.String()), 0o644))
	qs := ": right\nw0 w1 w2 w3\nW1 W0 W3 W2\nw2 w3 w0 w1\n: wrong\nw0 w1 w2 w0\n: uncovered\nw0 w1 e0 e1\nw0 w1 w2 nosuch\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "q.txt"), []byte(qs), 0o644))
	right := eval.AnalogyAnswer{Covered: true, Correct: true, CorrectMul: true}
	answers := []eval.AnalogyAnswer{right, right, right, {Covered: true}, {}, {}}
	spec := `
name: counts
data: {source: corpus, corpus: corpus.txt, min_count: 5, table: flat, window: [2, 3]}
method: lca
svd: {rank: 3, backend: dense}
eval: {sets: [], analogies: [q.txt], analogy_vocab: 4}
`
	path := filepath.Join(dir, "a.yaml")
	require.NoError(t, os.WriteFile(path, []byte(spec), 0o644))
	s, err := schema.LoadSpec(path)
	require.NoError(t, err)
	s.Output = t.TempDir()
	res, err := (&harness.Runner{Jobs: 1}).Run(context.Background(), s)
	require.NoError(t, err)
	require.Len(t, res.Records, 2)
	add, mul := eval.BootstrapAnalogies(answers, eval.ResampleIndices("q.txt", len(answers), eval.Resamples))
	for _, rec := range res.Records {
		require.Equal(t, "ok", rec.Status, rec.Error)
		m := rec.Metrics
		count := func(c records.AnalogyCount, mul bool) float64 { return m[records.AnalogyCounts("q.txt", c, mul).Key()] }
		assert.Equal(t, [4]float64{6, 4, 3, 3}, [4]float64{count(records.CountQuestions, false), count(records.CountCovered, false),
			count(records.CountCorrect, false), count(records.CountCorrect, true)}, "questions, covered, right by 3CosAdd and 3CosMul")
		assert.Equal(t, 0.75, m[records.Analogy("q.txt", false, "").Key()])
		require.NotNil(t, rec.Bootstrap)
		assert.Equal(t, eval.Resamples, rec.Bootstrap.B)
		for k, want := range map[string][]float64{records.Analogy("q.txt", false, "").Key(): add, records.Analogy("q.txt", true, "").Key(): mul} {
			reps, ok := rec.Bootstrap.Replicates(k, m[k])
			require.True(t, ok, k)
			require.Len(t, reps, len(want))
			_, _, sd := records.Interval(m[k], reps)
			assert.Greater(t, sd, 0.0, "%s: the resamples spread", k)
			for b := range want {
				// One byte a replicate: within half a step of 1/127 of
				// the largest deviation (at most 0.75 here).
				assert.InDelta(t, want[b], reps[b], 0.75/127, "%s replicate %d", k, b)
			}
		}
		assert.NotContains(t, rec.Bootstrap.Scores, records.Analogy("q.txt", false, "right").Key(), "no replicates per section")
	}
	assert.NotEqual(t, res.Records[0].ID, res.Records[1].ID)
	assert.Equal(t, res.Records[0].Bootstrap, res.Records[1].Bootstrap, "two trials, one set: the same resamples, so the same replicates of the same answers")
}
