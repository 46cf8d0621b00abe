// Package nativelapack is the dense SVD on the system's LAPACK through
// gonum's netlib LAPACKE bindings. Its code is built only with -tags lapack
// (Debian: apt-get install libopenblas-dev liblapacke-dev); without the tag
// the package is empty and the default build stays pure Go.
package nativelapack
