// Package sca implements the paper's semi-supervised correspondence
// analysis (SCA): human similarity judgements of word pairs tune the table
// before CA, so that judged-similar words share contexts.
//
// # From scores to γ
//
// The tuning pairs (a, b, score) over a vocabulary of v words become the
// v×v tuning matrix
//
//	Γ = I + λ·G,   G_ab = G_ba = s_ab,
//
// with λ ≥ 0 the weight and s the pair's score rescaled to [0, 1] by the
// scores of the pairs given:
//
//	s = (score − min) / (max − min),   s = 1 when all scores are equal.
//
// min and max run over the pairs that are used: a pair with a = b is
// ignored (it tunes nothing). A word pair given more than once, in either
// order, gets the mean of its s values. So the best-judged pair gets
// γ = λ, the worst γ = 0 (no tuning), and G has no diagonal.
//
// # The SCA table
//
// Apply returns Γ·N·Γᵀ for a word×word table N (rows and columns the same
// vocabulary): row a of Γ·N is N[a,:] + λ·Σ_b s_ab·N[b,:], so a word
// inherits the contexts of the words it was judged similar to, weighted by
// the judgement, and likewise for the columns. CA of this table (package
// ca) gives the SCA word vectors. The products are sparse×sparse and
// deterministic.
//
// # Honest evaluation
//
// Scoring SCA on the pairs it was tuned on (the paper's in-sample numbers)
// measures memorisation. Folds splits a set's pairs into k seeded folds;
// TrainPairs gives the pairs a fold's model may tune on (never a pair of
// that fold, nor a repeat of one); FoldOf routes a pair of any other set to
// a fold by a seeded hash, so each pair is scored by one model.
package sca
