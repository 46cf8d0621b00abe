package harness

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"kcalab/datasets"
	"kcalab/methods/ca"
	"kcalab/methods/svd"
)

// trialContext carries one trial through its stages.
type trialContext struct {
	runner *Runner
	spec   *Spec
	trial  Trial
	rec    *Record
	prog   *Progress
}

// stage times fn under the given stage name.
func (tc *trialContext) stage(name string, fn func() error) error {
	tc.prog.Stage(tc.trial, name)
	start := time.Now()
	err := fn()
	tc.rec.Timings[name] += time.Since(start).Seconds()
	return err
}

func (tc *trialContext) run(ctx context.Context) error {
	t := tc.trial
	switch src := t.Str("data.source"); src {
	case "fisher", "csv":
		var tab *datasets.Table
		if err := tc.stage("table", func() (err error) {
			tab, err = loadTable(t)
			return err
		}); err != nil {
			return err
		}
		switch m := t.Str("method"); m {
		case "ca", "lca", "gini":
			return tc.runCA(ctx, tab, "dense")
		default:
			return fmt.Errorf("method %q needs a corpus (data.source: corpus or synthetic); a table takes ca, lca or gini", m)
		}
	case "corpus", "synthetic":
		return tc.runWords(ctx)
	default:
		return fmt.Errorf("data.source %q: not supported by method %q", src, t.Str("method"))
	}
}

func loadTable(t Trial) (*datasets.Table, error) {
	switch t.Str("data.source") {
	case "fisher":
		return datasets.Fisher(), nil
	case "csv":
		path := t.Str("data.csv")
		if path == "" {
			return nil, errors.New(`data.source is "csv" but data.csv (the file) is not set`)
		}
		return datasets.ReadCSVFile(path)
	}
	return nil, fmt.Errorf("data.source %q is not a table", t.Str("data.source"))
}

// svdOptions resolves the svd.* settings for a rows×cols problem.
func svdOptions(t Trial, rows, cols, maxRank int, autoBackend string) (svd.Backend, svd.Options, error) {
	name := t.Str("svd.backend")
	if name == "auto" {
		name = autoBackend
	}
	b, err := svd.Get(name)
	if err != nil {
		return nil, svd.Options{}, fmt.Errorf("svd.backend: %w", err)
	}
	k := t.Int("svd.rank")
	if k == 0 {
		k = min(maxRank, 300)
	}
	if k > maxRank {
		return nil, svd.Options{}, fmt.Errorf("svd.rank = %d is too large for a %d×%d table (at most %d)", k, rows, cols, maxRank)
	}
	if k < 1 {
		return nil, svd.Options{}, fmt.Errorf("a %d×%d table has no non-trivial dimension to analyse", rows, cols)
	}
	opt := svd.Options{
		Rank:       k,
		Oversample: t.Int("svd.oversample"),
		PowerIters: t.Int("svd.power_iters"),
		Normalizer: t.Str("svd.normalizer"),
		Seed:       t.Seed,
	}
	if mb := t.Float("budget.memory_mb"); mb > 0 {
		opt.MaxDenseBytes = int64(mb * (1 << 20))
	}
	return b, opt, nil
}

// runCA analyses a labelled table and stores the full CA result in the record.
func (tc *trialContext) runCA(ctx context.Context, tab *datasets.Table, autoBackend string) error {
	t := tc.trial
	if err := tab.Validate(); err != nil {
		return err
	}
	r, c := tab.N.Dims()
	b, opt, err := svdOptions(t, r, c, min(r, c)-1, autoBackend)
	if err != nil {
		return err
	}
	tc.rec.Backend = b.Name() // what "auto" resolved to
	var res *ca.Result
	if err := tc.stage("svd", func() (err error) {
		res, err = ca.Analyze(ctx, tab.N, ca.Kernel(t.Str("method")), b, opt)
		return err
	}); err != nil {
		if errors.Is(err, svd.ErrOverBudget) {
			return fmt.Errorf("%w: %w", errOverBudget, err)
		}
		return err
	}
	tc.rec.CA = &CAResult{
		SingularValues: res.SingularValues,
		Inertias:       res.Inertias,
		InertiaShare:   res.InertiaShare,
		TotalInertia:   res.TotalInertia,
		RowLabels:      tab.RowLabels,
		ColLabels:      tab.ColLabels,
		RowPrincipal:   rows(res.RowPrincipal),
		ColPrincipal:   rows(res.ColPrincipal),
		RowStandard:    rows(res.RowStandard),
		ColStandard:    rows(res.ColStandard),
	}
	tc.rec.Metrics["total_inertia"] = res.TotalInertia
	for i, s := range res.InertiaShare {
		tc.rec.Metrics[fmt.Sprintf("inertia_share.%d", i+1)] = s
	}
	return nil
}

// rows converts a dense matrix to a slice of rows for JSON.
func rows(m *mat.Dense) [][]float64 {
	if m == nil {
		return nil
	}
	r, _ := m.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = append([]float64(nil), m.RawRowView(i)...)
	}
	return out
}
