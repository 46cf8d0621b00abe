// Package subword gives correspondence-analysis word vectors to words
// outside the vocabulary, and optionally smooths rare ones, from character
// n-grams treated as supplementary points of the word CA.
//
// # n-gram points
//
// Each character n-gram g (MinN..MaxN characters of "<"+word+">", as
// fastText) of the vocabulary's words is a supplementary row of the word
// table N: its profile is the sum of the count rows of the words that
// contain it. The transition formula f(x) = Σ_j x_j·g_j − centroid is
// linear in the profile x = n/Σn, so projecting a sum of rows is exactly the
// mass-weighted mean of those rows' own projections, which for active rows
// are their principal coordinates (ca.Decomposition.RowProjector's test):
//
//	point(g) = Σ_{w∋g} r_w·f_w / Σ_{w∋g} r_w
//
// So Points and Compose never touch N or the column side: they average the
// word vectors F = D(r)^-1/2·U·Σ (vectors.alpha = 1, the default), in
// O(Σ_g df(g)·k) time, and never change the word axes. The package test
// checks the identity against ca's Projector to 1e-10, and that an n-gram
// only one word has (the whole "<word>") returns that word's coordinates.
// With another vectors.alpha or vectors.normalize the same mean is taken
// of the vectors actually used: no longer a CA projection, but the
// consistent composition in that space.
//
// Point = EqualPoint departs from the supplementary point on purpose: every
// word containing g weighs the same. Measured on text8_prefix (see
// results/subword), mass weights let the frequent words that share an
// n-gram ("the" in "theorem") decide it, while the unseen words the
// evaluation asks for are rare, like the rare words that share their stems.
//
// # composed words
//
// A word's composed vector is the weighted mean of its known n-grams'
// points, with weights Uniform (fastText's mean), IDF (log(1 + V/df):
// specific n-grams count more) or Mass (the word's profile is the sum of
// its n-grams' profiles: again a pure supplementary point). A mean of many
// directions is shorter than its parts; under the paper's dot similarity
// that would rank every pair with a composed word near zero, so Length
// rescales it to the same weighted mean of its words' lengths.
//
// Shrink moves the composed length from the words' mean length L toward
// the mean's own m (L^(1−s)·m^s). m/L measures how much the n-gram points
// agree; an unseen word whose letters point every way is then kept near
// the origin, CA's centroid (the average profile), which is what CA would
// say of a word it knows nothing about. Measured on text8_prefix (see
// results/subword), the best design found composes from every n-gram of
// 1…6 characters with uniform weights and equal points, shrink 0.2: short,
// generic n-grams and the shrink both pull a composition toward the
// vocabulary's common directions, which helps the rare words most.
//
// Extend keeps the vocabulary's rows (bit for bit when Blend = 0), blends
// them as (1 − Blend)·own + Blend·composed otherwise (with BlendCount = K,
// a word seen c times uses Blend·K/(K + c): the rows of rare words are
// noisy and their letters help, frequent words' rows are better than any
// mean of n-grams; on text8_prefix at d = 1000, K = 20 and Blend = 1 raise
// Rare from .216 to .239 and keep every set's in-vocabulary pairs within
// 0.01 of plain CA, which a constant blend of 0.5 does not), and appends the
// requested unseen words, which is how the harness scores them and writes
// them with -vectors (as fastText's print-word-vectors does).
//
// Memory: the points are never stored (at d = 1000 the 250,000 n-grams of
// a 22,000-word vocabulary would take 2 GB); each is built in one buffer
// and scattered into the targets that contain it.
package subword
