// Package datasets provides the inputs of KCA lab: labelled contingency tables
// (Fisher's eye × hair table, embedded; a user's CSV file) and, in its
// sub-packages, corpora and co-occurrence tables (corpus), word-similarity sets
// (wordsim) and the sparse matrix type every table is stored in (sparse).
//
// # Contingency tables
//
// A Table is a non-negative count matrix with row and column labels. CSV files
// have the column labels in their first row and the row labels in their first
// column; ReadCSV reports bad input with the file, line and cell.
package datasets
