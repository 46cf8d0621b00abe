package harness

import (
	"fmt"
	"strconv"
	"strings"

	"kcalab/methods/eval"
)

// Metric keys. Every key a record's Metrics holds is built here and read
// back with ParseMetric, which carries the metadata reports and -check use.
const (
	MetricWall         = "wall_s"             // wall time of a measured trial (child process), seconds
	MetricCPU          = "cpu_s"              // its CPU time, seconds
	MetricRSS          = "max_rss_mb"         // its peak resident memory, MiB
	MetricVocab        = "vocab"              // vocabulary size (rows of the word table)
	MetricNNZ          = "nnz"                // non-zeros of the word table
	MetricTokens       = "tokens"             // corpus tokens read
	MetricTotalInertia = "total_inertia"      // total inertia of a CA
	MetricInertiaKept  = "inertia_share.kept" // share of the total inertia on the kept axes
	MetricSVDResidual  = "svd_residual"       // largest triplet residual over σ_1 of the word decomposition
	MetricSVDProducts  = "svd_products"       // operator column-products of the word decomposition

	prefixScore        = "spearman."
	prefixPearson      = "pearson."
	prefixCoverage     = "coverage."
	prefixAnalogy      = "analogy."
	prefixAnalogyMul   = "analogy_mul."
	prefixAnalogyCover = "coverage.analogy."
	prefixPairs        = "pairs."
	prefixInertiaShare = "inertia_share."
)

// ScoreKey is the metric of a set's Spearman ρ under an OOV rule
// ("spearman.zero.men").
func ScoreKey(rule eval.Rule, set string) string { return prefixScore + string(rule) + "." + set }

// PearsonKey is the metric of a set's Pearson r under an OOV rule
// ("pearson.zero.men").
func PearsonKey(rule eval.Rule, set string) string { return prefixPearson + string(rule) + "." + set }

// AnalogyKey is the metric of an analogy set's accuracy by 3CosAdd, or by
// 3CosMul when mul is set: over all its questions ("analogy.google") or
// one section's ("analogy.google/family"). A set key is a base name, so it
// has no slash: the first one starts the section.
func AnalogyKey(set string, mul bool, section string) string {
	p := prefixAnalogy
	if mul {
		p = prefixAnalogyMul
	}
	return p + sectionSuffix(set, section)
}

// AnalogyCoverageKey is the metric of the share of an analogy set's
// questions (or a section's) whose four words are candidates.
func AnalogyCoverageKey(set, section string) string {
	return prefixAnalogyCover + sectionSuffix(set, section)
}

func sectionSuffix(set, section string) string {
	if section == "" {
		return set
	}
	return set + "/" + section
}

// CoverageKey is the metric of the share of a set's pairs with both words
// in the vocabulary.
func CoverageKey(set string) string { return prefixCoverage + set }

// PairsKey is the metric of the number of pairs in a set.
func PairsKey(set string) string { return prefixPairs + set }

// InertiaShareKey is the metric of axis i's share of the total inertia (i from 1).
func InertiaShareKey(i int) string { return prefixInertiaShare + strconv.Itoa(i) }

// MetricKind groups metrics by what they measure.
type MetricKind int

const (
	OtherMetric           MetricKind = iota
	ScoreMetric                      // Spearman ρ of a word-similarity set under a rule
	PearsonMetric                    // Pearson r of a word-similarity set under a rule
	AnalogyMetric                    // accuracy on an analogy set (or a section of it)
	AnalogyCoverageMetric            // share of an analogy set's questions covered
	CoverageMetric                   // share of a set's pairs covered
	PairsMetric                      // pairs in a set
	MeasurementMetric                // the machine's time and memory: differs between identical runs
	CAMetric                         // inertias of a correspondence analysis
	SizeMetric                       // size of the analysed data (vocab, nnz, tokens)
	SolverMetric                     // how the SVD converged (residual, products)
)

// MetricInfo is what a metric key means.
type MetricInfo struct {
	Key  string
	Kind MetricKind
	Set  string // the word-similarity or analogy set (score, coverage, pairs, analogy)
	// Section is the analogy set's section ("" = all questions); Mul says
	// the accuracy is 3CosMul's rather than 3CosAdd's.
	Section string
	Mul     bool
	Rule    eval.Rule // the OOV rule (score)
	Axis    int       // the axis of an inertia share (0 = none or "kept")
	// Stat is "min" or "max" for the range over repeated measurements, ""
	// for the value itself (the median of repeats).
	Stat           string
	Unit           string // "s", "MiB", "" (a ratio or count)
	HigherIsBetter bool
	// Checked says -check guards the metric: a score (HigherIsBetter)
	// against a fall below the reference by more than the spec's
	// tolerance, a CA quantity against any change beyond CATolerance.
	Checked bool
}

// Base is the key of the value a min/max metric is the range of.
func (m MetricInfo) Base() string {
	if m.Stat == "" {
		return m.Key
	}
	return strings.TrimSuffix(m.Key, "."+m.Stat)
}

// ParseMetric tells what a metric key means; unknown keys are OtherMetric.
func ParseMetric(key string) MetricInfo {
	m := MetricInfo{Key: key}
	if rest, ok := strings.CutPrefix(key, prefixScore); ok {
		rule, set, ok := strings.Cut(rest, ".")
		if ok && set != "" {
			if r, err := eval.ParseRule(rule); err == nil {
				m.Kind, m.Rule, m.Set, m.HigherIsBetter, m.Checked = ScoreMetric, r, set, true, true
				return m
			}
		}
		return m
	}
	if rest, ok := strings.CutPrefix(key, prefixPearson); ok {
		rule, set, ok := strings.Cut(rest, ".")
		if ok && set != "" {
			if r, err := eval.ParseRule(rule); err == nil {
				m.Kind, m.Rule, m.Set, m.HigherIsBetter, m.Checked = PearsonMetric, r, set, true, true
			}
		}
		return m
	}
	for _, p := range []string{prefixAnalogy, prefixAnalogyMul, prefixAnalogyCover} {
		rest, ok := strings.CutPrefix(key, p)
		if !ok || rest == "" {
			continue
		}
		set, section, _ := strings.Cut(rest, "/")
		// A word-similarity file "analogy.x.txt" is refused by the decoder
		// (checkSetKeys); an analogy set is google or has an extension.
		if p == prefixAnalogyCover && !isAnalogySetKey(set) {
			break
		}
		m.Kind, m.Set, m.Section, m.Mul, m.HigherIsBetter = AnalogyMetric, set, section, p == prefixAnalogyMul, true
		if p == prefixAnalogyCover {
			m.Kind, m.Mul = AnalogyCoverageMetric, false
		}
		// The total accuracy is guarded; a section's, a few dozen
		// questions, would trip the tolerance on one answer.
		m.Checked = m.Kind == AnalogyMetric && section == ""
		return m
	}
	if set, ok := strings.CutPrefix(key, prefixCoverage); ok && set != "" {
		m.Kind, m.Set, m.HigherIsBetter = CoverageMetric, set, true
		return m
	}
	if set, ok := strings.CutPrefix(key, prefixPairs); ok && set != "" {
		m.Kind, m.Set = PairsMetric, set
		return m
	}
	base, stat := key, ""
	for _, s := range []string{"min", "max"} {
		if b, ok := strings.CutSuffix(key, "."+s); ok {
			base, stat = b, s
		}
	}
	switch base {
	case MetricWall, MetricCPU:
		m.Kind, m.Stat, m.Unit = MeasurementMetric, stat, "s"
		return m
	case MetricRSS:
		m.Kind, m.Stat, m.Unit = MeasurementMetric, stat, "MiB"
		return m
	}
	switch key {
	case MetricVocab, MetricNNZ, MetricTokens:
		m.Kind = SizeMetric
		return m
	case MetricSVDResidual, MetricSVDProducts:
		m.Kind = SolverMetric
		return m
	case MetricTotalInertia, MetricInertiaKept:
		m.Kind, m.Checked = CAMetric, true
		return m
	}
	if axis, ok := strings.CutPrefix(key, prefixInertiaShare); ok {
		if i, err := strconv.Atoi(axis); err == nil && i > 0 {
			m.Kind, m.Axis, m.Checked = CAMetric, i, true
		}
	}
	return m
}

// MetricLabel spells a metric for people: "spearman.zero.men" → "men (zero rule)".
func MetricLabel(key string) string {
	m := ParseMetric(key)
	switch m.Kind {
	case ScoreMetric:
		return fmt.Sprintf("%s (%s rule)", m.Set, m.Rule)
	case PearsonMetric:
		return fmt.Sprintf("%s (Pearson r, %s rule)", m.Set, m.Rule)
	case AnalogyMetric:
		how := "3CosAdd"
		if m.Mul {
			how = "3CosMul"
		}
		return fmt.Sprintf("%s analogies (%s)", sectionSuffix(m.Set, m.Section), how)
	}
	return key
}

// MeasuredInChild reports whether a recorded trial ran (or was to run) in a
// measured child process (measure.process).
func MeasuredInChild(rec Record) bool {
	b, _ := rec.Settings["measure.process"].(bool)
	return b
}
