// Package sca implements the paper's semi-supervised correspondence
// analysis (SCA): human similarity judgements of word pairs tune the table
// before CA, so that judged-similar words share contexts and judged-
// dissimilar words share fewer.
//
// # From scores to γ
//
// Each tuning pair (a, b, score) gets s, its score rescaled to [0, 1] by
// the scores of the pairs given:
//
//	s = (score − min) / (max − min),   s = 1 when all scores are equal.
//
// min and max run over the pairs that are used: a pair with a = b is
// ignored (it tunes nothing). A word pair given more than once, in either
// order, gets the mean of its s values. The blend form (below) uses
// w = s − s̄; the sum form the tuning matrix Γ = I + λ·G, G_ab = G_ba = s_ab
// (the best-judged pair gets γ = λ, the worst γ = 0; G has no diagonal).
//
// # The SCA table
//
// Blend (the default, sca.form: blend) centres the s values on their
// mean, w_ab = s_ab − s̄, so a pair judged more similar than the average
// pair attracts and a pair judged less similar repels, and moves each
// paired word's row profile p_a = N[a,:]/r_a by
//
//	p'_a = p_a + α · Σ_b w_ab (p_b − p_a) / Σ_b |w_ab|,   0 ≤ α ≤ 1,
//
// then sets negative entries to 0 and scales the row back to its mass r_a.
// Masses are kept, so a rare word is not swamped by a frequent partner's
// counts, and words without pairs keep their rows. This is the paper's
// idea of tuning the distance between two words' one-hot encodings
// (γ < 1 brings them closer, γ > 1 pushes them apart) applied to the
// rows' profiles, the objects whose distances CA preserves.
//
// Apply (sca.form: sum) is the unsigned form Γ·N·Γᵀ with Γ = I + λ·G:
// row a of Γ·N is N[a,:] + λ·Σ_b s_ab·N[b,:]. Every pair pulls, raw counts
// add up, and on text8_prefix it lowers the in-sample ρ it should raise
// (MEN 0.382 → 0.347, M.Turk 0.487 → 0.355 at d = 300), because all the
// words of a set drift toward the same frequent profiles. It is kept for
// comparison. CA of the tuned table (package ca) gives the SCA vectors;
// the products are sparse and deterministic.
//
// # Honest evaluation
//
// Scoring SCA on the pairs it was tuned on (the paper's in-sample numbers)
// measures memorisation. Folds splits a set's pairs into k seeded folds;
// TrainPairs gives the pairs a fold's model may tune on (never a pair of
// that fold, nor a repeat of one); FoldOf routes a pair of any other set to
// a fold by a seeded hash, so each pair is scored by one model.
package sca
