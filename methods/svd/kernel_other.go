//go:build !amd64

package svd

func microKernel(k int, a, b, c []float64, ldc int) { kern6x8Go(k, a, b, c, ldc) }
