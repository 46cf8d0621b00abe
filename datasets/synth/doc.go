// Package synth generates small seeded data with planted structure, for
// tests and the quickstart: a word corpus whose words fall into clusters
// that co-occur (Corpus), and a labelled contingency table with planted
// row and column groups (Table). The same options give the same output.
//
// # Corpus
//
// Words are named c<cluster>w<word> ("c2w07"), zero-padded to the width of
// the largest index. The text is a run of sentences of 8 to 15 tokens;
// each sentence picks a cluster uniformly, and each of its tokens is,
// with probability 1 − Noise, a uniform word of that cluster, else (noise)
// a uniform word of any cluster. Sentences are not marked, so a window
// that crosses a sentence end sees a neighbouring cluster: more noise.
// Write streams the same text (tokens joined by single spaces) to a
// writer, for corpora too large to hold as strings.
//
// # Table
//
// Total observations are drawn one by one: with probability 1 − Noise a
// uniform group g, then a uniform row and a uniform column of g; else a
// uniform row and column of the whole table. Rows are labelled g<g>r<i>,
// columns g<g>c<j>.
package synth
