package svd

import (
	"fmt"
	"math"
	"strings"
)

// Shape is what Auto reads of a problem: the operator's sides, its stored
// non-zeros (what one product column costs) and the rank wanted.
type Shape struct {
	Rows, Cols int
	NNZ        int64
	Rank       int
}

// Estimate is the cost model's account of one exact backend on a Shape.
type Estimate struct {
	Backend string
	Seconds float64 // the model's wall time on the reference machine
	// Why the backend cannot run here, or "" when it can: not built into
	// this binary, or its memory plan over Options.MaxBytes.
	Excluded string
}

// AutoChoice is the backend Auto picked and every candidate's estimate:
// krylov, lapack, dense.
type AutoChoice struct {
	Backend   string
	Estimates []Estimate
}

// String says which backend was picked and why, for a log line: "krylov
// (cost model: krylov 91 s; lapack 4238 s, not built (-tags lapack); dense
// 1.3e+05 s)".
func (a AutoChoice) String() string {
	var b strings.Builder
	b.WriteString(a.Backend)
	b.WriteString(" (cost model:")
	for i, e := range a.Estimates {
		if i > 0 {
			b.WriteString(";")
		}
		fmt.Fprintf(&b, " %s %s", e.Backend, seconds(e.Seconds))
		if e.Excluded != "" {
			fmt.Fprintf(&b, ", %s", e.Excluded)
		}
	}
	b.WriteString(")")
	return b.String()
}

func seconds(s float64) string {
	switch {
	case s < 0.01:
		return "< 0.01 s"
	case s < 10:
		return fmt.Sprintf("%.2g s", s)
	case s < 1e5:
		return fmt.Sprintf("%.0f s", s)
	}
	return fmt.Sprintf("%.2g s", s)
}

// The cost model's constants, fitted on the 2-core AMD EPYC VM the committed
// results were measured on (methods/svd/doc.go, "Choosing a backend"). They
// are constants, not measured at run time, so that a spec resolves
// svd.backend auto the same way on every machine and at any GOMAXPROCS.
const (
	// costColumn is the seconds one column of a 32-wide delayed sparse
	// product costs per stored non-zero, both ways (0.9 ms a column at
	// 9.8 M non-zeros on text8_prefix's tail-cut table; 1.7 ms at 18.1 M on
	// paper-d8000's).
	costColumn = 9.2e-11
	// costGEMM is the block Gram–Schmidt's rate, flops a second (the GEMM
	// kernel on both cores).
	costGEMM = 8e10
	// costLAPACK and costGonum are a full dense SVD's seconds per m·n·min(m, n)
	// for dgesdd on OpenBLAS (both cores) and for gonum's pure-Go Dgesvd:
	// dgesdd took 217–234 s for 9,207² at every k (svd-k-scaling-small), 87 s for
	// 5,626² and 3.1 s for 1,893² (svd-scaling); gonum 73 s for 1,893².
	costLAPACK = 3.7e-10
	costGonum  = 1.1e-8
)

// krylovProducts is the model's column-products for rank k: about 8 per
// triplet plus a start-up of a few restarts (text8_prefix's tail cut at
// k = 300 … 8000: 2,988, 7,336, 22,776, 73,536; model 3,200, 8,800,
// 24,800, 64,800).
func krylovProducts(k int) float64 { return 8*float64(k) + 800 }

// EstimateSeconds is the cost model's wall time for an exact backend
// ("krylov", "lapack" or "dense") on s, on the reference machine: for
// krylov, P column-products at the sparse product's cost plus block
// Gram–Schmidt against about k/2 locked columns and the active window w,
// T ≈ P·t + 4·c·P·(k/2 + w)/F (or, when the smaller side leaves no room
// for a Krylov basis, the dense SVD it then takes); for the dense
// backends, a constant times m·n·min(m, n), whatever k.
func EstimateSeconds(backend string, s Shape) float64 {
	m, n := float64(s.Rows), float64(s.Cols)
	dense := m * n * math.Min(m, n)
	switch backend {
	case "lapack":
		return costLAPACK * dense
	case "dense":
		return costGonum * dense
	case "krylov":
		p, err := newKrylovPlan(Options{Rank: s.Rank, Tol: DefaultTol}, min(s.Rows, s.Cols))
		if err != nil || p.mpd < 3*p.b {
			// Too small for a Krylov basis: built from products with the
			// identity and decomposed by gonum (Krylov.Decompose), the
			// dense backend's work and the products besides.
			return costGonum*dense + math.Min(m, n)*costColumn*float64(s.NNZ)
		}
		k := float64(s.Rank)
		prod := krylovProducts(s.Rank)
		w := float64(p.mpd)
		c := math.Max(m, n)
		return prod*costColumn*float64(s.NNZ) + 4*c*prod*(k/2+w)/costGEMM
	}
	return math.Inf(1)
}

// autoCandidates are the exact backends Auto weighs, in the order it
// reports them.
var autoCandidates = []string{"krylov", "lapack", "dense"}

// A switch from the incumbent must save at least this much by the model:
// below it the choice cannot matter to anyone waiting, and another backend
// would change a result's last bits for nothing.
const (
	autoMinSaving = 1.0 // seconds
	autoMinFactor = 2.0
)

// Auto picks the exact backend for s among those this binary has (lapack
// only with -tags lapack) whose memory plan fits opt.MaxBytes: the
// incumbent (the backend a caller would use without a model), unless the
// cost model expects another to be at least twice as fast and a second
// faster, in which case the fastest. When the incumbent is excluded it is
// the fastest that fits, or krylov, whose plan is the smallest, when none
// fits (it then refuses with its own plan). It reads only s, incumbent and
// opt.MaxBytes, so the choice is the same on every machine.
func Auto(s Shape, opt Options, incumbent string) AutoChoice {
	var a AutoChoice
	fastest, inc := "", -1.0
	best := math.Inf(1)
	for _, name := range autoCandidates {
		e := Estimate{Backend: name, Seconds: EstimateSeconds(name, s)}
		switch {
		case name == "lapack" && nativeSVD == nil:
			e.Excluded = "not built (-tags lapack)"
		case name != "krylov" && opt.MaxBytes > 0:
			o := opt
			o.Rank = s.Rank
			if p, err := Plan(name, s.Rows, s.Cols, o); err != nil {
				e.Excluded = err.Error()
			} else if p.Peak > opt.MaxBytes {
				e.Excluded = fmt.Sprintf("plans %s, over the budget's %s", mib(p.Peak), mib(opt.MaxBytes))
			}
		}
		a.Estimates = append(a.Estimates, e)
		if e.Excluded != "" {
			continue
		}
		if e.Seconds < best {
			best, fastest = e.Seconds, name
		}
		if name == incumbent {
			inc = e.Seconds
		}
	}
	switch {
	case inc >= 0 && (inc-best < autoMinSaving || inc < autoMinFactor*best):
		a.Backend = incumbent
	case fastest != "":
		a.Backend = fastest
	default:
		a.Backend = "krylov"
	}
	return a
}
