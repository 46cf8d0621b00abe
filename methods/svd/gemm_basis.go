package svd

import "math"

// Products with a Krylov basis where it lies. Gram–Schmidt against a
// basis B (c×n, a window of the c×ld basis array) and a block W (c×b, b
// small) is two products, Bᵀ·W and W −= B·H, each touching every element
// of B once for only b multiply-adds: gemmAdd's packing of B then costs
// as much as the arithmetic. These variants read B, W and H in place
// (the kernels take strides), keep the block's and H's panels in cache
// while B streams by, and split the work by rows of the output. Every
// element is summed exactly as gemmAdd sums it: over blocks of gemmKC
// values of the inner index in order, each by fused multiply-adds from
// zero, then added to (subtracted from) the output; so these give
// gemmAdd's bits, whatever GOMAXPROCS is.

// gemmTN sets h (n×b, stride ldh) += Bᵀ·W for B c×n (stride ldb) and W
// c×b (stride ldw).
func gemmTN(n, b, c int, bs []float64, ldb int, w []float64, ldw int, h []float64, ldh int) {
	if n == 0 || b == 0 || c == 0 {
		return
	}
	forChunks(n, basisChunk(n, n*b*c), func(r0, r1 int) {
		for pc := 0; pc < c; pc += gemmKC {
			kc := min(gemmKC, c-pc)
			for i := r0; i < r1; i += gemmMR {
				mr := min(gemmMR, r1-i)
				for j := 0; j < b; j += gemmNR {
					nr := min(gemmNR, b-j)
					a, x, y := bs[pc*ldb+i:], w[pc*ldw+j:], h[i*ldh+j:]
					if mr == gemmMR && nr == gemmNR {
						microKernelTN(kc, a, ldb, x, ldw, y, ldh)
						continue
					}
					if nr == gemmNR {
						// A partial row tile: the kernel on rows padded
						// with zeros into a scratch tile, whose valid rows
						// are then added (0 + s is exact, so the bits are
						// the kernel's).
						var pad [gemmKC * gemmMR]float64
						var tile [gemmMR * gemmNR]float64
						for p := 0; p < kc; p++ {
							copy(pad[p*gemmMR:p*gemmMR+mr], a[p*ldb:p*ldb+mr])
						}
						microKernelTN(kc, pad[:], gemmMR, x, ldw, tile[:], gemmNR)
						for r := 0; r < mr; r++ {
							row := y[r*ldh : r*ldh+gemmNR]
							for j := range row {
								row[j] += tile[r*gemmNR+j]
							}
						}
						continue
					}
					edgeTile(kc, mr, nr, func(p, r int) float64 { return a[p*ldb+r] }, x, ldw, y, ldh, 1)
				}
			}
		}
	})
}

// gemmNNSub sets W (c×b, stride ldw) −= B·H for B c×n (stride ldb) and H
// n×b (stride ldh).
func gemmNNSub(c, b, n int, bs []float64, ldb int, h []float64, ldh int, w []float64, ldw int) {
	if n == 0 || b == 0 || c == 0 {
		return
	}
	forChunks(c, basisChunk(c, n*b*c), func(r0, r1 int) {
		for pc := 0; pc < n; pc += gemmKC {
			kc := min(gemmKC, n-pc)
			for i := r0; i < r1; i += gemmMR {
				mr := min(gemmMR, r1-i)
				for j := 0; j < b; j += gemmNR {
					nr := min(gemmNR, b-j)
					a, x, y := bs[i*ldb+pc:], h[pc*ldh+j:], w[i*ldw+j:]
					if mr == gemmMR && nr == gemmNR {
						microKernelNNSub(kc, a, ldb, x, ldh, y, ldw)
						continue
					}
					if nr == gemmNR {
						// A partial row tile, padded as in gemmTN.
						var pad [gemmMR * gemmKC]float64
						var tile [gemmMR * gemmNR]float64
						for r := 0; r < mr; r++ {
							copy(pad[r*kc:(r+1)*kc], a[r*ldb:r*ldb+kc])
						}
						microKernelNNSub(kc, pad[:], kc, x, ldh, tile[:], gemmNR)
						for r := 0; r < mr; r++ {
							row := y[r*ldw : r*ldw+gemmNR]
							for j := range row {
								row[j] += tile[r*gemmNR+j]
							}
						}
						continue
					}
					edgeTile(kc, mr, nr, func(p, r int) float64 { return a[r*ldb+p] }, x, ldh, y, ldw, -1)
				}
			}
		}
	})
}

// basisChunk is the row chunk of the basis products: a multiple of
// gemmMR, about four per goroutine, all rows at once when the product is
// small.
func basisChunk(rows, work int) int {
	if work < gemmSerial {
		return rows
	}
	chunk := max(gemmMR, rows/(4*maxProcs()))
	return (chunk + gemmMR - 1) / gemmMR * gemmMR
}

// edgeTile is a partial kernel tile (mr < 6 rows or nr < 8 columns):
// each element summed over p by fused multiply-adds from zero, then added
// to c times s (±1), as the kernels do.
func edgeTile(k, mr, nr int, a func(p, r int) float64, b []float64, ldb int, c []float64, ldc int, s float64) {
	for r := 0; r < mr; r++ {
		for j := 0; j < nr; j++ {
			var acc float64
			for p := 0; p < k; p++ {
				acc = math.FMA(a(p, r), b[p*ldb+j], acc)
			}
			c[r*ldc+j] += s * acc
		}
	}
}

// kern6x8sGo is the portable kern6x8s.
func kern6x8sGo(k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	edgeTile(k, gemmMR, gemmNR, func(p, r int) float64 { return a[p*lda+r] }, b, ldb, c, ldc, 1)
}

// kern6x8rGo is the portable kern6x8r.
func kern6x8rGo(k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	edgeTile(k, gemmMR, gemmNR, func(p, r int) float64 { return a[r*lda+p] }, b, ldb, c, ldc, -1)
}
