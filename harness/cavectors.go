package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"kcalab/internal/termsafe"
	"kcalab/internal/tmpfiles"
	"kcalab/records"

	"kcalab/datasets/sparse"
	"kcalab/internal/progress"
	"kcalab/methods/ca"
	"kcalab/methods/svd"
	"kcalab/methods/vectors"
)

// VectorOptions say how a word table's decomposition becomes word vectors.
// A method reads them from its trial (TrialVectorOptions) unless it fixes
// them itself, as a named recipe does (ppmi-svd).
type VectorOptions struct {
	// CDS smooths the context distribution of the ca and gini kernels
	// (kca.cds; 1 or 0 = off). A transform applies its own.
	CDS float64
	// Alpha and Beta make D(w)^β U Σ^α (vectors.alpha, vectors.beta).
	Alpha, Beta float64
	// AddContexts adds the context vectors D(c)^β V Σ^α (vectors.add_contexts).
	AddContexts bool
	// Normalize scales each vector to unit length (vectors.normalize).
	Normalize bool
	// Subword composes n-gram vectors (subword.*, when subword.max_n > 0).
	Subword bool
}

// TrialVectorOptions are the trial's kca.cds, vectors.* and subword.max_n.
func (tr *TrialRun) TrialVectorOptions() VectorOptions {
	t := tr.Trial
	return VectorOptions{CDS: t.KCA.CDS, Alpha: t.Vectors.Alpha, Beta: t.Vectors.Beta,
		AddContexts: t.Vectors.AddContexts, Normalize: t.Vectors.Normalize, Subword: t.Subword.MaxN > 0}
}

// CAVectors decomposes a word table with a kernel (after transform, the ⊖
// of the paper's kernel table, when not nil) and returns the word vectors,
// the rows of F = D(r)^β U Σ^α (vectors.beta, vectors.alpha), plus the
// context vectors with vectors.add_contexts, then vectors.normalize. The ca
// and gini kernels smooth the context distribution by kca.cds; a transform
// applies it itself (kca.SPPMIWith).
func (tr *TrialRun) CAVectors(ctx context.Context, wd *WordData, n *sparse.CSR, kernel ca.Kernel,
	transform func(*sparse.CSR) (*sparse.CSR, error)) (*vectors.Set, error) {
	return tr.CAVectorsWith(ctx, wd, n, kernel, transform, tr.TrialVectorOptions())
}

// CAVectorsWith is CAVectors with the options given rather than the trial's.
func (tr *TrialRun) CAVectorsWith(ctx context.Context, wd *WordData, n *sparse.CSR, kernel ca.Kernel,
	transform func(*sparse.CSR) (*sparse.CSR, error), vo VectorOptions) (*vectors.Set, error) {
	if r, c := n.Dims(); vo.AddContexts && r != c {
		return nil, fmt.Errorf("vectors.add_contexts adds each word's context vector to its word vector, so the table's rows and columns must be one vocabulary; this table is %d×%d", r, c)
	}
	do := ca.DecomposeOptions{KeepV: vo.AddContexts}
	if kernel != ca.KernelPlain {
		do.CDS = vo.CDS
	}
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
	var tab ca.Table = n
	nnz := int64(n.NNZ())
	if mb := tr.Trial.Budget.TableMB; mb > 0 && 2*n.Bytes() > int64(mb*(1<<20)) {
		f, cleanup, err := tr.tableOnDisk(n, int64(mb*(1<<20)))
		if err != nil {
			return nil, err
		}
		defer cleanup()
		tab, n = f, nil // the operator reads the files: let the arrays go
	}
	dec, err := tr.Decompose(ctx, rows, cols, nnz, limit, func(b svd.Backend, opt svd.Options) (*ca.Decomposition, error) {
		return ca.DecomposeWith(ctx, tab, kernel, b, opt, do)
	})
	if err != nil {
		return nil, err
	}
	return tr.wordVectors(wd, dec, vo)
}

// tableOnDisk writes n and its transpose (built out of core, within half
// of budget) to a temporary directory and opens them for products in row
// blocks of a quarter of budget; cleanup closes and removes them.
func (tr *TrialRun) tableOnDisk(n *sparse.CSR, budget int64) (*sparse.FileCSR, func(), error) {
	parent := tr.runner.CacheDir
	if parent != "" {
		if err := os.MkdirAll(parent, 0o755); err != nil {
			parent = ""
		}
	}
	dir, err := os.MkdirTemp(parent, tmpfiles.Pattern("table"))
	if err != nil {
		return nil, nil, fmt.Errorf("budget.table_mb: %w", err)
	}
	var f *sparse.FileCSR
	cleanup := func() {
		if f != nil {
			f.Close()
		}
		os.RemoveAll(dir)
	}
	block := max(budget/4, 1)
	err = tr.Stage("table", func() error {
		p, pt := filepath.Join(dir, "table.kcsr"), filepath.Join(dir, "transpose.kcsr")
		if err := sparse.WriteFile(p, n); err != nil {
			return err
		}
		var err error
		if f, err = sparse.OpenFile(p, block); err != nil {
			return err
		}
		if err := sparse.TransposeFile(f, pt, max(budget/2, 1)); err != nil {
			return err
		}
		ft, err := sparse.OpenFile(pt, block)
		if err != nil {
			return err
		}
		return f.SetTranspose(ft)
	})
	if err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("budget.table_mb: table on disk: %w", err)
	}
	tr.Record.TableFile = &records.TableFile{TableBytes: n.Bytes(), FileBytes: 2 * fileSize(f.Path()), BlockBytes: block}
	r, c := f.Dims()
	fmt.Fprintf(tr.Log(), "kcalab: trial %s: table %d×%d (%s in memory, %s with its transpose) above budget.table_mb: decomposed from %s in row blocks of %s\n",
		tr.Trial.ID, r, c, mibText(n.Bytes()), mibText(2*n.Bytes()), termsafe.Text(dir), mibText(block))
	return f, cleanup, nil
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

func mibText(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// Decompose runs a decomposition of a rows×cols word operator with nnz
// stored values (what svd.backend auto weighs) with the trial's SVD
// backend and options (svd.*) in the "svd" stage; limit is the largest
// rank it allows.
func (tr *TrialRun) Decompose(ctx context.Context, rows, cols int, nnz int64, limit int,
	run func(svd.Backend, svd.Options) (*ca.Decomposition, error)) (*ca.Decomposition, error) {
	if t := tr.Trial; t.Subword.MaxN > 0 {
		// Refuse subword settings that cannot work before an hour of SVD.
		if err := subwordOptions(t).Check(); err != nil {
			return nil, fmt.Errorf("subword.*: %w", err)
		}
	}
	b, opt, err := tr.svdBackend(rows, cols, nnz, limit)
	if err != nil {
		return nil, fmt.Errorf("vocabulary of %d words: %w", rows, err)
	}
	// A decomposition can take an hour at the paper's size: say where it is.
	rep := progress.New(tr.Log())
	opt.Progress = func(step string) {
		rep.Update(fmt.Sprintf("svd (%s, k = %d): %s, %s", b.Name(), max(opt.Rank, tr.Trial.SVD.SharedRank), step, rep.Elapsed().Round(time.Second)))
	}
	defer rep.Clear()
	if st := stopStateOf(ctx); st != nil {
		opt.Observe = st.observe
	}
	if p, err := svd.Plan(b.Name(), rows, cols, opt); err == nil {
		// What the backend allocates beyond the table: a reader compares
		// the trial's peak memory with it.
		tr.SetMetric(records.MetricSVDPlan, float64(p.Peak)/(1<<20))
	}
	var dec *ca.Decomposition
	if err := tr.Stage("svd", func() (err error) {
		if tr.Trial.SVD.SharedRank == 0 {
			dec, err = run(b, opt)
			return err
		}
		var computed bool
		dec, computed, err = tr.sharedDecompose(ctx, b, opt, limit, run)
		tr.SetMetric(records.MetricSVDSharedRank, float64(tr.Trial.SVD.SharedRank))
		if err == nil && !computed {
			tr.SetMetric(records.MetricSVDShared, 1)
		}
		return err
	}); err != nil {
		return nil, svdFailure(err)
	}
	return dec, nil
}

// WordVectors turns a decomposition into word vectors, the rows of
// D(r)^β U Σ^α (vectors.beta, vectors.alpha), plus D(c)^β V Σ^α of the
// same word as a context with vectors.add_contexts (the decomposition must
// have kept V), then vectors.normalize; and records its inertia.
func (tr *TrialRun) WordVectors(wd *WordData, dec *ca.Decomposition) (*vectors.Set, error) {
	return tr.wordVectors(wd, dec, tr.TrialVectorOptions())
}

func (tr *TrialRun) wordVectors(wd *WordData, dec *ca.Decomposition, vo VectorOptions) (*vectors.Set, error) {
	if a := dec.Accuracy; a != nil {
		tr.Record.SVD = &records.SVDAccuracy{S: a.S, MaxResidual: a.MaxResidual, RelResidual: a.RelResidual, Products: dec.Products}
		tr.Record.SVD.Keep(tr.Trial.SVD.RecordSigma)
		tr.SetMetric(records.MetricSVDResidual, a.RelResidual)
		tr.SetMetric(records.MetricSVDProducts, float64(dec.Products))
		if w := aboveTol(tr.Record.Backend, a.RelResidual, tr.Trial.SVD.Tol); w != "" {
			tr.Warn("%s", w)
		}
	}
	if dec.TotalInertia > 0 {
		tr.SetMetric(records.MetricTotalInertia, dec.TotalInertia)
		sum := 0.0
		for _, s := range dec.S {
			sum += s * s
		}
		tr.SetMetric(records.MetricInertiaKept, sum/dec.TotalInertia)
	}
	if err := vectors.ScaleWeighted(dec.U, dec.S, dec.RowMass, vo.Alpha, vo.Beta); err != nil {
		return nil, err
	}
	if vo.AddContexts {
		if dec.V == nil {
			return nil, fmt.Errorf("vectors.add_contexts: the %s decomposition kept no context vectors", dec.Kernel)
		}
		ur, uc := dec.U.Dims()
		if vr, vc := dec.V.Dims(); vr != ur || vc != uc {
			return nil, fmt.Errorf("vectors.add_contexts: %d word vectors but %d context vectors: the table's rows and columns must be one vocabulary", ur, vr)
		}
		if err := vectors.ScaleWeighted(dec.V, dec.S, dec.ColMass, vo.Alpha, vo.Beta); err != nil {
			return nil, fmt.Errorf("vectors.add_contexts: %w", err)
		}
		dec.U.Add(dec.U, dec.V)
		dec.V = nil
	}
	if vo.Normalize {
		vectors.NormalizeRows(dec.U)
	}
	if vo.Subword {
		return tr.SubwordVectors(wd, dec)
	}
	return vectors.New(wd.Vocab.Words, dec.U)
}

// aboveTol says when an exact decomposition's measured residual (its
// check's, not the solver's own estimate) is above the tolerance it was
// asked for: the record must not claim what it does not show. Only krylov
// stops at svd.tol; the sketches' residuals are measured, not bounded.
func aboveTol(backend string, rel, tol float64) string {
	if backend != "krylov" || !(rel > tol) {
		return ""
	}
	return fmt.Sprintf("svd: the largest residual measured, %.2g·σ_1, is above svd.tol %g: the decomposition is exact to %.2g·σ_1, not to its tolerance", rel, tol, rel)
}
