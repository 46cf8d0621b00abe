// Package nativelapack is the dense SVD, the symmetric eigensolver and GEMM
// on the system's LAPACK and BLAS through gonum's netlib bindings. Its code is built only with -tags lapack
// (Debian: apt-get install libopenblas-dev liblapacke-dev); without the tag
// the package is empty and the default build stays pure Go.
package nativelapack
