package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"kcalab/internal/atomicfile"
	"kcalab/internal/termsafe"
	"kcalab/records"
	"kcalab/schema"

	"kcalab/datasets/corpus"
	"kcalab/datasets/wordsim"
	"kcalab/methods/eval"
	"kcalab/methods/vectors"

	"gonum.org/v1/gonum/mat"
)

// NamedSet is a word-similarity set with the name its metrics carry.
type NamedSet struct {
	Key string
	Set *wordsim.Set
}

// Sets are the trial's evaluation sets (eval.sets), loaded with its corpus.
func (tr *TrialRun) Sets() []NamedSet { return tr.sets }

// evalSets loads the trial's word-similarity sets (once per runner).
func (tr *TrialRun) evalSets(wd *WordData) ([]NamedSet, error) {
	var out []NamedSet
	for _, name := range tr.Trial.Eval.Sets {
		if name == "synthetic" {
			if wd.Synthetic == nil {
				return nil, errors.New(`eval.sets: "synthetic" scores the planted clusters of data.source: synthetic only`)
			}
			out = append(out, NamedSet{Key: name, Set: wd.Synthetic})
			continue
		}
		s, err := tr.LoadSet(name)
		if err != nil {
			return nil, fmt.Errorf("eval.sets: %w", err)
		}
		out = append(out, s)
	}
	return out, nil
}

// LoadSet loads a registered set by short name, or a pair file by path.
// The metric key of a built-in set is its name ("men"); of a file, its base
// name with its extension ("my-men.txt"), which no built-in name has, so a
// user's men.txt is never shown as the paper's MEN. The decoder refuses two
// files of one base name in a trial's sets (schema.SetKey).
func (tr *TrialRun) LoadSet(name string) (NamedSet, error) {
	r := tr.runner
	s, err := r.setMemo.get(name, func() (*wordsim.Set, error) {
		if _, err := wordsim.Lookup(name); err == nil {
			dataDir, err := corpus.DataDir(r.DataDir)
			if err != nil {
				return nil, err
			}
			return wordsim.Load(dataDir, name)
		}
		if !schema.IsPath("eval.sets", name) {
			return nil, fmt.Errorf("%q is neither a set name (%s) nor a file path", name, strings.Join(wordsim.Names(), ", "))
		}
		set, err := wordsim.LoadFile(name)
		if err != nil {
			return nil, err
		}
		merged, n := set.MergeRepeats()
		if n > 0 {
			// Once per runner (the memo): a repeat would count twice in ρ.
			fmt.Fprintf(r.log(), "kcalab: warning: %s: %d repeated word pair(s) merged into one with their mean score\n", termsafe.Text(name), n)
		}
		return merged, nil
	})
	if err != nil {
		return NamedSet{}, err
	}
	if in, err := wordsim.Lookup(name); err == nil {
		if dataDir, err := corpus.DataDir(r.DataDir); err == nil {
			tr.noteInput(filepath.Join(dataDir, "wordsim", in.File))
		}
	} else {
		tr.noteInput(name)
	}
	return NamedSet{Key: schema.SetKey(name), Set: s}, nil
}

// Score evaluates word vectors on the trial's sets (and, with eval.parts,
// their dev and test parts) under both OOV rules and both similarities,
// with a bootstrap of each ρ (folding case when eval.case_insensitive), and
// on its analogy sets. The trial's own similarity (eval.similarity) is
// recorded under the plain keys (spearman.zero.men), the other under keys
// that name it (spearman.cosine.zero.men). Evaluation words the vectors
// compose (an OOV hook's n-gram vectors) become rows after the vocabulary,
// so an export holds every word the trial scored; the vectors are saved
// first when asked (vectors.save or -vectors).
//
// A retrofitted trial (retrofit.lexicon) is scored by scoreRetrofitted
// instead: its vectors are retrofitted to the dev pairs, each pair scored
// by vectors retrofitted without it.
func (tr *TrialRun) Score(vs *vectors.Set) error {
	if tr.captured != nil {
		tr.captured.vs = vs
		return nil
	}
	if tr.Trial.Retrofitted() {
		return tr.scoreRetrofitted(vs)
	}
	own, err := vectors.ParseSimilarity(tr.Trial.Eval.Similarity)
	if err != nil {
		return err
	}
	vs, err = tr.withComposed(vs)
	if err != nil {
		return err
	}
	if err := tr.saveVectors(vs); err != nil {
		return err
	}
	touched, err := tr.touchedDev()
	if err != nil {
		return err
	}
	return tr.Stage("eval", func() error {
		if err := tr.recordWordViews(vs, own); err != nil {
			return err
		}
		evs := vs
		if tr.Trial.Eval.CaseInsensitive {
			evs = eval.FoldCase(vs)
		}
		for _, s := range tr.sets {
			set := s.Set
			if tr.Trial.Eval.CaseInsensitive {
				set = eval.FoldSet(set)
			}
			scores := map[vectors.Similarity]PairScores{}
			for _, sim := range similarities {
				model, covered, err := eval.PairScores(evs, set, sim)
				if err != nil {
					return err
				}
				scores[sim] = PairScores{Model: model, Covered: covered}
			}
			// Each part is scored from its pairs' scores of the whole set:
			// the same numbers as scoring the part alone.
			for _, sp := range tr.parts(s, touched) {
				ns, ps := sp.pick(set, scores)
				if err := tr.ScorePairs(ns, ps); err != nil {
					return err
				}
				plain, _ := sp.pick(s.Set, nil)
				if err := tr.scoreVocabOnly(vs, plain, own); err != nil {
					return err
				}
			}
		}
		return tr.scoreAnalogies(vs)
	})
}

// similarities are the similarities every word trial is scored under.
var similarities = []vectors.Similarity{vectors.Dot, vectors.Cosine}

// PairScores are a model's similarity of each pair of a set (Model[i],
// when Covered[i]).
type PairScores struct {
	Model   []float64
	Covered []bool
}

// ScorePairs records a set's scores from a model's pair similarities, one
// PairScores per similarity: ρ and Pearson r under both OOV rules, the
// bootstrap of each ρ over the set's shared resamples, the coverage and
// the number of pairs, and for a model that covers pairs outside its
// corpus vocabulary, its ρ on the vocabulary's pairs (scoreVocabRule). A method that scores pairs itself (SCA's folds, each
// pair by a model that never saw it) records through it as Score does.
func (tr *TrialRun) ScorePairs(s NamedSet, bySim map[vectors.Similarity]PairScores) error {
	own := records.Similarity(tr.Trial.Eval.Similarity)
	resamples := tr.runner.resamples(s.Key, len(s.Set.Pairs))
	if tr.Record.Bootstrap == nil {
		tr.Record.Bootstrap = &records.Bootstrap{B: eval.Resamples, Scores: map[string]string{}}
	}
	for _, sim := range similarities {
		ps, ok := bySim[sim]
		if !ok {
			continue
		}
		at := func(m records.Metric) string { return m.At(records.Similarity(sim), own).Key() }
		for _, rule := range eval.Rules {
			sc, err := eval.Correlate(s.Set, ps.Model, ps.Covered, rule)
			if err != nil && !errors.Is(err, eval.ErrUndefined) {
				return err
			}
			if records.Similarity(sim) == own {
				if err != nil {
					tr.Warn("%s: no ρ under the %s rule: %v", s.Key, rule, err)
				}
				if rule == eval.Rules[0] && sc.Covered < records.MinRankedPairs {
					tr.Warn("%s: only %d of its %d pairs covered, fewer than %d: its ρ is shown but never ranked (records.MinRankedPairs)",
						s.Key, sc.Covered, sc.Pairs, records.MinRankedPairs)
				}
				tr.SetScore(s.Key, rule, sc.Rho, sc.Pairs, sc.Covered)
			}
			if sc.Rho != sc.Rho { // NaN: undefined, left out
				continue
			}
			key := at(records.Score(records.Rule(rule), s.Key))
			tr.SetMetric(key, sc.Rho)
			if sc.Pearson == sc.Pearson {
				tr.SetMetric(at(records.Pearson(records.Rule(rule), s.Key)), sc.Pearson)
			}
			reps := eval.Bootstrap(s.Set, ps.Model, ps.Covered, rule, resamples)
			tr.Record.Bootstrap.Scores[key] = records.EncodeReplicates(reps, sc.Rho)
		}
	}
	return tr.scoreVocabRule(s, bySim, resamples, func(sim vectors.Similarity, m records.Metric) string {
		return m.At(records.Similarity(sim), own).Key()
	})
}

// withComposed returns vs with a row after the vocabulary for every
// evaluation word that vs gives a vector to only through its OOV hook
// (fastText's n-gram vectors), and records the vectors' dimension and how
// many evaluation words have a vector not from the corpus vocabulary
// (records.MetricComposed: composed by the hook, or rows a subword method
// appended).
func (tr *TrialRun) withComposed(vs *vectors.Set) (*vectors.Set, error) {
	tr.SetMetric(records.MetricDim, float64(vs.Dim()))
	var words []string
	seen := map[string]bool{}
	for _, s := range tr.sets {
		for _, w := range s.Set.Words() {
			if !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	var extra []string
	var rows [][]float64
	composed := 0
	for _, w := range words {
		if _, ok := vs.Index(w); ok {
			if tr.words != nil && !tr.inVocabulary(w) {
				composed++
			}
			continue
		}
		if vs.OOV == nil {
			continue
		}
		if v, ok := vs.OOV(w); ok && len(v) == vs.Dim() {
			extra = append(extra, w)
			rows = append(rows, v)
			composed++
		}
	}
	if tr.words != nil {
		tr.SetMetric(records.MetricComposed, float64(composed))
	}
	if len(extra) == 0 {
		return vs, nil
	}
	n, dim := vs.M.Dims()
	m := mat.NewDense(n+len(extra), dim, nil)
	m.Slice(0, n, 0, dim).(*mat.Dense).Copy(vs.M)
	for i, r := range rows {
		m.SetRow(n+i, r)
	}
	out, err := vectors.New(append(append([]string(nil), vs.Words...), extra...), m)
	if err != nil {
		return nil, fmt.Errorf("composed words: %w", err)
	}
	out.OOV = vs.OOV
	return out, nil
}

// inVocabulary reports whether w is a word of the corpus vocabulary (not
// <unk>).
func (tr *TrialRun) inVocabulary(w string) bool {
	id, ok := tr.words.Vocab.ID(w)
	return ok && id != tr.words.Vocab.Unk
}

// SetScore records one set's ρ at the trial's own similarity, its pairs and
// its coverage. An undefined ρ (no covered pair under the skip rule) is
// left out rather than written as NaN.
func (tr *TrialRun) SetScore(key string, rule eval.Rule, rho float64, pairs, covered int) {
	if rho == rho { // not NaN
		tr.SetMetric(records.Score(records.Rule(rule), key).Key(), rho)
	}
	tr.SetMetric(records.Pairs(key).Key(), float64(pairs))
	tr.SetMetric(records.Coverage(key).Key(), float64(covered)/float64(pairs))
}

// saveVectors writes the vectors in word2vec text format when asked, and
// records the file and its SHA-256.
func (tr *TrialRun) saveVectors(vs *vectors.Set) error {
	base, path := tr.runner.vectorsPath(tr.Spec, tr.Trial)
	if path == "" {
		return nil
	}
	// Checked before the run too; again here, since a link may have been
	// put in its place since.
	if err := atomicfile.CheckNoLinkBelow(base, path); err != nil {
		return fmt.Errorf("vectors: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("vectors: %w", err)
	}
	return tr.Stage("save", func() error {
		out, err := withoutUnk(vs)
		if err != nil {
			return err
		}
		if err := vectors.WriteTextFile(path, out, 32); err != nil {
			return fmt.Errorf("vectors: %w", err)
		}
		sum, err := records.FileSHA256(path)
		if err != nil {
			return fmt.Errorf("vectors: %w", err)
		}
		rel := outputRel(tr.Spec.Output, path)
		tr.Record.Files = append(tr.Record.Files, rel)
		if tr.Record.FileHashes == nil {
			tr.Record.FileHashes = map[string]string{}
		}
		tr.Record.FileHashes[rel] = sum
		return nil
	})
}
