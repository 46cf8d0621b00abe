package harness

import (
	"context"
	"errors"
	"fmt"
	"math"

	"kcalab/datasets/sparse"
	"kcalab/datasets/wordsim"
	"kcalab/methods/eval"
	"kcalab/methods/sca"
	"kcalab/methods/vectors"
)

// runSCA runs semi-supervised CA: CA of the table tuned with the pairs of
// sca.set, by sca.Blend (sca.form blend, the default) or Γ·N·Γᵀ (sum); see
// methods/sca for how scores become γ.
//
// In-sample mode tunes on every pair and scores all sets with that model,
// as the paper did. Folds mode splits the tuning pairs into k seeded folds
// and trains k models, model f without fold f; every pair of every scored
// set is routed to one fold (a tuning pair to its own fold, any other pair
// to the fold of the same word pair in the tuning set if it is there, else
// to a fold drawn from a hash of the pair) and scored by that fold's model,
// which never saw it. ρ is computed over the pooled scores of each set.
func (tc *trialContext) runSCA(ctx context.Context, wd *wordData, sets []namedSet) error {
	t := tc.trial
	tuning, err := tc.loadSet(t.Str("sca.set"))
	if err != nil {
		return fmt.Errorf("sca.set: %w", err)
	}
	n, err := tc.table(ctx, wd, t.Str("data.table"), t.Int("data.window"))
	if err != nil {
		return err
	}
	pairs := vocabPairs(tuning.set.Pairs, wd)
	weight := t.Float("sca.weight")
	if t.Str("sca.form") == "blend" && weight > 1 {
		return fmt.Errorf("sca.weight = %v: with sca.form blend it is the share α of a profile moved toward its pairs', 0 ≤ α ≤ 1", weight)
	}
	model := func(train []sca.Pair) (*vectors.Set, error) {
		var tuned *sparse.CSR
		if err := tc.stage("tuning", func() error {
			if t.Str("sca.form") == "blend" {
				tuned, err = sca.Blend(n, train, weight)
				return err
			}
			v, _ := n.Dims()
			g, err := sca.Gamma(v, train, weight)
			if err != nil {
				return err
			}
			tuned, err = sca.Apply(n, g)
			return err
		}); err != nil {
			return nil, fmt.Errorf("sca: %w", err)
		}
		return tc.caVectors(ctx, wd, tuned)
	}
	if t.Str("sca.mode") == "in-sample" {
		vs, err := model(compact(pairs))
		if err != nil {
			return err
		}
		return tc.score(vs, sets)
	}

	k := t.Int("sca.folds")
	if len(tuning.set.Pairs) < k {
		return fmt.Errorf("sca.folds = %d but %s has only %d pairs", k, tuning.key, len(tuning.set.Pairs))
	}
	folds, err := sca.Folds(len(tuning.set.Pairs), k, t.Seed)
	if err != nil {
		return fmt.Errorf("sca: %w", err)
	}
	folds = mergeDuplicates(tuning.set, folds)
	route := routePairs(tuning.set, folds, sets, t.Seed)
	sim, err := vectors.ParseSimilarity(t.Str("eval.similarity"))
	if err != nil {
		return err
	}
	simf, err := sim.Func()
	if err != nil {
		return err
	}
	// scores[s][i] is the similarity of pair i of set s under its fold's model.
	scores := make([][]float64, len(sets))
	covered := make([][]bool, len(sets))
	for s := range sets {
		scores[s] = make([]float64, len(sets[s].set.Pairs))
		covered[s] = make([]bool, len(sets[s].set.Pairs))
	}
	for f := range folds {
		if err := ctx.Err(); err != nil {
			return err
		}
		tc.prog.Stage(tc.trial, fmt.Sprintf("fold %d/%d", f+1, k))
		vs, err := model(compact(trainPairs(pairs, folds, f)))
		if err != nil {
			return fmt.Errorf("sca fold %d: %w", f+1, err)
		}
		for s, ns := range sets {
			for i, p := range ns.set.Pairs {
				if route[s][i] != f {
					continue
				}
				a, okA := vs.Vector(p.W1)
				b, okB := vs.Vector(p.W2)
				if okA && okB {
					scores[s][i], covered[s][i] = simf(a, b), true
				}
			}
		}
	}
	return tc.stage("eval", func() error {
		for s, ns := range sets {
			for _, rule := range eval.Rules {
				rho, nCov, err := pooledSpearman(ns.set, scores[s], covered[s], rule)
				if err != nil && !errors.Is(err, eval.ErrUndefined) {
					return fmt.Errorf("%s: %w", ns.key, err)
				}
				tc.setScore(ns.key, rule, rho, len(ns.set.Pairs), nCov)
			}
		}
		return nil
	})
}

// vocabPairs maps a set's pairs to vocabulary ids; a pair with an
// out-of-vocabulary word cannot tune anything and gets A = B = -1 (kept so
// indices stay those of the set).
func vocabPairs(ps []wordsim.Pair, wd *wordData) []sca.Pair {
	out := make([]sca.Pair, len(ps))
	for i, p := range ps {
		a, okA := wd.vocab.ID(p.W1)
		b, okB := wd.vocab.ID(p.W2)
		if !okA || !okB || a == wd.vocab.Unk || b == wd.vocab.Unk {
			out[i] = sca.Pair{A: -1, B: -1, Score: p.Score}
			continue
		}
		out[i] = sca.Pair{A: int(a), B: int(b), Score: p.Score}
	}
	return out
}

// compact drops the pairs vocabPairs marked unusable.
func compact(ps []sca.Pair) []sca.Pair {
	out := make([]sca.Pair, 0, len(ps))
	for _, p := range ps {
		if p.A >= 0 {
			out = append(out, p)
		}
	}
	return out
}

// trainPairs is every pair outside fold f.
func trainPairs(ps []sca.Pair, folds [][]int, f int) []sca.Pair {
	test := make(map[int]bool, len(folds[f]))
	for _, i := range folds[f] {
		test[i] = true
	}
	out := make([]sca.Pair, 0, len(ps)-len(folds[f]))
	for i, p := range ps {
		if !test[i] {
			out = append(out, p)
		}
	}
	return out
}

// routePairs assigns every pair of every set to a fold whose model did not
// tune on it: a pair that is in the tuning set (as an unordered word pair)
// goes to that tuning pair's fold, any other pair to sca.FoldOf.
func routePairs(tuning *wordsim.Set, folds [][]int, sets []namedSet, seed uint64) [][]int {
	foldOf := map[[2]string]int{}
	for f, idx := range folds {
		for _, i := range idx {
			p := tuning.Pairs[i]
			foldOf[unordered(p.W1, p.W2)] = f
		}
	}
	out := make([][]int, len(sets))
	for s, ns := range sets {
		out[s] = make([]int, len(ns.set.Pairs))
		for i, p := range ns.set.Pairs {
			if f, ok := foldOf[unordered(p.W1, p.W2)]; ok {
				out[s][i] = f
			} else {
				out[s][i] = sca.FoldOf(p.W1, p.W2, len(folds), seed)
			}
		}
	}
	return out
}

// mergeDuplicates moves every repeat of a word pair (in either order) into
// the fold of its first occurrence, so no model trains on a pair that its
// own fold scores. Fold order and the order within folds are kept.
func mergeDuplicates(tuning *wordsim.Set, folds [][]int) [][]int {
	first := map[[2]string]int{} // word pair → fold of its first occurrence (by index)
	foldOfIdx := make([]int, len(tuning.Pairs))
	for f, idx := range folds {
		for _, i := range idx {
			foldOfIdx[i] = f
		}
	}
	for i, p := range tuning.Pairs {
		key := unordered(p.W1, p.W2)
		if f, ok := first[key]; ok {
			foldOfIdx[i] = f
		} else {
			first[key] = foldOfIdx[i]
		}
	}
	out := make([][]int, len(folds))
	for i, f := range foldOfIdx {
		out[f] = append(out[f], i)
	}
	return out
}

func unordered(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// pooledSpearman is ρ between the human scores and the pooled model scores
// under an OOV rule; it returns the number of covered pairs.
func pooledSpearman(set *wordsim.Set, scores []float64, covered []bool, rule eval.Rule) (float64, int, error) {
	human := make([]float64, 0, len(scores))
	model := make([]float64, 0, len(scores))
	n := 0
	for i, p := range set.Pairs {
		if covered[i] {
			n++
		} else if rule == eval.Skip {
			continue
		}
		human = append(human, p.Score)
		model = append(model, scores[i])
	}
	rho, err := eval.Spearman(human, model)
	if err != nil {
		return math.NaN(), n, err
	}
	return rho, n, nil
}
