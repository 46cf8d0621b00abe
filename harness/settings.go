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
	{Key: "tolerance", Kind: Float, Default: 0.01, Min: ptr(0),
		Doc: "-check: a score may fall by at most this much below the reference results"},
}

// Settings lists every per-trial key. Any of these may be given as a YAML list,
// which makes it a grid axis (except StringList kinds, which are lists already).
var Settings = []Setting{
	{Key: "label", Kind: String, Default: "",
		Doc: "the trial's row label in reports (e.g. in a variant: label: tail-cut)"},

	{Key: "data.source", Kind: String, Default: "fisher", Enum: []string{"fisher", "csv", "corpus", "synthetic"},
		Doc: "where the table comes from: Fisher's eye×hair table (embedded), a CSV file, a text corpus, or a synthetic corpus with planted word clusters generated from the trial seed"},
	{Key: "data.csv", Kind: String, Default: "",
		Doc: "CSV file (first row column labels, first column row labels, non-negative counts); relative to the spec file"},
	{Key: "data.corpus", Kind: String, Default: "text8_prefix",
		Doc: "text8, text8_prefix (in the data directory) or a path to a plain, .gz or .zip text file (relative to the spec file)"},
	{Key: "data.fraction", Kind: Float, Default: 1.0, Min: ptr(1e-9), Max: ptr(1),
		Doc: "use only this initial fraction of the corpus tokens (vocabulary built on that section)"},
	{Key: "data.lowercase", Kind: Bool, Default: false, Doc: "lowercase tokens"},
	{Key: "data.min_count", Kind: Int, Default: 5, Min: ptr(1), Doc: "vocabulary: minimum word count"},
	{Key: "data.max_vocab", Kind: Int, Default: 0, Min: ptr(0), Doc: "vocabulary: keep at most this many words (0 = no limit)"},
	{Key: "data.oov", Kind: String, Default: "unk", Enum: []string{"unk", "drop"},
		Doc: "out-of-vocabulary tokens: one shared <unk> row/column kept in place, or dropped (positions closed up)"},
	{Key: "data.window", Kind: Int, Default: 24, Min: ptr(1), Max: ptr(1000), Doc: "window W of the CA word tables: offsets 1..W"},
	{Key: "data.table", Kind: String, Default: "cut", Enum: []string{"flat", "skip", "cut", "glove"},
		Doc: "word table: N^flat, N^skip (weights (W−k+1)/W), N^cut (tail cut), glove (symmetric, 1/distance)"},
	{Key: "data.symmetric", Kind: Bool, Default: false, Doc: "count both directions (N + Nᵀ)"},
	{Key: "data.cut_n1_twice", Kind: Bool, Default: false,
		Doc: "tail cut: add cut(N^1) twice, reproducing a slip of the authors' script (off = the paper's definition)"},

	{Key: "synthetic.clusters", Kind: Int, Default: 6, Min: ptr(2), Max: ptr(1000), Doc: "synthetic corpus: planted word clusters"},
	{Key: "synthetic.words", Kind: Int, Default: 12, Min: ptr(2), Max: ptr(10000), Doc: "synthetic corpus: words per cluster"},
	{Key: "synthetic.tokens", Kind: Int, Default: 100000, Min: ptr(100), Max: ptr(100000000), Doc: "synthetic corpus: tokens"},
	{Key: "synthetic.noise", Kind: Float, Default: 0.1, Min: ptr(0), Max: ptr(1),
		Doc: "synthetic corpus: probability that a token is a random word of any cluster"},

	{Key: "method", Kind: String, Default: "ca",
		Enum: []string{"ca", "lca", "gini", "kca", "sca", "sgns", "cbow", "glove", "fasttext", "external"},
		Doc:  "ca or lca: correspondence analysis (the paper's LCA, K = D⁻¹); gini: Gini-index covariance (K = I); kca: kernel CA with kca.kernel; sca: semi-supervised CA (sca.*); sgns, cbow, glove, fasttext: the neural baselines (train.*); external: a command that writes word vectors (external.*)"},
	{Key: "kca.kernel", Kind: String, Default: "tailcut", Enum: []string{"tailcut", "lca", "gini", "sppmi", "glove-log"},
		Doc: "kca: tailcut = CA of N^cut (needs data.table: cut); lca = CA; gini = K = I; sppmi = SGNS row, SVD of max(0, PMI − log kca.shift); glove-log = GloVe row, SVD of log counts minus fitted row and column biases"},
	{Key: "kca.shift", Kind: Float, Default: 1.0, Min: ptr(1), Doc: "sppmi: the shift k of log X − log Y − log k (word2vec's negative samples)"},

	{Key: "sca.set", Kind: String, Default: "men",
		Doc: "sca: the word pairs that build the tuning tables Γ: a word-similarity set name (sim, rel, men, mturk, rare, s999) or a file of lines w1 w2 score (relative to the spec file)"},
	{Key: "sca.mode", Kind: String, Default: "folds", Enum: []string{"in-sample", "folds"},
		Doc: "sca: in-sample tunes and scores on the same pairs (as the paper); folds scores every pair with a model whose tuning never saw it"},
	{Key: "sca.folds", Kind: Int, Default: 5, Min: ptr(2), Max: ptr(100), Doc: "sca: number of folds k"},
	{Key: "sca.form", Kind: String, Default: "blend", Enum: []string{"blend", "sum"},
		Doc: "sca: blend = each paired word's row profile moves a share α toward the profiles of words judged more similar than the average pair and away from those judged less similar, its mass kept; sum = Γ·N·Γᵀ with Γ = I + λ·G (G holds the pairs' scores scaled to [0, 1]); see methods/sca"},
	{Key: "sca.weight", Kind: Float, Default: 0.5, Min: ptr(0), Doc: "sca: α (blend, at most 1) or λ (sum)"},

	{Key: "vectors.alpha", Kind: Float, Default: 1.0, Min: ptr(-4), Max: ptr(4),
		Doc: "word vectors F = D(r)^-1/2 U Σ^α: 1 = principal coordinates (paper), 0 = standard, 0.5 = symmetric"},
	{Key: "vectors.normalize", Kind: Bool, Default: false, Doc: "scale each word vector to unit length"},
	{Key: "vectors.save", Kind: Bool, Default: false,
		Doc: "write the vectors in word2vec text format to <output>/vectors/<trial id>.txt (or the -vectors directory)"},

	{Key: "eval.similarity", Kind: String, Default: "dot", Enum: []string{"dot", "cosine"},
		Doc: "similarity of two word vectors: dot product (paper) or cosine"},
	{Key: "eval.sets", Kind: StringList, Default: []string{"sim", "rel", "men", "mturk", "rare", "s999"},
		Doc: "word-similarity sets scored (names, or files of lines w1 w2 score relative to the spec file)"},

	{Key: "train.dim", Kind: Int, Default: 0, Min: ptr(0), Max: ptr(10000),
		Doc: "baselines: vector dimension (0 = svd.rank when set, else 300)"},
	{Key: "train.window", Kind: Int, Default: 0, Min: ptr(0), Max: ptr(1000),
		Doc: "baselines: maximal window (0 = reference default: 5 for word2vec and fastText, 15 for GloVe)"},
	{Key: "train.epochs", Kind: Int, Default: 0, Min: ptr(0), Max: ptr(1000),
		Doc: "baselines: passes over the data (0 = reference default: 5, GloVe 25)"},
	{Key: "train.negative", Kind: Int, Default: 5, Min: ptr(1), Max: ptr(100), Doc: "sgns, cbow, fasttext: negative samples per positive"},
	{Key: "train.sample", Kind: Float, Default: -1.0, Min: ptr(-1), Max: ptr(1),
		Doc: "sgns, cbow, fasttext: subsampling threshold (-1 = reference default: 1e-3 word2vec, 1e-4 fastText; 0 = none)"},
	{Key: "train.lr", Kind: Float, Default: 0.0, Min: ptr(0), Max: ptr(10),
		Doc: "starting learning rate (0 = reference default: 0.025 SGNS, 0.05 CBOW and fastText, 0.05 GloVe)"},
	{Key: "train.min_n", Kind: Int, Default: 3, Min: ptr(1), Max: ptr(20), Doc: "fasttext: shortest character n-gram"},
	{Key: "train.max_n", Kind: Int, Default: 6, Min: ptr(0), Max: ptr(20), Doc: "fasttext: longest character n-gram (0 = words only)"},
	{Key: "train.buckets", Kind: Int, Default: 2000000, Min: ptr(1), Max: ptr(100000000), Doc: "fasttext: hash buckets for n-grams"},
	{Key: "train.x_max", Kind: Float, Default: 100.0, Min: ptr(1e-9), Doc: "glove: x_max of the weighting f(x) = min(1, (x/x_max)^0.75)"},

	{Key: "external.command", Kind: StringList, Default: []string{},
		Doc: "external: the command and its arguments; {corpus} (the corpus as one plain text file), {out} (the vectors file to write, word2vec text format), {words} (the evaluation sets' words, one per line: for subword models that give vectors to unseen words), {dim}, {window}, {epochs}, {min_count}, {seed}, {threads} (1) and {spec_dir} (the spec file's directory) are replaced; the command runs in a temporary directory"},
	{Key: "external.requires", Kind: StringList, Default: []string{},
		Doc: "external: programs (or python3 modules written py:NAME) that must be installed; when one is missing the trial is skipped with a message"},

	{Key: "svd.backend", Kind: String, Default: "auto", Enum: []string{"auto", "dense", "randomized", "dssvd"},
		Doc: "SVD backend; auto = dense for CSV/Fisher tables, dssvd for word tables"},
	{Key: "svd.rank", Kind: Int, Default: 0, Min: ptr(0),
		Doc: "number of dimensions k (the word-vector dimension d); 0 = min(rows, cols) − 1 capped at 300"},
	{Key: "svd.oversample", Kind: Int, Default: 10, Min: ptr(0), Doc: "randomized SVD oversampling p"},
	{Key: "svd.power_iters", Kind: Int, Default: -1, Min: ptr(-1), Max: ptr(100),
		Doc: "randomized SVD power iterations q; -1 = paper's rule (7 if k < 0.1·min(rows, cols), else 4)"},
	{Key: "svd.normalizer", Kind: String, Default: "lu", Enum: []string{"lu", "qr", "none"},
		Doc: "normalisation between power iterations"},

	{Key: "measure.process", Kind: Bool, Default: false,
		Doc: "run the trial in a child process and record its wall time, CPU time and peak resident memory (the operating system's max RSS)"},
	{Key: "measure.repeat", Kind: Int, Default: 1, Min: ptr(1), Max: ptr(100),
		Doc: "measured trials: repetitions; metrics are medians, with .min and .max"},
	{Key: "budget.seconds", Kind: Float, Default: 0.0, Min: ptr(0),
		Doc: "stop a trial after this wall time (a measured trial: its whole process group) and mark it over budget (0 = no limit)"},
	{Key: "budget.memory_mb", Kind: Float, Default: 0.0, Min: ptr(0),
		Doc: "mark a trial over budget instead of running it when a dense backend needs a matrix larger than this (0 = no limit)"},
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
