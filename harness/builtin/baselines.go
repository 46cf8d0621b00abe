package builtin

import (
	"context"
	"errors"

	"kcalab/harness"
	"kcalab/records"
	"kcalab/schema"

	"kcalab/datasets/corpus"
	"kcalab/methods/baselines"
	"kcalab/methods/vectors"
)

// baselineReads are the settings every neural baseline reads: the
// dimension falls back to svd.rank.
var baselineReads = []string{"train.dim", "svd.rank", "train.window", "train.epochs", "train.lr", "vectors.save", "eval", retrofitKey}

// retrofitKey is read by every method that makes word vectors: any of them
// may be retrofitted (harness.TrialRun.Score).
const retrofitKey = "retrofit"

// baselineDim is the vector dimension of a baseline: train.dim, else
// svd.rank, else 300.
func baselineDim(t schema.Trial) int {
	if d := t.Train.Dim; d > 0 {
		return d
	}
	if d := t.SVD.Rank; d > 0 {
		return d
	}
	return 300
}

// orInt returns v unless it is the "reference default" marker (≤ 0).
func orInt(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// baselineCorpus is the trial's corpus section as the baselines read it,
// with its size recorded.
func baselineCorpus(tr *harness.TrialRun, wd *harness.WordData) baselines.Corpus {
	tr.SetMetric(records.MetricVocab, float64(wd.Vocab.Size()))
	tr.SetMetric(records.MetricTokens, float64(len(wd.IDs)))
	return baselines.Corpus{Tokens: wd.IDs, Words: wd.Vocab.Words, Counts: wd.Vocab.Counts, SkipID: int(wd.Vocab.Unk)}
}

// trainAndScore trains a baseline in the "train" stage and scores its
// vectors. Training is single-threaded so the vectors do not depend on
// scheduling; the harness runs trials in parallel instead.
func trainAndScore(ctx context.Context, tr *harness.TrialRun, train func(wd *harness.WordData) (*vectors.Set, error)) error {
	wd, err := tr.Words(ctx)
	if err != nil {
		return err
	}
	if wd.IDs == nil {
		return errors.New("this method trains on the corpus's tokens: it cannot read counted tables (data.source: tables)")
	}
	var vs *vectors.Set
	if err := tr.Stage("train", func() (err error) {
		vs, err = train(wd)
		return err
	}); err != nil {
		return err
	}
	return tr.Score(vs)
}

// gloveSpec is GloVe's co-occurrence table: symmetric, 1/distance weights.
func gloveSpec(window int) corpus.Spec { return corpus.Spec{Kind: corpus.Glove, Window: window} }
