// Package builtin registers KCA lab's built-in methods with the harness,
// one file each: the CA family (ca, lca, gini), kernel CA (kca), SCA
// (sca), the neural baselines (sgns, cbow, glove, fasttext), the count
// baseline of Levy, Goldberg & Dagan as hyperwords runs it (ppmi-svd), an external
// program (external) and corpus statistics (corpusstats). Each is written
// against harness's exported trial API only, as a user's own method would
// be; importing the package registers them (the kcalab command does).
package builtin
