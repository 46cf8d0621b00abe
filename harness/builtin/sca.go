package builtin

import (
	"context"
	"fmt"

	"kcalab/harness"
	"kcalab/records"
	"kcalab/schema"

	"kcalab/datasets/sparse"
	"kcalab/datasets/wordsim"
	"kcalab/methods/ca"
	"kcalab/methods/sca"
	"kcalab/methods/svd"
	"kcalab/methods/vectors"
)

// scaMethod is semi-supervised CA.
type scaMethod struct{}

func init() { harness.RegisterMethod(scaMethod{}) }

func (scaMethod) Info() schema.MethodInfo {
	return schema.MethodInfo{Name: "sca", Label: "SCA", Rank: 30, Inputs: schema.CorpusInput,
		Doc:         "semi-supervised CA (sca.*)",
		CorpusReads: append([]string{"sca"}, caWordReads...),
		Axes:        true, Similarity: records.SimDot,
		InSampleSet: func(s schema.Settings) string {
			if s.SCA.Mode != "in-sample" {
				return ""
			}
			return s.SCA.Set
		}}
}

// Run runs semi-supervised CA: CA of the table tuned with the pairs of
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
//
// Crossfit mode (sca.set: dev) tunes on the dev parts of eval.sets only:
// each dev pair is scored by the model tuned on the other dev folds, every
// other pair by the model tuned on all dev pairs (see crossfit), so its
// dev scores may choose a design (tune:) and its test parts stay held out.
func (scaMethod) Run(ctx context.Context, tr *harness.TrialRun) error {
	t := tr.Trial
	if t.SCA.Form == "paper" {
		if err := paperRefuses(t); err != nil {
			return err
		}
	}
	wd, err := tr.Words(ctx)
	if err != nil {
		return err
	}
	sets := tr.Sets()
	n, err := tr.WordTable(ctx, wd)
	if err != nil {
		return err
	}
	weight := t.SCA.Weight
	if t.SCA.Form == "blend" && weight > 1 {
		return fmt.Errorf("sca.weight = %v: with sca.form blend it is the share α of a profile moved toward its pairs', 0 ≤ α ≤ 1", weight)
	}
	model := func(train []sca.Pair) (*vectors.Set, error) {
		if testHookTuning != nil {
			testHookTuning(train, wd)
		}
		if t.SCA.Form == "paper" {
			return paperSCA(ctx, tr, wd, n, train)
		}
		var tuned *sparse.CSR
		if err := tr.Stage("tuning", func() error {
			if t.SCA.Form == "blend" {
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
		return tr.CAVectors(ctx, wd, tuned, ca.KernelCA, nil)
	}
	if t.SCA.Mode == schema.SCAModeCrossfit {
		return crossfit(tr, wd, model)
	}
	tuning, err := tr.LoadSet(t.SCA.Set)
	if err != nil {
		return fmt.Errorf("sca.set: %w", err)
	}
	pairs := vocabPairs(tuning.Set.Pairs, wd)
	if len(compact(pairs)) == 0 {
		tr.Warn("sca.set %s: none of its %d pairs has both words in the vocabulary, so nothing is tuned: this trial is plain KCA of the same table", tuning.Key, len(pairs))
	}
	if t.SCA.Mode == "in-sample" {
		vs, err := model(compact(pairs))
		if err != nil {
			return err
		}
		return tr.Score(vs)
	}

	// Folds score each held-out pair with its own fold's model: there is
	// no one set of vectors to answer analogies with, and pairs are looked
	// up as given.
	if len(t.Eval.Analogies) > 0 || t.Eval.CaseInsensitive || t.Eval.Parts {
		tr.Warn("sca.mode folds: eval.analogies, eval.case_insensitive and eval.parts are not applied (no single model, and every pair is held out already; use sca.mode: in-sample)")
	}
	k := t.SCA.Folds
	if len(tuning.Set.Pairs) < k {
		return fmt.Errorf("sca.folds = %d but %s has only %d pairs", k, tuning.Key, len(tuning.Set.Pairs))
	}
	folds, err := sca.Folds(len(tuning.Set.Pairs), k, t.Seed)
	if err != nil {
		return fmt.Errorf("sca: %w", err)
	}
	folds = sca.MergeRepeats(tuning.Set.Pairs, folds)
	setPairs := make([][]wordsim.Pair, len(sets))
	for s, ns := range sets {
		setPairs[s] = ns.Set.Pairs
	}
	route := sca.Route(tuning.Set.Pairs, folds, setPairs, t.Seed)
	// scores[s][sim] holds each pair of set s scored under its fold's model.
	scores := make([]map[vectors.Similarity]harness.PairScores, len(sets))
	for s := range sets {
		scores[s] = map[vectors.Similarity]harness.PairScores{}
		for _, sim := range []vectors.Similarity{vectors.Dot, vectors.Cosine} {
			n := len(sets[s].Set.Pairs)
			scores[s][sim] = harness.PairScores{Model: make([]float64, n), Covered: make([]bool, n)}
		}
	}
	for f := range folds {
		if err := ctx.Err(); err != nil {
			return err
		}
		tr.Progress(fmt.Sprintf("fold %d/%d", f+1, k))
		vs, err := model(compact(sca.TrainPairs(pairs, folds, f)))
		if err != nil {
			return fmt.Errorf("sca fold %d: %w", f+1, err)
		}
		tr.SetMetric(records.MetricDim, float64(vs.Dim()))
		for s, ns := range sets {
			for i, p := range ns.Set.Pairs {
				if route[s][i] != f {
					continue
				}
				a, okA := vs.Vector(p.W1)
				b, okB := vs.Vector(p.W2)
				if !okA || !okB {
					continue
				}
				for sim, ps := range scores[s] {
					simf, err := sim.Func()
					if err != nil {
						return err
					}
					ps.Model[i], ps.Covered[i] = simf(a, b), true
				}
			}
		}
	}
	return tr.Stage("eval", func() error {
		for s, ns := range sets {
			if err := tr.ScorePairs(ns, scores[s]); err != nil {
				return fmt.Errorf("%s: %w", ns.Key, err)
			}
		}
		return nil
	})
}

// testHookTuning, when set (by tests), sees every list of pairs that
// tunes a table, with the vocabulary they index.
var testHookTuning func(train []sca.Pair, wd *harness.WordData)

// crossfit is sca.mode crossfit (sca.set: dev): k models tuned on the dev
// pairs without one fold each score that fold's dev pairs, and the model
// tuned on every dev pair scores the rest, the test parts among them
// (harness.HeldOut). Only dev pairs ever reach a tuning table.
func crossfit(tr *harness.TrialRun, wd *harness.WordData, model func([]sca.Pair) (*vectors.Set, error)) error {
	t := tr.Trial
	dev, err := tr.DevPairs(t.SCA.Folds)
	if err != nil {
		return fmt.Errorf("sca.set dev: %w", err)
	}
	all := devVocabPairs(dev.Train(-1), wd)
	if len(all) == 0 {
		tr.Warn("sca.set dev: none of the %d dev pairs has both words in the vocabulary, so nothing is tuned: this trial is plain CA of the same table", len(dev.Pairs))
	}
	h := tr.NewHeldOut(dev)
	for f := 0; f < dev.K; f++ {
		tr.Progress(fmt.Sprintf("fold %d/%d", f+1, dev.K))
		vs, err := model(devVocabPairs(dev.Train(f), wd))
		if err != nil {
			return fmt.Errorf("sca fold %d: %w", f+1, err)
		}
		if err := h.Fold(f, vs); err != nil {
			return err
		}
	}
	tr.Progress("all dev pairs")
	vs, err := model(all)
	if err != nil {
		return err
	}
	tr.SetMetric(records.MetricDevPairs, float64(len(all)))
	return h.Finish(vs)
}

// devVocabPairs are the dev pairs with both words in the vocabulary, as
// tuning pairs (their scaled scores).
func devVocabPairs(ps []harness.DevPair, wd *harness.WordData) []sca.Pair {
	out := make([]sca.Pair, 0, len(ps))
	for _, p := range ps {
		a, okA := wd.Vocab.ID(p.W1)
		b, okB := wd.Vocab.ID(p.W2)
		if okA && okB && a != wd.Vocab.Unk && b != wd.Vocab.Unk {
			out = append(out, sca.Pair{A: int(a), B: int(b), Score: p.S})
		}
	}
	return out
}

// vocabPairs maps a set's pairs to vocabulary ids; a pair with an
// out-of-vocabulary word cannot tune anything and gets A = B = -1 (kept so
// indices stay those of the set).
func vocabPairs(ps []wordsim.Pair, wd *harness.WordData) []sca.Pair {
	out := make([]sca.Pair, len(ps))
	for i, p := range ps {
		a, okA := wd.Vocab.ID(p.W1)
		b, okB := wd.Vocab.ID(p.W2)
		if !okA || !okB || a == wd.Vocab.Unk || b == wd.Vocab.Unk {
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

// paperSCA is the paper's Definition of SCA: the tuning pairs become
// tuning-ratio tables and the delayed Hadamard-form operator is decomposed
// with the trial's backend (methods/sca.DecomposePaper).
func paperSCA(ctx context.Context, tr *harness.TrialRun, wd *harness.WordData, n *sparse.CSR, train []sca.Pair) (*vectors.Set, error) {
	t := tr.Trial
	if err := paperRefuses(t); err != nil {
		return nil, err
	}
	opt := sca.PaperOptions{Strength: t.SCA.Strength, Pivot: t.SCA.Pivot,
		Rows: t.SCA.Tune != "cols", Cols: t.SCA.Tune != "rows"}
	rows, cols := n.Dims()
	dec, err := tr.Decompose(ctx, rows, cols, int64(n.NNZ()), min(rows, cols)-1, func(b svd.Backend, o svd.Options) (*ca.Decomposition, error) {
		return sca.DecomposePaper(ctx, n, train, opt, b, o)
	})
	if err != nil {
		return nil, fmt.Errorf("sca: %w", err)
	}
	return tr.WordVectors(wd, dec)
}

// paperRefuses refuses the settings sca.form paper cannot honour.
func paperRefuses(t schema.Trial) error {
	if t.KCA.CDS != 1 || t.Vectors.AddContexts {
		return fmt.Errorf("sca.form paper decomposes its own Hadamard-form operator: it has no smoothed context distribution (kca.cds = %v) and keeps no context vectors (vectors.add_contexts = %t); set kca.cds: 1 and vectors.add_contexts: false, or use sca.form blend or sum", t.KCA.CDS, t.Vectors.AddContexts)
	}
	return nil
}
