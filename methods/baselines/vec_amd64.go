package baselines

import "golang.org/x/sys/cpu"

//go:noescape
func dot8(n int, x, y *float32) float32

//go:noescape
func update8(n int, s float32, u, h, e *float32)

//go:noescape
func add8(n int, x, y *float32)

// hasFMA selects the AVX2+FMA kernels; without them the gonum kernels run
// (same results up to rounding, still reproducible on one machine).
var hasFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// hasAVX selects the AVX add kernel; it needs no FMA.
var hasAVX = cpu.X86.HasAVX

// dotF32 returns Σ x[i]·y[i] over len(x) elements (y at least as long).
func dotF32(x, y []float32) float32 {
	n := len(x)
	if !hasFMA || n < 8 {
		return blas.Sdot(n, x, 1, y, 1)
	}
	m := n &^ 7
	_ = y[n-1]
	s := dot8(m, &x[0], &y[0])
	for i := m; i < n; i++ {
		s += x[i] * y[i]
	}
	return s
}

// negUpdate does e += g·u, then u += g·h, over len(u) elements.
func negUpdate(g float32, u, h, e []float32) {
	n := len(u)
	if !hasFMA || n < 8 {
		updateGo(g, u, h, e)
		return
	}
	m := n &^ 7
	_, _ = h[n-1], e[n-1]
	update8(m, g, &u[0], &h[0], &e[0])
	for i := m; i < n; i++ {
		e[i] += g * u[i]
		u[i] += g * h[i]
	}
}

// addF32 does y += x over len(x) elements (y at least as long).
func addF32(x, y []float32) {
	n := len(x)
	if !hasAVX || n < 8 {
		addGo(x, y)
		return
	}
	m := n &^ 7
	_ = y[n-1]
	add8(m, &x[0], &y[0])
	for i := m; i < n; i++ {
		y[i] += x[i]
	}
}
