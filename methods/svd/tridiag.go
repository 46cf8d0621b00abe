package svd

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
)

// The symmetric tridiagonal eigenproblem by divide and conquer (Cuppen
// 1981, with Gu & Eisenstat's 1995 recomputation of the rank-one vector
// for orthogonal eigenvectors): T is split in the middle into two halves
// plus a rank-one term, each half is solved recursively (the two on their
// own goroutines), and the halves' eigen-decompositions are merged by
// solving the secular equation of the rank-one update of a diagonal
// matrix. Nearly all the work is the product that rotates the halves'
// eigenvectors into the merged ones, which runs on the GEMM kernel; the
// QL/QR iteration (gonum's Dsteqr) only solves the leaves. Compared with
// Dsteqr on the whole matrix, whose rotations are applied to the
// eigenvector matrix one at a time, this is one to two orders of
// magnitude faster at the sizes of krylov's projected problem (500–2000).
//
// Determinism: every eigenvalue and vector comes from a fixed sequence of
// operations on fixed inputs (the secular roots are independent of each
// other, the GEMM sums in a fixed order), so the result does not depend on
// GOMAXPROCS or on which goroutine computes what.

// dcLeaf is the largest subproblem solved by QL/QR iteration directly.
const dcLeaf = 32

// dcParallel is the smallest subproblem whose halves are solved on two
// goroutines.
const dcParallel = 256

// tridiagEig computes all eigenvalues and eigenvectors of the symmetric
// tridiagonal matrix with diagonal d (n) and off-diagonal e (n−1): on
// return d holds the eigenvalues in increasing order and columns [0, n) of
// q (n rows, stride ldq) the orthonormal eigenvectors in the same order.
// e is destroyed. ws is scratch of at least 2n² numbers.
func tridiagEig(d, e, q []float64, ldq int, ws []float64) error {
	n := len(d)
	if n == 0 {
		return nil
	}
	if len(e) < n-1 || len(ws) < 2*n*n || len(q) < (n-1)*ldq+n {
		return fmt.Errorf("tridiagonal eigenproblem of order %d: buffers too small", n)
	}
	for i := 0; i < n; i++ {
		clear(q[i*ldq : i*ldq+n])
	}
	if err := dcSolve(d, e[:max(n-1, 0)], q, ldq, ws); err != nil {
		return err
	}
	// The merges leave their eigenvalues unsorted; sort them once here,
	// moving the columns with them through ws.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpFloat(d[a], d[b]) })
	vals := make([]float64, n)
	for i := 0; i < n; i++ {
		row := q[i*ldq : i*ldq+n]
		tmp := ws[:n]
		for j, o := range order {
			tmp[j] = row[o]
		}
		copy(row, tmp)
	}
	for j, o := range order {
		vals[j] = d[o]
	}
	copy(d, vals)
	return nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// dcSolve puts the eigenvalues of the tridiagonal (d, e) into d, in no
// particular order, and the matching eigenvectors into the columns of the
// n×n block of q, which must be zero on entry. ws has 2n² numbers.
func dcSolve(d, e, q []float64, ldq int, ws []float64) error {
	n := len(d)
	if n <= dcLeaf {
		work := make([]float64, max(1, 2*n-2))
		if !(gonum.Implementation{}).Dsteqr(lapack.EVTridiag, n, d, e, q, ldq, work) {
			return fmt.Errorf("QL/QR iteration on a tridiagonal block of order %d did not converge", n)
		}
		return nil
	}
	m := n / 2
	rho := e[m-1]
	d[m-1] -= math.Abs(rho)
	d[m] -= math.Abs(rho)
	// The halves' scratch lies in disjoint parts of ws; the merge reuses
	// all of it afterwards.
	lo := func() error { return dcSolve(d[:m], e[:m-1], q, ldq, ws[:2*m*m]) }
	hi := func() error {
		return dcSolve(d[m:], e[m:], q[m*ldq+m:], ldq, ws[2*m*m:2*m*m+2*(n-m)*(n-m)])
	}
	var errLo, errHi error
	if n >= dcParallel {
		var wg sync.WaitGroup
		wg.Go(func() { errLo = lo() })
		errHi = hi()
		wg.Wait()
	} else {
		errLo, errHi = lo(), hi()
	}
	if errLo != nil {
		return errLo
	}
	if errHi != nil {
		return errHi
	}
	return dcMerge(d, q, ldq, m, rho, ws)
}

// dcMerge merges the eigen-decompositions of the two halves [0, m) and
// [m, n) held in d and the block-diagonal q into that of
// diag(T1, T2) + |ρ|·v·vᵀ with v = e_{m−1} + sign(ρ)·e_m (the tridiagonal
// T before its split). In the halves' eigenbases this is D + r·z·zᵀ with
// r = 2|ρ| and z = (last row of Q1, sign(ρ)·first row of Q2)/√2, a unit
// vector. The eigenvalues come back in d, the non-deflated ones first in
// increasing order.
func dcMerge(d, q []float64, ldq, m int, rho float64, ws []float64) error {
	n := len(d)
	if rho == 0 {
		return nil // the halves are already the answer
	}
	r := 2 * math.Abs(rho)
	z := make([]float64, n)
	for j := 0; j < m; j++ {
		z[j] = q[(m-1)*ldq+j] / math.Sqrt2
	}
	sg := math.Copysign(1, rho)
	for j := m; j < n; j++ {
		z[j] = sg * q[m*ldq+j] / math.Sqrt2
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpFloat(d[a], d[b]) })
	var dmax, zmax float64
	for j := 0; j < n; j++ {
		dmax = max(dmax, math.Abs(d[j]))
		zmax = max(zmax, math.Abs(z[j]))
	}
	tol := 8 * dlamchE * max(dmax, r*zmax)

	// Deflation, in increasing order of d: a negligible z component leaves
	// its eigenpair as it is; two close values are rotated so that one of
	// them has a zero z component, which deflates it when the coupling the
	// rotation leaves is negligible.
	type pole struct {
		d, z float64
		col  int
	}
	var keep []pole
	var defl []pole
	cur := pole{col: -1}
	for _, j := range order {
		p := pole{d: d[j], z: z[j], col: j}
		if r*math.Abs(p.z) <= tol {
			defl = append(defl, p)
			continue
		}
		if cur.col < 0 {
			cur = p
			continue
		}
		h := math.Hypot(cur.z, p.z)
		c, s := p.z/h, cur.z/h
		if math.Abs(c*s*(p.d-cur.d)) <= tol {
			// Columns (cur, p)·[[c, s], [−s, c]]: the first has zero z.
			for i := 0; i < n; i++ {
				a, b := q[i*ldq+cur.col], q[i*ldq+p.col]
				q[i*ldq+cur.col] = c*a - s*b
				q[i*ldq+p.col] = s*a + c*b
			}
			defl = append(defl, pole{d: c*c*cur.d + s*s*p.d, col: cur.col})
			cur = pole{d: s*s*cur.d + c*c*p.d, z: h, col: p.col}
			continue
		}
		keep = append(keep, cur)
		cur = p
	}
	if cur.col >= 0 {
		keep = append(keep, cur)
	}
	k := len(keep)
	dk, zk := make([]float64, k), make([]float64, k)
	var zz float64
	for i, p := range keep {
		dk[i], zk[i] = p.d, p.z
		zz += p.z * p.z
	}

	// Roots λ_i = dk[orig_i] + τ_i of the secular equation, the
	// recomputed ẑ, and the eigenvectors w_i ∝ (ẑ_j/(dk_j − λ_i))_j of
	// D + r·ẑ·ẑᵀ as the columns of the k×k matrix w.
	orig := make([]int, k)
	tau := make([]float64, k)
	parallelFor(k, func(i int) { orig[i], tau[i] = secularRoot(dk, zk, r, zz, i) })
	// λ_j − dk_i, accurate because dk[orig_j] − dk_i is exact-ish and τ_j
	// small.
	diff := func(j, i int) float64 { return (dk[orig[j]] - dk[i]) + tau[j] }
	zhat := make([]float64, k)
	parallelFor(k, func(i int) {
		p := diff(k-1, i) / r
		for j := 0; j < i; j++ {
			p *= diff(j, i) / (dk[j] - dk[i])
		}
		for j := i; j < k-1; j++ {
			p *= diff(j, i) / (dk[j+1] - dk[i])
		}
		zhat[i] = math.Copysign(math.Sqrt(math.Abs(p)), zk[i])
	})
	s := ws[:n*n] // the kept columns of q, then the deflated ones
	w := ws[n*n : n*n+k*k]
	parallelFor(k, func(i int) {
		var nrm float64
		for j := 0; j < k; j++ {
			v := zhat[j] / ((dk[j] - dk[orig[i]]) - tau[i])
			w[j*k+i] = v
			nrm += v * v
		}
		nrm = 1 / math.Sqrt(nrm)
		for j := 0; j < k; j++ {
			w[j*k+i] *= nrm
		}
	})
	for i := 0; i < n; i++ {
		row := q[i*ldq : i*ldq+n]
		srow := s[i*n : (i+1)*n]
		for j, p := range keep {
			srow[j] = row[p.col]
		}
		for j, p := range defl {
			srow[k+j] = row[p.col]
		}
	}
	for i := 0; i < n; i++ {
		row := q[i*ldq : i*ldq+n]
		clear(row[:k])
		copy(row[k:], s[i*n+k:(i+1)*n])
	}
	gemmAdd(n, k, k, view{data: s, rs: n, cs: 1}, view{data: w, rs: k, cs: 1}, q, ldq, false)
	for i := 0; i < k; i++ {
		d[i] = dk[orig[i]] + tau[i]
	}
	for j, p := range defl {
		d[k+j] = p.d
	}
	return nil
}

// dlamchE is the unit roundoff, LAPACK's dlamch('E').
const dlamchE = 1.0 / (1 << 53)

// parallelFor runs f(i) for i in [0, n) on up to GOMAXPROCS goroutines;
// every i must write only its own outputs.
func parallelFor(n int, f func(i int)) {
	forChunks(n, 64, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			f(i)
		}
	})
}

// secularRoot returns the i-th smallest root λ = d[o] + τ of
//
//	f(λ) = 1/r + Σ_j z_j²/(d_j − λ)
//
// for strictly increasing d, non-zero z, r > 0 and zz = Σ z_j²: the one in
// (d_i, d_{i+1}), or in (d_{k−1}, d_{k−1} + r·zz] for the last. The origin
// o is the nearer pole, so that the differences d_j − λ = (d_j − d_o) − τ
// keep their relative accuracy (what makes the eigenvectors orthogonal).
// f increases between its poles, so the root is bracketed; each step
// takes the root of a model with the two neighbouring poles fitted to the
// values and slopes of the sums left and right of the root (a rational
// Newton step), or bisects when that leaves the bracket.
func secularRoot(d, z []float64, r, zz float64, i int) (int, float64) {
	k := len(d)
	o := i
	var lo, hi float64
	if i == k-1 {
		lo, hi = 0, r*zz
	} else {
		mid := (d[i+1] - d[i]) / 2
		if f, _, _, _, _ := secularEval(d, z, r, i, i, mid); f >= 0 {
			lo, hi = 0, mid
		} else {
			o = i + 1
			lo, hi = (d[i]-d[i+1])+mid, 0
		}
	}
	// Poles of the model in τ coordinates; b is absent for the last root.
	a := d[i] - d[o]
	b := math.Inf(1)
	if i < k-1 {
		b = d[i+1] - d[o]
	}
	t := (lo + hi) / 2
	for range 200 {
		f, psi, dpsi, phi, dphi := secularEval(d, z, r, o, i, t)
		// The evaluation's own error bound (each term and sum rounded).
		bound := dlamchE * (8*(1/r+math.Abs(psi)+math.Abs(phi)) + 3*math.Abs(t)*(dpsi+dphi) + float64(k)*(1/r))
		if math.Abs(f) <= bound {
			break
		}
		if f > 0 {
			hi = t
		} else {
			lo = t
		}
		next := math.NaN()
		pa := dpsi * (a - t) * (a - t)
		c := 1/r + psi - pa/(a-t)
		if math.IsInf(b, 1) {
			if c > 0 {
				next = a + pa/c
			}
		} else {
			pb := dphi * (b - t) * (b - t)
			c += phi - pb/(b-t)
			next = twoPoleRoot(c, a, pa, b, pb)
		}
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		if next == t || next <= lo || next >= hi {
			break // the bracket cannot shrink further
		}
		t = next
	}
	return o, t
}

// secularEval returns f at λ = d[o] + t and its parts: psi (poles j ≤ i,
// left of the root), phi (poles j > i) and their derivatives.
func secularEval(d, z []float64, r float64, o, i int, t float64) (f, psi, dpsi, phi, dphi float64) {
	do := d[o]
	for j := 0; j <= i; j++ {
		q := z[j] / ((d[j] - do) - t)
		psi += z[j] * q
		dpsi += q * q
	}
	for j := i + 1; j < len(d); j++ {
		q := z[j] / ((d[j] - do) - t)
		phi += z[j] * q
		dphi += q * q
	}
	return 1/r + psi + phi, psi, dpsi, phi, dphi
}

// twoPoleRoot returns the root in (a, b) of c + pa/(a − x) + pb/(b − x)
// (pa, pb > 0, a < b), or NaN when rounding puts it outside.
func twoPoleRoot(c, a, pa, b, pb float64) float64 {
	// c·(a−x)(b−x) + pa·(b−x) + pb·(a−x) = 0, a quadratic in x.
	qa := c
	qb := -(c*(a+b) + pa + pb)
	qc := c*a*b + pa*b + pb*a
	if qa == 0 {
		return qc / -qb
	}
	disc := qb*qb - 4*qa*qc
	if disc < 0 {
		disc = 0
	}
	sq := math.Sqrt(disc)
	var u float64
	if qb >= 0 {
		u = -(qb + sq) / 2
	} else {
		u = -(qb - sq) / 2
	}
	x1, x2 := u/qa, qc/u
	if x1 > a && x1 < b {
		return x1
	}
	if x2 > a && x2 < b {
		return x2
	}
	return math.NaN()
}
