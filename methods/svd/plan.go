package svd

import (
	"fmt"
	"runtime"
	"strings"
)

// Buffer is one allocation a backend makes while decomposing.
type Buffer struct {
	Name       string
	Rows, Cols int
	Bytes      int64
}

// MemoryPlan lists the buffers a backend allocates for a decomposition of a
// rows×cols operator, before it allocates any. Peak is their sum, an
// upper bound (a few are garbage by the time the last are made, but the
// collector need not have returned them); the operator itself (the sparse table) and the caller's
// copies of the result are not in it. The buffers of LAPACK's workspace
// and of small l×l problems are estimates (their exact sizes depend on the
// library's block sizes); the blocks that scale with the table's
// dimensions, which dominate, are exact.
type MemoryPlan struct {
	Backend    string
	Rows, Cols int
	Rank       int
	Buffers    []Buffer
	Peak       int64
}

// String names the sizes: the backend, the problem and each buffer.
func (p MemoryPlan) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s SVD of a %d×%d operator at rank %d plans %s:", p.Backend, p.Rows, p.Cols, p.Rank, mib(p.Peak))
	for i, x := range p.Buffers {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s %d×%d %s", x.Name, x.Rows, x.Cols, mib(x.Bytes))
	}
	return b.String()
}

func mib(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

type planner struct{ p MemoryPlan }

// gemm adds gemmAdd's packing buffers, which sit in a pool between
// products: one per goroutine, GOMAXPROCS of them unless the largest
// product (m·n·k multiply-adds) is small enough to run on one.
func (pl *planner) gemm(largest int64) {
	g := runtime.GOMAXPROCS(0)
	if largest < gemmSerial {
		g = 1
	}
	pl.add("GEMM packing", g, gemmMC*gemmKC+gemmKC*gemmNC)
}

// add records a float64 buffer of r×c.
func (pl *planner) add(name string, r, c int) {
	pl.p.Buffers = append(pl.p.Buffers, Buffer{Name: name, Rows: r, Cols: c, Bytes: 8 * int64(r) * int64(c)})
}

func (pl *planner) total() int64 {
	var n int64
	for _, b := range pl.p.Buffers {
		n += b.Bytes
	}
	return n
}

// Plan returns the memory plan of backend for a rows×cols operator with
// opt, without allocating; it fails on the options the backend would
// refuse.
func Plan(backend string, rows, cols int, opt Options) (MemoryPlan, error) {
	pl := &planner{p: MemoryPlan{Backend: backend, Rows: rows, Cols: cols, Rank: opt.Rank}}
	if err := checkRank(opt.Rank, rows, cols); err != nil {
		return pl.p, fmt.Errorf("%s SVD: %w", backend, err)
	}
	k := opt.Rank
	check := func(r, c int) {
		// Check's reused product blocks (at most checkChunk columns).
		if opt.Check {
			w := min(k, checkChunk)
			pl.add("check blocks", r+c, w)
		}
	}
	switch backend {
	case "dense", "lapack":
		// materialize, then Gesvd in place: U, Vᵀ, s and the workspace
		// (an estimate: 5·p plus blocked panels), then V = Vᵀ's first k
		// rows transposed while U and Vᵀ are alive.
		p := min(rows, cols)
		pl.add("A", rows, cols)
		pl.add("U", rows, p)
		pl.add("Vᵀ", p, cols)
		pl.add("LAPACK work", 1, 5*p+64*(rows+cols))
		pl.add("V", cols, k)
		if impl := denseSVD; backend == "dense" || nativeSVD != nil {
			if backend == "lapack" {
				impl = *nativeSVD
			}
			if x := impl.extra(rows, cols); x > 0 {
				pl.p.Buffers = append(pl.p.Buffers, Buffer{Name: impl.name + " copies and work", Rows: 1, Cols: int(x / 8), Bytes: x})
			}
		}
		check(rows, cols)
		pl.p.Peak = pl.total()
		return pl.p, nil
	case "randomized", "dssvd":
		rp, err := newPlan(opt, rows, cols)
		if err != nil {
			return pl.p, fmt.Errorf("%s SVD: %w", backend, err)
		}
		l := rp.l
		if backend == "randomized" {
			pl.add("A", rows, cols)
		}
		// Ω and its successors (c×l), Y then Q then U (r×l), the LU
		// panel scratch, and sketchSVD's l×l Gram matrix, eigenvectors
		// and W with the row scratch of the in-place product.
		pl.add("Ω/Bᵀ/V", cols, l)
		pl.add("Y/Q/U", rows, l)
		pl.add("LU panel", max(rows, cols), luPanelCols)
		pl.add("Gram, eigenvectors, W", 3*l, l)
		pl.add("row scratch", min(mulRightInPlaceRows, max(rows, cols)), l)
		pl.gemm(int64(max(rows, cols)) * int64(l) * int64(l))
		if rp.native != nil {
			x := rp.native.eigExtra(l)
			pl.p.Buffers = append(pl.p.Buffers, Buffer{Name: rp.native.name + " copy and work", Rows: 1, Cols: int(x / 8), Bytes: x})
		}
		check(rows, cols)
		pl.p.Peak = pl.total()
		return pl.p, nil
	case "krylov":
		// The basis lives on the smaller side (see Decompose).
		r, c := rows, cols
		if r < c {
			r, c = c, r
		}
		kp, err := newKrylovPlan(opt, c)
		if err != nil {
			return pl.p, fmt.Errorf("%s SVD: %w", backend, err)
		}
		if kp.mpd < 3*kp.b {
			// Small operators are built from products and done densely.
			pl.add("A", r, c)
			pl.add("U", r, c)
			pl.add("Vᵀ", c, c)
			pl.add("LAPACK work", 1, 5*c+64*(r+c))
			pl.p.Peak = pl.total()
			return pl.p, nil
		}
		planKrylovWindow(pl, r, c, k, kp.b, kp.mpd)
		pl.p.Peak = pl.total()
		return pl.p, nil
	}
	return pl.p, fmt.Errorf("unknown SVD backend %q (allowed: %s)", backend, strings.Join(Names, ", "))
}

// planKrylovWindow adds the krylov backend's buffers for an r×c operator
// (c the smaller side) at rank k, block b and active basis mpd.
func planKrylovWindow(pl *planner, r, c, k, b, mpd int) {
	ld := k + mpd + 2*b
	tdim := mpd + b
	pl.add("basis (locked, active, next block)", c, ld)
	pl.add("T", tdim, tdim)
	pl.add("locked coupling Lᵀ·M·V and its products", 2*k, tdim)
	pl.add("X, W blocks", 2*c, b)
	pl.add("Y block", r, b)
	pl.add("coefficients, scratch", 2*ld, b)
	pl.add("QR, Gram–Schmidt scratch", min(mulRightInPlaceRows, c)+c, b)
	pl.add("rotation scratch", min(rotateRows, c), tdim)
	// The projected eigenproblem: the matrix, the tridiagonal
	// eigenvectors, divide and conquer's scratch (2·tdim²), the Ritz
	// vectors and the panels (symEigWorkFloats).
	pl.add("eigenproblem (matrix, vectors, scratch)", 1, int(symEigWorkFloats(tdim)))
	// finishLanczos: U (r×k) and the check blocks, with the basis.
	pl.add("U", r, k)
	pl.add("check blocks", r+c, min(k, checkChunk))
	pl.gemm(int64(c) * int64(ld) * int64(max(b, tdim)))
}

// checkPlan refuses, before anything is allocated, a decomposition whose
// planned peak exceeds opt.MaxBytes.
func checkPlan(backend string, rows, cols int, opt Options) error {
	if opt.MaxBytes <= 0 {
		return nil
	}
	p, err := Plan(backend, rows, cols, opt)
	if err != nil {
		return err
	}
	if p.Peak > opt.MaxBytes {
		return fmt.Errorf("%v, more than the budget of %s: %w", p, mib(opt.MaxBytes), ErrOverBudget)
	}
	return nil
}
