package harness

import (
	"context"
	"errors"
	"fmt"

	"kcalab/datasets/sparse"
	"kcalab/methods/ca"
	"kcalab/methods/svd"
	"kcalab/methods/vectors"
)

// CAVectors decomposes a word table with a kernel (after transform, the ⊖
// of the paper's kernel table, when not nil) and returns the word vectors,
// the rows of F = D(r)^-1/2 U Σ^α (vectors.alpha, vectors.normalize).
func (tr *TrialRun) CAVectors(ctx context.Context, wd *WordData, n *sparse.CSR, kernel ca.Kernel,
	transform func(*sparse.CSR) (*sparse.CSR, error)) (*vectors.Set, error) {
	t := tr.Trial
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
	b, opt, err := svdOptions(t, rows, cols, limit, "dssvd")
	if err != nil {
		return nil, fmt.Errorf("vocabulary of %d words: %w", rows, err)
	}
	tr.Record.Backend = b.Name() // what "auto" resolved to
	var dec *ca.Decomposition
	if err := tr.Stage("svd", func() (err error) {
		dec, err = ca.Decompose(ctx, n, kernel, b, opt)
		return err
	}); err != nil {
		if errors.Is(err, svd.ErrOverBudget) {
			return nil, fmt.Errorf("%w: %w", errOverBudget, err)
		}
		return nil, err
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
	return vectors.New(wd.Vocab.Words, dec.U)
}
