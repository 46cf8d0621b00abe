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
// Blend and sum are this project's inventions, kept for comparison; the
// paper form below is the paper's Definition.
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
// # The paper's form (sca.form: paper)
//
// The Definition of SCA in the paper's "Semi-supervised CA" section scales
// the difference of two one-hot encodings by a tuning ratio γ(x, x′) and
// maximises tr(Rᵗ·D(r)⁻¹·X·D(c)⁻¹)/2n² with
//
//	X = N∘(Γʳ·N·Γᶜ) − (Γʳ·N)∘(N·Γᶜ),   r, c = margins of (Γʳ·N)∘(N·Γᶜ),
//
// ∘ the Hadamard product. As CA's problem, it is solved by the SVD of
// Ŝ = D(r)^-1/2·X·D(c)^-1/2 (PaperOperator), with row coordinates
// D(w)^-1/2·U·Σ, w = r/Σr (DecomposePaper returns them as a
// ca.Decomposition). X is doubly centred for any symmetric Γ, so Ŝ·√c = 0
// and the trivial axis is gone, as in CA.
//
// Γ = 11ᵀ is CA: Γʳ·N·Γᶜ = n·11ᵀ, (Γʳ·N)∘(N·Γᶜ) = R·Cᵀ, so X = n·N − R·Cᵀ,
// r = n·R, c = n·C and Ŝ = D(R)^-1/2·(N − R·Cᵀ/n)·D(C)^-1/2 = S, CA's
// matrix: the singular values are CA's with factor 1 and the coordinates
// are CA's (tested to 1e-10). The paper's objective carries 1/2n², which
// scales the objective (Σσ/2n² at the optimum) but not the axes; Ŝ drops
// it so that σ compares with CA's.
//
// γ = 1 for every pair not judged, and on the diagonal (the diagonal of Γ
// cancels out of X and would only rescale r and c). A judged pair with
// scaled score s (as above: min–max to [0, 1], repeats averaged) gets
//
//	γ = exp(−λ·(s − s₀)),   λ = PaperOptions.Strength ≥ 0,
//	                        s₀ = PaperOptions.Pivot ∈ [0, 1],
//
// so a pair judged more similar than s₀ gets γ < 1 (its encodings move
// closer), a pair judged less similar γ > 1, and γ > 0 always (then Γ·N
// and N·Γ are non-negative and so are the margins). λ = 0 is CA.
// PaperOptions.Rows and Cols choose which of Γʳ (words as rows) and Γᶜ
// (words as contexts) are tuned; the default tunes both, with λ = 4,
// s₀ = 0.5 (γ from e⁻² ≈ 0.14 to e² ≈ 7.4). On the synthetic corpus of
// the tests it raises the in-sample ρ from 0.39 to 0.68 and the 5-fold
// held-out ρ to 0.62.
//
// Scale to expect on a real word table: with only rows tuned, row a's
// SCA profile X[a,:]/r_a moves toward word b's profile by about
// (1 − γ_ab)·R_b/n, a share of at most R_b/n (≈ 10⁻⁴ for a frequent text8
// word) when γ ∈ [0, 1]. Pulls are weak where the vocabulary is large;
// pushes (γ ≫ 1) are not bounded. That is the Definition's own scaling:
// γ reweights pairs of occurrences, and a word pair holds a share
// R_a·R_b/n² of them.
//
// Nothing of size V×V is formed. With Γ = 11ᵀ + Δ (Δ on the tuned words T)
// and a = Δʳ·R, b = Δᶜ·C,
//
//	X = D(n + a)·N + N·D(b) − R·Cᵀ − (N·Δᶜ)·D(C) − D(R)·(Δʳ·N) + H,
//
// H = N∘(Δʳ·N·Δᶜ) − (Δʳ·N)∘(N·Δᶜ) non-zero on Tʳ×Tᶜ only: a product with a
// block is one product with N (as the CA operator), products with N's
// tuned rows and columns, and O(|T|·k) more.
//
// # Honest evaluation
//
// Scoring SCA on the pairs it was tuned on (the paper's in-sample numbers)
// measures memorisation. Folds splits a set's pairs into k seeded folds;
// TrainPairs gives the pairs a fold's model may tune on (never a pair of
// that fold, nor a repeat of one); FoldOf routes a pair of any other set to
// a fold by a seeded hash, so each pair is scored by one model.
package sca
