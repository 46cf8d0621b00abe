package harness

import (
	"context"
	"errors"
	"fmt"
	"time"

	"kcalab/datasets/sparse"
	"kcalab/internal/progress"
	"kcalab/methods/ca"
	"kcalab/methods/svd"
	"kcalab/methods/vectors"
)

// CAVectors decomposes a word table with a kernel (after transform, the ⊖
// of the paper's kernel table, when not nil) and returns the word vectors,
// the rows of F = D(r)^-1/2 U Σ^α (vectors.alpha, vectors.normalize).
func (tr *TrialRun) CAVectors(ctx context.Context, wd *WordData, n *sparse.CSR, kernel ca.Kernel,
	transform func(*sparse.CSR) (*sparse.CSR, error)) (*vectors.Set, error) {
	if transform != nil {
		if err := tr.Stage("kernel", func() (err error) {
			n, err = transform(n)
			return err
		}); err != nil {
			return nil, err
		}
	}
	rows, cols := n.Dims()
	limit := min(rows, cols) - 1
	if kernel == ca.KernelPlain {
		limit = min(rows, cols)
	}
	dec, err := tr.Decompose(ctx, rows, cols, limit, func(b svd.Backend, opt svd.Options) (*ca.Decomposition, error) {
		return ca.Decompose(ctx, n, kernel, b, opt)
	})
	if err != nil {
		return nil, err
	}
	return tr.WordVectors(wd, dec)
}

// Decompose runs a decomposition of a rows×cols word operator with the
// trial's SVD backend and options (svd.*) in the "svd" stage; limit is the
// largest rank it allows.
func (tr *TrialRun) Decompose(ctx context.Context, rows, cols, limit int,
	run func(svd.Backend, svd.Options) (*ca.Decomposition, error)) (*ca.Decomposition, error) {
	b, opt, err := svdOptions(tr.Trial, rows, cols, limit)
	if err != nil {
		return nil, fmt.Errorf("vocabulary of %d words: %w", rows, err)
	}
	tr.Record.Backend = b.Name() // what "auto" resolved to
	// A decomposition can take an hour at the paper's size: say where it is.
	rep := progress.New(tr.Log())
	opt.Progress = func(step string) {
		rep.Update(fmt.Sprintf("svd (%s, k = %d): %s, %s", b.Name(), opt.Rank, step, rep.Elapsed().Round(time.Second)))
	}
	defer rep.Clear()
	var dec *ca.Decomposition
	if err := tr.Stage("svd", func() (err error) {
		dec, err = run(b, opt)
		return err
	}); err != nil {
		if errors.Is(err, svd.ErrOverBudget) {
			return nil, fmt.Errorf("%w: %w", errOverBudget, err)
		}
		return nil, err
	}
	return dec, nil
}

// WordVectors turns a decomposition into word vectors, the rows of
// D(r)^-1/2 U Σ^α (vectors.alpha, vectors.normalize), and records its
// inertia.
func (tr *TrialRun) WordVectors(wd *WordData, dec *ca.Decomposition) (*vectors.Set, error) {
	t := tr.Trial
	if a := dec.Accuracy; a != nil {
		tr.Record.SVD = &SVDAccuracy{S: a.S, MaxResidual: a.MaxResidual, RelResidual: a.RelResidual, Products: dec.Products}
		tr.SetMetric(MetricSVDResidual, a.RelResidual)
		tr.SetMetric(MetricSVDProducts, float64(dec.Products))
	}
	if dec.TotalInertia > 0 {
		tr.SetMetric(MetricTotalInertia, dec.TotalInertia)
		sum := 0.0
		for _, s := range dec.S {
			sum += s * s
		}
		tr.SetMetric(MetricInertiaKept, sum/dec.TotalInertia)
	}
	if err := vectors.ScaleCoordinates(dec.U, dec.S, dec.RowMass, t.Vectors.Alpha); err != nil {
		return nil, err
	}
	if t.Vectors.Normalize {
		vectors.NormalizeRows(dec.U)
	}
	if t.Subword.MaxN > 0 {
		return tr.SubwordVectors(wd, dec)
	}
	return vectors.New(wd.Vocab.Words, dec.U)
}
