package svd

import (
	"fmt"
	"math"
)

// The dense symmetric eigenproblem of krylov's projected matrix, in pure
// Go and on the GEMM kernel: Householder reduction to tridiagonal form
// (blocked as LAPACK's dsytrd: a panel of symtrdBlock reflectors at a
// time, the trailing matrix updated by two GEMMs per panel), divide and
// conquer on the tridiagonal matrix (tridiag.go), and the reflectors
// applied to the wanted eigenvectors only, a panel at a time in compact
// WY form (LAPACK's dormtr). gonum's Dsyev, which this replaces, reduces
// with unblocked BLAS-2 and finds the vectors by QL/QR rotations applied
// one at a time: at order 1,000 it took 1.7 s a call, this about 0.1 s.
// Every step is a fixed sequence of operations whose parallel parts give
// each output one writer, so the bits do not depend on GOMAXPROCS.

// symtrdBlock is the panel width of the reduction and the
// back-transformation.
const symtrdBlock = 32

// symEigWork is the scratch of symEigTop for matrices up to order n: the
// full matrix (then the reflectors), the tridiagonal eigenvectors, the
// divide and conquer's scratch and the panels.
type symEigWork struct {
	n             int
	a, z, dc      []float64
	vp, wp        []float64
	d, e, tau, yv []float64
	g, tt         []float64
}

func newSymEigWork(n int) *symEigWork {
	return &symEigWork{
		n:   n,
		a:   make([]float64, n*n),
		z:   make([]float64, n*n),
		dc:  make([]float64, 2*n*n),
		vp:  make([]float64, n*symtrdBlock),
		wp:  make([]float64, n*symtrdBlock),
		d:   make([]float64, n),
		e:   make([]float64, n),
		tau: make([]float64, n),
		yv:  make([]float64, n*n+symtrdBlock*n),
		g:   make([]float64, symtrdBlock*n),
		tt:  make([]float64, symtrdBlock*symtrdBlock),
	}
}

// symEigWorkFloats is the size of symEigWork for order n, in numbers.
func symEigWorkFloats(n int) int64 {
	n64 := int64(n)
	return 5*n64*n64 + 4*n64*symtrdBlock + 4*n64 + symtrdBlock*symtrdBlock
}

// symEigTop returns all n eigenvalues of the symmetric matrix whose upper
// triangle is stored in t (row i from column i on, stride ldt), in
// decreasing order, and the eigenvectors of the m largest as the columns
// of a row-major n×m matrix (in ws, valid until the next call).
func symEigTop(t []float64, ldt, n, m int, ws *symEigWork) ([]float64, []float64, error) {
	if n > ws.n || m > n {
		return nil, nil, fmt.Errorf("eigenproblem of order %d (%d vectors) in scratch for %d", n, m, ws.n)
	}
	a := ws.a[:n*n]
	for i := 0; i < n; i++ {
		copy(a[i*n+i:(i+1)*n], t[i*ldt+i:i*ldt+n])
		for j := i + 1; j < n; j++ {
			a[j*n+i] = a[i*n+j]
		}
	}
	d, e, tau := ws.d[:n], ws.e[:n], ws.tau[:n]
	tridiagonalize(a, n, d, e, tau, ws)
	z := ws.z[:n*n]
	if err := tridiagEig(d, e, z, n, ws.dc[:2*n*n]); err != nil {
		return nil, nil, fmt.Errorf("eigenproblem of the %d×%d projected matrix: %w", n, n, err)
	}
	theta := make([]float64, n)
	for j := range theta {
		theta[j] = d[n-1-j]
	}
	y := ws.yv[:n*m]
	for i := 0; i < n; i++ {
		src := z[i*n : (i+1)*n]
		dst := y[i*m : (i+1)*m]
		for j := range dst {
			dst[j] = src[n-1-j]
		}
	}
	applyReflectors(a, n, tau, y, m, ws)
	return theta, y, nil
}

// tridiagonalize reduces the symmetric n×n matrix a (both triangles
// stored, row-major) to the tridiagonal Qᵀ·A·Q with diagonal d and
// off-diagonal e (n−1), Q = H_0·H_1⋯H_{n−2}, H_i = I − τ_i·v_i·v_iᵀ. The
// reflector v_i is non-zero in entries i+1.. only, which are stored in
// row i of a from column i+1 on (v_i[i+1] = 1).
//
// Within a panel of columns [i0, i1) the trailing matrix is left as it
// was and the reflectors so far are carried as A − V·Wᵀ − W·Vᵀ (V the
// reflectors, W the vectors of LAPACK's dlatrd); after the panel two
// GEMMs apply that update to the trailing matrix. The matrix–vector
// product with the trailing matrix, the rest of the work, is split by
// rows.
func tridiagonalize(a []float64, n int, d, e, tau []float64, ws *symEigWork) {
	const nb = symtrdBlock
	if n == 1 {
		d[0] = a[0]
		return
	}
	vp, wp := ws.vp[:n*nb], ws.wp[:n*nb]
	y := ws.g[:n]
	for i0 := 0; i0 < n-1; i0 += nb {
		i1 := min(i0+nb, n-1)
		clear(vp)
		clear(wp)
		for i := i0; i < i1; i++ {
			j := i - i0
			row := a[i*n : (i+1)*n]
			// Row i (= column i) brought up to date with the panel.
			if j > 0 {
				vi, wi := vp[i*nb:i*nb+j], wp[i*nb:i*nb+j]
				for l := i; l < n; l++ {
					vl, wl := vp[l*nb:l*nb+j], wp[l*nb:l*nb+j]
					var s float64
					for q := range j {
						s += vi[q]*wl[q] + wi[q]*vl[q]
					}
					row[l] -= s
				}
			}
			d[i] = row[i]
			x := row[i+1 : n]
			alpha := x[0]
			var ss float64
			for _, v := range x[1:] {
				ss += v * v
			}
			if ss == 0 {
				tau[i], e[i] = 0, alpha
				x[0] = 1
				continue // w = 0: nothing to carry
			}
			beta := -math.Copysign(math.Hypot(alpha, math.Sqrt(ss)), alpha)
			tau[i], e[i] = (beta-alpha)/beta, beta
			sc := 1 / (alpha - beta)
			for l := 1; l < len(x); l++ {
				x[l] *= sc
			}
			x[0] = 1
			for l := i + 1; l < n; l++ {
				vp[l*nb+j] = x[l-i-1]
			}
			// w = τ·(A − V·Wᵀ − W·Vᵀ)·v on rows i+1.., then w −= (τ/2)(wᵀv)·v.
			yy := y[i+1 : n]
			symvRows(a, n, i+1, x, yy)
			if j > 0 {
				var p1, p2 [nb]float64
				for l := i + 1; l < n; l++ {
					vl, wl, xl := vp[l*nb:l*nb+j], wp[l*nb:l*nb+j], x[l-i-1]
					for q := range j {
						p1[q] += wl[q] * xl
						p2[q] += vl[q] * xl
					}
				}
				for l := i + 1; l < n; l++ {
					vl, wl := vp[l*nb:l*nb+j], wp[l*nb:l*nb+j]
					var s float64
					for q := range j {
						s += vl[q]*p1[q] + wl[q]*p2[q]
					}
					yy[l-i-1] -= s
				}
			}
			t := tau[i]
			var wv float64
			for l, v := range yy {
				yy[l] = t * v
				wv += yy[l] * x[l]
			}
			c := -t / 2 * wv
			for l := i + 1; l < n; l++ {
				wp[l*nb+j] = yy[l-i-1] + c*x[l-i-1]
			}
		}
		// Trailing matrix: A[i1:, i1:] −= V·Wᵀ + W·Vᵀ.
		m := n - i1
		c := a[i1*n+i1:]
		gemmAdd(m, m, nb, view{data: vp[i1*nb:], rs: nb, cs: 1}, view{data: wp[i1*nb:], rs: 1, cs: nb}, c, n, true)
		gemmAdd(m, m, nb, view{data: wp[i1*nb:], rs: nb, cs: 1}, view{data: vp[i1*nb:], rs: 1, cs: nb}, c, n, true)
	}
	d[n-1] = a[(n-1)*n+n-1]
}

// symvRows sets y = A[lo:, lo:]·x for the n×n row-major a, the rows split
// between goroutines (each output summed in order by one of them).
func symvRows(a []float64, n, lo int, x, y []float64) {
	size := n - lo
	chunk := size
	if size*size >= 1<<16 {
		chunk = 64
	}
	forChunks(size, chunk, func(r0, r1 int) {
		for l := r0; l < r1; l++ {
			y[l] = dotFMA(a[(lo+l)*n+lo:(lo+l+1)*n], x)
		}
	})
}

// applyReflectors sets y (n×m, row-major) to Q·y for the Q of
// tridiagonalize, whose reflectors are stored in a: panel by panel from
// the last, y ← (I − V·T·Vᵀ)·y with T the upper triangular factor of the
// panel's compact WY form (LAPACK's dlarft), three GEMMs a panel.
func applyReflectors(a []float64, n int, tau, y []float64, m int, ws *symEigWork) {
	const nb = symtrdBlock
	if n < 2 || m == 0 {
		return
	}
	last := ((n - 2) / nb) * nb
	for i0 := last; i0 >= 0; i0 -= nb {
		i1 := min(i0+nb, n-1)
		w := i1 - i0
		rows := n - i0 - 1 // the panel's reflectors live in rows i0+1..
		v := ws.vp[:rows*w]
		clear(v)
		for j := 0; j < w; j++ {
			i := i0 + j
			src := a[i*n+i+1 : (i+1)*n]
			for l, x := range src {
				v[(l+j)*w+j] = x
			}
		}
		// T: T[j][j] = τ_j, T[:j, j] = −τ_j·T[:j, :j]·(V[:, :j]ᵀ·v_j).
		tt := ws.tt[:w*w]
		clear(tt)
		var u [nb]float64
		for j := 0; j < w; j++ {
			tj := tau[i0+j]
			tt[j*w+j] = tj
			if j == 0 || tj == 0 {
				continue
			}
			for q := 0; q < j; q++ {
				u[q] = 0
			}
			for l := j; l < rows; l++ {
				vl := v[l*w : l*w+j]
				x := v[l*w+j]
				for q := range j {
					u[q] += vl[q] * x
				}
			}
			for q := 0; q < j; q++ {
				var s float64
				for r := q; r < j; r++ {
					s += tt[q*w+r] * u[r]
				}
				tt[q*w+j] = -tj * s
			}
		}
		yp := y[(i0+1)*m:]
		// gᵀ = ypᵀ·V (m×w): split by the m rows, each goroutine packs only
		// the narrow V, not yp (as g = Vᵀ·yp, w×m, would).
		gt := ws.g[:m*w]
		clear(gt)
		gemmAdd(m, w, rows, view{data: yp, rs: 1, cs: m}, view{data: v, rs: w, cs: 1}, gt, w, false)
		// g = T·gᵀᵀ (w×m; T is upper triangular).
		g := ws.yv[n*m : n*m+w*m]
		for q := 0; q < w; q++ {
			gq := g[q*m : (q+1)*m]
			for c := range gq {
				row := gt[c*w : (c+1)*w]
				var s float64
				for r := q; r < w; r++ {
					s += tt[q*w+r] * row[r]
				}
				gq[c] = s
			}
		}
		gemmAdd(rows, m, w, view{data: v, rs: w, cs: 1}, view{data: g, rs: m, cs: 1}, yp, m, true)
	}
}
