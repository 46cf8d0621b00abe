package harness

import (
	"context"
	"fmt"

	"kcalab/datasets/corpus"
	"kcalab/datasets/sparse"
	"kcalab/methods/baselines"
	"kcalab/methods/vectors"
)

// baselineDim is the vector dimension of a baseline: train.dim, else
// svd.rank, else 300.
func baselineDim(t Trial) int {
	if d := t.Int("train.dim"); d > 0 {
		return d
	}
	if d := t.Int("svd.rank"); d > 0 {
		return d
	}
	return 300
}

// orDefault returns v unless it is the "reference default" marker.
func orInt(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// trainBaseline trains sgns, cbow, glove or fasttext on the trial's corpus
// section and vocabulary. Training is single-threaded so the vectors do not
// depend on scheduling; the harness runs trials in parallel instead.
func (tc *trialContext) trainBaseline(ctx context.Context, wd *wordData) (*vectors.Set, error) {
	t := tc.trial
	dim := baselineDim(t)
	seed := t.Seed
	log := tc.runner.log()
	c := baselines.Corpus{Tokens: wd.ids, Words: wd.vocab.Words, Counts: wd.vocab.Counts, SkipID: int(wd.vocab.Unk)}
	tc.rec.Metrics["vocab"] = float64(wd.vocab.Size())
	tc.rec.Metrics["tokens"] = float64(len(wd.ids))
	var vs *vectors.Set
	err := tc.stage("train", func() (err error) {
		switch m := t.Str("method"); m {
		case "sgns", "cbow":
			cfg := baselines.DefaultSGNS()
			if m == "cbow" {
				cfg = baselines.DefaultCBOW()
			}
			cfg.Dim, cfg.Seed, cfg.Progress = dim, seed, log
			cfg.Window = orInt(t.Int("train.window"), cfg.Window)
			cfg.Epochs = orInt(t.Int("train.epochs"), cfg.Epochs)
			cfg.Negative = t.Int("train.negative")
			if s := t.Float("train.sample"); s >= 0 {
				cfg.Sample = s
			}
			if lr := t.Float("train.lr"); lr > 0 {
				cfg.Alpha = lr
			}
			vs, err = baselines.TrainWord2Vec(ctx, c, cfg)
		case "fasttext":
			cfg := baselines.DefaultFastText()
			cfg.Dim, cfg.Seed, cfg.Progress = dim, seed, log
			cfg.Window = orInt(t.Int("train.window"), cfg.Window)
			cfg.Epochs = orInt(t.Int("train.epochs"), cfg.Epochs)
			cfg.Negative = t.Int("train.negative")
			if s := t.Float("train.sample"); s >= 0 {
				cfg.Sample = s
			}
			if lr := t.Float("train.lr"); lr > 0 {
				cfg.LR = lr
			}
			cfg.MinN, cfg.MaxN, cfg.Bucket = t.Int("train.min_n"), t.Int("train.max_n"), t.Int("train.buckets")
			vs, err = baselines.TrainFastText(ctx, c, cfg)
		case "glove":
			cfg := baselines.DefaultGloVe()
			cfg.Dim, cfg.Seed, cfg.Progress = dim, seed, log
			cfg.Epochs = orInt(t.Int("train.epochs"), cfg.Epochs)
			cfg.XMax = t.Float("train.x_max")
			if lr := t.Float("train.lr"); lr > 0 {
				cfg.Eta = lr
			}
			var x *sparse.CSR
			x, err = wd.tables.Table(ctx, gloveSpec(orInt(t.Int("train.window"), 15)))
			if err != nil {
				return err
			}
			tc.rec.Metrics["nnz"] = float64(x.NNZ())
			vs, err = baselines.TrainGloVe(ctx, x, wd.vocab.Words, int(wd.vocab.Unk), cfg)
		default:
			err = fmt.Errorf("method %q is not a baseline", m)
		}
		return err
	})
	return vs, err
}

// gloveSpec is GloVe's co-occurrence table: symmetric, 1/distance weights.
func gloveSpec(window int) corpus.Spec { return corpus.Spec{Kind: corpus.Glove, Window: window} }
