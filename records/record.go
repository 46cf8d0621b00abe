package records

import "math"

// Record is one line of results.jsonl: everything a trial produced.
type Record struct {
	ID       string         `json:"id"`       // stable id derived from the non-default settings
	Spec     string         `json:"spec"`     // spec name
	Seed     uint64         `json:"seed"`     // derived from the spec seed and ID
	Settings map[string]any `json:"settings"` // the resolved settings the trial read, dotted keys ("svd.backend"); package spec decodes them
	Status   string         `json:"status"`   // "ok", "over_budget", "skipped" or "error"
	Error    string         `json:"error,omitempty"`
	Warnings []string       `json:"warnings,omitempty"` // what a reader of an "ok" result should know (an undefined ρ, a degenerate table)
	// WarningsTotal, when above len(Warnings), is how many warnings the
	// record has in its file, of which a reader kept only Warnings
	// (ReadOptions.MaxWarnings); never written.
	WarningsTotal int                `json:"-"`
	Metrics       map[string]float64 `json:"metrics,omitempty"` // keys built and parsed by Metric, e.g. "spearman.zero.men", "coverage.men"
	// Bootstrap holds the scores' replicates over shared resamples of the
	// sets' pairs, for intervals and paired comparisons.
	Bootstrap *Bootstrap         `json:"bootstrap,omitempty"`
	Timings   map[string]float64 `json:"timings,omitempty"` // seconds, by stage ("table", "svd", "total")
	Env       *Env               `json:"env,omitempty"`
	CA        *CAResult          `json:"ca,omitempty"`
	Files     []string           `json:"files,omitempty"` // files the trial wrote (e.g. its word vectors), relative to the output directory, '/'-separated
	// FileHashes are the SHA-256 (hex) of each of Files as the trial wrote
	// it, by its Files entry: a file changed since, or replaced by a link,
	// is known not to hold what the trial wrote (see CheckWrittenFile).
	FileHashes map[string]string `json:"files_sha256,omitempty"`
	Backend    string            `json:"svd_backend,omitempty"`  // the SVD backend used (svd.backend "auto" resolved)
	SVD        *SVDAccuracy      `json:"svd,omitempty"`          // how converged the word decomposition is
	TableFile  *TableFile        `json:"table_file,omitempty"`   // budget.table_mb: the table was decomposed from disk
	Corpus     *CorpusStats      `json:"corpus_stats,omitempty"` // method corpusstats: growth series and σ_k
	Run        *RunInfo          `json:"run,omitempty"`          // when, where, which commit and data files; see RunInfo
	// WordsMap and Neighbours let a report show whether word vectors are
	// sane without storing them. Neighbours are by the trial's similarity
	// (eval.similarity), NeighboursOther by the other one, so that a
	// report shows each method's at its own; records older than it have
	// none.
	WordsMap        *WordMap     `json:"words_map,omitempty"`
	Neighbours      []Neighbours `json:"neighbours,omitempty"`
	NeighboursOther []Neighbours `json:"neighbours_other,omitempty"`
	// SearchOnly marks a candidate its tuning group did not choose, cut
	// to its scores (Slim): no replicates, word map, neighbours or
	// spectrum beyond σ_1 and σ_k.
	SearchOnly bool `json:"search_only,omitempty"`
}

// TableFile records a word table decomposed from files (budget.table_mb):
// its in-memory size had it been kept, the bytes on disk (table and
// transpose) and the row block read at a time.
type TableFile struct {
	TableBytes int64 `json:"table_bytes"`
	FileBytes  int64 `json:"file_bytes"`
	BlockBytes int64 `json:"block_bytes"`
}

// CorpusStats are what method corpusstats measures of a corpus: the
// growth series over prefixes and the singular values of the tail-cut CA of
// the whole corpus (methods/corpusstats).
type CorpusStats struct {
	Window       int           `json:"window"`    // W of N^flat and N^cut
	MinCount     int           `json:"min_count"` // vocabulary threshold
	Points       []CorpusPoint `json:"points"`
	Sigma        []float64     `json:"sigma"` // σ_1 ≥ … of the tail-cut CA
	TotalInertia float64       `json:"total_inertia"`
}

// CorpusPoint is one prefix of a corpus.
type CorpusPoint struct {
	Tokens  int64 `json:"tokens"`
	Types   int   `json:"types"`    // distinct tokens
	Vocab   int   `json:"vocab"`    // words with count ≥ MinCount
	NNZFlat int   `json:"nnz_flat"` // stored entries of N^flat
	NNZCut  int   `json:"nnz_cut"`  // stored entries of N^cut
}

// Env describes where a trial ran.
type Env struct {
	GoVersion  string `json:"go_version"`
	CPU        string `json:"cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
}

// CAResult is the correspondence-analysis part of a trial's record.
type CAResult struct {
	SingularValues []float64 `json:"singular_values"`
	Inertias       []float64 `json:"inertias"`      // principal inertias = singular values squared
	InertiaShare   []float64 `json:"inertia_share"` // inertia / total inertia
	TotalInertia   float64   `json:"total_inertia"`
	// Counts is the analysed (active) table, for a table source: reports
	// show the input next to its analysis.
	Counts       [][]float64 `json:"counts,omitempty"`
	RowLabels    []string    `json:"row_labels,omitempty"`
	ColLabels    []string    `json:"col_labels,omitempty"`
	RowPrincipal [][]float64 `json:"row_principal,omitempty"` // F = D(r)^-1/2 U Σ
	ColPrincipal [][]float64 `json:"col_principal,omitempty"` // G = D(c)^-1/2 V Σ
	RowStandard  [][]float64 `json:"row_standard,omitempty"`
	ColStandard  [][]float64 `json:"col_standard,omitempty"`

	// What R's summary.ca and FactoMineR report, as fractions (R prints
	// permills); see methods/ca.Statistics for the definitions. Distances
	// and cos² use all dimensions of the table; ctr and cos² have one value
	// per kept axis. Records written before these existed lack them.
	RowMass    []float64   `json:"row_mass,omitempty"`
	ColMass    []float64   `json:"col_mass,omitempty"`
	RowDist    []float64   `json:"row_dist,omitempty"`
	ColDist    []float64   `json:"col_dist,omitempty"`
	RowInertia []float64   `json:"row_inertia,omitempty"` // absolute
	ColInertia []float64   `json:"col_inertia,omitempty"`
	RowCtr     [][]float64 `json:"row_ctr,omitempty"`
	ColCtr     [][]float64 `json:"col_ctr,omitempty"`
	RowCos2    [][]float64 `json:"row_cos2,omitempty"`
	ColCos2    [][]float64 `json:"col_cos2,omitempty"`
	RowQuality []float64   `json:"row_quality,omitempty"`
	ColQuality []float64   `json:"col_quality,omitempty"`
	Chi2       float64     `json:"chi2,omitempty"` // Pearson's χ² of independence
	DF         int         `json:"df,omitempty"`
	PValue     *float64    `json:"p_value,omitempty"` // a pointer: 0 is a value (an underflow), not absence

	// Supplementary points (data.supplementary_rows/cols), projected onto
	// the axes after the analysis: principal coordinates, χ² distance, cos²
	// and quality; no mass, inertia or ctr.
	SupRowLabels    []string    `json:"sup_row_labels,omitempty"`
	SupRowPrincipal [][]float64 `json:"sup_row_principal,omitempty"`
	SupRowDist      []float64   `json:"sup_row_dist,omitempty"`
	SupRowCos2      [][]float64 `json:"sup_row_cos2,omitempty"`
	SupRowQuality   []float64   `json:"sup_row_quality,omitempty"`
	SupRowCounts    [][]float64 `json:"sup_row_counts,omitempty"` // over the active columns
	SupColLabels    []string    `json:"sup_col_labels,omitempty"`
	SupColPrincipal [][]float64 `json:"sup_col_principal,omitempty"`
	SupColDist      []float64   `json:"sup_col_dist,omitempty"`
	SupColCos2      [][]float64 `json:"sup_col_cos2,omitempty"`
	SupColQuality   []float64   `json:"sup_col_quality,omitempty"`
	SupColCounts    [][]float64 `json:"sup_col_counts,omitempty"` // one list per column, over the active rows
}

// SVDAccuracy is a word decomposition's measured accuracy: its singular
// values and the largest residual sqrt(‖A v − σ u‖² + ‖Aᵀ u − σ v‖²) of
// its triplets, absolute and relative to σ_1, and the operator
// column-products it took. S holds the leading values: all k of them, or
// when the trial kept fewer (svd.record_sigma), that many, with k and σ_k
// in K and SK.
type SVDAccuracy struct {
	S           []float64 `json:"s"`
	K           int       `json:"k,omitempty"`
	SK          float64   `json:"s_k,omitempty"`
	MaxResidual float64   `json:"max_residual"`
	RelResidual float64   `json:"rel_residual"`
	Products    int       `json:"products"`
}

// Rank is the number of triplets the decomposition computed (k), whether
// or not S keeps them all.
func (a *SVDAccuracy) Rank() int {
	if a.K > 0 {
		return a.K
	}
	return len(a.S)
}

// Last is σ_k, the smallest singular value the decomposition computed;
// NaN when S is empty.
func (a *SVDAccuracy) Last() float64 {
	switch {
	case a.K > 0:
		return a.SK
	case len(a.S) > 0:
		return a.S[len(a.S)-1]
	}
	return math.NaN()
}

// Keep cuts S to its leading n values, keeping k and σ_k in K and SK; n
// ≤ 0, or n ≥ len(S), keeps S whole.
func (a *SVDAccuracy) Keep(n int) {
	if n <= 0 || n >= len(a.S) {
		return
	}
	if a.K == 0 {
		a.K, a.SK = len(a.S), a.S[len(a.S)-1]
	}
	a.S = a.S[:n:n]
}

// Statuses a record may have.
const (
	StatusOK         = "ok"
	StatusOverBudget = "over_budget" // the trial would exceed budget.seconds or budget.memory_mb
	StatusSkipped    = "skipped"     // a tool or build it needs is missing
	StatusError      = "error"
	// StatusNotPromoted marks, in memory only, a trial of a successive
	// halving that its plan does not run (PlanHalving): no results file
	// holds such a record, as it holds no result.
	StatusNotPromoted = "not_promoted"
	// StatusStale is never written: a page shows with it a record that no
	// longer holds for its trial (harness.StaleRecords), its reason in
	// Error and its numbers left out.
	StatusStale = "stale"
)

// RunInfo says when, where and from which code and data a trial's numbers
// were computed. A reused trial keeps the RunInfo of the run that computed
// it; records written before it existed have none.
type RunInfo struct {
	Start string `json:"start"` // RFC 3339, UTC
	End   string `json:"end"`
	// ID names the invocation of the runner (kcalab SPEC) that computed the
	// trial: trials with one ID were measured in one run, on one machine,
	// so their times compare. Records written before it existed have none.
	ID string `json:"id,omitempty"`
	// Commit is the full git commit the binary that computed the trial was
	// built from (its build information's vcs.revision), UnknownCommit
	// when the binary carries none; Dirty says that tree had uncommitted
	// changes, untracked files included (vcs.modified). CommitSource is
	// CommitFromBuild for such records; records made before it existed
	// name the working directory's checkout instead (absent outside one),
	// with Dirty for tracked files other than results.jsonl files.
	Commit       string `json:"commit,omitempty"`
	Dirty        bool   `json:"dirty,omitempty"`
	CommitSource string `json:"commit_source,omitempty"`
	Host         string `json:"host,omitempty"`
	// Inputs maps every data file the trial read (corpus, word-similarity
	// sets, CSV table) to the SHA-256 of its bytes. Embedded and generated
	// data (Fisher's table, a synthetic corpus) are not files and not listed.
	Inputs map[string]string `json:"inputs,omitempty"`
}

// WordMap is a trial's most frequent words on the first two axes of its
// vectors, kept in the record because records do not hold the vectors.
type WordMap struct {
	Words []string  `json:"words"`
	X     []float64 `json:"x"` // axis 1 (the first vector component)
	Y     []float64 `json:"y"` // axis 2
}

// Neighbours are a probe word's nearest words by the trial's similarity.
type Neighbours struct {
	Word  string    `json:"word"`
	Words []string  `json:"words"` // best first; empty when the probe is out of the vocabulary
	Sims  []float64 `json:"sims"`
}
