package harness

// Kind is the type of a setting's value.
type Kind int

const (
	String Kind = iota
	Int
	Float
	Bool
	StringList // a value that is itself a list: never a grid axis
)

func (k Kind) String() string {
	switch k {
	case String:
		return "string"
	case Int:
		return "integer"
	case Float:
		return "number"
	case Bool:
		return "boolean (true/false)"
	case StringList:
		return "list of strings"
	}
	return "?"
}

// Setting describes one key a spec may set. The table below is the single
// place where defaults live; the README's spec reference is generated from it
// (go run . -settings).
type Setting struct {
	Key     string // dotted path, e.g. "svd.backend"
	Kind    Kind
	Default any      // string, int, float64, bool or []string
	Enum    []string // allowed values for String kinds (nil = free text)
	Min     *float64 // inclusive bounds for Int and Float kinds
	Max     *float64
	Doc     string
}

func ptr(v float64) *float64 { return &v }

// Top-level keys that describe the run rather than a trial.
var runKeys = []Setting{
	{Key: "name", Kind: String, Doc: "experiment name (required); names the output directory and the report"},
	{Key: "description", Kind: String, Default: "", Doc: "free text shown at the top of the report"},
	{Key: "seed", Kind: Int, Default: 1, Min: ptr(0), Doc: "base seed; each trial's seed derives from it and the trial id"},
	{Key: "output", Kind: String, Default: "", Doc: `output directory (default "results/<name>")`},
}

// Settings lists every per-trial key. Any of these may be given as a YAML list,
// which makes it a grid axis (except StringList kinds, which are lists already).
var Settings = []Setting{
	{Key: "data.source", Kind: String, Default: "fisher", Enum: []string{"fisher", "csv", "corpus"},
		Doc: "where the table comes from: Fisher's eye×hair table (embedded), a CSV file, or a text corpus"},
	{Key: "data.csv", Kind: String, Default: "",
		Doc: "CSV file (first row column labels, first column row labels, non-negative counts); relative to the spec file"},
	{Key: "data.corpus", Kind: String, Default: "text8_prefix",
		Doc: "text8, text8_prefix (in the data directory) or a path to a plain, .gz or .zip text file"},
	{Key: "data.fraction", Kind: Float, Default: 1.0, Min: ptr(1e-9), Max: ptr(1),
		Doc: "use only this initial fraction of the corpus tokens (vocabulary built on that section)"},
	{Key: "data.lowercase", Kind: Bool, Default: false, Doc: "lowercase tokens"},
	{Key: "data.min_count", Kind: Int, Default: 5, Min: ptr(1), Doc: "vocabulary: minimum word count"},
	{Key: "data.max_vocab", Kind: Int, Default: 0, Min: ptr(0), Doc: "vocabulary: keep at most this many words (0 = no limit)"},
	{Key: "data.oov", Kind: String, Default: "unk", Enum: []string{"unk", "drop"},
		Doc: "out-of-vocabulary tokens: one shared <unk> row/column kept in place, or dropped (positions closed up)"},
	{Key: "data.window", Kind: Int, Default: 24, Min: ptr(1), Max: ptr(1000), Doc: "window W: offsets 1..W"},
	{Key: "data.table", Kind: String, Default: "cut", Enum: []string{"flat", "skip", "cut", "glove"},
		Doc: "word table: N^flat, N^skip (weights (W−k+1)/W), N^cut (tail cut), glove (symmetric, 1/distance)"},
	{Key: "data.symmetric", Kind: Bool, Default: false, Doc: "count both directions (N + Nᵀ)"},

	{Key: "method", Kind: String, Default: "ca", Enum: []string{"ca", "gini"},
		Doc: "ca: correspondence analysis (LCA, K = D⁻¹); gini: Gini-index covariance (K = I)"},

	{Key: "svd.backend", Kind: String, Default: "auto", Enum: []string{"auto", "dense", "randomized", "dssvd"},
		Doc: "SVD backend; auto = dense for CSV/Fisher tables, dssvd for word tables"},
	{Key: "svd.rank", Kind: Int, Default: 0, Min: ptr(0),
		Doc: "number of dimensions k; 0 = min(rows, cols) − 1 capped at 300"},
	{Key: "svd.oversample", Kind: Int, Default: 10, Min: ptr(0), Doc: "randomized SVD oversampling p"},
	{Key: "svd.power_iters", Kind: Int, Default: -1, Min: ptr(-1),
		Doc: "randomized SVD power iterations q; -1 = paper's rule (7 if k < 0.1·min(rows, cols), else 4)"},
	{Key: "svd.normalizer", Kind: String, Default: "lu", Enum: []string{"lu", "qr", "none"},
		Doc: "normalisation between power iterations"},
}

// lookupSetting finds a per-trial or run setting by key.
func lookupSetting(key string) (Setting, bool) {
	for _, s := range runKeys {
		if s.Key == key {
			return s, true
		}
	}
	for _, s := range Settings {
		if s.Key == key {
			return s, true
		}
	}
	return Setting{}, false
}
