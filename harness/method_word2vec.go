package harness

import (
	"context"

	"kcalab/methods/baselines"
	"kcalab/methods/vectors"
)

// word2vec is SGNS (skip-gram with negative sampling) or CBOW, trained by
// methods/baselines as word2vec.c does.
type word2vec struct {
	info MethodInfo
	cbow bool
}

func init() {
	RegisterMethod(word2vec{info: MethodInfo{Name: "sgns", Label: "SGNS", Rank: 40,
		Doc: "skip-gram with negative sampling, the neural baseline (train.*)"}})
	RegisterMethod(word2vec{cbow: true, info: MethodInfo{Name: "cbow", Label: "CBOW", Rank: 41,
		Doc: "continuous bag of words, the neural baseline (train.*)"}})
}

func (m word2vec) Info() MethodInfo {
	info := m.info
	info.Inputs = CorpusInput
	info.CorpusReads = append([]string{"train.negative", "train.sample"}, baselineReads...)
	return info
}

func (m word2vec) Run(ctx context.Context, tr *TrialRun) error {
	t := tr.Trial
	return trainAndScore(ctx, tr, func(wd *WordData) (*vectors.Set, error) {
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
