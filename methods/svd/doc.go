// Package svd computes truncated singular value decompositions of linear
// operators, with the three backends the paper compares: an exact dense SVD,
// randomized SVD on the dense matrix, and the delayed sparse randomized SVD
// (DSSVD) that only multiplies.
//
// # Operators
//
// An Operator is a matrix A known through the products A·X and Aᵀ·X with
// dense blocks X. A Materializer can also build A densely; DenseOperator
// wraps a *mat.Dense. Correspondence analysis supplies sparse-minus-rank-one
// operators (package ca).
//
// # Backends
//
// Dense materialises A and runs LAPACK's thin SVD on it in place: memory
// r·c·8 bytes for A plus U (r×p) and Vᵀ (p×c), p = min(r, c), and LAPACK's
// workspace; time O(r·c·p). Randomized materialises A and runs Halko et
// al.'s randomized SVD on it. DSSVD runs exactly the same routine through
// the operator's products, so beyond what the operator itself holds its
// memory is two blocks of r×l or c×l numbers (l = Rank + Oversample), a
// few l×l ones and small scratch: the results are formed in place of the
// working blocks.
// Get returns a backend by name.
//
// Dense and Randomized check r·c·8 (the matrix itself, not LAPACK's
// factors) against Options.MaxDenseBytes before allocating and fail with an
// error wrapping ErrOverBudget.
//
// # Randomized algorithm
//
// The sketch has l = Rank + Oversample columns, clamped to min(r, c) (a
// larger sketch cannot be wider than the matrix; at min(r, c) it spans the
// whole range and the result is exact). The Gaussian test matrix comes from
// a PCG generator seeded with Options.Seed. Between the PowerIters power
// iterations the blocks are normalised by "lu" (the permuted L of a
// partial-pivoting LU, as scikit-learn does), "qr" (thin QR) or "none".
// PowerIters = -1 picks the paper's (scikit-learn's) rule: 7 when
// Rank < 0.1·min(r, c), else 4. A final QR (CholeskyQR2 on the GEMM
// kernel; Householder when the sketch's Gram matrix has an estimated
// condition number above 1e12) and an exact SVD of the small
// l×c matrix B = Qᵀ·A finish the job; that SVD goes through the l×l Gram
// matrix B·Bᵀ (singular values to about ε·(σ_1/σ_k)² relative) when
// σ_k ≥ 1e-4·σ_1, else through LAPACK's SVD of Bᵀ. Cancellation of the
// context is checked between power iterations.
//
// # Speed
//
// The dense work of the randomized backends (the LU, the Gram matrices,
// the final QR and products) runs on a small blocked GEMM with an AVX2/FMA
// kernel on amd64 (a math.FMA one elsewhere, with the same rounding), split
// over goroutines by rows; the LU is recursive, so nearly all of it is such
// products. Words of text8_prefix (V = 22,542, tail-cut W = 24, 9.8 M
// stored values), d = 1000: 90–136 s of CPU depending on the machine (78 s
// wall on a 2-core AMD EPYC) and 0.9 GB peak resident memory, most of the
// time in the sparse products (see BenchmarkDSSVDWords in package ca).
//
// # Signs and determinism
//
// Singular vectors are defined up to sign; every backend makes the entry of
// largest magnitude in each column of U positive (the first one on ties)
// and flips V with it, so backends agree up to rounding. Results depend only
// on the inputs and the seed, not on GOMAXPROCS.
package svd
