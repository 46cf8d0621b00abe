// Package wordsim reads word-similarity test sets: lists of word pairs with a
// human similarity (or relatedness) score, against which word vectors are
// scored by Spearman's ρ (see kcalab/methods/eval).
//
// The six sets of the paper's table (WS353 similarity and relatedness, MEN,
// MTurk-287, Stanford Rare Words, SimLex-999) are known by short name (Sets,
// Lookup) and read from <dataDir>/wordsim by Load, which also checks the pair
// count. LoadFile reads any user file with one pair per line, "word1 word2
// score", separated by tabs or spaces. Bad lines are reported with the file,
// the line and what is wrong; nothing is dropped or reordered silently.
//
// ParseAnalogies and LoadAnalogyFile read analogy questions in the format of
// word2vec's questions-words.txt (": section" lines, then "a a* b b*").
package wordsim
