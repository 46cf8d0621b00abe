package builtin

import (
	"context"

	"kcalab/harness"
	"kcalab/records"
	"kcalab/schema"

	"kcalab/methods/baselines"
	"kcalab/methods/vectors"
)

// word2vec is SGNS (skip-gram with negative sampling) or CBOW, trained by
// methods/baselines as word2vec.c does.
type word2vec struct {
	info schema.MethodInfo
	cbow bool
}

// word2vecZero is what train.window and train.epochs = 0 mean for
// word2vec and fastText: their reference tools' defaults.
var word2vecZero = map[string]string{"train.window": "5", "train.epochs": "5"}

func init() {
	harness.RegisterMethod(word2vec{info: schema.MethodInfo{Name: "sgns", Label: "SGNS", Rank: 40, ZeroMeans: word2vecZero,
		Doc: "skip-gram with negative sampling, the neural baseline (train.*)"}})
	harness.RegisterMethod(word2vec{cbow: true, info: schema.MethodInfo{Name: "cbow", Label: "CBOW", Rank: 41, ZeroMeans: word2vecZero,
		Doc: "continuous bag of words, the neural baseline (train.*)"}})
}

func (m word2vec) Info() schema.MethodInfo {
	info := m.info
	info.Similarity, info.Baseline = records.SimCosine, true
	info.Inputs = schema.CorpusInput
	info.CorpusReads = append([]string{"train.negative", "train.sample"}, baselineReads...)
	return info
}

func (m word2vec) Run(ctx context.Context, tr *harness.TrialRun) error {
	t := tr.Trial
	return trainAndScore(ctx, tr, func(wd *harness.WordData) (*vectors.Set, error) {
		cfg := baselines.DefaultSGNS()
		if m.cbow {
			cfg = baselines.DefaultCBOW()
		}
		cfg.Dim, cfg.Seed, cfg.Progress = baselineDim(t), t.Seed, tr.Log()
		cfg.Window = orInt(t.Train.Window, cfg.Window)
		cfg.Epochs = orInt(t.Train.Epochs, cfg.Epochs)
		cfg.Negative = t.Train.Negative
		if s := t.Train.Sample; s >= 0 {
			cfg.Sample = s
		}
		if lr := t.Train.LR; lr > 0 {
			cfg.Alpha = lr
		}
		return baselines.TrainWord2Vec(ctx, baselineCorpus(tr, wd), cfg)
	})
}
