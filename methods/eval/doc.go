// Package eval scores word vectors against word-similarity sets: Spearman's
// rank correlation ρ (ties get their average rank, as in scipy) between the
// human scores and the vectors' similarities.
//
// A pair with a word that has no vector is handled by a Rule: Zero scores it
// 0 and keeps it (the paper's authors), Skip drops it (gensim). Every Score
// reports how many pairs were covered, so the two can be told apart.
//
// Analogy scores analogy questions "a is to a* as b is to ?" by 3CosAdd
// (Mikolov et al. 2013), as gensim's evaluate_word_analogies.
package eval
