package harness

import (
	"fmt"
	"path/filepath"
	"strings"

	"kcalab/schema"

	"kcalab/datasets/corpus"
	"kcalab/datasets/wordsim"
	"kcalab/methods/eval"
	"kcalab/methods/vectors"
	"kcalab/records"
)

// analogyPath resolves an eval.analogies entry to its file.
func (tr *TrialRun) analogyPath(name string) (string, error) {
	if rel, ok := wordsim.AnalogyFile(name); ok {
		dataDir, err := corpus.DataDir(tr.runner.DataDir)
		if err != nil {
			return "", fmt.Errorf("eval.analogies: %s: %w", name, err)
		}
		return filepath.Join(dataDir, rel), nil
	}
	if !schema.IsPath("eval.analogies", name) {
		return "", fmt.Errorf("eval.analogies: %q is neither an analogy set (%s) nor a file path", name, strings.Join(wordsim.AnalogyNames(), ", "))
	}
	return name, nil
}

// checkAnalogies reads the trial's analogy files before the method runs,
// so a missing or malformed one fails the trial before its decomposition,
// not after.
func (tr *TrialRun) checkAnalogies() error {
	for _, name := range tr.Trial.Eval.Analogies {
		path, err := tr.analogyPath(name)
		if err != nil {
			return err
		}
		if _, err := wordsim.LoadAnalogyFile(path, wordsim.Lowercase()); err != nil {
			return fmt.Errorf("eval.analogies: %w", err)
		}
	}
	return nil
}

// scoreAnalogies answers the trial's analogy sets (eval.analogies) as
// gensim's evaluate_word_analogies does, by 3CosAdd and 3CosMul, and
// records accuracy and coverage per set and per section.
func (tr *TrialRun) scoreAnalogies(vs *vectors.Set) error {
	if len(tr.Trial.Eval.Analogies) == 0 {
		return nil
	}
	// <unk> pools every rare token: it is no word, so never an answer, and
	// it would take one of the eval.analogy_vocab places.
	vs, err := withoutUnk(vs)
	if err != nil {
		return fmt.Errorf("eval.analogies: %w", err)
	}
	for _, name := range tr.Trial.Eval.Analogies {
		path, err := tr.analogyPath(name)
		if err != nil {
			return err
		}
		// Questions are few (19,544 in google) and parse in milliseconds:
		// no memo across trials.
		qs, err := wordsim.LoadAnalogyFile(path, wordsim.Lowercase())
		if err != nil {
			return fmt.Errorf("eval.analogies: %w", err)
		}
		tr.noteInput(path)
		total, secs, answers, err := eval.AnswerAnalogies(vs, qs, eval.AnalogyOptions{
			Restrict: tr.Trial.Eval.AnalogyVocab, CaseInsensitive: true})
		if err != nil {
			return fmt.Errorf("eval.analogies: %s: %w", name, err)
		}
		key := schema.SetKey(name)
		if total.Covered == 0 {
			tr.Warn("%s: no analogy question has its four words among the %d most frequent words", key, tr.Trial.Eval.AnalogyVocab)
		}
		for _, s := range append([]eval.AnalogyScore{total}, secs...) {
			if s.Section == "" && s.Questions != total.Questions {
				continue // questions before any section header: in the total only
			}
			tr.setAnalogy(key, s)
		}
		tr.setAnalogyCounts(key, total, answers)
	}
	return nil
}

// setAnalogyCounts records the whole set's counts (questions, covered,
// right by each rule), from which a page prints "right / covered (of
// questions)", and the bootstrap of both accuracies over resamples of the
// set's questions. The resamples depend on the set's key and size alone,
// as a word-similarity set's do, so every trial scored on the set shares
// them and two trials' accuracies compare question by question. Sections
// get no replicates: a few hundred bytes a set, not a few thousand.
func (tr *TrialRun) setAnalogyCounts(set string, total eval.AnalogyScore, answers []eval.AnalogyAnswer) {
	for _, c := range []struct {
		m records.Metric
		n int
	}{
		{records.AnalogyCounts(set, records.CountQuestions, false), total.Questions},
		{records.AnalogyCounts(set, records.CountCovered, false), total.Covered},
		{records.AnalogyCounts(set, records.CountCorrect, false), total.Correct},
		{records.AnalogyCounts(set, records.CountCorrect, true), total.CorrectMul},
	} {
		tr.SetMetric(c.m.Key(), float64(c.n))
	}
	if total.Covered == 0 {
		return // no accuracy, so nothing to resample
	}
	if tr.Record.Bootstrap == nil {
		tr.Record.Bootstrap = &records.Bootstrap{B: eval.Resamples, Scores: map[string]string{}}
	}
	add, mul := eval.BootstrapAnalogies(answers, tr.runner.resamples(set, total.Questions))
	tr.Record.Bootstrap.Scores[records.Analogy(set, false, "").Key()] = records.EncodeReplicates(add, total.Accuracy())
	tr.Record.Bootstrap.Scores[records.Analogy(set, true, "").Key()] = records.EncodeReplicates(mul, total.AccuracyMul())
}

// setAnalogy records one analogy score; an accuracy with nothing covered is
// left out rather than written as NaN.
func (tr *TrialRun) setAnalogy(set string, s eval.AnalogyScore) {
	if s.Covered > 0 {
		tr.SetMetric(records.Analogy(set, false, s.Section).Key(), s.Accuracy())
		tr.SetMetric(records.Analogy(set, true, s.Section).Key(), s.AccuracyMul())
	}
	tr.SetMetric(records.AnalogyCoverage(set, s.Section).Key(), s.Coverage())
}
