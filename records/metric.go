package records

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Every key a record's Metrics holds is a Metric spelled by Metric.Key and
// read back by ParseMetric: the grammar below has this one home.
//
//	spearman.[SIM.]RULE.SET     Spearman ρ of a word-similarity set
//	pearson.[SIM.]RULE.SET      Pearson r of the same
//	vocab_skip.SET              ρ over the set's in-vocabulary pairs (skip rule) of a subword trial
//	plain_skip.SET              the same for the decomposition's own rows, before subword blending
//	coverage.SET                share of the set's pairs with both words in the vocabulary
//	pairs.SET                   pairs in the set
//	pairs_vocab.SET             pairs a trial scored under the vocab rule (both words in the corpus vocabulary)
//	analogy.SET[/SECTION]       3CosAdd accuracy on an analogy set (or one section)
//	analogy_mul.SET[/SECTION]   3CosMul accuracy
//	coverage.analogy.SET[/SECTION]  share of the analogy questions answered
//	questions.analogy.SET       questions in an analogy set
//	covered.analogy.SET         its questions covered (four words among the candidates)
//	correct.analogy.SET         covered questions 3CosAdd answered right
//	correct_mul.analogy.SET     the same for 3CosMul
//	inertia_share.I             axis I's share of the total inertia (I from 1), or .kept
//	NAME[.min|.max]             a named metric (wall_s, …); min and max over repeated measurements
//
// SIM is a Similarity (absent: the trial's eval.similarity), RULE a Rule,
// SET a set key (see CheckSetKey; a part of a set is SET@dev or SET@test)
// and SECTION anything after the first slash of an analogy key. The grammar is unambiguous because a set key
// has no slash and a word-similarity set key never starts with
// "analogy.": coverage.analogy.X is always an analogy set's coverage.

// Named metrics.
const (
	MetricWall             = "wall_s"             // wall time of a measured trial (child process), seconds
	MetricCPU              = "cpu_s"              // its CPU time, seconds
	MetricThreadCPU        = "thread_cpu_s"       // CPU time of the thread a one-core trial (a baseline's training) ran on, seconds: its cost whatever else shared the cores
	MetricRSS              = "max_rss_mb"         // its peak resident memory, MiB
	MetricOthersCPU        = "others_cpu_s"       // CPU time every other process of the machine used during it, seconds (see Quiet)
	MetricLoadAvg          = "load_avg1"          // the machine's one-minute load average at its end
	MetricVocab            = "vocab"              // vocabulary size (rows of the word table)
	MetricNNZ              = "nnz"                // non-zeros of the word table
	MetricTokens           = "tokens"             // corpus tokens read
	MetricTokensKept       = "tokens_kept"        // tokens the word table was counted from after subsampling (data.subsample; absent without it)
	MetricTotalInertia     = "total_inertia"      // total inertia of a CA
	MetricInertiaKept      = "inertia_share.kept" // share of the total inertia on the kept axes
	MetricSVDResidual      = "svd_residual"       // largest triplet residual over σ_1 of the word decomposition
	MetricSVDProducts      = "svd_products"       // operator column-products of the word decomposition
	MetricSVDPlan          = "svd_plan_mb"        // the SVD backend's planned buffers (methods/svd Plan) on this machine's GOMAXPROCS, MiB
	MetricSVDSharedRank    = "svd_shared_rank"    // the rank of the decomposition the trial's leading triplets were taken from (svd.shared_rank)
	MetricSVDShared        = "svd_shared"         // 1 when another trial of the run computed that decomposition (this trial's svd time is its wait)
	MetricSVDSharedSeconds = "svd_shared_s"       // the wall time that shared decomposition took, in the trial that computed it, seconds
	MetricDim              = "dim"                // dimension of a trial's word vectors
	MetricComposed         = "composed_words"     // evaluation words given vectors composed from their parts (n-grams), not vocabulary rows
	MetricDevPairs         = "dev_pairs"          // pairs of the dev parts a supervised trial's final model learned from (sca.set: dev, retrofit.lexicon: dev): both words have vectors, and, retrofitting, the score passes retrofit.threshold
	MetricRetrofitWords    = "retrofit_words"     // words the final retrofitting moved (those with a neighbour)
	MetricVectorsShared    = "vectors_shared"     // 1 when another retrofitted trial of the run trained the vectors this one retrofits (the same settings but retrofit.*, the same seed)
)

const (
	prefixScore        = "spearman."
	prefixPearson      = "pearson."
	prefixVocabSkip    = "vocab_skip."
	prefixPlainSkip    = "plain_skip."
	prefixCoverage     = "coverage."
	prefixAnalogy      = "analogy."
	prefixAnalogyMul   = "analogy_mul."
	prefixAnalogyCover = "coverage.analogy."
	suffixAnalogyCount = ".analogy." // after an AnalogyCount: questions.analogy.SET
	prefixPairs        = "pairs."
	prefixVocabPairs   = "pairs_vocab."
	prefixInertiaShare = "inertia_share."
)

// Rule is an out-of-vocabulary rule of word-similarity scores.
type Rule string

// The rules: zero scores a pair with an unknown word 0 and keeps it (the
// paper); skip drops it (gensim). vocab drops a pair too unless its two
// words are in the corpus vocabulary (count at least data.min_count): the
// pairs a model with no vectors for unseen words covers. It is recorded
// only for a trial that covers more (fastText's n-gram vectors, subword
// rows), so that trial can be compared with such a model on the pairs
// both cover, over the same resamples; tables show zero and skip.
const (
	RuleZero  Rule = "zero"
	RuleSkip  Rule = "skip"
	RuleVocab Rule = "vocab"
)

// Rules lists the rules in the order tables show them.
var Rules = []Rule{RuleZero, RuleSkip}

// Similarity is how two word vectors are compared.
type Similarity string

// The similarities.
const (
	SimDot    Similarity = "dot"
	SimCosine Similarity = "cosine"
)

// Stat qualifies a measured metric over repeats: its range.
type Stat string

// The stats: "" is the value itself (the median of repeats).
const (
	StatMin Stat = "min"
	StatMax Stat = "max"
)

// Kind groups metrics by what they measure.
type Kind int

// The kinds.
const (
	OtherMetric           Kind = iota
	ScoreMetric                // Spearman ρ of a word-similarity set under a rule
	PearsonMetric              // Pearson r of a word-similarity set under a rule
	VocabScoreMetric           // ρ (skip rule) over a subword trial's in-vocabulary pairs
	PlainScoreMetric           // the same of its rows before blending
	AnalogyMetric              // accuracy on an analogy set (or a section of it)
	AnalogyCoverageMetric      // share of an analogy set's questions covered
	AnalogyCountMetric         // a count of an analogy set's questions (AnalogyCount)
	CoverageMetric             // share of a set's pairs covered
	PairsMetric                // pairs in a set
	MeasurementMetric          // the machine's time and memory (and the buffers planned for its cores): differs between identical runs
	CAMetric                   // inertias of a correspondence analysis
	SizeMetric                 // size of the analysed data (vocab, nnz, tokens)
	SolverMetric               // how the SVD converged (residual, products)
	VocabPairsMetric           // pairs of a set a trial scored under RuleVocab
)

// Metric is what a metric key means. Its zero value with Name set is a
// named metric.
type Metric struct {
	Kind Kind
	// Name is a named metric's key without its Stat (MetricWall, …); ""
	// for the families spelled by their fields.
	Name    string
	Set     string       // the word-similarity or analogy set key
	Rule    Rule         // score and Pearson metrics; VocabScore and PlainScore are skip
	Sim     Similarity   // score and Pearson metrics; "" = the trial's eval.similarity
	Section string       // an analogy set's section ("" = all questions)
	Mul     bool         // 3CosMul's accuracy (or count of right answers) rather than 3CosAdd's
	Count   AnalogyCount // an analogy count metric's count
	Axis    int          // an inertia share's axis (from 1); 0 = the kept axes' share
	Stat    Stat         // a measurement's range over repeats ("" = the value)
}

// Score is the metric of a set's Spearman ρ under a rule at the trial's
// own similarity.
func Score(rule Rule, set string) Metric { return Metric{Kind: ScoreMetric, Rule: rule, Set: set} }

// Pearson is the metric of a set's Pearson r under a rule.
func Pearson(rule Rule, set string) Metric { return Metric{Kind: PearsonMetric, Rule: rule, Set: set} }

// Coverage is the metric of the share of a set's pairs with both words in
// the vocabulary.
func Coverage(set string) Metric { return Metric{Kind: CoverageMetric, Set: set} }

// Pairs is the metric of the number of pairs in a set.
func Pairs(set string) Metric { return Metric{Kind: PairsMetric, Set: set} }

// VocabPairs is the metric of the number of a set's pairs a trial scored
// under RuleVocab (both words in the corpus vocabulary and given a vector):
// recorded with those scores, the count another trial's covered pairs must
// equal for the two to be scored on the same pairs.
func VocabPairs(set string) Metric { return Metric{Kind: VocabPairsMetric, Set: set} }

// MinRankedPairs is the fewest covered pairs (both words with a vector) a
// set, or a part of one, must have for a trial's ρ on it to be ranked:
// below it the ρ is recorded with a warning, and reports show it marked,
// never ranked. Spearman's ρ over n pairs takes few values when n is
// small: at n = 2 it is ±1 whatever the vectors, at n = 5 only |ρ| = 1 is
// significant (two-sided 5%), at n = 10 still |ρ| ≥ 0.65; and bootstrap
// resamples of so few pairs are mostly repeats, so their interval says
// little. Ten is the least n at which a ρ and its interval mean something.
const MinRankedPairs = 10

// CoveredPairs is the number of a set's pairs a record scored with both
// words covered (its pairs metric times its coverage); false when the
// record has not both.
func CoveredPairs(rec Record, set string) (int, bool) {
	n, ok1 := rec.Metrics[Pairs(set).Key()]
	c, ok2 := rec.Metrics[Coverage(set).Key()]
	if !ok1 || !ok2 {
		return 0, false
	}
	return int(math.Round(n * c)), true
}

// VocabScore is a subword trial's ρ over a set's in-vocabulary pairs
// (skip rule), scored with its (possibly blended) vocabulary vectors: the
// pairs plain CA covers, so a record shows whether subwords cost them
// anything (with subwords on, the skip rule itself covers unseen words).
func VocabScore(set string) Metric { return Metric{Kind: VocabScoreMetric, Rule: RuleSkip, Set: set} }

// PlainScore is, for a subword trial that blends its vectors
// (subword.weight > 0), VocabScore of the decomposition's own rows,
// unblended: plain CA of the same decomposition.
func PlainScore(set string) Metric { return Metric{Kind: PlainScoreMetric, Rule: RuleSkip, Set: set} }

// Analogy is the metric of an analogy set's accuracy by 3CosAdd, or by
// 3CosMul when mul is set: over all its questions (section "") or one
// section's.
func Analogy(set string, mul bool, section string) Metric {
	return Metric{Kind: AnalogyMetric, Set: set, Mul: mul, Section: section}
}

// AnalogyCoverage is the metric of the share of an analogy set's questions
// (or a section's) whose four words are candidates.
func AnalogyCoverage(set, section string) Metric {
	return Metric{Kind: AnalogyCoverageMetric, Set: set, Section: section}
}

// AnalogyCount names a count of an analogy set's questions.
type AnalogyCount string

// The counts: accuracy is correct / covered, coverage covered / questions.
const (
	CountQuestions AnalogyCount = "questions" // questions in the set
	CountCovered   AnalogyCount = "covered"   // questions whose four words are candidates
	CountCorrect   AnalogyCount = "correct"   // covered questions answered right (by 3CosMul with Mul)
)

// AnalogyCounts is the metric of a count of an analogy set's questions;
// mul matters for CountCorrect alone (3CosMul's right answers).
func AnalogyCounts(set string, c AnalogyCount, mul bool) Metric {
	return Metric{Kind: AnalogyCountMetric, Set: set, Count: c, Mul: mul && c == CountCorrect}
}

// InertiaShare is the metric of axis i's share of the total inertia (i from 1).
func InertiaShare(i int) Metric { return Metric{Kind: CAMetric, Axis: i} }

// Named is a named metric (MetricWall, …).
func Named(name string) Metric { return ParseMetric(name) }

// Range is a measurement's minimum or maximum over repeats.
func (m Metric) Range(s Stat) Metric { m.Stat = s; return m }

// Key spells the metric as a record's Metrics key.
func (m Metric) Key() string {
	sim := ""
	if m.Sim != "" {
		sim = string(m.Sim) + "."
	}
	switch m.Kind {
	case ScoreMetric:
		return prefixScore + sim + string(m.Rule) + "." + m.Set
	case PearsonMetric:
		return prefixPearson + sim + string(m.Rule) + "." + m.Set
	case VocabScoreMetric:
		return prefixVocabSkip + m.Set
	case PlainScoreMetric:
		return prefixPlainSkip + m.Set
	case CoverageMetric:
		return prefixCoverage + m.Set
	case PairsMetric:
		return prefixPairs + m.Set
	case VocabPairsMetric:
		return prefixVocabPairs + m.Set
	case AnalogyMetric:
		if m.Mul {
			return prefixAnalogyMul + m.setSection()
		}
		return prefixAnalogy + m.setSection()
	case AnalogyCoverageMetric:
		return prefixAnalogyCover + m.setSection()
	case AnalogyCountMetric:
		c := string(m.Count)
		if m.Mul {
			c += "_mul"
		}
		return c + suffixAnalogyCount + m.setSection()
	case CAMetric:
		if m.Name != "" {
			return m.Name
		}
		if m.Axis == 0 {
			return MetricInertiaKept
		}
		return prefixInertiaShare + strconv.Itoa(m.Axis)
	}
	if m.Stat != "" {
		return m.Name + "." + string(m.Stat)
	}
	return m.Name
}

// String is the key.
func (m Metric) String() string { return m.Key() }

func (m Metric) setSection() string {
	if m.Section == "" {
		return m.Set
	}
	return m.Set + "/" + m.Section
}

// Base is the metric a min/max metric is the range of.
func (m Metric) Base() Metric { m.Stat = ""; return m }

// Unit is "s", "MiB" or "" (a ratio or a count).
func (m Metric) Unit() string {
	switch m.Name {
	case MetricWall, MetricCPU, MetricThreadCPU, MetricOthersCPU, MetricSVDSharedSeconds:
		return "s"
	case MetricRSS, MetricSVDPlan:
		return "MiB"
	}
	return ""
}

// HigherIsBetter says a larger value is a better result (scores,
// accuracies, coverage).
func (m Metric) HigherIsBetter() bool {
	switch m.Kind {
	case ScoreMetric, PearsonMetric, AnalogyMetric, AnalogyCoverageMetric, CoverageMetric:
		return true
	}
	return false
}

// Checked says -check guards the metric: a score (HigherIsBetter) against
// a fall below the reference by more than the spec's tolerance, a CA
// quantity against any change beyond CATolerance. An analogy section's
// accuracy is not guarded: a few dozen questions would trip the tolerance
// on one answer.
func (m Metric) Checked() bool {
	switch m.Kind {
	case ScoreMetric, PearsonMetric, CAMetric:
		return true
	case AnalogyMetric:
		return m.Section == ""
	}
	return false
}

// Label spells a metric for people: "spearman.zero.men" → "men (zero rule)".
func (m Metric) Label() string {
	sim := ""
	if m.Sim != "" {
		sim = string(m.Sim) + ", "
	}
	switch m.Kind {
	case ScoreMetric:
		return fmt.Sprintf("%s (%s%s rule)", m.Set, sim, m.Rule)
	case PearsonMetric:
		return fmt.Sprintf("%s (Pearson r, %s%s rule)", m.Set, sim, m.Rule)
	case AnalogyMetric:
		how := "3CosAdd"
		if m.Mul {
			how = "3CosMul"
		}
		return fmt.Sprintf("%s analogies (%s)", m.setSection(), how)
	case AnalogyCountMetric:
		what := map[AnalogyCount]string{CountQuestions: "questions", CountCovered: "questions covered", CountCorrect: "right by 3CosAdd"}[m.Count]
		if m.Mul {
			what = "right by 3CosMul"
		}
		return fmt.Sprintf("%s analogies: %s", m.setSection(), what)
	}
	return m.Key()
}

// ParseMetric tells what a metric key means; a key outside the grammar is
// an OtherMetric named by the key.
func ParseMetric(key string) Metric {
	for _, f := range []struct {
		prefix string
		kind   Kind
	}{{prefixScore, ScoreMetric}, {prefixPearson, PearsonMetric}} {
		rest, ok := strings.CutPrefix(key, f.prefix)
		if !ok {
			continue
		}
		m := Metric{Kind: f.kind}
		first, tail, _ := strings.Cut(rest, ".")
		if s := Similarity(first); s == SimDot || s == SimCosine {
			m.Sim = s
			first, tail, _ = strings.Cut(tail, ".")
		}
		if r := Rule(first); (r == RuleZero || r == RuleSkip || r == RuleVocab) && tail != "" {
			m.Rule, m.Set = r, tail
			return m
		}
		return Metric{Name: key}
	}
	for _, f := range []struct {
		prefix string
		kind   Kind
	}{{prefixVocabSkip, VocabScoreMetric}, {prefixPlainSkip, PlainScoreMetric}} {
		if set, ok := strings.CutPrefix(key, f.prefix); ok && set != "" {
			return Metric{Kind: f.kind, Rule: RuleSkip, Set: set}
		}
	}
	// The analogy coverage prefix comes before coverage's.
	for _, f := range []struct {
		prefix string
		kind   Kind
		mul    bool
	}{{prefixAnalogyCover, AnalogyCoverageMetric, false}, {prefixAnalogy, AnalogyMetric, false}, {prefixAnalogyMul, AnalogyMetric, true}} {
		rest, ok := strings.CutPrefix(key, f.prefix)
		if !ok || rest == "" {
			continue
		}
		set, section, slash := strings.Cut(rest, "/")
		if set == "" || (slash && section == "") {
			return Metric{Name: key}
		}
		return Metric{Kind: f.kind, Set: set, Section: section, Mul: f.mul}
	}
	if m, ok := parseAnalogyCount(key); ok {
		return m
	}
	if set, ok := strings.CutPrefix(key, prefixCoverage); ok && set != "" {
		return Metric{Kind: CoverageMetric, Set: set}
	}
	if set, ok := strings.CutPrefix(key, prefixPairs); ok && set != "" {
		return Metric{Kind: PairsMetric, Set: set}
	}
	if set, ok := strings.CutPrefix(key, prefixVocabPairs); ok && set != "" {
		return Metric{Kind: VocabPairsMetric, Set: set}
	}
	switch key {
	case MetricInertiaKept:
		return Metric{Kind: CAMetric}
	case MetricTotalInertia:
		return Metric{Kind: CAMetric, Name: key}
	case MetricVocab, MetricNNZ, MetricTokens, MetricTokensKept, MetricDim, MetricComposed:
		return Metric{Kind: SizeMetric, Name: key}
	case MetricSVDResidual, MetricSVDProducts, MetricSVDSharedRank, MetricSVDShared:
		return Metric{Kind: SolverMetric, Name: key}
	}
	if axis, ok := strings.CutPrefix(key, prefixInertiaShare); ok {
		if i, err := strconv.Atoi(axis); err == nil && i > 0 && strconv.Itoa(i) == axis {
			return Metric{Kind: CAMetric, Axis: i}
		}
	}
	base, stat := key, Stat("")
	for _, s := range []Stat{StatMin, StatMax} {
		if b, ok := strings.CutSuffix(key, "."+string(s)); ok {
			base, stat = b, s
		}
	}
	switch base {
	case MetricWall, MetricCPU, MetricThreadCPU, MetricRSS, MetricSVDPlan, MetricOthersCPU, MetricLoadAvg, MetricSVDSharedSeconds:
		// The plan holds scratch per goroutine: like the peak memory it
		// is compared with, it depends on the machine, not on the spec.
		return Metric{Kind: MeasurementMetric, Name: base, Stat: stat}
	}
	return Metric{Name: key}
}

// parseAnalogyCount reads COUNT[_mul].analogy.SET[/SECTION].
func parseAnalogyCount(key string) (Metric, bool) {
	for _, c := range []AnalogyCount{CountQuestions, CountCovered, CountCorrect} {
		for _, mul := range []bool{false, true} {
			if mul && c != CountCorrect {
				continue
			}
			m := AnalogyCounts("", c, mul)
			prefix := m.Key() // COUNT[_mul].analogy. with no set
			rest, ok := strings.CutPrefix(key, prefix)
			if !ok || rest == "" {
				continue
			}
			set, section, slash := strings.Cut(rest, "/")
			if set == "" || (slash && section == "") {
				return Metric{}, false
			}
			m.Set, m.Section = set, section
			return m, true
		}
	}
	return Metric{}, false
}

// MetricLabel is ParseMetric(key).Label().
func MetricLabel(key string) string { return ParseMetric(key).Label() }

// CheckSetKey refuses a word-similarity set key the grammar could not read
// back: empty, with a slash (it would start a section), or starting with
// "analogy." (coverage.analogy.X is an analogy set's coverage).
func CheckSetKey(key string) error {
	switch {
	case key == "":
		return errors.New("a set needs a name")
	case strings.Contains(key, "/"):
		return fmt.Errorf("a set's key may not contain a slash: %q", key)
	case strings.HasPrefix(key, prefixAnalogy):
		return fmt.Errorf("a word-similarity set's name may not start with \"analogy.\" (its coverage key would read as an analogy set's): %q", key)
	case strings.Contains(key, PartSep):
		return fmt.Errorf("a set's name may not contain %q (it names a part of a set): %q", PartSep, key)
	}
	return nil
}

// PartSep joins a set key and the name of one of its parts: "rare@test".
const PartSep = "@"

// The parts of a set: a fixed split of its pairs (datasets/wordsim), the
// same for every trial, so a design can be tuned on the dev part and
// compared on the test part it never saw.
const (
	PartDev  = "dev"
	PartTest = "test"
	// PartTestTouched and PartTestUntouched split a test part by whether
	// the dev parts' pairs (of every set a trial scores) hold one of a
	// pair's words (eval.touched): where known pairs can teach a model
	// something about the pair's own words, and where they cannot.
	PartTestTouched   = "test-touched"
	PartTestUntouched = "test-untouched"
)

// HeldOutPart says a part of a set is never tuned on: the test part and
// its touched and untouched halves.
func HeldOutPart(part string) bool {
	return part == PartTest || part == PartTestTouched || part == PartTestUntouched
}

// SetPart is the key of a part of a set ("rare@test").
func SetPart(set, part string) string { return set + PartSep + part }

// SplitSetPart splits a set key into the set and its part ("" for a whole
// set).
func SplitSetPart(key string) (set, part string) {
	set, part, _ = strings.Cut(key, PartSep)
	return set, part
}

// Similarity resolves the similarity of a score metric: its own when the
// key names one, else the trial's (eval.similarity, own).
func (m Metric) Similarity(own Similarity) Similarity {
	if m.Sim != "" {
		return m.Sim
	}
	return own
}

// At is the key a trial records the metric under at similarity sim, when
// its own similarity (eval.similarity) is own: the plain key at its own,
// the key naming sim otherwise.
func (m Metric) At(sim, own Similarity) Metric {
	if sim == own {
		m.Sim = ""
	} else {
		m.Sim = sim
	}
	return m
}
