// Package ca implements correspondence analysis (CA, the paper's LCA) and the
// Gini-index covariance analysis of sparse count tables.
//
// # Operators
//
// The CA matrix S = D(r)^-1/2·P·D(c)^-1/2 − √r·√cᵀ (P = N/n) and the Gini
// covariance Ξ = P − r·cᵀ are dense even when N is sparse. Delayed keeps
// them as the paper's delayed sparse matrix — the sparse table with diagonal
// scalings plus a separate rank-one term — so an svd.Backend can multiply
// by them without forming them (the dssvd backend never does). Zero row or
// column margins give zero rows or columns, never NaN. NewCAOperator and
// NewGiniOperator build the two kernels; NewDelayed builds other ones.
//
// # Analysis
//
// Analyze decomposes a kernel with a chosen backend and returns singular
// values, principal inertias (σ²) and their shares of the total inertia
// (computed from the sparse table: χ²/n for CA, ‖Ξ‖_F² for gini), the
// masses, and standard and principal coordinates of rows and columns.
// At most min(rows, cols) − 1 dimensions exist: the trivial one is removed.
//
// # What statisticians read first
//
// A CA Result also carries the Statistics of R's summary.ca and
// FactoMineR: per row and column the mass, the χ² distance to the centroid
// and the inertia (over all dimensions, from the table), the contribution
// (ctr) to and squared correlation (cos²) with each kept axis, and quality
// (Σ cos² over the kept axes); for the table Pearson's χ², its degrees of
// freedom and p-value. testdata/ca_reference.R wrote the R numbers the
// tests match them to (Fisher's and the smoking tables).
//
// # Supplementary points
//
// A Projector places supplementary rows or columns on the axes by the
// transition formula (R's ca(…, suprow=, supcol=)): Result.RowProjector and
// ColProjector for an analysed table, Decomposition.RowProjector (V
// recovered from U by one delayed product) and ColProjector for a word
// table. Project takes sparse count rows and returns principal and
// standard coordinates, distance, cos² and quality.
//
// # Word tables
//
// Decompose is the lean path for word tables (V up to 70,000): it keeps only
// the singular values, U and the row weights of the kernel's metric (r for
// ca, ones for gini and plain), from which the word vectors
// F = D(w)^-1/2·U·Σ^α are made in place. KernelPlain decomposes a matrix as
// it is, for kernels whose ⊖ was applied by a transform (methods/kca).
//
// DecomposeWith adds two settings of count models (Levy, Goldberg & Dagan
// 2015). Context distribution smoothing (DecomposeOptions.CDS, SmoothMasses)
// replaces the column masses c by c^α/Σc^α in the ca and gini kernels:
// S = D(r)^-1/2 (P − r c'ᵀ) D(c')^-1/2 and P − r c'ᵀ; its total inertia is
// still Σ p²/(r c') − 1, as Σ c' = 1. With c' ≠ c, √r is no longer an exact
// singular vector, so S is a generalised CA with column weights c'. KeepV
// keeps V and the column weights, for context vectors D(c)^β V Σ^α.
package ca
