package harness

import (
	"errors"
	"strings"

	"kcalab/methods/eval"
	"kcalab/methods/vectors"
	"kcalab/records"
)

// scoreVocabRule records, for a trial that covers pairs of s outside its
// corpus vocabulary (fastText's n-gram vectors, subword rows), each
// similarity's ρ under records.RuleVocab: over the pairs it covers whose
// two words are in the vocabulary, with the bootstrap of that ρ over the
// set's shared resamples, and how many pairs that is (records.VocabPairs).
// A model of the same corpus with no vectors for unseen words covers
// exactly those pairs, so a report compares the two on the pairs both
// cover, resample by resample. A trial that covers nothing outside the
// vocabulary, or has no corpus vocabulary, records nothing: its skip rule
// is already that score.
func (tr *TrialRun) scoreVocabRule(s NamedSet, bySim map[vectors.Similarity]PairScores, resamples [][]int, at func(sim vectors.Similarity, m records.Metric) string) error {
	if tr.words == nil {
		return nil
	}
	in := make([]bool, len(s.Set.Pairs))
	for i, p := range s.Set.Pairs {
		in[i] = tr.inCorpusVocabulary(p.W1) && tr.inCorpusVocabulary(p.W2)
	}
	for _, sim := range similarities {
		ps, ok := bySim[sim]
		if !ok {
			continue
		}
		covered, beyond, n := make([]bool, len(in)), false, 0
		for i, c := range ps.Covered {
			covered[i] = c && in[i]
			beyond = beyond || (c && !in[i])
			if covered[i] {
				n++
			}
		}
		if !beyond {
			continue
		}
		tr.SetMetric(records.VocabPairs(s.Key).Key(), float64(n))
		sc, err := eval.Correlate(s.Set, ps.Model, covered, eval.Skip)
		if err != nil && !errors.Is(err, eval.ErrUndefined) {
			return err
		}
		if sc.Rho != sc.Rho { // NaN: undefined, left out as under the other rules
			continue
		}
		key := at(sim, records.Score(records.RuleVocab, s.Key))
		tr.SetMetric(key, sc.Rho)
		reps := eval.Bootstrap(s.Set, ps.Model, covered, eval.Skip, resamples)
		tr.Record.Bootstrap.Scores[key] = records.EncodeReplicates(reps, sc.Rho)
	}
	return nil
}

// inCorpusVocabulary reports whether an evaluation word is a word of the
// corpus vocabulary; for a case-insensitive trial (whose pairs are folded
// to lower case), whether some vocabulary word folds to it.
func (tr *TrialRun) inCorpusVocabulary(w string) bool {
	if !tr.Trial.Eval.CaseInsensitive {
		return tr.inVocabulary(w)
	}
	if tr.foldedVocab == nil {
		tr.foldedVocab = make(map[string]bool, len(tr.words.Vocab.Words))
		for id, v := range tr.words.Vocab.Words {
			if int32(id) != tr.words.Vocab.Unk {
				tr.foldedVocab[strings.ToLower(v)] = true
			}
		}
	}
	return tr.foldedVocab[w]
}
