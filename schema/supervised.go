package schema

import (
	"errors"
	"fmt"
	"strings"
)

// Supervision by known word pairs (docs/supervised.md): SCA tuned on the
// dev parts of the evaluation sets (sca.set: dev, sca.mode: crossfit) and
// retrofitting of any method's vectors (retrofit.lexicon: dev). Both learn
// from the dev pairs only and score each dev pair with a model that did not
// learn from it, so the dev scores can choose a design and the test parts
// stay held out.
const (
	// SCASetDev is the sca.set value naming the dev parts of eval.sets.
	SCASetDev = "dev"
	// SCAModeCrossfit is the sca.mode that tunes on the dev pairs.
	SCAModeCrossfit = "crossfit"
	// RetrofitNone and RetrofitDev are the retrofit.lexicon values.
	RetrofitNone = "none"
	RetrofitDev  = "dev"
	// KeyRetrofitLexicon switches retrofitting on.
	KeyRetrofitLexicon = "retrofit.lexicon"
)

// Retrofitted says the trial retrofits its vectors.
func (t Trial) Retrofitted() bool {
	return t.Retrofit.Lexicon != "" && t.Retrofit.Lexicon != RetrofitNone
}

// CrossFitted says the trial learns from the dev pairs and scores each with
// a model that did not learn from it (SCA crossfit or retrofitting).
func (t Trial) CrossFitted() bool {
	return t.Retrofitted() || (t.Method == "sca" && t.SCA.Mode == SCAModeCrossfit)
}

// checkSupervised refuses the combinations of sca.set: dev, sca.mode:
// crossfit, retrofit.* and eval.touched that could not keep the test parts
// held out or that nothing would read.
func checkSupervised(t Trial) error {
	if t.Eval.Touched && !t.Eval.Parts {
		return errors.New("eval.touched splits each set's test part by the dev parts' words: set eval.parts: true")
	}
	scored := map[string]bool{}
	for _, n := range t.Eval.Sets {
		scored[SetKey(n)] = true
	}
	for _, n := range t.Eval.Supervise {
		if !scored[SetKey(n)] {
			return fmt.Errorf("eval.supervise: %q is no set of eval.sets (%s): the supervised trials learn from the dev parts of sets they score", n, strings.Join(t.Eval.Sets, ", "))
		}
	}
	if t.Method == "sca" {
		switch {
		case t.SCA.Set == SCASetDev && t.SCA.Mode != SCAModeCrossfit:
			return fmt.Errorf("sca.set: dev tunes on the dev parts of eval.sets, which sca.mode %s would then score in-sample or mix with the test parts' pairs: set sca.mode: crossfit", t.SCA.Mode)
		case t.SCA.Mode == SCAModeCrossfit && t.SCA.Set != SCASetDev:
			return fmt.Errorf("sca.mode crossfit tunes on the dev parts of eval.sets: set sca.set: dev (it is %q; sca.mode folds holds out the pairs of one set)", t.SCA.Set)
		case t.SCA.Mode == SCAModeCrossfit && !t.Eval.Parts:
			return errors.New("sca.set: dev tunes on the sets' dev parts: set eval.parts: true")
		case t.SCA.Mode != "in-sample" && t.SVD.SharedRank > 0:
			return fmt.Errorf("sca.mode %s decomposes one tuned table per fold, which svd.shared_rank would make them share: leave svd.shared_rank at 0", t.SCA.Mode)
		case t.SCA.Mode == SCAModeCrossfit && t.Eval.CaseInsensitive:
			return errors.New("sca.mode crossfit looks its pairs up as the sets give them: eval.case_insensitive is not supported with it")
		case t.SCA.Mode != "in-sample" && t.Retrofitted():
			return fmt.Errorf("sca.mode %s scores each pair with its own fold's model, which retrofit.lexicon would retrofit to the same pairs again: retrofit an untuned method's vectors (or sca.mode in-sample)", t.SCA.Mode)
		}
	}
	if !t.Retrofitted() {
		return nil
	}
	switch {
	case t.Data.Source.Table():
		return fmt.Errorf("retrofit.lexicon retrofits word vectors: data.source %s has none", t.Data.Source)
	case t.Method == "corpusstats":
		return errors.New("retrofit.lexicon retrofits word vectors: method corpusstats makes none")
	case !t.Eval.Parts:
		return errors.New("retrofit.lexicon: dev learns from the sets' dev parts: set eval.parts: true")
	case t.Eval.CaseInsensitive:
		return errors.New("retrofit.lexicon looks its pairs up as the sets give them: eval.case_insensitive is not supported with it")
	}
	return nil
}
