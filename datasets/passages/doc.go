// Package passages generates a corpus of repeated passages: blocks of
// vocabulary that are nearly disjoint, each block's text a few passages
// repeated verbatim many times, the way a concatenation of licence files,
// boilerplate or mirrored pages repeats itself. Its co-occurrence tables
// are nearly reducible, so their correspondence analysis has a cluster of
// singular values just below 1: the hard case for a Lanczos solver, whose
// wanted triplets then differ from the unwanted ones by a relative 1e-5
// or less (see methods/svd, the krylov backend).
//
// # Model
//
// There are Shared words common to all blocks (ids 0..Shared−1, named
// "s<i>") and Blocks blocks of Words words each (named "b<block>w<j>").
// Each block has Passages distinct passages of Length tokens: a token is,
// with probability SharedProb, a uniform shared word, else a word of the
// block drawn by a Zipf law of exponent Exponent. A block's text is its
// passages, each repeated Repeats times, in a random order; the corpus is
// the blocks' texts in a random order. The blocks are coupled only through
// the shared words and the Blocks − 1 places where one block's text
// follows another's, so the indicator of a block is nearly an invariant
// direction of the CA: 1 − σ is of the order of SharedProb plus the
// window over a block's length, and there are about Blocks − 1 such
// values, with more below them from each block's own repeated passages.
//
// Licences is modelled on the case that motivated it: the Debian
// copyright files (cat /usr/share/doc/*/copyright, 22 MB, 1.9 M tokens,
// lowercased, W = 10, k = 100), whose 101 largest singular values lay in
// [0.99906, 1] and on which krylov's fixed window failed. Licences gives
// 1.92 M tokens, V = 40,862 and 898,334 non-zeros in N^flat at W = 10;
// its σ_1..σ_100 lie in [0.99965, 0.99999] and the cluster goes on below.
// The blocks follow one another in the text, so their indicators are
// coupled like the points of a path, and the values near 1 fall off as
// 1 − σ_j ∝ j², the spacing that makes the top of the cluster hard.
//
// # Determinism
//
// Generate draws everything from one PCG stream seeded by Params.Seed,
// in one goroutine, with no fused multiply-add in the word law's table:
// the same parameters and seed give the same tokens whatever GOMAXPROCS
// and platform. It holds the distinct passages (Blocks·Passages·Length
// ids) and the order of one block's occurrences, never the corpus.
//
//	err := passages.WriteFile(ctx, "licences.txt", passages.Licences())
package passages
