package builtin

import (
	"context"

	"kcalab/harness"
	"kcalab/records"
	"kcalab/schema"

	"kcalab/methods/baselines"
	"kcalab/methods/vectors"
)

// glove is GloVe trained by AdaGrad on its symmetric 1/distance table.
type glove struct{}

func init() { harness.RegisterMethod(glove{}) }

func (glove) Info() schema.MethodInfo {
	return schema.MethodInfo{Name: "glove", Label: "GloVe", Rank: 42, Inputs: schema.CorpusInput,
		Doc:         "GloVe, the log-bilinear baseline (train.*)",
		CorpusReads: append([]string{"train.x_max"}, baselineReads...),
		ZeroMeans:   map[string]string{"train.window": "15", "train.epochs": "25"}, Similarity: records.SimCosine, Baseline: true}
}

func (glove) Run(ctx context.Context, tr *harness.TrialRun) error {
	t := tr.Trial
	return trainAndScore(ctx, tr, func(wd *harness.WordData) (*vectors.Set, error) {
		baselineCorpus(tr, wd) // records the corpus size like the other baselines
		cfg := baselines.DefaultGloVe()
		cfg.Dim, cfg.Seed, cfg.Progress = baselineDim(t), t.Seed, tr.Log()
		cfg.Epochs = orInt(t.Train.Epochs, cfg.Epochs)
		cfg.XMax = t.Train.XMax
		if lr := t.Train.LR; lr > 0 {
			cfg.Eta = lr
		}
		x, err := wd.Tables.Table(ctx, gloveSpec(orInt(t.Train.Window, 15)))
		if err != nil {
			return nil, err
		}
		tr.SetMetric(records.MetricNNZ, float64(x.NNZ()))
		return baselines.TrainGloVe(ctx, x, wd.Vocab.Words, int(wd.Vocab.Unk), cfg)
	})
}
