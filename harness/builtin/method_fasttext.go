package builtin

import (
	"context"

	"kcalab/harness"
	"kcalab/records"
	"kcalab/schema"

	"kcalab/methods/baselines"
	"kcalab/methods/vectors"
)

// fastText is skip-gram over words and their character n-grams, trained by
// methods/baselines as the fastText CLI does.
type fastText struct{}

func init() { harness.RegisterMethod(fastText{}) }

func (fastText) Info() schema.MethodInfo {
	return schema.MethodInfo{Name: "fasttext", Label: "fastText", Rank: 43, Inputs: schema.CorpusInput,
		Doc:       "skip-gram with character n-grams, the neural baseline (train.*)",
		ZeroMeans: word2vecZero, Similarity: records.SimCosine, Baseline: true,
		CorpusReads: append([]string{"train.negative", "train.sample", "train.min_n", "train.max_n", "train.buckets"},
			baselineReads...)}
}

func (fastText) Run(ctx context.Context, tr *harness.TrialRun) error {
	t := tr.Trial
	return trainAndScore(ctx, tr, func(wd *harness.WordData) (*vectors.Set, error) {
		cfg := baselines.DefaultFastText()
		cfg.Dim, cfg.Seed, cfg.Progress = baselineDim(t), t.Seed, tr.Log()
		cfg.Window = orInt(t.Train.Window, cfg.Window)
		cfg.Epochs = orInt(t.Train.Epochs, cfg.Epochs)
		cfg.Negative = t.Train.Negative
		if s := t.Train.Sample; s >= 0 {
			cfg.Sample = s
		}
		if lr := t.Train.LR; lr > 0 {
			cfg.LR = lr
		}
		cfg.MinN, cfg.MaxN, cfg.Bucket = t.Train.MinN, t.Train.MaxN, t.Train.Buckets
		return baselines.TrainFastText(ctx, baselineCorpus(tr, wd), cfg)
	})
}
