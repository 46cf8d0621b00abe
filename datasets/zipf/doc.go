// Package zipf generates synthetic word corpora of any length with the
// statistics of real text, streamed from a seed, and measures the
// statistics it was calibrated on (methods/corpusstats.Measure) for any corpus, so a report
// can show a synthetic corpus and text8 side by side.
//
// # Model
//
// Words are ranks 0..Vocab−1, named "w<rank>" (Word), so frequent words
// are short. A word's probability follows a Zipf–Mandelbrot law
// p(r) ∝ 1/(r+b)^a over ranks r = 1..Vocab, steepening to exponent
// TailExponent past rank Knee (continuous there). The second regime is
// needed: with one regime no (a, b, Vocab) fits text8_prefix's types and
// its words of count ≥ 5 at once (the best single-regime fit we found
// was off by 20–40 % on one of the two series), because text's rare
// words fall off faster than its common ones (exponent ≈ 1 then ≈ 1.6).
//
// On top of the law, tokens are drawn with two kinds of structure that
// leave each word's frequency unchanged:
//
//   - Topics. The Head most frequent words (function words) belong to no
//     topic and are drawn from the law everywhere. The other words are
//     split into Topics topics: ranks are cut into blocks of Topics
//     consecutive ranks and each block gives each topic one word, at a
//     fixed pseudo-random rotation, so every topic has a Zipf-like law of
//     its own and the topics' masses are nearly equal. The text is a run
//     of segments ("documents") of geometric length, mean Segment; each
//     has one topic, and its content tokens keep to that topic except
//     with probability Leak (drawn from the whole content law instead).
//     Optionally (Spread > 0) topics are unequally focused; segment
//     topics are then drawn in proportion to mass/focus so that the
//     word frequencies stay exact.
//   - Repeats. With probability Repeat a content token is a copy of one
//     of the last Memory content tokens: the burstiness of names and
//     terms within an article. Copying from a stationary stream keeps its
//     law, so frequencies are unchanged, but counts are overdispersed as
//     in text: fewer words seen once, more seen five times; that is what
//     lets Heaps' law and the count-≥-5 vocabulary match together.
//
// A class-based bigram model was the alternative; topics were chosen
// because N^flat and N^cut at W = 24 are dominated by what co-occurs
// within a window (topical), not by word order, and because a partition
// of the vocabulary keeps the generator O(Vocab) with exact marginals.
//
// # Streaming and determinism
//
// New builds Walker alias tables with integer thresholds (8 bytes a
// word, 32 MB at the calibrated Vocab = 4 M); Next draws one token in
// O(1) from one PCG stream seeded by Params.Seed. Generate and Write
// never hold the corpus, and the output depends only on the parameters
// (one goroutine; the float arithmetic of the tables is rounded
// explicitly, so no fused multiply-add changes it between platforms):
// the same seed gives the same bytes whatever GOMAXPROCS.
//
//	err := zipf.WriteFile(ctx, "synthetic.txt", zipf.Calibrated(), 17_000_000)
//	st, err := corpusstats.Measure(ctx, dataDir, "synthetic.txt", corpusstats.StatsOptions{CacheDir: cache})
//
// # Calibration
//
// Calibrated was fitted to text8_prefix (2,139,749 tokens) by grid
// search on the growth series, then checked on the tables (seed 1, W =
// 24, min count 5; synthetic / text8_prefix at the same token counts):
//
//	tokens     types            vocab (≥ 5)     nnz N^flat            nnz N^cut
//	  133,734  13,447 / 14,508   3,231 / 3,303    674,129 / 672,228     674,090 / 672,059
//	  267,468  21,800 / 23,113   5,466 / 5,625  1,377,061 / 1,379,394 1,376,967 / 1,378,894
//	  534,937  34,489 / 34,977   8,893 / 9,206  2,709,733 / 2,772,343 2,709,560 / 2,771,282
//	1,069,874  53,847 / 54,956  13,976 / 14,568 5,058,847 / 5,190,917 5,058,338 / 5,187,018
//	2,139,749  82,835 / 80,982  21,568 / 22,541 9,271,234 / 9,789,241 9,269,563 / 9,781,414
//
// TestCalibration asserts these within 10 % (they are within 6 %).
//
// Past the prefix, at text8's length (17,005,207 tokens) the model gives
// 287,689 types and 78,484 words of count ≥ 5, against text8's 253,854
// and 71,290 (+13 %, +10 %); at 100 M tokens, 788,937 types and 235,624
// words of count ≥ 5.
//
// The singular values of the tail-cut CA (dssvd, k = 50, the largest
// prefix) match in level but not in decay: text8_prefix has
// σ_1..σ_5 = 0.592, 0.453, 0.365, 0.348, 0.342, σ_10 = 0.269,
// σ_20 = 0.198, σ_50 = 0.146; the model has 0.328, 0.325, 0.323, 0.320,
// 0.318, σ_11 = 0.309, σ_21 = 0.293, σ_46 = 0.265 — a plateau of
// Topics − 1 near-equal values, as equal topics give. Total inertia χ²/n
// is 16.5 against 21.8. Unequal topics (Spread > 0) make the values fall
// but lower them all and raise the non-zeros (Spread 0.2, Leak 0.05:
// σ_1 = 0.216, σ_46 = 0.099, nnz flat 11.5 M), so the default keeps
// equal topics: for timing and memory of the SVD backends the table's
// size and sparsity matter, and those match.
//
// # Cost
//
// On this machine (2 shared cores), writing the calibrated corpus to a
// discarded writer takes about 5.3 s for 17 M tokens and 12.4 s for
// 100 M tokens (≈ 120–500 ns a token depending on the load of the
// shared cores). BenchmarkWrite10M reports the memory: 532 allocations
// (98.9 MB allocated in all, mostly the tables' temporary float weights)
// and 56 MB of heap, 60 MB of runtime memory, whatever the length.
package zipf
