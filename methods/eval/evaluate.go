package eval

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"kcalab/datasets/wordsim"
	"kcalab/methods/vectors"
)

// Rule says what happens to a pair with a word that has no vector.
type Rule string

const (
	Zero Rule = "zero" // the pair scores 0 and stays in (the paper's authors)
	Skip Rule = "skip" // the pair is dropped (gensim)
)

// Rules lists the allowed rules.
var Rules = []Rule{Zero, Skip}

// ParseRule checks a rule name from a spec or flag.
func ParseRule(name string) (Rule, error) {
	for _, r := range Rules {
		if name == string(r) {
			return r, nil
		}
	}
	return "", fmt.Errorf("unknown out-of-vocabulary rule %q: want zero or skip", name)
}

// Score is the result of one set.
type Score struct {
	Set     string  // the set's name
	Rho     float64 // Spearman ρ over the pairs the rule keeps
	Pearson float64 // Pearson r over the same pairs; NaN when undefined
	Pairs   int     // pairs in the set
	Covered int     // pairs whose two words have vectors (vocabulary or OOV hook)
}

// Coverage is the fraction of pairs covered.
func (s Score) Coverage() float64 { return float64(s.Covered) / float64(s.Pairs) }

// Evaluate scores vs on set: ρ between the human scores and the similarity
// sim of the two words' vectors. A word has a vector when it is in the
// vocabulary or the set's OOV hook gives one. A pair missing a vector is
// handled by rule. The error wraps ErrUndefined when ρ has no value (under
// Skip, fewer than two covered pairs; or all similarities equal).
func Evaluate(vs *vectors.Set, set *wordsim.Set, sim vectors.Similarity, rule Rule) (Score, error) {
	if set == nil || len(set.Pairs) == 0 {
		return Score{Rho: math.NaN(), Pearson: math.NaN()}, fmt.Errorf("evaluate: empty word-similarity set")
	}
	if rule != Zero && rule != Skip {
		return Score{Set: set.Name, Pairs: len(set.Pairs), Rho: math.NaN(), Pearson: math.NaN()},
			fmt.Errorf("evaluate on %s: unknown out-of-vocabulary rule %q: want zero or skip", set.Name, string(rule))
	}
	model, covered, err := PairScores(vs, set, sim)
	if err != nil {
		return Score{Set: set.Name, Pairs: len(set.Pairs), Rho: math.NaN(), Pearson: math.NaN()}, err
	}
	return Correlate(set, model, covered, rule)
}

// PairScores is the similarity sim of each pair of set under vs: model[i]
// for pair i, when covered[i] (both words have a vector: a vocabulary row
// or the OOV hook's); 0 otherwise.
func PairScores(vs *vectors.Set, set *wordsim.Set, sim vectors.Similarity) (model []float64, covered []bool, err error) {
	fail := func(err error) ([]float64, []bool, error) {
		return nil, nil, fmt.Errorf("evaluate on %s: %w", set.Name, err)
	}
	if vs == nil || vs.M == nil {
		return fail(errors.New("no word vectors"))
	}
	f, err := sim.Func()
	if err != nil {
		return fail(err)
	}
	dim := vs.Dim()
	vec := func(w string) ([]float64, bool, error) {
		v, ok := vs.Vector(w)
		if ok && len(v) != dim {
			return nil, false, fmt.Errorf("OOV hook gave %d values for %q, want %d", len(v), w, dim)
		}
		return v, ok, nil
	}
	model = make([]float64, len(set.Pairs))
	covered = make([]bool, len(set.Pairs))
	for i, p := range set.Pairs {
		a, okA, err := vec(p.W1)
		if err != nil {
			return fail(err)
		}
		b, okB, err := vec(p.W2)
		if err != nil {
			return fail(err)
		}
		if okA && okB {
			model[i], covered[i] = f(a, b), true
			if math.IsNaN(model[i]) || math.IsInf(model[i], 0) {
				return fail(fmt.Errorf("similarity of %q and %q is %g", p.W1, p.W2, model[i]))
			}
		}
	}
	return model, covered, nil
}

// Correlate is ρ (and Pearson r) between a set's human scores and model
// scores of its pairs under an OOV rule: covered[i] says pair i has a
// model score model[i]; an uncovered pair scores 0 and stays (Zero) or is
// left out (Skip). Evaluate is Correlate of a set of vectors' similarities;
// a caller that scores each pair with another model (SCA's folds) pools
// them here. The error wraps ErrUndefined when ρ has no value.
func Correlate(set *wordsim.Set, model []float64, covered []bool, rule Rule) (Score, error) {
	sc := Score{Rho: math.NaN(), Pearson: math.NaN()}
	if set == nil || len(set.Pairs) == 0 {
		return sc, fmt.Errorf("evaluate: empty word-similarity set")
	}
	sc.Set, sc.Pairs = set.Name, len(set.Pairs)
	if len(model) != len(set.Pairs) || len(covered) != len(set.Pairs) {
		return sc, fmt.Errorf("evaluate on %s: %d model scores and %d covered flags for %d pairs", set.Name, len(model), len(covered), len(set.Pairs))
	}
	if rule != Zero && rule != Skip {
		return sc, fmt.Errorf("evaluate on %s: unknown out-of-vocabulary rule %q: want zero or skip", set.Name, string(rule))
	}
	human := make([]float64, 0, len(set.Pairs))
	kept := make([]float64, 0, len(set.Pairs))
	for i, p := range set.Pairs {
		s := 0.0
		if covered[i] {
			sc.Covered++
			s = model[i]
		} else if rule == Skip {
			continue
		}
		human = append(human, p.Score)
		kept = append(kept, s)
	}
	rho, err := Spearman(human, kept)
	if err != nil {
		return sc, fmt.Errorf("evaluate on %s: %d of %d pairs covered, rule %s: %w", set.Name, sc.Covered, sc.Pairs, rule, err)
	}
	sc.Rho = rho
	// r is undefined (an error) exactly when ρ is, except that tied ranks
	// never make it so; keep NaN rather than fail a defined ρ.
	if r, err := Pearson(human, kept); err == nil {
		sc.Pearson = r
	}
	return sc, nil
}

// EvaluateAll runs Evaluate on each set, in order. Every set gets a Score,
// with Rho = NaN for those that failed; the error joins their errors.
func EvaluateAll(vs *vectors.Set, sets []*wordsim.Set, sim vectors.Similarity, rule Rule) ([]Score, error) {
	out := make([]Score, len(sets))
	var errs []error
	for i, set := range sets {
		var err error
		out[i], err = Evaluate(vs, set, sim, rule)
		if err != nil {
			errs = append(errs, err)
		}
	}
	return out, errors.Join(errs...)
}

// FoldCase returns a view of vs whose words are folded to lower case, for
// gensim's evaluate_word_pairs(case_insensitive=True): a folded word stands
// for the first row of its form, the most frequent when the vocabulary is
// ordered by count (gensim keeps the first key of each upper-cased form).
// The view shares vs's matrix and OOV hook, which is asked the folded word.
func FoldCase(vs *vectors.Set) *vectors.Set {
	if vs == nil {
		return nil
	}
	words := make([]string, len(vs.Words))
	for i, w := range vs.Words {
		words[i] = strings.ToLower(w)
	}
	// A literal, not vectors.New: folded forms may repeat, and lookups
	// then take the first.
	return &vectors.Set{Words: words, M: vs.M, OOV: vs.OOV}
}

// FoldSet returns a copy of set with both words of every pair folded to
// lower case (see FoldCase).
func FoldSet(set *wordsim.Set) *wordsim.Set {
	if set == nil {
		return nil
	}
	out := &wordsim.Set{Name: set.Name, Pairs: slices.Clone(set.Pairs)}
	for i := range out.Pairs {
		out.Pairs[i].W1 = strings.ToLower(out.Pairs[i].W1)
		out.Pairs[i].W2 = strings.ToLower(out.Pairs[i].W2)
	}
	return out
}
