package harness

import (
	"fmt"
	"math"
	"strings"

	"kcalab/datasets/wordsim"
	"kcalab/methods/eval"
	"kcalab/methods/sca"
	"kcalab/methods/vectors"
	"kcalab/records"
	"kcalab/schema"
)

// Supervision by the dev pairs (docs/supervised.md). A supervised trial
// (sca.set: dev with sca.mode: crossfit, or retrofit.lexicon: dev) learns
// from the pairs of the dev parts of its evaluation sets and from nothing
// else, so the test parts are held out by construction: a pair's part is a
// function of its two words alone (wordsim.PartOf), the same in every set,
// so no test pair of any set is a dev pair of another. Each dev pair is
// scored by a model that did not learn from it either: the dev pairs are
// split into k folds by a seeded hash of the word pair (the same pair in
// two sets falls in one fold), fold f's pairs are scored by the model that
// learned from the other folds, and every other pair (the test parts'
// among them) by the model that learned from all dev pairs. The dev scores
// are then held out too, and the tune: machinery may choose by them.

// DevPair is a pair of a dev part: its words as the set gives them, its
// score scaled to [0, 1] by the range of its set's dev pairs, and its fold.
type DevPair struct {
	W1, W2 string
	S      float64
	Set    string // the set key it comes from
	Fold   int
}

// DevPairs are the pairs of the dev parts of a trial's evaluation sets
// (those of eval.supervise, else all), in the order of eval.sets and each
// set's file; a word pair in two sets is there twice, with each set's
// scaled score.
type DevPairs struct {
	Pairs []DevPair
	K     int // folds
	seed  uint64
	words map[string]bool    // lower-cased words of the pairs
	pairs map[[2]string]bool // lower-cased unordered word pairs
}

// foldSalt keeps the dev folds' hash apart from other uses of the spec seed.
const foldSalt = 0x6465762d666f6c64 // "dev-fold"

// DevPairs collects the dev pairs of the trial's sets, split into k folds
// (k < 2: one fold, no held-out scores). The folds derive from the spec
// seed alone, so every trial of a spec (every candidate of a search, SCA
// and retrofitting alike) holds out the same pairs together.
func (tr *TrialRun) DevPairs(k int) (*DevPairs, error) {
	if !tr.Trial.Eval.Parts {
		return nil, fmt.Errorf("the dev pairs are the sets' dev parts: set eval.parts: true")
	}
	d := &DevPairs{K: max(k, 1), seed: tr.Spec.Seed, words: map[string]bool{}, pairs: map[[2]string]bool{}}
	learn := map[string]bool{}
	for _, n := range tr.Trial.Eval.Supervise {
		learn[schema.SetKey(n)] = true
	}
	for _, s := range tr.sets {
		if len(learn) > 0 && !learn[s.Key] {
			continue
		}
		var dev []wordsim.Pair
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, p := range s.Set.Pairs {
			if wordsim.PartOf(p.W1, p.W2) == wordsim.PartDev {
				dev = append(dev, p)
				lo, hi = min(lo, p.Score), max(hi, p.Score)
			}
		}
		for _, p := range dev {
			sc := 1.0
			if hi > lo {
				sc = (p.Score - lo) / (hi - lo)
			}
			d.Pairs = append(d.Pairs, DevPair{W1: p.W1, W2: p.W2, S: sc, Set: s.Key, Fold: d.FoldOf(p.W1, p.W2)})
			d.words[strings.ToLower(p.W1)] = true
			d.words[strings.ToLower(p.W2)] = true
			d.pairs[lowerPair(p.W1, p.W2)] = true
		}
	}
	return d, nil
}

// FoldOf is the fold of a word pair, in either order and either case (as
// its part).
func (d *DevPairs) FoldOf(w1, w2 string) int { return DevFold(d.seed, d.K, w1, w2) }

// DevFold is the fold of a word pair among the k dev folds of a spec of
// the given seed.
func DevFold(specSeed uint64, k int, w1, w2 string) int {
	return sca.FoldOf(strings.ToLower(w1), strings.ToLower(w2), k, specSeed^foldSalt)
}

// Train are the pairs fold f's model learns from: every dev pair not in
// fold f; f < 0 gives them all (the final model's).
func (d *DevPairs) Train(f int) []DevPair {
	out := make([]DevPair, 0, len(d.Pairs))
	for _, p := range d.Pairs {
		if f < 0 || p.Fold != f {
			out = append(out, p)
		}
	}
	return out
}

// Holds says a word pair (either order, any case) is a dev pair.
func (d *DevPairs) Holds(w1, w2 string) bool { return d.pairs[lowerPair(w1, w2)] }

func lowerPair(a, b string) [2]string {
	a, b = strings.ToLower(a), strings.ToLower(b)
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// Touches says a word is a word of some dev pair (in any case).
func (d *DevPairs) Touches(w string) bool { return d.words[strings.ToLower(w)] }

// scoredPart is one key a set is scored under, and which of its pairs it
// holds (their indices in the set, in order).
type scoredPart struct {
	key string
	idx []int
}

// parts are the keys set s is scored under: the whole set and, with
// eval.parts, its dev and test parts, and with eval.touched its test
// part's touched and untouched pairs (dev, the dev pairs of every set).
// An empty part is left out.
func (tr *TrialRun) parts(s NamedSet, dev *DevPairs) []scoredPart {
	all := make([]int, len(s.Set.Pairs))
	for i := range all {
		all[i] = i
	}
	out := []scoredPart{{key: s.Key, idx: all}}
	if !tr.Trial.Eval.Parts {
		return out
	}
	by := map[string][]int{}
	for i, p := range s.Set.Pairs {
		part := wordsim.PartOf(p.W1, p.W2)
		by[part] = append(by[part], i)
		if part == wordsim.PartTest && tr.Trial.Eval.Touched && dev != nil {
			sub := records.PartTestUntouched
			if dev.Touches(p.W1) || dev.Touches(p.W2) {
				sub = records.PartTestTouched
			}
			by[sub] = append(by[sub], i)
		}
	}
	for _, part := range []string{records.PartDev, records.PartTest, records.PartTestTouched, records.PartTestUntouched} {
		if len(by[part]) > 0 {
			out = append(out, scoredPart{key: records.SetPart(s.Key, part), idx: by[part]})
		}
	}
	return out
}

// pick is the part's pairs of a set and of its pair scores.
func (sp scoredPart) pick(set *wordsim.Set, scores map[vectors.Similarity]PairScores) (NamedSet, map[vectors.Similarity]PairScores) {
	name := set.Name
	if _, part := records.SplitSetPart(sp.key); part != "" {
		name += records.PartSep + part
	}
	sub := &wordsim.Set{Name: name, Pairs: make([]wordsim.Pair, len(sp.idx))}
	out := make(map[vectors.Similarity]PairScores, len(scores))
	for sim := range scores {
		out[sim] = PairScores{Model: make([]float64, len(sp.idx)), Covered: make([]bool, len(sp.idx))}
	}
	for k, i := range sp.idx {
		sub.Pairs[k] = set.Pairs[i]
		for sim, ps := range scores {
			out[sim].Model[k], out[sim].Covered[k] = ps.Model[i], ps.Covered[i]
		}
	}
	return NamedSet{Key: sp.key, Set: sub}, out
}

// touchedDev are the dev pairs that split the test parts (eval.touched),
// nil when the trial does not split them.
func (tr *TrialRun) touchedDev() (*DevPairs, error) {
	if !tr.Trial.Eval.Touched {
		return nil, nil
	}
	return tr.DevPairs(1)
}

// HeldOut scores a supervised trial's sets pair by pair with models that
// did not learn from the pair: a dev pair (of any scored set: a word pair
// of DevPairs) by its fold's model (Fold), any other pair by the final
// model, which learned from every dev pair (Finish). See the comment at the
// top of this file.
type HeldOut struct {
	tr     *TrialRun
	dev    *DevPairs
	scores []map[vectors.Similarity]PairScores // per set of tr.sets
	folded []bool                              // folds scored
}

// NewHeldOut starts the held-out scores of the trial's sets with the folds
// of dev.
func (tr *TrialRun) NewHeldOut(dev *DevPairs) *HeldOut {
	h := &HeldOut{tr: tr, dev: dev, folded: make([]bool, dev.K)}
	for _, s := range tr.sets {
		m := map[vectors.Similarity]PairScores{}
		for _, sim := range similarities {
			m[sim] = PairScores{Model: make([]float64, len(s.Set.Pairs)), Covered: make([]bool, len(s.Set.Pairs))}
		}
		h.scores = append(h.scores, m)
	}
	return h
}

// Fold scores the dev pairs of fold f with vs, the model that learned
// from the other folds' pairs (DevPairs.Train(f)).
func (h *HeldOut) Fold(f int, vs *vectors.Set) error {
	if f < 0 || f >= h.dev.K {
		return fmt.Errorf("fold %d of %d", f, h.dev.K)
	}
	h.folded[f] = true
	return h.score(vs, func(p wordsim.Pair) bool {
		return h.dev.Holds(p.W1, p.W2) && h.dev.FoldOf(p.W1, p.W2) == f
	})
}

// score scores the pairs of every set that sel picks with vs.
func (h *HeldOut) score(vs *vectors.Set, sel func(wordsim.Pair) bool) error {
	for si, s := range h.tr.sets {
		for _, sim := range similarities {
			model, covered, err := eval.PairScores(vs, s.Set, sim)
			if err != nil {
				return err
			}
			ps := h.scores[si][sim]
			for i, p := range s.Set.Pairs {
				if sel(p) {
					ps.Model[i], ps.Covered[i] = model[i], covered[i]
				}
			}
		}
	}
	return nil
}

// Finish scores every pair that is no dev pair with full, the model that
// learned from every dev pair, and records the sets' scores (each part's
// from its pairs' held-out scores); full is also the trial's vectors: the
// ones saved, probed for neighbours and asked the analogies.
func (h *HeldOut) Finish(full *vectors.Set) error {
	tr := h.tr
	if len(h.dev.Pairs) > 0 {
		for f, ok := range h.folded {
			if !ok && h.dev.K > 1 {
				return fmt.Errorf("held-out scores: fold %d has no model", f+1)
			}
		}
	}
	own, err := vectors.ParseSimilarity(tr.Trial.Eval.Similarity)
	if err != nil {
		return err
	}
	full, err = tr.withComposed(full)
	if err != nil {
		return err
	}
	if err := tr.saveVectors(full); err != nil {
		return err
	}
	return tr.Stage("eval", func() error {
		if err := tr.recordWordViews(full, own); err != nil {
			return err
		}
		if err := h.score(full, func(p wordsim.Pair) bool {
			return h.dev.K < 2 || !h.dev.Holds(p.W1, p.W2)
		}); err != nil {
			return err
		}
		for si, s := range tr.sets {
			for _, sp := range tr.parts(s, h.dev) {
				ns, ps := sp.pick(s.Set, h.scores[si])
				if err := tr.ScorePairs(ns, ps); err != nil {
					return err
				}
			}
		}
		return tr.scoreAnalogies(full)
	})
}
