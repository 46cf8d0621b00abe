// Package svd computes truncated singular value decompositions of linear
// operators, with the three backends the paper compares: an exact dense SVD,
// randomized SVD on the dense matrix, and the delayed sparse randomized SVD
// (DSSVD) that only multiplies; and a fourth, krylov, that only multiplies
// too but converges to a tolerance.
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
// error wrapping ErrOverBudget. Plan goes further: it lists every buffer a
// backend will allocate (the dense matrix and its factors, the sketch
// blocks, the Krylov basis, GEMM packing, the check blocks) for given
// dimensions and options, and with Options.MaxBytes set every backend
// refuses before allocating when the plan's peak exceeds it, the sizes
// named in the error. At the paper's size (V = 71,000, d = 8000) DSSVD
// plans 10.2 GiB and krylov 9.1 GiB (go test -run TestPlanSizes -v).
//
// The dense backend's SVD is gonum's pure-Go Dgesvd. Built with -tags
// lapack, the lapack backend adds LAPACK's dgesdd on OpenBLAS through
// gonum's netlib LAPACKE bindings (internal/nativelapack; Debian:
// libopenblas-dev, liblapacke-dev), a fair baseline for the
// dense-versus-sketch ratios, measured in the same run as the pure-Go
// one; without the tag it returns ErrNotBuilt. The same build lets the
// sketches solve their projected problem there (Options.Projected =
// "lapack": dsyevd for the l×l Gram eigenproblem, dgemm for the products
// that form U and V), which is what made the paper's d = 8000 feasible in
// numPy: gonum's Dsyev is serial and its tridiagonal QR unblocked, and at
// l = 8,010 it alone ran for over 40 minutes without finishing.
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
// # Krylov algorithm
//
// Krylov is thick-restart block Lanczos on M = AᵀA (AAᵀ when A is wide, so
// the basis lives on the smaller side) with full reorthogonalisation and
// locking. Starting from a Gaussian block (PCG, Options.Seed), each block
// step multiplies the newest block X by M (one A·X and one Aᵀ·Y), removes
// from M·X its components along the basis by classical Gram–Schmidt,
// whose coefficients are the new columns of the projected matrix
// T = Vᵀ·M·V, and orthonormalises the rest (CholeskyQR2; column-by-column
// Gram–Schmidt when that is ill-conditioned, a random direction replacing
// a column that is only rounding noise) into the next block, with
// M·X = … + X_next·R. The eigenvectors y of T give Ritz vectors V·y whose
// residuals ‖M·V·y − θ·V·y‖ are ‖R·y_last‖ plus their coupling to the
// locked vectors, both from small matrices. Leading Ritz pairs whose
// residual, as singular triplets (σ = √θ, v = V·y, u = A·v/σ), is within
// Options.Tol·σ_1 — and, in M's terms, within the tolerance of the
// smallest wanted singular value, so that what a locked vector leaves
// cannot keep later ones from converging — are locked: kept in the basis,
// so that later blocks stay orthogonal to them, but no longer part of
// T. When the
// active basis is full, the next Ritz vectors are kept and the Krylov
// space continues from X_next (Wu & Simon 2000's thick restart; Baglama &
// Reichel's IRLBA is the same restart on the bidiagonalisation). At the
// end U = A·V·Σ⁻¹, with σ_i = ‖A·v_i‖, and the k products Aᵀ·U measure
// every residual (Result.Accuracy), so a result never reports an
// estimate.
//
// Why this shape, for word tables (V = 22,542, 9.8 M stored values, k up
// to 1000, a slowly decaying spectrum). The cost is the column-products,
// each a pass over the table, and Gram–Schmidt against the basis, a pass
// over it; the shape trades one against the other:
//
//   - Blocks of 32 (min(32, max(8, k/2))), not single vectors: a sparse
//     product costs 23 ms of CPU a column for one vector against 1.6–1.9
//     ms a column in a block of 32, because the table is read once per
//     block and each output row is summed in registers (package sparse);
//     and block Gram–Schmidt runs on the FMA kernel where one vector at a
//     time would be memory-bound. Narrower blocks converge in fewer
//     products (a block spends part of each product on directions one
//     vector would not need: at k = 1000 in a window of 640, 8,936
//     products with blocks of 32 against 12,264 with 64) but cost more a
//     column and
//     stream the basis once per block; 32 is the fastest. A block wider
//     than a cluster of close singular values also finds the whole
//     cluster.
//   - Lanczos on AᵀA rather than the bidiagonalisation of A: the same
//     Krylov space for V with one basis instead of two, so half the
//     memory and half the orthogonalisation. The price is squaring: the
//     attainable residual is about ε·σ_1²/σ_k, so σ_k/σ_1 must stay well
//     above ε/Tol (CA word tables: σ_1000/σ_1 ≈ 0.1).
//   - Locking with a bounded active basis (at most max(2k + b, 4b), capped
//     at 960 columns, and by the operator's size), 60% of it kept at a
//     restart: for a large k the triplets are found a window at a time,
//     the largest first, as in SLEPc's "maximum projected dimension",
//     instead of one basis of 2k as ARPACK uses. A wider window saves few
//     products (7,272 at 1,280 against 7,336 at k = 1000) for more
//     Gram–Schmidt against it.
//   - The projected problem in pure Go on the GEMM kernel (symeig.go,
//     tridiag.go: blocked Householder tridiagonalisation, divide and
//     conquer with Gu & Eisenstat's orthogonal vectors, the reflectors
//     applied to the wanted vectors only), about 0.1 s at order 1000
//     where gonum's Dsyev took 1.7 s. That makes it cheap enough to run
//     every two blocks once the missing triplets would fit in one more
//     cycle, so the last cycle stops when they have converged instead of
//     filling the basis (at k = 1000 with a 640-column window the last
//     cycle took 512 column-products instead of 832).
//   - Gram–Schmidt once against the basis, not twice: a first pass
//     against the columns the new block couples to (its predecessor and
//     itself; the kept Ritz vectors too for the first block of a cycle),
//     which removes nearly all of it, then one pass against the whole
//     basis, locked vectors included, which removes rounding and the
//     locked vectors' residuals (M·X has only residual-sized components
//     along them). A second full pass runs only when that one removed
//     more than half of a column (Daniel, Gragg, Kaufman & Stewart's
//     test), which on word tables it never does. Each full pass is two
//     products with the basis, read where it lies (gemm_basis.go).
//
// Memory: the basis, c·(k + active + 2·block)·8 bytes (0.36 GB at k = 1000
// on the word table), a few c×block blocks, the projected problem's
// matrices (about 5·(active + block)² numbers), and U. V is returned in
// the basis's storage. Plan counts the window the backend starts with; a
// window grown on a clustered spectrum (below) takes more, and grows only
// while its plan, with the old basis during the copy, fits
// Options.MaxBytes when that is set. Operators with fewer than about k + 5 blocks of
// dimensions on their smaller side are built from products with the
// identity and decomposed densely.
//
// Determinism: the start block and any replacement direction come from the
// seed; the products (one writer per output row), GEMMs (fixed summation
// order) and the eigensolver (whose parallel parts each write their own
// outputs) give the same bits whatever GOMAXPROCS is
// (TestKrylovDeterministic runs 1, 2 and 4). A different seed moves the
// result only within the tolerance.
//
// Clustered spectra. When the wanted singular values lie inside a cluster
// of close ones wider than the window — a nearly reducible table, as
// text repeated verbatim makes (the Debian copyright files: the 101
// largest within [0.99906, 1]; package datasets/passages generates such
// corpora) — a window of 2k + b columns must separate values a relative
// 1e-5 apart, and its leading residuals fall by a few per cent a cycle. The
// backend watches the leading unconverged residual over restarts that
// lock nothing; when its last cycle's rate would need more than 8 more
// cycles (krylovStallCycles; on word tables such a restart predicts under
// one), it doubles the window in place of the restart, keeping the whole
// basis, up to 1,920 columns and the operator's size (and within
// Options.MaxBytes, the grown window's plan included). A window wider than
// the cluster converges at the rate of the gap below the cluster. On
// datasets/passages' Licences corpus (1.92 M tokens, V = 40,862, W = 10,
// k = 100, σ_1..σ_100 in [0.99965, 0.99999]) the fixed window locked
// nothing in its first 13,900 products and failed at 16,384 (54 or 72 of
// 100 converged, by seed); the growing one converges in 4,708, its σ
// within 3e-15 of scipy's svds on a smaller such table
// (TestKrylovPassagesScipy; TestKrylovClusteredSpectrum: 1,170 products
// against the fixed window's 7,710). On the word tables nothing grows:
// their iteration is the same bit for bit.
//
// Limits: Options.MaxProducts column-products (default
// DefaultMaxProducts: 100·(k + 64), or 4·c when more, c the smaller
// side). At the widest window, after 6 restarts that lock nothing, the
// backend estimates from their rate the products still needed (a rough
// guide: the residual alternates between restarts, and Lanczos speeds up
// as it goes), and stops at once when that is over twice the products
// left, or (with a deadline on the context, the harness's budget.seconds)
// over twice the time left. Its
// error, a *NotConvergedError wrapping ErrNotConverged (and
// context.DeadlineExceeded when time was the reason), says how many
// triplets converged, the cluster it saw (σ_1..σ_k+1's spread and the gap
// at σ_k, the values of the basis within twice the spread), the smallest
// residual reached and the estimate, and what to change: a looser
// tolerance, a rank past the cluster, more products or time, or more
// memory when Options.MaxBytes kept the window from growing. The
// context is checked before every block step; a deadline that passes
// mid-run gets the same account.
//
// Measured on text8_prefix's tail-cut table (V = 22,542, 9,781,414
// non-zeros) side by side in one run (BenchmarkSVDPeers in package ca,
// seed 1, Tol 1e-8, output in methods/ca/testdata/peers/bench-2026-11-25.txt)
// on a 2-core AMD EPYC VM with nothing else running; wall and CPU seconds
// of the SVD stage / peak RSS / column-products:
//
//	                          k = 300                          k = 1000
//	krylov (2 goroutines)     5.6 s  10.1 s 0.61 GB 2,988     18.3 s  33.7 s 0.96 GB  7,336
//	dssvd (2 goroutines)     11.7 s  21.6 s 0.61 GB 4,960     54.1 s  99.4 s 1.05 GB 16,160 (not converged)
//	SLEPc trlanczos, 2 ranks 24.8 s  49.2 s 0.68 GB 1,578    145.8 s 290.1 s 1.21 GB  5,468
//	scipy svds (ARPACK)      37.8 s  69.6 s 0.67 GB 2,111    202.4 s 351.5 s 1.31 GB  6,009
//	RSpectra (1 thread)      40.0 s  40.0 s 0.84 GB 2,111    168.9 s 168.9 s 1.53 GB  6,009
//
// (SLEPc 3.18.2 through slepc4py on 2 MPI ranks, CPU and RSS summed over
// them; scipy 1.10.1's ARPACK with OpenBLAS using both cores; RSpectra 0.16.1
// on R 4.2.2, one thread.) σ_1..5, σ_300 and σ_1000 agree with the peers'
// to the 6 digits printed. krylov is 4.4× (k = 300) and 8.0× (k = 1000)
// faster than the fastest exact peer, SLEPc, and keeps both cores busy
// (CPU/wall 1.80 and 1.84 over the whole decomposition). ARPACK needs
// fewer products (krylov takes 1.4× and 1.2× as many), SLEPc's
// bidiagonalisation fewer still, but a column of a 32-wide block costs
// krylov a fraction of what one vector costs them: the sparse block
// product reads the matrix once per block with the row sums in registers,
// Gram–Schmidt is two GEMMs against the basis where it lies, and the
// projected eigenproblem is a blocked divide and conquer. Tol = 1e-6
// takes 4–6% fewer products (2,796 and 7,016): the last digits come
// cheaply.
//
// # Cost at the paper's dimensions
//
// The cost model, c the basis's side, P the column-products, w the active
// window (min(2k + 32, 960)), F the GEMM kernel's rate (80 GFLOP/s fits
// the 2-core AMD EPYC, both cores) and t the wall time of one column of a
// 32-wide sparse product (0.9 ms on text8_prefix's tail-cut table, about
// 1.7 ms on paper-d8000's):
//
//	T ≈ P·t + 4·c·P·(k/2 + w)/F
//
// The second term is Gram–Schmidt: every block of 32 new columns is
// projected against the basis once (two GEMMs), and the basis holds on
// average about k/2 locked columns and the window. Restart rotations
// (c·w·0.6w a restart) and the projected problem (a (w + 32)² eigenproblem
// every few blocks) add a few per cent. P grows about linearly with k
// (P/k: 10.0, 7.3, 7.6 and 9.2 at k = 300, 1000, 3000 and 8000 on
// text8_prefix; 15.6 at k = 8000 on paper-d8000's flatter synthetic
// spectrum), so the time grows as c·k² once k is a few hundred: the
// orthogonalisation, not the products, is what k = 3000 and 8000 cost.
// Measured, each alone on that machine, Tol 1e-8:
//
//	table                     k       P      model   measured  peak memory
//	text8_prefix tail-cut     300     2,988    5 s      5.6 s   0.61 GB
//	(c = 22,542)            1,000     7,336   19 s     18.3 s   0.96 GB
//	                        3,000    22,776   84 s       85 s   1.9 GB
//	                        8,000    73,536  477 s      420 s   3.7 GB
//	paper-d8000 (c = 78,485) 8,000  125,056 2,640 s   2,365 s  11.3 GB
//
// (k = 300 and 1000: bench-2026-11-25.txt; 3000 and 8000:
// bench-2026-11-26-large.txt, both in methods/ca/testdata/peers;
// paper-d8000: the SVD stage of its 2,376 s trial in results/paper-d8000,
// a table of 18.1 M non-zeros.) The model is within 15% everywhere. The memory is the
// plan: the c×(k + w + 64) basis and U. A dense exact SVD costs O(c³)
// whatever k: dgesdd of the 22,542² matrix needs about 38 GiB with its
// workspace, more than the machine; the Gram route (SᵀS by dsyrk, then the
// k largest eigenpairs by dsyevr) fits in about 9 GB, and its
// tridiagonalisation is half matrix–vector products, memory-bound: scipy's
// took 889 s at k = 3000 on the same machine and table (σ within
// 4.3e-15·σ_1 of krylov's), 10.4× krylov's time, and 2,007 s at k = 8000
// (σ within 5.7e-15·σ_1), 5.0× krylov's 404 s in the same run. By the model krylov stays
// ahead of it until k is a large fraction of c (BenchmarkSVDPeers in
// package ca, its "large" cases with KCALAB_BENCH_LARGE=1).
//
// # Choosing a backend: svd.backend auto
//
// Auto weighs the exact backends (krylov; lapack when built; dense) by a
// cost model of the reference machine, the 2-core AMD EPYC VM: krylov as
// above, with P = 8k + 800 products predicted, t = 9.2e-11 s per stored
// non-zero and the window its plan gives (the dense SVD's cost when the
// rank leaves no room for a Krylov basis, as Krylov.Decompose then builds
// the matrix); a dense SVD 3.7e-10 s (dgesdd on OpenBLAS) or 1.1e-8 s
// (gonum) per m·n·min(m, n), whatever k. It keeps the incumbent (the
// harness's: dense for a CSV table, krylov for a word table) unless another
// backend whose memory plan fits Options.MaxBytes is expected to be twice
// as fast and a second faster: below that the choice cannot matter to
// anyone waiting, and a switch would change a result's last bits for
// nothing. The constants are fixed, not measured at run time, so a spec
// resolves auto the same way on every machine and at any GOMAXPROCS; the
// harness logs the choice with every estimate, and the record names the
// backend.
//
// The model follows every measurement within a factor of two
// (TestEstimateSecondsMatchesMeasured), and the measurements leave no
// doubt where the backends part. On the first quarter of text8_prefix
// (tail cut, W = 24, c = 9,207, 2.8 M non-zeros: results/svd-k-scaling-small,
// each trial alone in its own process, SVD stage in seconds):
//
//	k                    300      1,000    3,000    6,000
//	krylov (exact)       2.2      6.9     27.9     73.7
//	dgesdd (exact)     225      217      234      227
//	DSSVD (sketch)       3.2     10.2     67.9    370.9
//
// krylov is still 3.1× faster than dgesdd at k = 0.65·c. So auto takes
// krylov for every word table but where the rank leaves no room for a
// Krylov basis (k within about five blocks of c), and there dgesdd in a
// -tags lapack build (gonum's SVD is what krylov would run anyway); and it
// takes krylov over gonum's dense SVD for a CSV table large enough for it
// to matter (a full 1,500² table at k = 300: 0.9 s against 37 s). Every
// committed record of an auto trial is the backend auto picks for its table
// (TestCommittedAutoChoices). Nearer the side than 0.65·c the krylov
// estimate is an extrapolation.
//
// # Accuracy
//
// Result.Products counts column-products (each column of a block
// multiplied by A or Aᵀ counts one) for every backend. Check, or
// Options.Check, measures Accuracy: σ_1..σ_k and the residual
// sqrt(‖A·v_i − σ_i·u_i‖² + ‖Aᵀ·u_i − σ_i·v_i‖²) of every triplet, with
// the largest one absolute and relative to σ_1, at the cost of one A·V and
// one Aᵀ·U taken 64 columns at a time. For the sketches this is how far
// from converged they are; krylov always fills it.
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
