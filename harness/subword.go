package harness

import (
	"errors"
	"fmt"

	"kcalab/schema"

	"gonum.org/v1/gonum/mat"

	"kcalab/methods/ca"
	"kcalab/methods/eval"
	"kcalab/methods/subword"
	"kcalab/methods/vectors"
	"kcalab/records"
)

// SubwordVectors returns the trial's word vectors with character n-gram
// supplementary points (subword.*): the rows of dec.U (already scaled to
// word vectors) blended with their n-grams by subword.weight, then the
// evaluation sets' words outside the vocabulary, composed from their
// n-grams. An n-gram's point is the mass-weighted mean of its words'
// vectors, the supplementary projection of their summed rows (see
// methods/subword); the masses are the decomposition's row masses for the
// ca kernel and the vocabulary counts for kernels with no masses.
func (tr *TrialRun) SubwordVectors(wd *WordData, dec *ca.Decomposition) (*vectors.Set, error) {
	t := tr.Trial
	words := wd.Vocab.Words
	mass := make([]float64, len(words))
	for i := range mass {
		switch {
		case int32(i) == wd.Vocab.Unk:
			// <unk> pools every rare word: its letters mean nothing.
		case dec.Kernel == ca.KernelCA:
			mass[i] = dec.RowMass[i]
		default:
			mass[i] = float64(wd.Vocab.Counts[i])
		}
	}
	var extra []string
	for _, s := range tr.sets {
		extra = append(extra, s.Set.Words()...)
	}
	opt := subwordOptions(t)
	var counts []float64
	if opt.BlendCount > 0 {
		counts = make([]float64, len(words))
		for i, c := range wd.Vocab.Counts {
			counts[i] = float64(c)
		}
	}
	var vs *vectors.Set
	err := tr.Stage("subword", func() error {
		w, f, err := subword.Extend(subword.Vocabulary{Words: words, Mass: mass, F: dec.U, Counts: counts}, opt, extra)
		if err != nil {
			return fmt.Errorf("subword: %w", err)
		}
		vs, err = vectors.New(w, f)
		return err
	})
	tr.vocabRows = len(words)
	if opt.Blend > 0 {
		// Blending changes the vocabulary's rows: keep the own rows too,
		// so the record compares them within one decomposition.
		tr.plainVocab = &vectors.Set{Words: words, M: dec.U}
	}
	return vs, err
}

// subwordOptions are the trial's subword.* settings for methods/subword.
func subwordOptions(t schema.Trial) subword.Options {
	sw := t.Subword
	return subword.Options{MinN: sw.MinN, MaxN: sw.MaxN,
		Weighting: subword.Weighting(sw.Weighting), Blend: sw.Weight,
		Point: subword.PointWeighting(sw.Point), Length: sw.Length == "words",
		Shrink: sw.Shrink, BlendCount: float64(sw.BlendCount)}
}

// scoreVocabOnly records a subword trial's records.VocabScore of each set
// (and its records.PlainScore when it blends).
func (tr *TrialRun) scoreVocabOnly(vs *vectors.Set, s NamedSet, sim vectors.Similarity) error {
	if tr.vocabRows == 0 || tr.vocabRows == vs.Len() {
		return nil
	}
	in := &vectors.Set{Words: vs.Words[:tr.vocabRows], M: vs.M.Slice(0, tr.vocabRows, 0, vs.Dim()).(*mat.Dense)}
	sc, err := eval.Evaluate(in, s.Set, sim, eval.Skip)
	if err != nil && !errors.Is(err, eval.ErrUndefined) {
		return err
	}
	if sc.Rho == sc.Rho {
		tr.SetMetric(records.VocabScore(s.Key).Key(), sc.Rho)
	}
	if tr.plainVocab == nil {
		return nil
	}
	sc, err = eval.Evaluate(tr.plainVocab, s.Set, sim, eval.Skip)
	if err != nil && !errors.Is(err, eval.ErrUndefined) {
		return err
	}
	if sc.Rho == sc.Rho {
		tr.SetMetric(records.PlainScore(s.Key).Key(), sc.Rho)
	}
	return nil
}
