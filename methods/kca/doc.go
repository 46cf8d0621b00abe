// Package kca turns a count table into the matrix whose plain SVD (package
// ca, kernel "plain") gives a row of the paper's table of kernels (its
// Table 1): the kernels with K^r = K^c = I and a nonlinear ⊖.
//
// Notation: N is the r×c count table, n = Σ_ij N_ij its total, R_i = Σ_j N_ij
// and C_j = Σ_i N_ij its count margins. Only stored (non-zero) entries are
// transformed; every unstored entry stays zero, so the result is as sparse
// as N (or sparser).
//
// # SGNS: SPPMI
//
// The paper's SGNS row, X ⊖ Y = log X − log Y − log k with X = N/n and
// Y = r·cᵀ, is Levy and Goldberg's shifted positive PMI:
//
//	M_ij = max(0, log(N_ij·n / (R_i·C_j)) − log k)   for N_ij > 0,
//	M_ij = 0                                         for N_ij = 0,
//
// with k ≥ 1 the number of negative samples (the shift). Entries that come
// out ≤ 0 are dropped. SPPMIWith adds context distribution smoothing:
// C_j/n becomes C_j^α/Σ_k C_k^α, hyperwords' --cds.
//
// # GloVe: log counts minus biases
//
// The paper's GloVe row, log X − log Y + b^w + b^c, is here
//
//	M_ij = log N_ij − b_i − b̃_j   for N_ij > 0,   M_ij = 0 otherwise,
//
// where b and b̃ are the least-squares fit of log N_ij ≈ b_i + b̃_j over the
// stored entries (unweighted, unlike GloVe's f(X)). The fit alternates
// exact mean updates, starting from b̃ = 0, for a fixed number of rounds:
//
//	b_i ← mean over stored j of row i of (log N_ij − b̃_j)
//	b̃_j ← mean over stored i of column j of (log N_ij − b_i)
//
// Each round lowers the squared error (block coordinate descent); sums run
// in row order, so the result is deterministic. A residual that is exactly
// zero is dropped (it is zero either way).
package kca
