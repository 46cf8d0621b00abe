// Package retrofit moves word vectors toward their neighbours in a
// lexicon graph: retrofitting (Faruqui, Dodge, Jauhar, Dyer, Hovy & Smith
// 2015, "Retrofitting Word Vectors to Semantic Lexicons", NAACL).
//
// Given vectors q̂_i and an undirected graph of word pairs, retrofitting
// minimises
//
//	Ψ(Q) = Σ_i [ α_i ‖q_i − q̂_i‖² + Σ_{j ∈ N(i)} β_ij ‖q_i − q_j‖² ]
//
// by the paper's iterative update, one word at a time:
//
//	q_i ← ( α_i q̂_i + Σ_j β_ij q_j ) / ( α_i + Σ_j β_ij ).
//
// The paper and its code take α_i = 1 and β_ij = 1/deg(i), so a word ends
// up halfway between its own vector and its neighbours' mean. Here the
// pairs carry weights w_ij > 0 (a judged similarity, or 1) and
//
//	α_i = α,   β_ij = β · w_ij / Σ_{k ∈ N(i)} w_ik
//
// (Options.Alpha, Options.Beta): with α = β = 1 and every w = 1 this is the
// paper's update exactly. A word without neighbours keeps its vector.
//
// One pass updates, in increasing row order, every word with neighbours,
// in place: a word updated later in a pass reads its neighbours' vectors
// of this pass (Gauss–Seidel, as the reference code's in-place loop,
// whose order is that of a Python set; ours is fixed, so the result is
// the same bits every time). Options.Iterations passes are made (10 in the
// paper). For α > 0 the linear system the update solves is strictly
// diagonally dominant (row i: α + β on the diagonal, β off it), so the
// passes converge to its unique solution, (α + β)·q_i = α q̂_i +
// Σ_j β_ij q_j for every word with neighbours.
//
// The reference tool scales every input vector to unit length first,
// q̂ / √(‖q̂‖² + 10⁻⁶), and its users compare by cosine; Options.Normalize
// does the same (every row, paired or not). Without it the update mixes
// the vectors as they are, which keeps the lengths a dot product reads
// (CA's principal coordinates).
//
// The reference for the update is an independent numpy computation of
// the formula (testdata/reference.json, made by testdata/make_reference.py):
// the passes, and the fixed point solved as a linear system.
package retrofit
