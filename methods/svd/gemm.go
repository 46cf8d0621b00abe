package svd

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// A small GEMM for the tall-and-skinny products of the randomized SVD,
// several times faster than gonum's pure-Go Dgemm here: a 6×8 register
// kernel (AVX2/FMA assembly on amd64, math.FMA elsewhere) on packed
// panels, with the rows of C split between goroutines.
//
// Determinism: every element of C is updated as c += Σ_p a·b with the sum
// over each block of gemmKC values of p taken in order by fused
// multiply-adds from zero, blocks in order. How the rows of C are split
// between goroutines never changes this, and the Go kernel rounds exactly
// like the assembly one, so results are the same bits whatever GOMAXPROCS
// or the CPU's features are.

const (
	gemmMR = 6   // kernel rows
	gemmNR = 8   // kernel columns
	gemmKC = 256 // depth of a packed panel
	gemmMC = 96  // rows of a packed A block (a multiple of gemmMR)
	gemmNC = 512 // columns of a packed B panel (a multiple of gemmNR)
	// gemmSerial is the multiply-add count below which one goroutine runs.
	gemmSerial = 1 << 18
)

// packBufs recycles the packing buffers (1.2 MB a goroutine): an LU makes
// dozens of products, and fresh buffers each time would pile up garbage.
var packBufs = sync.Pool{New: func() any {
	b := make([]float64, gemmMC*gemmKC+gemmKC*gemmNC)
	return &b
}}

// view is a strided matrix: element (i, j) is data[i*rs+j*cs].
type view struct {
	data   []float64
	rs, cs int
}

func (v view) at(i, j int) float64 { return v.data[i*v.rs+j*v.cs] }

// gemmAdd sets C += s·A·B for A m×k, B k×n and C m×n row-major with stride
// ldc, where s is −1 if neg, else 1 (applied exactly, while packing A). C
// must not overlap A or B.
func gemmAdd(m, n, k int, a, b view, c []float64, ldc int, neg bool) {
	if m == 0 || n == 0 || k == 0 {
		return
	}
	workers := runtime.GOMAXPROCS(0)
	if m*n*k < gemmSerial {
		workers = 1
	}
	// Row chunks a multiple of gemmMR high: every kernel tile then sits at
	// the same place whatever the split.
	chunk := max(gemmMR, (m+4*workers-1)/(4*workers))
	chunk = (chunk + gemmMR - 1) / gemmMR * gemmMR
	nChunks := (m + chunk - 1) / chunk
	workers = min(workers, nChunks)
	var next atomic.Int64
	run := func() {
		buf := packBufs.Get().(*[]float64)
		defer packBufs.Put(buf)
		pa, pb := (*buf)[:gemmMC*gemmKC], (*buf)[gemmMC*gemmKC:]
		var tile [gemmMR * gemmNR]float64
		for {
			ch := int(next.Add(1) - 1)
			if ch >= nChunks {
				return
			}
			r0, r1 := ch*chunk, min(m, (ch+1)*chunk)
			for jc := 0; jc < n; jc += gemmNC {
				nc := min(gemmNC, n-jc)
				for pc := 0; pc < k; pc += gemmKC {
					kc := min(gemmKC, k-pc)
					packB(pb, b, pc, kc, jc, nc)
					for ic := r0; ic < r1; ic += gemmMC {
						mc := min(gemmMC, r1-ic)
						packA(pa, a, ic, mc, pc, kc, neg)
						for jr := 0; jr < nc; jr += gemmNR {
							nr := min(gemmNR, nc-jr)
							bs := pb[jr*kc : jr*kc+gemmNR*kc]
							for ir := 0; ir < mc; ir += gemmMR {
								mr := min(gemmMR, mc-ir)
								as := pa[ir*kc : ir*kc+gemmMR*kc]
								off := (ic+ir)*ldc + jc + jr
								if mr == gemmMR && nr == gemmNR {
									microKernel(kc, as, bs, c[off:], ldc)
									continue
								}
								tile = [gemmMR * gemmNR]float64{}
								microKernel(kc, as, bs, tile[:], gemmNR)
								for i := 0; i < mr; i++ {
									row := c[off+i*ldc : off+i*ldc+nr]
									for j := range row {
										row[j] += tile[i*gemmNR+j]
									}
								}
							}
						}
					}
				}
			}
		}
	}
	if workers == 1 {
		run()
		return
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(run)
	}
	wg.Wait()
}

// packA copies rows i0..i0+mc, columns p0..p0+kc of a (negated if neg)
// into slivers of gemmMR rows, each stored p-major, zero-padded.
func packA(dst []float64, a view, i0, mc, p0, kc int, neg bool) {
	s := 1.0
	if neg {
		s = -1
	}
	if a.rs == 1 {
		packAT(dst, a, i0, mc, p0, kc, s)
		return
	}
	for ir := 0; ir < mc; ir += gemmMR {
		d := dst[ir*kc : ir*kc+gemmMR*kc]
		mr := min(gemmMR, mc-ir)
		if mr < gemmMR {
			clear(d)
		}
		for r := 0; r < mr; r++ {
			base := (i0+ir+r)*a.rs + p0*a.cs
			for p := 0; p < kc; p++ {
				d[p*gemmMR+r] = s * a.data[base+p*a.cs]
			}
		}
	}
}

// packAT is packA for a transposed matrix (a.rs = 1), whose rows of A are
// columns in memory: it walks memory in order, one stored row (mc
// contiguous values) at a time, scattering into the slivers. Sliver by
// sliver instead, every value read would sit on another page, which made
// packing cost more than the kernel in krylov's Gram–Schmidt (BenchmarkGemmProject).
func packAT(dst []float64, a view, i0, mc, p0, kc int, s float64) {
	if rem := mc % gemmMR; rem != 0 {
		last := mc - rem
		clear(dst[last*kc : last*kc+gemmMR*kc])
	}
	for p := 0; p < kc; p++ {
		base := i0 + (p0+p)*a.cs
		row := a.data[base : base+mc]
		ir := 0
		for ; ir+gemmMR <= mc; ir += gemmMR {
			d := (*[gemmMR]float64)(dst[ir*kc+p*gemmMR:])
			x := (*[gemmMR]float64)(row[ir:])
			for r := range d {
				d[r] = s * x[r]
			}
		}
		if ir < mc {
			d := dst[ir*kc+p*gemmMR:]
			for r, x := range row[ir:] {
				d[r] = s * x
			}
		}
	}
}

// packB copies rows p0..p0+kc, columns j0..j0+nc of b into slivers of
// gemmNR columns, each stored p-major, zero-padded.
func packB(dst []float64, b view, p0, kc, j0, nc int) {
	for jr := 0; jr < nc; jr += gemmNR {
		d := dst[jr*kc : jr*kc+gemmNR*kc]
		nr := min(gemmNR, nc-jr)
		if b.cs == 1 && nr == gemmNR {
			for p := 0; p < kc; p++ {
				base := (p0+p)*b.rs + j0 + jr
				copy(d[p*gemmNR:p*gemmNR+gemmNR], b.data[base:base+gemmNR])
			}
			continue
		}
		if nr < gemmNR {
			clear(d)
		}
		for p := 0; p < kc; p++ {
			for j := 0; j < nr; j++ {
				d[p*gemmNR+j] = b.at(p0+p, j0+jr+j)
			}
		}
	}
}

// kern6x8Go is the portable kernel, rounding exactly like kern6x8.
func kern6x8Go(k int, a, b, c []float64, ldc int) {
	var acc [gemmMR * gemmNR]float64
	for p := 0; p < k; p++ {
		ap := a[p*gemmMR : p*gemmMR+gemmMR]
		bp := b[p*gemmNR : p*gemmNR+gemmNR]
		for i, ai := range ap {
			row := acc[i*gemmNR : i*gemmNR+gemmNR]
			for j, bj := range bp {
				row[j] = math.FMA(ai, bj, row[j])
			}
		}
	}
	for i := 0; i < gemmMR; i++ {
		row := c[i*ldc : i*ldc+gemmNR]
		for j := range row {
			row[j] += acc[i*gemmNR+j]
		}
	}
}

// dot16Go is the portable dot16 (len(x) a multiple of 16): sixteen partial
// sums s_l over i ≡ l (mod 16) by fused multiply-adds from zero, combined
// as t_l = (s_l + s_{l+4}) + (s_{l+8} + s_{l+12}), then
// (t_0 + t_2) + (t_1 + t_3). Sixteen independent chains instead of one
// keep the adder busy; the order is fixed, so the bits are too.
func dot16Go(x, y []float64) float64 {
	var s [16]float64
	for i := 0; i+16 <= len(x); i += 16 {
		xs, ys := (*[16]float64)(x[i:]), (*[16]float64)(y[i:])
		for l := range s {
			s[l] = math.FMA(xs[l], ys[l], s[l])
		}
	}
	var t [4]float64
	for l := range t {
		t[l] = (s[l] + s[l+4]) + (s[l+8] + s[l+12])
	}
	return (t[0] + t[2]) + (t[1] + t[3])
}
