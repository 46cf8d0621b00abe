// Package vectors holds word vectors: a Set pairs a vocabulary with a matrix
// of one row per word, looked up by word, with an optional hook that gives
// vectors to words outside the vocabulary (fastText's subword vectors).
//
// ReadText and WriteText use the word2vec text format (a "<count> <dim>"
// header, then "word v1 v2 ..." lines), the one gensim reads with
// KeyedVectors.load_word2vec_format(path, binary=False).
//
// Coordinates turns a correspondence-analysis SVD (U, singular values,
// row masses) into word vectors F = D(r)^-1/2 U Σ^α (ScaleWeighted: D(r)^β U Σ^α,
// β = 0 being the unweighted U Σ^α of hyperwords); NormalizeRows scales rows
// to unit length; DotSim and CosineSim are the two similarities the
// evaluation offers (the paper uses the dot product of principal coordinates).
package vectors
