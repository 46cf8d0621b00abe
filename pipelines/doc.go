// Package pipelines counts the paper's word tables on Apache Beam, for
// corpora past one machine. It is its own Go module (kcalab/pipelines) so
// that the harness module does not take Beam's dependency tree; it reuses
// the harness's vocabulary rules (corpus.VocabFromCounts) and on-disk
// format (corpus table directories, sparse.CSR files) through a replace of
// kcalab by the parent directory.
//
// # Input and output
//
// The input is a list of text shards in corpus order. The corpus is their
// token streams one after the other: tokens are split on whitespace as
// corpus reads them (unicode.IsSpace; a line end is whitespace like any
// other), and a shard boundary is a token boundary, so the tables are those
// the harness counts of the shards joined with whitespace — of `cat` of
// the shards whenever each shard ends in whitespace or the next begins
// with it. Shards may be empty or shorter than the window.
//
// The output is a table directory (corpus.TableDir): vocab.txt,
// N^1 … N^W, N^flat, N^skip, N^cut as sparse.CSR files, and manifest.json
// written last. The vocabulary is Build's (min count, max size, order by
// count then bytes, <unk> kept in place and last, or OOV tokens dropped),
// and every table has the bits corpus.NewTables(...).Table gives for the
// joined corpus. A spec reads the directory with corpus.OpenTableDir.
//
// # Stages
//
//  1. vocabulary: each shard's word counts (one element per distinct word
//     per shard), summed per word (CombinePerKey), then ranked in one
//     place by corpus.VocabFromCounts. The vocabulary is a side input of
//     the later stages.
//  2. offsets: each shard is read again and mapped to ids; its own pairs
//     (t−k, t), k = 1..W, are counted per offset by sorting packed
//     (left, right) ids, and emitted as row blocks keyed by (k, row block).
//     The boundary stage counts the pairs that span shards (below). A
//     combiner adds the blocks of each (k, row block); it is lifted, so
//     shards' partial blocks are added before the shuffle.
//  3. combined: colsum(N^1) is summed into a side input; the blocks are
//     regrouped by row block so that one worker holds N^1 … N^W of the same
//     rows, and computes those rows of N^flat, N^skip and N^cut in exact
//     integers (row sums of N^k are local to the block).
//  4. write: the row blocks of each table are gathered by one writer and
//     written as one CSR file; then the vocabulary, an empty table for any
//     table without entries, and the manifest.
//
// # Shard boundaries
//
// Shards carry their index, not their global token offsets, because those
// are known only after every shard has been read (a shard's token count
// depends on its text and, with OOV dropping, on the vocabulary). Each
// shard's pass emits its length and the ids of its first and last W
// tokens (its edge). One boundary step gathers all edges — O(shards·W)
// ids — lays them at their global positions (prefix sums of the lengths)
// and counts every pair (p, p+k), k ≤ W, whose two tokens lie in
// different shards. Such a pair always has p among the last W tokens of
// its shard and p+k among the first W of its own, so the edges hold every
// one of them, also when a pair spans several short or empty shards; pairs
// inside a shard are counted by that shard's pass only. The cross-shard
// blocks join the shards' blocks before the combiner, so the sums equal
// counting the joined corpus. (The alternative, keyed ranges of
// (shard, position) with W-token overlaps, needs the global offsets up
// front and reads every overlap twice.)
//
// # Exactness
//
// Counts are integers throughout; N^skip is Σ_k (W−k+1)·N^k as an integer,
// divided by W once when written. Integer sums below 2⁵³ are exact in
// float64, and corpus.Combine's float sums of the same integers are exact
// too, so the files are bit-identical to the harness's.
//
// # Limits
//
// A shard is a unit of work: its pass holds its ids and one packed key per
// token (12 bytes a token), so shards should be at most a few tens of
// millions of tokens; use more shards for more parallelism. The writer of
// a table holds that whole table (the format is one file per table).
// The vocabulary is ranked on one worker (it holds every distinct word).
package pipelines
