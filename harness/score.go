package harness

import (
	"errors"
	"fmt"
	"kcalab/internal/termsafe"
	"kcalab/records"
	"kcalab/schema"
	"os"
	"path/filepath"
	"strings"

	"kcalab/datasets/corpus"
	"kcalab/datasets/wordsim"
	"kcalab/methods/eval"
	"kcalab/methods/vectors"
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

// Score evaluates word vectors on the trial's sets under both OOV rules
// (folding case when eval.case_insensitive) and on its analogy sets, and
// saves them first when asked (vectors.save or -vectors).
func (tr *TrialRun) Score(vs *vectors.Set) error {
	if err := tr.saveVectors(vs); err != nil {
		return err
	}
	sim, err := vectors.ParseSimilarity(tr.Trial.Eval.Similarity)
	if err != nil {
		return err
	}
	return tr.Stage("eval", func() error {
		if err := tr.recordWordViews(vs, sim); err != nil {
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
			for _, rule := range eval.Rules {
				sc, err := eval.Evaluate(evs, set, sim, rule)
				if err != nil && !errors.Is(err, eval.ErrUndefined) {
					return err
				}
				if err != nil {
					tr.Warn("%s: no ρ under the %s rule: %v", s.Key, rule, err)
				}
				tr.SetScore(s.Key, rule, sc.Rho, sc.Pairs, sc.Covered)
				if sc.Pearson == sc.Pearson { // not NaN
					tr.SetMetric(records.Pearson(records.Rule(rule), s.Key).Key(), sc.Pearson)
				}
			}
			if err := tr.scoreVocabOnly(vs, s, sim); err != nil {
				return err
			}
		}
		return tr.scoreAnalogies(vs)
	})
}

// SetScore records one set's metrics. An undefined ρ (no covered pair
// under the skip rule) is left out rather than written as NaN.
func (tr *TrialRun) SetScore(key string, rule eval.Rule, rho float64, pairs, covered int) {
	if rho == rho { // not NaN
		tr.SetMetric(records.Score(records.Rule(rule), key).Key(), rho)
	}
	tr.SetMetric(records.Pairs(key).Key(), float64(pairs))
	tr.SetMetric(records.Coverage(key).Key(), float64(covered)/float64(pairs))
}

// saveVectors writes the vectors in word2vec text format when asked.
func (tr *TrialRun) saveVectors(vs *vectors.Set) error {
	dir := tr.runner.VectorsDir
	if dir == "" {
		if !tr.Trial.Vectors.Save {
			return nil
		}
		dir = filepath.Join(tr.Spec.Output, "vectors")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("vectors: %w", err)
	}
	t := tr.Trial
	path := filepath.Join(dir, VectorsFileName(tr.Spec.Name, t.Label, t.Method, t.ID))
	return tr.Stage("save", func() error {
		out, err := withoutUnk(vs)
		if err != nil {
			return err
		}
		if err := vectors.WriteTextFile(path, out, 32); err != nil {
			return fmt.Errorf("vectors: %w", err)
		}
		tr.Record.Files = append(tr.Record.Files, outputRel(tr.Spec.Output, path))
		return nil
	})
}
