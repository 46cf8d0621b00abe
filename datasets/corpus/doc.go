// Package corpus turns a text corpus into the paper's word contingency tables.
//
// Open names a corpus (text8, text8_prefix in the data directory, or a plain,
// .gz or .zip text file; text8 is downloaded and verified when missing) and
// streams its whitespace-separated tokens: the text is one token stream, line
// ends are whitespace like any other. Build counts the vocabulary (min count,
// max size; by count, ties in byte order) and maps the tokens to int32 ids.
// Out-of-vocabulary tokens become one <unk> id, placed last whatever its
// count (a word's id is its frequency rank in both OOV modes; the authors'
// scripts put it first, which only permutes rows and columns), or are dropped
// and the remaining tokens close up.
//
// Tables counts the offset tables N^k (row = left word, column = the word k
// places to its right) and combines them into N^flat, N^skip, N^cut (tail
// cut) and the GloVe table, optionally symmetric, as sparse.CSR matrices
// whose row and column i is Vocab.Words[i]:
//
//	c, err := corpus.Open(ctx, dataDir, "text8_prefix", corpus.Options{Fraction: 0.5, CacheDir: cache, Log: os.Stderr})
//	v, ids, err := corpus.Build(ctx, c, corpus.VocabOptions{MinCount: 5, OOV: corpus.OOVUnk})
//	tables, err := corpus.NewTables(v, ids, corpus.TableOptions{CacheDir: cache, Log: os.Stderr})
//	n, err := tables.Table(ctx, corpus.Spec{Kind: corpus.Cut, Window: 24})
//
// Counting is exact integer work, parallel over offsets with one writer per
// table, so results are bit-identical whatever GOMAXPROCS; weighted sums run
// over k in ascending order. Offset tables and vocabularies are cached on
// disk under a content address (corpus CRC-32 and size, reading and
// vocabulary settings, offset), written atomically and checked with CRC-32C
// on load; a damaged cache file is reported and rebuilt.
//
// TableOptions.Subsample applies word2vec's subsampling of frequent words
// (Subsample: a seeded draw per token, dropped tokens closed up) before
// anything is counted; the tables of the kept tokens are cached under a key
// that adds t and the seed to the stream's.
//
// Tables counted elsewhere (the Apache Beam pipeline in the repository's
// pipelines module, for corpora past one machine) arrive as a table
// directory: a manifest, the vocabulary and the tables in sparse.CSR's
// format (see TableDir). OpenTableDir reads one as a Tables without a token
// stream; WriteTableDir writes one from counted Tables, byte for byte what
// the pipeline writes for the same corpus. VocabFromCounts applies Build's
// vocabulary rules to word counts gathered elsewhere, so both sides share
// one definition.
//
// With TableOptions.MemoryBytes set, a stream too long to count in memory is
// counted out of core by a Counter: one pass in chunks, partial tables in a
// fixed arena spilled as sorted shard files and merged per offset at the
// end (spill.go); the tables are the same bits.
package corpus
