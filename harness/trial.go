package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"kcalab/datasets/corpus"
	"kcalab/internal/termsafe"
	"kcalab/records"
	"kcalab/schema"

	"gonum.org/v1/gonum/mat"

	"kcalab/datasets"
	"kcalab/methods/ca"
	"kcalab/methods/svd"
	"kcalab/methods/vectors"
)

// TrialRun carries one trial through its stages: a method's Run reads its
// input from it and writes its results into Record.
type TrialRun struct {
	Trial  schema.Trial
	Spec   *schema.Spec
	Record *records.Record
	// Table is the labelled table of a table source (nil for a corpus).
	Table *datasets.Table

	runner *Runner
	prog   *Progress
	words  *WordData  // the corpus section, once loaded
	sets   []NamedSet // the evaluation sets, loaded with the corpus
	// vocabRows is, for subword vectors, the rows of the vocabulary (the
	// unseen evaluation words follow); 0 otherwise.
	vocabRows  int
	plainVocab *vectors.Set // the own rows when subword.weight blends them
	// captured, while set, receives the vectors the method gives Score
	// instead of scoring them (runShared: vectors a run's retrofitted
	// trials and their plain twin share).
	captured *trainedVectors
	// foldedVocab is the corpus vocabulary folded to lower case, built on
	// first use by a case-insensitive trial's vocab rule.
	foldedVocab map[string]bool

	inputsMu sync.Mutex
	inputs   []string // data files read, for records.RunInfo.Inputs
}

// Stage times fn under the given stage name (Record.Timings) and shows it
// in the progress output.
func (tr *TrialRun) Stage(name string, fn func() error) error {
	tr.prog.Stage(tr.Trial, name)
	start := time.Now()
	err := fn()
	tr.Record.Timings[name] += time.Since(start).Seconds()
	return err
}

// Warn records a warning in the trial's record and prints it.
func (tr *TrialRun) Warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	tr.Record.Warnings = append(tr.Record.Warnings, msg)
	fmt.Fprintf(tr.Log(), "kcalab: warning: trial %s: %s\n", tr.Trial.ID, termsafe.Text(msg))
}

// SetMetric records one metric of the trial.
func (tr *TrialRun) SetMetric(key string, v float64) { tr.Record.Metrics[key] = v }

// Log is where a method writes progress and warnings.
func (tr *TrialRun) Log() io.Writer { return tr.runner.log() }

// Progress shows what the trial is doing in the progress output (a step
// inside a stage, "fold 2/5"), without timing it.
func (tr *TrialRun) Progress(step string) { tr.prog.Stage(tr.Trial, step) }

// DataDir is the data directory the trial reads named corpora and sets
// from (Runner.DataDir, else $KCALAB_DATA, else ./data).
func (tr *TrialRun) DataDir() (string, error) { return corpus.DataDir(tr.runner.DataDir) }

// CacheDir is the runner's cache directory ("" = no cache).
func (tr *TrialRun) CacheDir() string { return tr.runner.CacheDir }

// run dispatches the trial to its method with the input its data source
// gives.
func (tr *TrialRun) run(ctx context.Context) error {
	t := tr.Trial
	m, ok := lookupMethod(t.Method)
	if !ok {
		return fmt.Errorf("method %q is not registered (allowed: %s)", t.Method, strings.Join(schema.MethodNames(), ", "))
	}
	src := t.Data.Source
	if !src.Known() {
		return fmt.Errorf("data.source %q: not supported", src)
	}
	if m.Info().Inputs&src.Input() == 0 {
		if src.Table() {
			return fmt.Errorf("method %q needs a corpus (data.source: corpus or synthetic); a table takes %s",
				t.Method, strings.Join(schema.MethodsTaking(schema.TableInput), ", "))
		}
		return fmt.Errorf("method %q takes a table (data.source: fisher or csv), not a corpus", t.Method)
	}
	switch src.Input() {
	case schema.TableInput:
		if err := tr.Stage("table", func() (err error) {
			tr.Table, err = loadTable(t)
			return err
		}); err != nil {
			return err
		}
		if src == schema.SourceCSV {
			tr.noteInput(t.Data.CSV)
		}
	case schema.CorpusInput:
		wd, err := tr.Words(ctx)
		if err != nil {
			return err
		}
		// Sets are loaded before the method runs, so a bad set name fails
		// before hours of training; so are the analogy files.
		if tr.sets, err = tr.evalSets(wd); err != nil {
			return err
		}
		if err := tr.checkAnalogies(); err != nil {
			return err
		}
		return tr.runShared(ctx, m)
	}
	return m.Run(ctx, tr)
}

// What svd.backend "auto" stands for before the table's shape is known:
// the key of a shared decomposition, the growth curves of corpusstats, and
// the incumbent a decomposition keeps unless the cost model expects another
// exact backend to be much faster for the table's shape (svdOptions).
const (
	autoTableBackend = "dense"
	autoWordBackend  = "krylov"
)

// BackendName is what svd.backend "auto" stands for before the table's
// shape is known (tables dense, corpora and counted word tables krylov), or
// the backend the trial names. It keys shared decompositions; the backend
// a trial decomposes with is svdOptions', chosen by shape.
func BackendName(t schema.Trial) string {
	if t.SVD.Backend != "auto" {
		return t.SVD.Backend
	}
	if t.Data.Source.Table() {
		return autoTableBackend
	}
	return autoWordBackend
}

// svdFailure classifies an SVD backend's error for the record: over its
// memory budget, or out of time (krylov stopping before budget.seconds
// when its rate cannot finish in time), is over_budget; the lapack
// backend in a pure-Go build is skipped, like a missing tool; and a
// krylov run that cannot converge names the settings its advice is about.
func svdFailure(err error) error {
	switch {
	case errors.Is(err, svd.ErrOverBudget):
		return fmt.Errorf("%w: %w", ErrOverBudget, err)
	case errors.Is(err, svd.ErrNotBuilt):
		return fmt.Errorf("%w: %w", ErrSkipped, err)
	case errors.Is(err, svd.ErrNotConverged) && errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%w: %w (%s)", ErrOverBudget, err, notConvergedSettings)
	case errors.Is(err, svd.ErrNotConverged):
		return fmt.Errorf("%w (%s)", err, notConvergedSettings)
	}
	return err
}

// notConvergedSettings maps the krylov backend's advice to spec keys.
const notConvergedSettings = "in a spec: svd.tol, svd.rank, budget.seconds, budget.memory_mb"

// svdOptions resolves the svd.* settings for a rows×cols problem with nnz
// stored values, whose rank may be at most maxRank. When svd.backend is
// "auto", svd.Auto resolves it by this shape and rank (the shared rank when
// decompositions are shared): BackendName's backend unless the cost model
// expects another exact one to be much faster; auto then says which and
// why, and is "" otherwise.
func svdOptions(t schema.Trial, rows, cols int, nnz int64, maxRank int) (b svd.Backend, opt svd.Options, auto string, err error) {
	name := t.SVD.Backend
	if name != "auto" {
		if b, err = svd.Get(name); err != nil {
			return nil, svd.Options{}, "", fmt.Errorf("svd.backend: %w", err)
		}
	}
	k := t.SVD.Rank
	if k == 0 {
		k = min(maxRank, 300)
	}
	if k > maxRank {
		return nil, svd.Options{}, "", fmt.Errorf("svd.rank = %d is too large for a %d×%d table (at most %d)", k, rows, cols, maxRank)
	}
	if k < 1 {
		return nil, svd.Options{}, "", fmt.Errorf("a %d×%d table has no non-trivial dimension to analyse", rows, cols)
	}
	opt = svd.Options{
		Rank:       k,
		Oversample: t.SVD.Oversample,
		PowerIters: t.SVD.PowerIters,
		Normalizer: t.SVD.Normalizer,
		Projected:  t.SVD.Projected,
		Seed:       t.Seed,
		Tol:        t.SVD.Tol,
		// Every backend measures its residuals, so a record says how far a
		// sketch is from converged (k products each way; krylov's are free).
		Check: true,
	}
	if mb := t.Budget.MemoryMB; mb > 0 {
		// Every backend plans its buffers and refuses before allocating
		// (svd.Plan); the dense-matrix bound stays as the first check.
		opt.MaxDenseBytes = int64(mb * (1 << 20))
		opt.MaxBytes = opt.MaxDenseBytes
	}
	if name == "auto" {
		rank := max(k, t.SVD.SharedRank)
		c := svd.Auto(svd.Shape{Rows: rows, Cols: cols, NNZ: nnz, Rank: rank}, opt, BackendName(t))
		if b, err = svd.Get(c.Backend); err != nil {
			return nil, svd.Options{}, "", err
		}
		auto = fmt.Sprintf("svd.backend auto: %s for a %d×%d table of %d stored values at rank %d", c, rows, cols, nnz, rank)
		auto += overAll(c, rows, cols, rank, opt)
	}
	return b, opt, auto, nil
}

// overAll is what auto's log adds when the backend it chose (krylov, the
// fallback no budget excludes) plans more memory than budget.memory_mb
// too: then no candidate fits, and the trial will be over budget, which
// the choice must not read as if krylov fitted.
func overAll(c svd.AutoChoice, rows, cols, rank int, opt svd.Options) string {
	if opt.MaxBytes <= 0 {
		return ""
	}
	o := opt
	o.Rank = rank
	p, err := svd.Plan(c.Backend, rows, cols, o)
	if err != nil || p.Peak <= opt.MaxBytes {
		return ""
	}
	return fmt.Sprintf("; but %s plans %.1f MiB, over budget.memory_mb %g too: no candidate fits, so the trial will be over budget (raise budget.memory_mb, or lower svd.rank)",
		c.Backend, float64(p.Peak)/(1<<20), float64(opt.MaxBytes)/(1<<20))
}

// svdBackend is svdOptions for this trial: it also records the backend
// (what "auto" resolved to) and logs auto's choice with its estimates.
func (tr *TrialRun) svdBackend(rows, cols int, nnz int64, maxRank int) (svd.Backend, svd.Options, error) {
	b, opt, auto, err := svdOptions(tr.Trial, rows, cols, nnz, maxRank)
	if err != nil {
		return nil, svd.Options{}, err
	}
	tr.Record.Backend = b.Name()
	if auto != "" {
		fmt.Fprintf(tr.Log(), "kcalab: trial %s: %s\n", tr.Trial.ID, auto)
	}
	return b, opt, nil
}

// AutoBackend is the backend svdOptions resolves t's svd.backend to for the
// table a record describes (its word table's vocabulary and non-zeros, or
// its CA counts), and false when the record does not say its table's shape.
func AutoBackend(old records.Record, t schema.Trial) (string, bool) {
	var rows, cols int
	var nnz int64
	switch {
	case old.Metrics[records.MetricVocab] > 0 && old.Metrics[records.MetricNNZ] > 0:
		// Word tables are square: words by the same words as contexts.
		rows = int(old.Metrics[records.MetricVocab])
		cols, nnz = rows, int64(old.Metrics[records.MetricNNZ])
	case old.CA != nil && len(old.CA.Counts) > 0:
		rows, cols = len(old.CA.Counts), len(old.CA.Counts[0])
		for _, row := range old.CA.Counts {
			for _, v := range row {
				if v != 0 {
					nnz++
				}
			}
		}
	default:
		return "", false
	}
	b, _, _, err := svdOptions(t, rows, cols, nnz, min(rows, cols)-1)
	if err != nil {
		return "", false
	}
	return b.Name(), true
}

// AnalyzeTable runs CA with a kernel on the trial's labelled table, its
// supplementary rows and columns (data.supplementary_rows/cols) taken out
// and projected afterwards, and stores the full result in the record.
func (tr *TrialRun) AnalyzeTable(ctx context.Context, kernel ca.Kernel) error {
	t := tr.Trial
	if tr.Table == nil {
		return errors.New("no table: the data source is not a table")
	}
	tab, sup, err := tr.Table.Split(t.Data.SupRows, t.Data.SupCols)
	if err != nil {
		return fmt.Errorf("data.supplementary_rows/cols: %w", err)
	}
	if err := tab.Validate(); err != nil {
		return err
	}
	tr.warnDegenerate(tab)
	r, c := tab.N.Dims()
	b, opt, err := tr.svdBackend(r, c, int64(tab.N.NNZ()), min(r, c)-1)
	if err != nil {
		return err
	}
	var res *ca.Result
	if err := tr.Stage("svd", func() (err error) {
		res, err = ca.Analyze(ctx, tab.N, kernel, b, opt)
		return err
	}); err != nil {
		return svdFailure(err)
	}
	out := &records.CAResult{
		SingularValues: res.SingularValues,
		Inertias:       res.Inertias,
		InertiaShare:   res.InertiaShare,
		TotalInertia:   res.TotalInertia,
		Counts:         rows(tab.N.ToDense()),
		RowLabels:      tab.RowLabels,
		ColLabels:      tab.ColLabels,
		RowPrincipal:   rows(res.RowPrincipal),
		ColPrincipal:   rows(res.ColPrincipal),
		RowStandard:    rows(res.RowStandard),
		ColStandard:    rows(res.ColStandard),
		RowMass:        res.RowMass,
		ColMass:        res.ColMass,
		RowDist:        res.RowDist,
		ColDist:        res.ColDist,
		RowInertia:     res.RowInertia,
		ColInertia:     res.ColInertia,
		RowCtr:         res.RowCtr,
		ColCtr:         res.ColCtr,
		RowCos2:        res.RowCos2,
		ColCos2:        res.ColCos2,
		RowQuality:     res.RowQuality,
		ColQuality:     res.ColQuality,
		Chi2:           res.Chi2,
		DF:             res.DF,
	}
	if p := res.PValue; p == p { // not NaN (no degrees of freedom)
		out.PValue = &p
	}
	if err := tr.Stage("supplementary", func() error { return project(res, sup, out) }); err != nil {
		return err
	}
	if res.TotalInertia < 1e-12 {
		// An independent (rank-1) table has no inertia: its axes are noise.
		tr.Warn("the table is independent (rows and columns proportional; total inertia %.3g): it has no axes, its coordinates are rounding noise", res.TotalInertia)
	} else if k := realAxes(res.SingularValues); k < len(res.SingularValues) {
		tr.Warn("svd.rank = %d, but the table has only %d axis(es) with inertia (σ%d = %.3g ≈ 0 against σ1 = %.3g): axes %d to %d are arbitrary directions, their coordinates rounding noise",
			len(res.SingularValues), k, k+1, res.SingularValues[k], res.SingularValues[0], k+1, len(res.SingularValues))
	}
	tr.Record.CA = out
	tr.SetMetric(records.MetricTotalInertia, res.TotalInertia)
	for i, s := range res.InertiaShare {
		tr.SetMetric(records.InertiaShare(i+1).Key(), s)
	}
	return nil
}

// realAxes counts the leading singular values that are not rounding noise
// (above 1e-7 of the first, about the square root of the float64 epsilon
// that an SVD's small values carry).
func realAxes(sv []float64) int {
	for i, s := range sv {
		if !(s > 1e-7*sv[0]) {
			return i
		}
	}
	return len(sv)
}

// warnDegenerate warns of a table row or column with no counts: it gets
// zero coordinates.
func (tr *TrialRun) warnDegenerate(tab *datasets.Table) {
	for _, side := range []struct {
		what   string
		labels []string
		sums   []float64
	}{{"row", tab.RowLabels, tab.N.RowSums()}, {"column", tab.ColLabels, tab.N.ColSums()}} {
		for i, s := range side.sums {
			if s == 0 {
				tr.Warn("%s %q has no counts: it takes no part in the analysis and gets zero coordinates", side.what, side.labels[i])
			}
		}
	}
}

// project places the supplementary rows and columns on the axes of res.
func project(res *ca.Result, sup *datasets.Supplement, out *records.CAResult) error {
	if sup.Rows != nil {
		p, err := res.RowProjector()
		if err != nil {
			return fmt.Errorf("supplementary rows: %w", err)
		}
		s, err := p.Project(sup.Rows)
		if err != nil {
			return fmt.Errorf("supplementary rows: %w", err)
		}
		out.SupRowLabels, out.SupRowPrincipal, out.SupRowDist, out.SupRowCos2, out.SupRowQuality =
			sup.RowLabels, rows(s.Principal), s.Dist, s.Cos2, s.Quality
		out.SupRowCounts = rows(sup.Rows.ToDense())
	}
	if sup.Cols != nil {
		p, err := res.ColProjector()
		if err != nil {
			return fmt.Errorf("supplementary columns: %w", err)
		}
		s, err := p.Project(sup.Cols)
		if err != nil {
			return fmt.Errorf("supplementary columns: %w", err)
		}
		out.SupColLabels, out.SupColPrincipal, out.SupColDist, out.SupColCos2, out.SupColQuality =
			sup.ColLabels, rows(s.Principal), s.Dist, s.Cos2, s.Quality
		out.SupColCounts = rows(sup.Cols.ToDense())
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

// loadTable loads the labelled table of a table source.
func loadTable(t schema.Trial) (*datasets.Table, error) {
	switch t.Data.Source {
	case schema.SourceFisher:
		return datasets.Fisher(), nil
	case schema.SourceCSV:
		if t.Data.CSV == "" {
			return nil, errors.New(`data.source is "csv" but data.csv (the file) is not set`)
		}
		return datasets.ReadCSVFile(t.Data.CSV)
	}
	return nil, fmt.Errorf("data.source %q is not a table", t.Data.Source)
}
