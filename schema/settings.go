package schema

// Settings are a trial's resolved settings, one struct per namespace. The
// field tags are the single place where a setting is declared:
//
//	key      the key inside its namespace ("rank" in svd: the spec key svd.rank)
//	default  the default, parsed by the field's type ("" for an empty string or list)
//	enum     allowed values, comma-separated (method and svd.backend take theirs from the registries)
//	min max  inclusive bounds of numbers
//	doc      the help text of docs/settings.md and -settings
//	short    how reports print the setting in a label: "{}" is the value
//	         ("W={}"), "{method}" and "{set}" print a method's or a set's display name;
//	         absent, "key=value"
//	order    the setting's place in derived labels (lower first; absent: after, alphabetically)
//	sweep    "axis title|id[|linear]": a numeric setting reports may draw a sweep
//	         chart against (on a log axis when its values span a decade, unless linear)
//	size     "true": the setting sets the size of a scaling trial (the x axis, not a
//	         series); "axis": and is the x axis when the vocabulary size is unknown
//	series   "true": scaling figures draw one line per value of this setting first
//	intro    reports name the setting's common value in the score tables' introduction
//	labels   display names of enum values, "value=Label,…"
//	omitdefault "true": a record leaves the setting out while it has its default (a
//	         setting added after results were committed: they stay as they are)
//
// The decoder (DecodeSpec) fills them from a spec; code after it reads
// fields (t.SVD.Rank), never keys.
type Settings struct {
	Label string `key:"label" default:"" doc:"the trial's row label in reports (e.g. in a variant: label: tail-cut)"`

	Replicates int `key:"replicates" default:"1" min:"1" max:"100" noid:"true" doc:"run each trial this many times, differing only in their seeds (replicate 0 is the trial itself, its id unchanged); reports show mean ± standard deviation and -check compares means"`
	Replicate  int `key:"replicate" default:"0" min:"0" max:"99" doc:"the replicate's number, set by replicates (0 = the trial itself)"`

	TunedOn []string `key:"tuned_on" default:"" noid:"true" doc:"the sets whose scores chose this trial's design (a variant's settings), as eval.sets names or parts of them (rare@dev: the dev part of rare, see eval.parts) or eval.analogies names, each one the trial scores (another name is refused): its scores on them are in-sample, so reports mark those cells and never rank them; a design tuned on the dev parts is compared on the test parts"`

	Data      DataSettings      `key:"data"`
	Synthetic SyntheticSettings `key:"synthetic"`

	Method string `key:"method" default:"ca" short:"{method}" order:"0" doc:"the method (see the methods table below the settings; each registers itself in one file of harness/builtin)"`

	KCA      KCASettings      `key:"kca"`
	SCA      SCASettings      `key:"sca"`
	Retrofit RetrofitSettings `key:"retrofit"`
	Vectors  VectorsSettings  `key:"vectors"`
	Subword  SubwordSettings  `key:"subword"`
	Eval     EvalSettings     `key:"eval"`
	Train    TrainSettings    `key:"train"`
	External ExternalSettings `key:"external"`
	SVD      SVDSettings      `key:"svd"`
	Measure  MeasureSettings  `key:"measure"`
	Budget   BudgetSettings   `key:"budget"`
	Tune     TuneSettings     `key:"tune"`
}

// TuneSettings choose a design on the dev parts of the sets: the trials of
// a tuning group (equal in every setting but the tuned axes and the
// replicate) are the candidates, and the rule picks one (records.Choose).
// None of them changes a trial's numbers, so none enters its id.
type TuneSettings struct {
	Axes []string `key:"axes" omitdefault:"true" default:"" noid:"true" doc:"the grid axes (setting keys given as lists, e.g. [data.window, vectors.alpha]) whose values are chosen on dev parts: the trials equal in every other setting are one tuning group, the candidates, and the rule picks one of them, recorded with the search; needs eval.parts: true. Each candidate's dev parts of tune.on are in-sample for it (tuned_on is set to them), and the choice is compared on the test parts; empty = no tuning"`
	On   []string `key:"on" omitdefault:"true" default:"" noid:"true" doc:"the word-similarity sets whose dev parts choose the design (names of eval.sets); empty = every set of eval.sets"`
	Rule string   `key:"rule" default:"mean" omitdefault:"true" enum:"mean" noid:"true" doc:"how a candidate is scored: mean = the mean Spearman ρ over the dev parts of tune.on, zero rule, at the method's own similarity, replicates (seeds) averaged first (with tune.halving: replicate 0 alone, the seed every candidate ran); the highest wins, the first in grid order on a tie"`
	// Halving and Eta search a costly group by successive halving
	// (records.PlanHalving); unset, every candidate runs, as before.
	Halving string `key:"halving" omitdefault:"true" default:"" noid:"true" doc:"successive halving over a resource axis (one of tune.axes with numbers, e.g. train.epochs): every configuration of the other tuned axes runs at the axis's smallest value (rung 0), the best 1/tune.eta of a rung by the rule's score (the first in grid order on a tie) run at the next value, and so on to the largest; a configuration not promoted does not run at the larger values. Every design that ran is a candidate of the choice, scored on replicate 0; replicates beyond the first run only for the chosen design (its seeds for the verdict). Empty = every candidate runs"`
	Eta     int    `key:"eta" omitdefault:"true" default:"3" min:"1" max:"100" noid:"true" doc:"successive halving: a rung keeps the best ⌈n/eta⌉ of its n configurations for the next; 1 keeps every one, no saving but a check of the halving: every configuration runs at every value, so the page's rung table compares each rung with the later ones over the whole grid"`
}

// DataSettings say where a trial's table comes from and how a corpus becomes word tables.
type DataSettings struct {
	Source     Source   `key:"source" default:"fisher" enum:"fisher,csv,corpus,synthetic,tables" doc:"where the table comes from: Fisher's eye×hair table (embedded), a CSV file, a text corpus, a synthetic corpus with planted word clusters generated from the trial seed, or a directory of counted tables (data.tables, written by the Beam pipeline in pipelines/)"`
	Tables     string   `key:"tables" default:"" doc:"data.source tables: a directory written by the Beam counting pipeline (pipelines/cmd/kcacount) or corpus.WriteTableDir, relative to the spec file; methods that train on tokens (the baselines) cannot read it"`
	CSV        string   `key:"csv" default:"" doc:"CSV file (first row column labels, first column row labels, non-negative counts); relative to the spec file"`
	SupRows    []string `key:"supplementary_rows" default:"" doc:"rows of a table (fisher or csv) taken out of the analysis and projected onto its axes afterwards as supplementary points, by label (R's ca(…, suprow=))"`
	SupCols    []string `key:"supplementary_cols" default:"" doc:"columns of a table taken out of the analysis and projected as supplementary points, by label (R's ca(…, supcol=))"`
	Corpus     string   `key:"corpus" default:"text8_prefix" doc:"text8, text8_prefix (in the data directory) or a path to a plain, .gz or .zip text file (relative to the spec file)"`
	Fraction   float64  `key:"fraction" default:"1" min:"1e-9" max:"1" short:"f={}" order:"7" sweep:"Corpus fraction (data.fraction)|fraction" size:"axis" doc:"use only this initial fraction of the corpus tokens (vocabulary built on that section)"`
	Lowercase  bool     `key:"lowercase" default:"false" doc:"lowercase tokens"`
	MinCount   int      `key:"min_count" default:"5" min:"1" size:"true" doc:"vocabulary: minimum word count"`
	MaxVocab   int      `key:"max_vocab" default:"0" min:"0" size:"true" doc:"vocabulary: keep at most this many words (0 = no limit)"`
	OOV        string   `key:"oov" default:"unk" enum:"unk,drop" doc:"out-of-vocabulary tokens: one shared <unk> row/column kept in place, or dropped (positions closed up)"`
	Window     int      `key:"window" default:"24" min:"1" max:"1000" short:"W={}" order:"3" sweep:"Window W|window|linear" doc:"window W of the CA word tables: offsets 1..W"`
	Table      string   `key:"table" default:"cut" enum:"flat,skip,cut,glove" short:"{}" order:"2" doc:"word table: N^flat, N^skip (weights (W−k+1)/W), N^cut (tail cut), glove (symmetric, 1/distance)"`
	Symmetric  bool     `key:"symmetric" default:"false" doc:"count both directions (N + Nᵀ)"`
	MemoryMB   int      `key:"memory_mb" default:"2048" min:"1" doc:"counting: a corpus whose offset tables cannot be counted in this many MiB of scratch is counted out of core, in one pass within this budget, its partial tables spilled as sorted shards under the cache directory and merged at the end (the same tables, bit for bit; the finished tables and the token ids are not counted in it)"`
	Subsample  float64  `key:"subsample" omitdefault:"true" default:"0" min:"0" max:"1" short:"sub={}" doc:"subsampling of frequent words before the word table is counted (word2vec's -sample t): each token of a word of corpus frequency f (its count over the tokens) is kept with word2vec's probability (√(f/t) + 1)·t/f, and the dropped tokens are removed, the window closing over them (word2vec's and hyperwords' --sub with their placeholders removed). The draws derive from the spec's seed and the replicate number, not the trial: every trial of a spec counts the same subsampled corpus (a window sweep or two methods differ by themselves, not by their draws, and share its tables), and replicates draw anew. The vocabulary and its counts stay those of the whole corpus; the tables of a subsampled stream are cached under their own key (t and the seed); the record's tokens_kept says how many tokens were counted. 0 = none. Only for tables counted from tokens (not data.source tables)"`
	CutN1Twice bool     `key:"cut_n1_twice" default:"false" doc:"tail cut: add cut(N^1) twice, reproducing a slip of the authors' script (off = the paper's definition)"`
}

// SyntheticSettings shape the synthetic corpus (data.source: synthetic).
type SyntheticSettings struct {
	Model    string  `key:"model" default:"clusters" enum:"clusters,zipf" doc:"synthetic corpus: clusters = planted word clusters (scored by eval.sets: [synthetic]); zipf = a corpus with text8's statistics (a Zipf–Mandelbrot vocabulary with topics and repeats, calibrated on text8_prefix: datasets/zipf), streamed to a temporary file, for scaling runs of any size"`
	Clusters int     `key:"clusters" default:"6" min:"2" max:"1000" size:"true" doc:"synthetic corpus: planted word clusters"`
	Words    int     `key:"words" default:"12" min:"2" max:"10000" size:"true" doc:"synthetic corpus: words per cluster"`
	Tokens   int     `key:"tokens" default:"100000" min:"100" max:"10000000000" size:"true" doc:"synthetic corpus: tokens"`
	Noise    float64 `key:"noise" default:"0.1" min:"0" max:"1" doc:"synthetic corpus: probability that a token is a random word of any cluster"`
}

// KCASettings choose the kernel of method kca.
type KCASettings struct {
	Kernel string  `key:"kernel" default:"tailcut" enum:"tailcut,lca,gini,sppmi,glove-log" labels:"sppmi=SPPMI,glove-log=GloVe-log" short:"{}" order:"1" doc:"kca: tailcut = CA of N^cut (needs data.table: cut); lca = CA; gini = K = I; sppmi = SGNS row, SVD of max(0, PMI − log kca.shift); glove-log = GloVe row, SVD of log counts minus fitted row and column biases"`
	Shift  float64 `key:"shift" default:"1" min:"1" doc:"sppmi: the shift k of log X − log Y − log k (word2vec's negative samples)"`
	CDS    float64 `key:"cds" omitdefault:"true" default:"1" min:"1e-9" max:"1" short:"cds={}" doc:"context distribution smoothing α (Levy, Goldberg & Dagan 2015; hyperwords' --cds): the column masses of the word table raised to α and renormalised, c'_j = c_j^α / Σ_k c_k^α, replace c: in the CA and Gini kernels (methods ca, lca, gini, sca, and kca with tailcut, lca, gini) S = D(r)^-1/2 (P − r c'ᵀ) D(c')^-1/2 and P − r c'ᵀ, and in sppmi's PMI log(p_ij / (r_i c'_j)); 0.75 is theirs, 1 = off (no smoothing: the numbers as before, bit for bit); refused by kca.kernel glove-log and sca.form paper, which have no such column distribution"`
}

// SCASettings configure semi-supervised CA (method sca).
type SCASettings struct {
	Set      string  `key:"set" default:"men" short:"{set}" order:"8" doc:"sca: the word pairs that build the tuning tables Γ: a word-similarity set name (sim, rel, men, mturk, rare, s999), a file of lines w1 w2 score (relative to the spec file), or dev: the dev parts of every set of eval.sets together (each set's scores scaled to [0, 1] by its dev pairs' range; needs eval.parts and sca.mode crossfit), so that no pair of a test part ever tunes anything (docs/supervised.md)"`
	Mode     string  `key:"mode" default:"folds" enum:"in-sample,folds,crossfit" short:"{}" order:"9" doc:"sca: in-sample tunes and scores on the same pairs (as the paper); folds scores every pair with a model whose tuning never saw it; crossfit (with sca.set: dev) splits the dev pairs into sca.folds folds by a seeded hash of each word pair, scores each dev pair with the model tuned on the other folds (its dev score, the one tune: chooses by) and every other pair, the test parts' among them, with the model tuned on every dev pair"`
	Folds    int     `key:"folds" default:"5" min:"2" max:"100" doc:"sca: number of folds k (folds and crossfit)"`
	Form     string  `key:"form" default:"blend" enum:"blend,sum,paper" short:"{}" order:"12" doc:"sca: paper = the Definition of SCA in the paper: the SVD of the Hadamard form built from the tuning-ratio tables Γʳ, Γᶜ, with γ = exp(−sca.strength·(s − sca.pivot)) for a pair of scaled score s and γ = 1 elsewhere (a delayed operator, never V×V); blend = each paired word's row profile moves a share α toward the profiles of words judged more similar than the average pair and away from those judged less similar, its mass kept; sum = Γ·N·Γᵀ with Γ = I + λ·G (G holds the pairs' scores scaled to [0, 1]); see methods/sca"`
	Weight   float64 `key:"weight" default:"0.5" min:"0" doc:"sca: α (blend, at most 1) or λ (sum)"`
	Strength float64 `key:"strength" default:"4" min:"0" max:"50" doc:"sca.form paper: λ of γ = exp(−λ·(s − s₀)); 0 = plain CA"`
	Pivot    float64 `key:"pivot" default:"0.5" min:"0" max:"1" doc:"sca.form paper: s₀, the scaled score at which γ = 1 (pairs above attract, pairs below repel)"`
	Tune     string  `key:"tune" default:"both" enum:"both,rows,cols" doc:"sca.form paper: which tuning-ratio table is tuned: Γʳ (rows), Γᶜ (cols) or both"`
}

// RetrofitSettings retrofit any method's word vectors to the known pairs
// (methods/retrofit; docs/supervised.md). Off by default: every number as
// before.
type RetrofitSettings struct {
	Lexicon    string  `key:"lexicon" omitdefault:"true" default:"none" enum:"none,dev" short:"retrofit={}" order:"14" doc:"retrofitting (Faruqui et al. 2015) of the trial's word vectors, whatever its method, to a graph of known word pairs: none = off (the vectors as the method made them); dev = the pairs of the dev parts of every set of eval.sets (needs eval.parts), each set's scores scaled to [0, 1] by its dev pairs' range. The dev pairs are split into retrofit.folds folds by a seeded hash of each word pair: a dev pair is scored by the vectors retrofitted to the other folds (its dev score, the one tune: chooses by), every other pair, the test parts' among them, by the vectors retrofitted to every dev pair (the ones saved, probed and asked analogies). A retrofitted trial's seed is that of its settings without retrofit.* and without a label: its candidates, and the plain trial of those settings when that has no label (its twin), train the same vectors, which a run trains once and shares (vectors_shared in the others' records), so retrofitting is compared with exactly the vectors it retrofits"`
	Edges      string  `key:"edges" omitdefault:"true" default:"score" enum:"score,one" doc:"retrofit: the weight w of a pair's edge: score = its scaled score s (a pair judged more similar pulls more), one = 1 (the paper's unweighted lexicon); a word's neighbours share β in proportion to w"`
	Threshold  float64 `key:"threshold" omitdefault:"true" default:"0" min:"0" max:"1" doc:"retrofit: only pairs whose scaled score s is at least this are edges (0 = every pair with s > 0)"`
	Alpha      float64 `key:"alpha" omitdefault:"true" default:"1" min:"1e-6" max:"1000" doc:"retrofit: α, the weight of a word's own vector in the update q_i ← (α q̂_i + Σ_j β_ij q_j)/(α + β); 1 = the paper's"`
	Beta       float64 `key:"beta" omitdefault:"true" default:"1" min:"0" max:"1000" doc:"retrofit: β, the weight of a word's neighbours (β_ij = β·w_ij/Σ_k w_ik); 1 = the paper's (β_ij = 1/degree with unweighted edges); 0 = no change"`
	Iterations int     `key:"iterations" omitdefault:"true" default:"10" min:"0" max:"1000" doc:"retrofit: passes of the update over the words with neighbours, each in place in row order (10 = the paper's)"`
	Normalize  bool    `key:"normalize" omitdefault:"true" default:"true" doc:"retrofit: scale every vector to unit length first, as the reference tool does (its users compare by cosine); off, the update mixes the vectors as they are, lengths included (what a dot product reads)"`
	Folds      int     `key:"folds" omitdefault:"true" default:"5" min:"2" max:"100" doc:"retrofit: folds of the dev pairs for their held-out scores"`
}

// VectorsSettings turn a decomposition into word vectors.
type VectorsSettings struct {
	Alpha       float64 `key:"alpha" default:"1" min:"-4" max:"4" doc:"word vectors F = D(r)^β U Σ^α: 1 = principal coordinates (paper), 0 = standard, 0.5 = symmetric (hyperwords' eig)"`
	Beta        float64 `key:"beta" omitdefault:"true" default:"-0.5" min:"-4" max:"4" short:"β={}" doc:"word vectors F = D(r)^β U Σ^α, r the row weights of the kernel's metric (the masses for ca, lca, tailcut and sca; all ones for gini, sppmi and glove-log, where β changes nothing): −0.5 = CA's coordinates (the default, as before, bit for bit), 0 = the rows of U Σ^α unweighted, as hyperwords and most SVD word vectors"`
	AddContexts bool    `key:"add_contexts" omitdefault:"true" default:"false" short:"w+c={}" doc:"add each word's context vector to its word vector, w + c (Levy, Goldberg & Dagan 2015): F + G with G = D(c)^β V Σ^α from the right singular vectors V and the column weights c (the smoothed column masses for ca, ones for the other kernels); word tables only, whose rows and columns are one vocabulary (a table of two kinds of things is refused), not sca.form paper; off = word vectors alone"`
	Normalize   bool    `key:"normalize" default:"false" doc:"scale each word vector to unit length"`
	Save        bool    `key:"save" default:"false" doc:"write the vectors in word2vec text format to <output>/vectors/<spec>-<label>-<trial id>.txt (or the -vectors directory); the <unk> row is never written"`
}

// SubwordSettings give CA word vectors character n-grams (methods/subword):
// each n-gram of the vocabulary's words is a supplementary point of the
// word CA, and a word outside the vocabulary gets the weighted mean of its
// n-grams' points.
type SubwordSettings struct {
	MinN       int     `key:"min_n" default:"3" min:"1" max:"20" doc:"subword: shortest character n-gram (with the < and > word boundaries, as fastText)"`
	MaxN       int     `key:"max_n" default:"0" min:"0" max:"20" short:"n≤{}" order:"13" doc:"subword: longest character n-gram; 0 = no subwords (today's vectors, bit for bit). On, the evaluation sets' words outside the vocabulary get vectors composed from their n-grams' supplementary points (scored and written by -vectors after the vocabulary)"`
	Weight     float64 `key:"weight" default:"0" min:"0" max:"1" doc:"subword: share of an in-vocabulary word's vector taken from its n-grams, (1 − w)·own row + w·composed (0 keeps the own row)"`
	BlendCount int     `key:"blend_count" default:"0" min:"0" doc:"subword: when > 0, an in-vocabulary word seen c times takes weight·K/(K + c) of its vector from its n-grams (K = this count): rare words, whose rows are noisy, lean on their n-grams, frequent ones keep their rows; 0 = every word takes weight"`
	Point      string  `key:"point" default:"mass" enum:"mass,equal" doc:"subword: an n-gram's point is the mean of its words' vectors weighted by mass (the supplementary projection of their summed rows) or equally"`
	Length     string  `key:"length" default:"mean" enum:"mean,words" doc:"subword: a composed vector's length: that of the mean (shorter than its words', as a mean of directions is) or the same weighted mean of its words' lengths (matters under the dot similarity)"`
	Shrink     float64 `key:"shrink" default:"0" min:"0" max:"1" doc:"subword: with length: words, a composed vector's length is L^(1−s)·m^s (L its words' mean length, m the mean's own, m ≤ L): the more its n-gram points disagree, the nearer the origin (CA's centroid) it stays; 0 = L, 1 = m"`
	Weighting  string  `key:"weighting" default:"idf" enum:"uniform,idf,mass" doc:"subword: weight of an n-gram in a word's mean: uniform (fastText's mean), idf = log(1 + V/df) (specific n-grams count more), mass (the summed mass of its words: the word's profile is the sum of its n-grams' profiles)"`
}

// EvalSettings say how word vectors are scored.
type EvalSettings struct {
	Similarity      string   `key:"similarity" default:"dot" enum:"dot,cosine" short:"{}" order:"11" intro:"Similarity" doc:"similarity of two word vectors: dot product (paper) or cosine"`
	Probes          []string `key:"probes" default:"king,france,computer,music,war,water,three,good" doc:"words whose 10 nearest neighbours (by eval.similarity, and by the other similarity) each word trial records for its report; a probe out of the vocabulary is listed without neighbours; when none is in it, the 5 most frequent words are the probes"`
	Sets            []string `key:"sets" default:"sim,rel,men,mturk,rare,s999" doc:"word-similarity sets scored (names, or files of lines w1 w2 score relative to the spec file; a file's scores are keyed by its base name with its extension, e.g. spearman.zero.my-pairs.txt, and two files of one base name are refused)"`
	CaseInsensitive bool     `key:"case_insensitive" default:"false" doc:"word-similarity sets: fold the sets' words and the vocabulary to lower case, a set word standing for the most frequent vocabulary word of its folded form (gensim's evaluate_word_pairs(case_insensitive=True)); off = exact lookups (the paper's authors)"`
	Analogies       []string `key:"analogies" default:"" doc:"analogy sets scored: google (word2vec's questions-words.txt in <data>/analogy) or files of that format (lines a a* b b*, \": section\" headers) relative to the spec file; answered as gensim's evaluate_word_analogies does (case-insensitive, inputs excluded, candidates the eval.analogy_vocab most frequent words) by 3CosAdd and 3CosMul (ε = 0.001); metrics analogy.<set> and analogy_mul.<set> (correct / covered, with bootstrap replicates over the set's questions), coverage.analogy.<set>, the counts questions.analogy.<set>, covered.analogy.<set>, correct.analogy.<set>, correct_mul.analogy.<set>, and per section analogy.<set>/<section>"`
	Parts           bool     `key:"parts" default:"false" doc:"also score each set's dev and test parts (about 30% and 70% of its pairs, split by a hash of each pair's words, the same for every trial): metrics spearman.<rule>.<set>@dev and …@test; tune a design on the dev parts (tuned_on: [rare@dev, …]) and compare it on the test parts"`
	Supervise       []string `key:"supervise" omitdefault:"true" default:"" doc:"the sets whose dev parts the supervised trials learn from (sca.set: dev, retrofit.lexicon: dev) and whose words eval.touched splits the test parts by: names of eval.sets; empty = every set of eval.sets. Another set of eval.sets is only scored (each of its pairs that is no such dev pair by the model that learned from every dev pair): a set the designs never saw, with the pairs it shares with those dev parts removed, tests them on new ground"`
	Touched         bool     `key:"touched" omitdefault:"true" default:"false" doc:"with eval.parts: also score each set's test part split by whether the dev parts of eval.sets (the pairs sca.set: dev and retrofit.lexicon: dev learn from) touch its words: SET@test-touched holds the test pairs with a word in some dev pair, SET@test-untouched those with neither word in any; a reader sees whether pairs help beyond the words they label. Off = no such scores"`
	AnalogyVocab    int      `key:"analogy_vocab" default:"30000" min:"0" doc:"analogies: candidates and question words are restricted to this many most frequent words (word2vec's compute-accuracy: 30,000; gensim's restrict_vocab default: 300,000; 0 = whole vocabulary)"`
}

// TrainSettings configure the neural baselines. Zero means the reference
// implementation's default, resolved by methods/baselines.
type TrainSettings struct {
	Dim      int     `key:"dim" default:"0" min:"0" max:"10000" short:"d={}" order:"6" doc:"baselines: vector dimension (0 = svd.rank when set, else 300)"`
	Window   int     `key:"window" default:"0" min:"0" max:"1000" short:"W={}" order:"4" doc:"baselines: maximal window (0 = reference default: 5 for word2vec and fastText, 15 for GloVe)"`
	Epochs   int     `key:"epochs" default:"0" min:"0" max:"1000" doc:"baselines: passes over the data (0 = reference default: 5, GloVe 25)"`
	Negative int     `key:"negative" default:"5" min:"1" max:"100" doc:"sgns, cbow, fasttext: negative samples per positive"`
	Sample   float64 `key:"sample" default:"-1" min:"-1" max:"1" doc:"sgns, cbow, fasttext: subsampling threshold (-1 = reference default: 1e-3 word2vec, 1e-4 fastText; 0 = none)"`
	LR       float64 `key:"lr" default:"0" min:"0" max:"10" doc:"starting learning rate (0 = reference default: 0.025 SGNS, 0.05 CBOW and fastText, 0.05 GloVe)"`
	MinN     int     `key:"min_n" default:"3" min:"1" max:"20" doc:"fasttext: shortest character n-gram"`
	MaxN     int     `key:"max_n" default:"6" min:"0" max:"20" doc:"fasttext: longest character n-gram (0 = words only)"`
	Buckets  int     `key:"buckets" default:"2000000" min:"1" max:"100000000" doc:"fasttext: hash buckets for n-grams"`
	XMax     float64 `key:"x_max" default:"100" min:"1e-9" doc:"glove: x_max of the weighting f(x) = min(1, (x/x_max)^0.75)"`
}

// ExternalSettings describe the program of method external.
type ExternalSettings struct {
	Command  []string `key:"command" default:"" doc:"external: the command and its arguments; {corpus} (the corpus as one plain text file), {out} (the vectors file to write, word2vec text format), {words} (the evaluation sets' words, one per line: for subword models that give vectors to unseen words), {dim}, {window}, {epochs}, {min_count}, {seed}, {threads} (1) and {spec_dir} (the spec file's directory) are replaced; the command runs in a temporary directory"`
	Requires []string `key:"requires" default:"" doc:"external: programs (or python3 modules written py:NAME) that must be installed; when one is missing the trial is skipped with a message"`
}

// SVDSettings configure the truncated SVD.
type SVDSettings struct {
	Backend     string  `key:"backend" default:"auto" enum:"auto,dense,lapack,randomized,dssvd,krylov" short:"{}" order:"10" series:"true" doc:"SVD backend; auto = krylov for word tables and dense for CSV/Fisher tables, unless a cost model of the table's shape and rank expects another exact backend (krylov, dense, lapack in a -tags lapack build) to be twice as fast and a second faster: krylov for a large CSV table, lapack for a rank near a word table's side; the log names the choice with every estimate (a record decomposed by another backend than the trial resolves to is recomputed, not reused); dense (gonum) and lapack are full dense SVDs, randomized and dssvd Halko sketches (fast, not converged), krylov is a thick-restart block Lanczos that stops when every triplet's residual is ≤ svd.tol·σ_1 (exact)"`
	Rank        int     `key:"rank" default:"0" min:"0" short:"d={}" order:"5" sweep:"Dimension d (svd.rank)|rank" doc:"number of dimensions k (the word-vector dimension d); 0 = min(rows, cols) − 1 capped at 300"`
	SharedRank  int     `key:"shared_rank" omitdefault:"true" default:"0" min:"0" doc:"decompose at this rank once and give each trial its leading svd.rank triplets: the trials of a run that differ only in svd.rank (a sweep over d) share one decomposition. Exact backends only (krylov, dense, lapack), whose leading triplets at a larger rank are those of a smaller one to svd.tol; 0 = each trial decomposes at its own svd.rank"`
	RecordSigma int     `key:"record_sigma" omitdefault:"true" noid:"true" default:"0" min:"0" doc:"how many leading singular values a word trial's record keeps (its svd.s); the record still gives k and σ_k, and the residual and products over all k triplets. 8,000 values take about 150 KB of a record, so a sweep to the paper's d = 8000 keeps the top of each spectrum. Not part of the trial id: the numbers are the same. 0 = all k"`
	Oversample  int     `key:"oversample" series:"option" default:"10" min:"0" doc:"randomized SVD oversampling p"`
	PowerIters  int     `key:"power_iters" series:"option" default:"-1" min:"-1" max:"100" doc:"randomized SVD power iterations q; -1 = paper's rule (7 if k < 0.1·min(rows, cols), else 4)"`
	Tol         float64 `key:"tol" series:"option" default:"1e-8" min:"1e-14" max:"0.5" doc:"krylov: stop when every triplet's residual ‖S v − σ u‖ is at most tol·σ_1. At least 1e-14: double precision resolves a residual to a few 1e-15·σ_1 at best (the largest tables' checks measure up to 1e-14·σ_1), so a smaller tol promises what no decomposition can show; a record whose measured residual ends above its tol says so in a warning"`
	Normalizer  string  `key:"normalizer" series:"option" default:"lu" enum:"lu,qr,none" doc:"normalisation between power iterations"`
	Projected   string  `key:"projected" series:"option" default:"go" enum:"go,lapack" doc:"randomized and dssvd: who solves the projected problem (the l×l Gram eigenproblem and the products forming U and V); go = pure Go; lapack = the system's dsyevd and dgemm (OpenBLAS), as the paper's numPy did, minutes instead of hours at d = 8000, only in a -tags lapack build (else the trial is skipped); equal to go to rounding, not bit for bit"`
}

// MeasureSettings run a trial in a child process to measure it.
type MeasureSettings struct {
	Process bool `key:"process" default:"false" doc:"run the trial in a child process and record its wall time, CPU time and peak resident memory (the operating system's max RSS)"`
	Repeat  int  `key:"repeat" default:"1" min:"1" max:"100" doc:"measured trials: repetitions; metrics are medians, with .min and .max"`
}

// BudgetSettings bound what a trial may spend.
type BudgetSettings struct {
	Seconds  float64 `key:"seconds" limit:"true" default:"0" min:"0" max:"1e9" doc:"stop a trial after this wall time (a measured trial: its whole process group) and mark it over budget (0 = no limit)"`
	MemoryMB float64 `key:"memory_mb" limit:"true" default:"0" min:"0" max:"1e9" doc:"mark a trial over budget instead of running it when the SVD backend's planned buffers (methods/svd Plan: the dense matrix and its factors, the sketch blocks, the Krylov basis, …) exceed this, with the sizes in the record's error (0 = no limit)"`
	TableMB  float64 `key:"table_mb" limit:"true" default:"0" min:"0" max:"1e9" noid:"true" doc:"keep a word table in memory during its SVD only when its arrays and its transpose's take at most this many MiB; a larger one is written with its transpose to a temporary directory (under the cache, else the system's) and decomposed from the files in row blocks of a quarter of this (the same bits, so not part of the trial id; dssvd and krylov never hold it whole, dense and randomized materialise the operator anyway). 0 = always in memory"`
}

// RunSettings describe the whole run rather than a trial (top-level keys
// that cannot be grid axes).
type RunSettings struct {
	Name        string         `key:"name" required:"true" doc:"experiment name (required); names the output directory and the report"`
	Description string         `key:"description" default:"" doc:"free text shown at the top of the report"`
	Question    string         `key:"question" default:"" doc:"the question the run answers, in one line: the index shows it above the run's verdict, the report in its header; \"\" = the description's first sentence"`
	Seed        int            `key:"seed" default:"1" min:"0" doc:"base seed; each trial's seed derives from it and the trial id"`
	Output      string         `key:"output" default:"" doc:"output directory (default \"results/<name>\", under the working directory); a relative path is relative to the spec file, like data paths, and must stay under results/ or the spec file's directory unless -out overrides it; links are resolved before that check"`
	Tolerance   float64        `key:"tolerance" default:"0.01" min:"0" doc:"-check: a score may fall by at most this much below the reference results"`
	Report      ReportSettings `key:"report"`
}

// ReportSettings shape the run's report page (not its trials).
type ReportSettings struct {
	Lead       string   `key:"lead" default:"auto" enum:"auto,supervised,tuning,paper,pairs,check,scores,analogies,sweeps,scaling,measured,spectra,calibration,words,ca,trials" doc:"the section the report opens with; auto = by what the records hold: the check, then what known pairs buy when trials learn from the dev pairs (sca.set: dev, retrofit.lexicon), then the designs chosen on dev parts when the spec tunes (tune.axes), the paper's table, the reference pairs or the check when there are any, else time and memory when every scored trial is measured, else the sweeps when the score table is long, else the scores"`
	PaperRows  []string `key:"paper_rows" default:"" doc:"the trials that stand for the paper's rows (reports/paper.go) in the report's paper table, as ROW=TRIAL entries, TRIAL being a variant label or a trial id (e.g. SCA+MEN=SCA+MEN in-sample); without an entry a row takes the trials labelled with its name; rows are compared at one dimension, so of a row's trials the one at the d most rows have a trial at is used (on ties the largest, nearest the paper's d = 8000), and a row without a trial there takes its largest d in a ranking group of its own"`
	Similarity string   `key:"similarity" default:"declared" enum:"declared,dot,cosine" doc:"the similarity score tables rank word trials at: declared = each method's own (dot product for the CA family, as the paper; cosine for SGNS, CBOW, GloVe, fastText and external tools, as their own tools compare), the other shown beside it; dot or cosine = every method at that one"`
	Check      bool     `key:"check" default:"false" doc:"show a -check section: each score and CA value of the results that were in the output directory before the run (the reference) against this run's, with the tolerance and pass/fail, as -check computes them"`
}
