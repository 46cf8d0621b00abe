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
// Licences is calibrated on the case that motivated it: the Debian
// copyright files (cat /usr/share/doc/*/copyright, 22 MB, 1.9 M tokens,
// lowercased, W = 10, k = 100), whose 101 largest singular values lay in
// [0.99906, 1]. Licences gives 1.89 M tokens, V = 37,774, and at W = 10
// (N^flat, LCA) σ_1 = 0.99968, σ_100 = 0.99743. Variants with more, shorter
// blocks (Blocks = 600, Words = 80, Passages = 4, Length = 100, SharedProb
// = 0.0005) put the cluster inside [0.9993, 1] and make its top hundred
// triplets need a basis wider than the cluster.
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
