package harness

// Record is one line of results.jsonl: everything a trial produced.
type Record struct {
	ID       string             `json:"id"`       // stable id derived from the non-default settings
	Spec     string             `json:"spec"`     // spec name
	Seed     uint64             `json:"seed"`     // derived from the spec seed and ID
	Settings map[string]any     `json:"settings"` // the resolved settings the trial read, dotted keys ("svd.backend"); see Trial.RecordSettings
	Status   string             `json:"status"`   // "ok", "over_budget", "skipped" or "error"
	Error    string             `json:"error,omitempty"`
	Metrics  map[string]float64 `json:"metrics,omitempty"` // keys from metrics.go, e.g. "spearman.zero.men", "coverage.men"
	Timings  map[string]float64 `json:"timings,omitempty"` // seconds, by stage ("table", "svd", "total")
	Env      *Env               `json:"env,omitempty"`
	CA       *CAResult          `json:"ca,omitempty"`
	Files    []string           `json:"files,omitempty"`       // files the trial wrote (e.g. its word vectors), relative to the output directory, '/'-separated
	Backend  string             `json:"svd_backend,omitempty"` // the SVD backend used (svd.backend "auto" resolved)
	Run      *RunInfo           `json:"run,omitempty"`         // when, where, which commit and data files; see RunInfo
}

// Env describes where a trial ran.
type Env struct {
	GoVersion  string `json:"go_version"`
	CPU        string `json:"cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
}

// CAResult is the correspondence-analysis part of a trial's record.
type CAResult struct {
	SingularValues []float64   `json:"singular_values"`
	Inertias       []float64   `json:"inertias"`      // principal inertias = singular values squared
	InertiaShare   []float64   `json:"inertia_share"` // inertia / total inertia
	TotalInertia   float64     `json:"total_inertia"`
	RowLabels      []string    `json:"row_labels,omitempty"`
	ColLabels      []string    `json:"col_labels,omitempty"`
	RowPrincipal   [][]float64 `json:"row_principal,omitempty"` // F = D(r)^-1/2 U Σ
	ColPrincipal   [][]float64 `json:"col_principal,omitempty"` // G = D(c)^-1/2 V Σ
	RowStandard    [][]float64 `json:"row_standard,omitempty"`
	ColStandard    [][]float64 `json:"col_standard,omitempty"`
}
