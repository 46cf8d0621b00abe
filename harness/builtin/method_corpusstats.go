package builtin

import (
	"context"
	"fmt"

	"kcalab/harness"
	"kcalab/methods/corpusstats"
	"kcalab/methods/svd"
	"kcalab/records"
	"kcalab/schema"
)

// corpusStats measures what a synthetic corpus is calibrated on, for any
// corpus: types and vocabulary against tokens (Heaps' law), the non-zeros
// of N^flat and N^cut (W = data.window) over prefixes of 1/16 … all of
// the corpus, and σ_1..σ_k (k = svd.rank, 50 when 0) of the tail-cut CA of
// the whole corpus (methods/corpusstats). Reports overlay the trials of a
// spec, e.g. text8_prefix and the synthetic model at the same length.
type corpusStats struct{}

func init() { harness.RegisterMethod(corpusStats{}) }

func (corpusStats) Info() schema.MethodInfo {
	return schema.MethodInfo{Name: "corpusstats", Label: "corpus statistics", Rank: 60, Inputs: schema.CorpusInput,
		Doc:         "corpus statistics for calibration: types, vocabulary and table non-zeros against tokens, σ_k of the tail-cut CA",
		CorpusReads: []string{"data.window", "svd.rank", "svd.backend", "svd.tol"}}
}

func (corpusStats) Run(ctx context.Context, tr *harness.TrialRun) error {
	t := tr.Trial
	if t.Data.Source == "tables" {
		return fmt.Errorf("method corpusstats reads the corpus's prefixes: it cannot read counted tables (data.source: tables)")
	}
	name, cache := t.Data.Corpus, tr.CacheDir()
	dataDir, err := tr.DataDir()
	if err != nil {
		return err
	}
	if t.Data.Source == "synthetic" {
		if t.Synthetic.Model != "zipf" {
			return fmt.Errorf("method corpusstats measures text-like corpora: synthetic.model %q is planted clusters; use zipf", t.Synthetic.Model)
		}
		// The same stream as the trial's words (seeded by the spec), written
		// again: prefixes are read from a file.
		path, remove, err := tr.ZipfCorpusFile(ctx)
		if err != nil {
			return err
		}
		defer remove()
		name = path
		cache = "" // a temporary file's tables are not worth keeping
	}
	backend, err := svd.Get(harness.BackendName(t))
	if err != nil {
		return fmt.Errorf("svd.backend: %w", err)
	}
	var st *corpusstats.Stats
	err = tr.Stage("stats", func() (err error) {
		st, err = corpusstats.Measure(ctx, dataDir, name, corpusstats.StatsOptions{
			MinCount: int64(t.Data.MinCount), Window: t.Data.Window, Rank: t.SVD.Rank,
			CacheDir: cache, Backend: backend, Seed: t.Seed,
		})
		return err
	})
	if err != nil {
		return err
	}
	rec := &records.CorpusStats{Window: st.Window, MinCount: int(st.MinCount), Sigma: st.Sigma, TotalInertia: st.TotalInertia}
	for _, p := range st.Points {
		rec.Points = append(rec.Points, records.CorpusPoint{Tokens: p.Tokens, Types: p.Types, Vocab: p.Vocab, NNZFlat: p.NNZFlat, NNZCut: p.NNZCut})
	}
	tr.Record.Corpus = rec
	tr.Record.Backend = backend.Name()
	last := st.Points[len(st.Points)-1]
	tr.SetMetric(records.MetricTokens, float64(last.Tokens))
	tr.SetMetric(records.MetricVocab, float64(last.Vocab))
	tr.SetMetric(records.MetricNNZ, float64(last.NNZCut))
	return nil
}
