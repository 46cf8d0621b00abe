package builtin

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/datasets/datatest"
	"kcalab/datasets/synth"
	"kcalab/datasets/wordsim"
	"kcalab/harness"
	"kcalab/methods/sca"
	"kcalab/records"
	"kcalab/schema"
)

// tuningCalls records every list of pairs that reaches a tuning table Γ
// during fn, as word pairs (in the order the calls came).
func tuningCalls(t *testing.T, fn func()) [][][2]string {
	t.Helper()
	var mu sync.Mutex
	var calls [][][2]string
	testHookTuning = func(train []sca.Pair, wd *harness.WordData) {
		ws := make([][2]string, len(train))
		for i, p := range train {
			ws[i] = [2]string{wd.Vocab.Words[p.A], wd.Vocab.Words[p.B]}
		}
		mu.Lock()
		calls = append(calls, ws)
		mu.Unlock()
	}
	defer func() { testHookTuning = nil }()
	fn()
	return calls
}

func pairKey(a, b string) [2]string {
	a, b = strings.ToLower(a), strings.ToLower(b)
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// checkHeldOut asserts what sca.mode crossfit promises of the pairs that
// reached a tuning table Γ (calls, in order: fold 0 … k−1, then the final
// model): none is a pair of a test part of any set, nor a pair only an
// unseen set (scored, not learned from: eval.supervise) holds; fold f's
// model never learned from a pair of fold f (the pairs it scores); the
// final model learned from every dev pair of the learned sets with both
// words in the vocabulary and from nothing else.
func checkHeldOut(t *testing.T, calls [][][2]string, learned, unseen []*wordsim.Set, inVocab func(string) bool, seed uint64, k int) {
	t.Helper()
	require.Len(t, calls, k+1, "one model per fold, then the final one")
	test, dev := map[[2]string]bool{}, map[[2]string]bool{}
	for _, s := range learned {
		for _, p := range s.Pairs {
			key := pairKey(p.W1, p.W2)
			if wordsim.PartOf(p.W1, p.W2) == wordsim.PartTest {
				test[key] = true
			} else if inVocab(p.W1) && inVocab(p.W2) && p.W1 != p.W2 {
				dev[key] = true
			}
		}
	}
	for _, s := range unseen {
		for _, p := range s.Pairs {
			if key := pairKey(p.W1, p.W2); !dev[key] {
				test[key] = true
			}
		}
	}
	require.NotEmpty(t, test)
	require.NotEmpty(t, dev)
	for f, call := range calls {
		seen := map[[2]string]bool{}
		for _, p := range call {
			key := pairKey(p[0], p[1])
			seen[key] = true
			assert.False(t, test[key], "model %d tuned on %s–%s, a test pair", f, p[0], p[1])
			if f < k {
				assert.NotEqual(t, f, harness.DevFold(seed, k, p[0], p[1]), "fold %d's model tuned on %s–%s, a pair it scores", f, p[0], p[1])
			}
		}
		if f == k {
			assert.Equal(t, dev, seen, "the final model tunes on the dev pairs")
		}
	}
}

// On a synthetic corpus, with two sets of its words where the second
// repeats pairs of the first (in the other order, in upper case) beside
// its own, and a third set only scored (eval.supervise), no test pair of
// any set and no pair of the third alone reaches Γ, and no fold's model
// tunes on a pair it scores; for each SCA form.
func TestCrossfitNeverTunesOnTestPairs(t *testing.T) {
	clusters, err := synth.Words(synth.Options{Clusters: 6, WordsPerCluster: 8, Tokens: 20000})
	require.NoError(t, err)
	words := map[string]bool{}
	var all []string
	for _, c := range clusters {
		for _, w := range c {
			words[w] = true
			all = append(all, w)
		}
	}
	rng := rand.New(rand.NewPCG(7, 7))
	var a, b []string
	for i := 0; i < 160; i++ {
		c1, c2 := rng.IntN(len(clusters)), rng.IntN(len(clusters))
		w1, w2 := clusters[c1][rng.IntN(8)], clusters[c2][rng.IntN(8)]
		score := rng.Float64() * 2
		if c1 == c2 {
			score += 8
		}
		a = append(a, fmt.Sprintf("%s %s %.2f", w1, w2, score))
		if i%4 == 0 {
			b = append(b, fmt.Sprintf("%s %s %.2f", strings.ToUpper(w2), w1, score/2))
		}
	}
	var c []string // a set only scored (eval.supervise leaves it out), sharing a few of a's pairs
	for i := 0; i < 60; i++ {
		b = append(b, fmt.Sprintf("%s %s %d", all[rng.IntN(len(all))], all[rng.IntN(len(all))], rng.IntN(5)))
		c = append(c, fmt.Sprintf("%s %s %d", all[rng.IntN(len(all))], all[rng.IntN(len(all))], rng.IntN(5)))
	}
	c = append(c, a[:10]...)
	dir := t.TempDir()
	fa, fb, fc := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt"), filepath.Join(dir, "c.txt")
	for f, lines := range map[string][]string{fa: a, fb: b, fc: c} {
		require.NoError(t, os.WriteFile(f, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	}
	var sets []*wordsim.Set
	for _, f := range []string{fa, fb, fc} {
		s, err := wordsim.LoadFile(f)
		require.NoError(t, err)
		sets = append(sets, s)
	}
	for _, form := range []string{"blend", "sum", "paper"} {
		t.Run(form, func(t *testing.T) {
			spec := writeSupervisedSpec(t, fmt.Sprintf(`name: crossfit
seed: 5
data: {source: synthetic, table: flat, window: 5}
synthetic: {tokens: 20000, words: 8, clusters: 6}
eval: {sets: [%q, %q, %q], supervise: [%q, %q], parts: true, touched: true}
method: sca
sca: {set: dev, mode: crossfit, folds: 4, form: %s}
svd: {rank: 5}
`, fa, fb, fc, fa, fb, form))
			spec.Output = t.TempDir()
			var res *harness.Run
			calls := tuningCalls(t, func() {
				res, err = (&harness.Runner{Jobs: 1}).Run(context.Background(), spec)
				require.NoError(t, err)
			})
			require.Len(t, res.Records, 1)
			require.Equal(t, records.StatusOK, res.Records[0].Status, res.Records[0].Error)
			checkHeldOut(t, calls, sets[:2], sets[2:], func(w string) bool { return words[w] }, spec.Seed, 4)
		})
	}
}

// The same on the six sets of the paper: a corpus of every word of the
// sets (each five times, so all are in the vocabulary) makes every pair
// tunable, and none of a test part reaches Γ.
func TestCrossfitNeverTunesOnTestPairsOfTheSixSets(t *testing.T) {
	dataDir := datatest.Dir(t)
	var sets []*wordsim.Set
	words := map[string]bool{}
	var tokens []string
	for _, name := range wordsim.Names() {
		s, err := wordsim.Load(dataDir, name)
		require.NoError(t, err)
		sets = append(sets, s)
		for _, w := range s.Words() {
			if !words[w] {
				words[w] = true
				for range 5 {
					tokens = append(tokens, w)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 3))
	rng.Shuffle(len(tokens), func(i, j int) { tokens[i], tokens[j] = tokens[j], tokens[i] })
	corpusFile := filepath.Join(t.TempDir(), "words.txt")
	require.NoError(t, os.WriteFile(corpusFile, []byte(strings.Join(tokens, " ")+"\n"), 0o644))
	body := fmt.Sprintf(`name: crossfit-six
seed: 1
data: {source: corpus, corpus: %q, table: flat, window: 2}
eval: {parts: true}
method: sca
sca: {set: dev, mode: crossfit, folds: 3}
svd: {rank: 3}
`, corpusFile)
	spec := writeSupervisedSpec(t, body)
	spec.Output = t.TempDir()
	var res *harness.Run
	calls := tuningCalls(t, func() {
		var err error
		res, err = (&harness.Runner{Jobs: 1, DataDir: dataDir}).Run(context.Background(), spec)
		require.NoError(t, err)
	})
	require.Len(t, res.Records, 1)
	require.Equal(t, records.StatusOK, res.Records[0].Status, res.Records[0].Error)
	checkHeldOut(t, calls, sets, nil, func(w string) bool { return words[w] }, spec.Seed, 3)
	assert.Greater(t, res.Records[0].Metrics[records.MetricDevPairs], 1500.0, "about 30% of the 6,775 pairs")
}

func writeSupervisedSpec(t *testing.T, body string) *schema.Spec {
	t.Helper()
	path := filepath.Join(t.TempDir(), "spec.yaml")
	require.NoError(t, os.WriteFile(path, []byte(body), 0o644))
	spec, err := schema.LoadSpec(path)
	require.NoError(t, err)
	return spec
}
