// Package sparse provides CSR, the compressed-sparse-row matrix every
// contingency and co-occurrence table of KCA lab is stored in, with the few
// operations correspondence analysis needs.
//
// # Invariants
//
// A CSR is immutable once built: within a row, column indices strictly
// increase and no stored value is zero. New checks this; FromDense,
// FromTriplets, Map, Add and the other constructors keep it.
//
// # Products
//
// MulDense (m·x) and MulTDense (mᵀ·x) multiply by dense gonum blocks. They
// run in parallel by splitting the output rows into ranges, each written by
// one goroutine in a fixed summation order, so results are bit-identical
// whatever GOMAXPROCS is. On amd64 blocks of up to 64 columns are summed
// row by row in AVX registers (32 columns at a time, the next x rows
// prefetched), wider ones four stored values at a time into the output
// row; both round each product and sum exactly as a plain axpy per value
// does, so the bits are the same on every CPU and for every width. The
// register kernel makes the narrow blocks of an iterative solver cheap:
// on a word table (V = 22,542, 9.8 M stored values) a column costs about
// as much in a block of 16 or 32 as in one of 64. MulTDense
// multiplies by a transpose built once and cached in the matrix (twice the
// memory, same speed as MulDense).
//
// The sparse results (Mul for a·b, SumScaled and Add for weighted sums,
// AddTranspose for m + mᵀ) are built in two parallel passes over the output
// rows: one sizes each row, one fills it, so the arrays are allocated once
// at their final size. T transposes by a counting sort, in parallel over
// ranges of output rows. Every kernel gives each output row one writer and
// a fixed summation order, so all of them are deterministic.
//
// # Serialisation
//
// WriteTo and ReadFrom (or Read) use a compact little-endian format: a
// 32-byte header (magic "KCSR", version, rows, cols, nnz) then the indptr,
// indices and data arrays. There is no checksum; the corpus cache adds one.
// ReadFrom validates everything and never panics on corrupt input.
//
// # Tables larger than memory
//
// The format has fixed offsets, so any rows can be read without the rest.
// FileCSR multiplies a matrix kept in its file: only the row pointers stay
// in memory, blocks of whole rows (a size given at OpenFile) are read and
// multiplied by the same kernel as in memory, and every output row still
// has one writer and the same summation order, so the products are the
// same bits as the CSR's. Its transposed product reads the transpose's
// file, which TransposeFile writes out of core (one pass to count the
// columns, then one per band of columns that fits the memory given): the
// same bytes as T() written by WriteTo.
package sparse
