package ca

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/sparse"
)

// Supplementary holds points projected onto the axes of an analysis they
// took no part in (R's ca(…, suprow=, supcol=)): coordinates, χ² distance
// to the active centroid, cos² and quality. They have no mass, inertia or
// contribution: they did not shape the axes.
type Supplementary struct {
	Principal *mat.Dense  // one row per point, one column per kept axis
	Standard  *mat.Dense  // Principal·Σ⁻¹ (R's $rowcoord for a supplementary row)
	Dist      []float64   // χ² distance of the profile to the active centroid
	Cos2      [][]float64 // f_l²/dist² per kept axis, fractions
	Quality   []float64   // Σ over the kept axes of Cos2
}

// Projector projects profiles of one side of a CA (rows, say) onto its
// axes by the transition formula
//
//	f_l = Σ_j x_j·g_jl   (x the point's profile, g the standard coordinates
//	                      of the other side: g = D(c)^-1/2·V)
//
// i.e. a point sits at the barycentre of the other side's vertices. The
// centroid's own image Σ_j c_j·g_jl (zero for exact singular vectors) is
// subtracted, so approximate V from a randomized backend does not shift
// every point by its rounding.
type Projector struct {
	s        []float64  // σ of the kept axes
	standard *mat.Dense // the other side's standard coordinates, m×k
	mass     []float64  // the other side's masses (the centroid profile)
	centroid []float64  // massᵀ·standard, k
}

// NewProjector returns a Projector for profiles over m categories whose
// standard coordinates (m×k), masses (m) and the axes' singular values (k)
// are given. It keeps (does not copy) its arguments.
func NewProjector(s []float64, standard *mat.Dense, mass []float64) (*Projector, error) {
	if standard == nil {
		return nil, fmt.Errorf("ca: projector: nil standard coordinates")
	}
	m, k := standard.Dims()
	if len(s) != k || len(mass) != m {
		return nil, fmt.Errorf("ca: projector: %d×%d standard coordinates with %d singular values and %d masses", m, k, len(s), len(mass))
	}
	centroid := make([]float64, k)
	for j, cj := range mass {
		if cj == 0 {
			continue
		}
		for l := range centroid {
			centroid[l] += cj * standard.At(j, l)
		}
	}
	return &Projector{s: s, standard: standard, mass: mass, centroid: centroid}, nil
}

// RowProjector projects supplementary rows onto the axes of a CA result
// (rows' counts over the table's columns; see Project).
func (r *Result) RowProjector() (*Projector, error) {
	if r.Kernel != KernelCA {
		return nil, fmt.Errorf("ca: supplementary points need the ca kernel (χ² metric), not %s", r.Kernel)
	}
	return NewProjector(r.SingularValues, r.ColStandard, r.ColMass)
}

// ColProjector projects supplementary columns: each is given as a row of
// counts over the table's rows (a row of the transposed column block).
func (r *Result) ColProjector() (*Projector, error) {
	if r.Kernel != KernelCA {
		return nil, fmt.Errorf("ca: supplementary points need the ca kernel (χ² metric), not %s", r.Kernel)
	}
	return NewProjector(r.SingularValues, r.RowStandard, r.RowMass)
}

// RowProjector projects supplementary rows (a word's row of counts over the
// context words, say) onto the axes of a ca decomposition of the table n,
// which must be the table that was decomposed. Decompose drops V, so it is
// recovered by the other transition formula V = Sᵀ·U·Σ⁻¹ with one product
// by the delayed CA operator (one pass over n's entries, a c×k matrix).
// With the exact U this is the exact V; with an approximate U it is the V
// that makes projecting an active row return that row's coordinates.
// An axis with σ = 0 gets zero coordinates.
func (d *Decomposition) RowProjector(n *sparse.CSR) (*Projector, error) {
	if d.Kernel != KernelCA {
		return nil, fmt.Errorf("ca: supplementary points need the ca kernel (χ² metric), not %s", d.Kernel)
	}
	m, err := marginsOf(n)
	if err != nil {
		return nil, err
	}
	rows, cols := n.Dims()
	ur, k := d.U.Dims()
	if ur != rows || len(d.RowMass) != rows {
		return nil, fmt.Errorf("ca: projector: the decomposition has %d rows, the table %d", ur, rows)
	}
	for i, ri := range m.row {
		// Bit-equal by construction when n is the decomposed table.
		if ri != d.RowMass[i] {
			return nil, fmt.Errorf("ca: projector: row %d has mass %v in the table but %v in the decomposition: not the decomposed table", i, ri, d.RowMass[i])
		}
	}
	op, err := newCA(n, m)
	if err != nil {
		return nil, err
	}
	g := mat.NewDense(cols, k, nil)
	op.MulTTo(g, d.U) // Sᵀ·U = V·Σ
	for j := 0; j < cols; j++ {
		f := invSqrt(m.col[j])
		row := g.RawRowView(j)
		for l := range row {
			if d.S[l] > 0 {
				row[l] *= f / d.S[l] // D(c)^-1/2·V
			} else {
				row[l] = 0
			}
		}
	}
	return NewProjector(d.S, g, m.col)
}

// ColProjector projects supplementary columns (each a row of counts over
// the decomposed table's rows) with the row standard coordinates
// D(r)^-1/2·U, which the decomposition holds.
func (d *Decomposition) ColProjector() (*Projector, error) {
	if d.Kernel != KernelCA {
		return nil, fmt.Errorf("ca: supplementary points need the ca kernel (χ² metric), not %s", d.Kernel)
	}
	rows, k := d.U.Dims()
	a := mat.NewDense(rows, k, nil)
	for i := 0; i < rows; i++ {
		f := invSqrt(d.RowMass[i])
		src, dst := d.U.RawRowView(i), a.RawRowView(i)
		for l := range dst {
			dst[l] = f * src[l]
		}
	}
	return NewProjector(d.S, a, d.RowMass)
}

// Project places each row of counts (one supplementary point per row, one
// column per category of the projector's other side) on the axes.
//
// The profile x is the counts over the categories of positive active mass,
// divided by their sum: counts on a category of zero mass (absent from the
// active table, so no dimension of its space; R's ca would give Inf) are
// left out, as for a word seen with a context the active table never has.
// The distance is dist² = Σ_j (x_j − c_j)²/c_j = Σ_j x_j²/c_j − 1.
// A point with no counts on active categories gets zeros (not NaN), as zero
// margins do in the analysis. Counts must be finite and non-negative.
func (p *Projector) Project(counts *sparse.CSR) (*Supplementary, error) {
	if counts == nil {
		return nil, fmt.Errorf("ca: nil supplementary counts")
	}
	np, m := counts.Dims()
	gm, k := p.standard.Dims()
	if m != gm {
		return nil, fmt.Errorf("ca: supplementary counts have %d columns, the analysis %d categories on that side", m, gm)
	}
	out := &Supplementary{
		Principal: mat.NewDense(max(np, 1), k, nil),
		Standard:  mat.NewDense(max(np, 1), k, nil),
		Dist:      make([]float64, np),
		Cos2:      make([][]float64, np),
		Quality:   make([]float64, np),
	}
	if np == 0 {
		// gonum has no 0×k matrix; callers see no rows either way.
		out.Principal, out.Standard = &mat.Dense{}, &mat.Dense{}
	}
	for i := 0; i < np; i++ {
		js, vals := counts.Row(i)
		out.Cos2[i] = make([]float64, k)
		var total float64
		for q, x := range vals {
			if x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
				return nil, fmt.Errorf("ca: supplementary point %d, category %d: count %v must be finite and non-negative", i, js[q], x)
			}
			if p.mass[js[q]] > 0 {
				total += x
			}
		}
		if total == 0 {
			continue
		}
		f := out.Principal.RawRowView(i)
		var sq float64
		for q, j := range js {
			cj := p.mass[j]
			if cj == 0 {
				continue
			}
			x := vals[q] / total
			sq += x * x / cj
			g := p.standard.RawRowView(int(j))
			for l := range f {
				f[l] += x * g[l]
			}
		}
		d2 := max(sq-1, 0)
		out.Dist[i] = math.Sqrt(d2)
		a := out.Standard.RawRowView(i)
		for l := range f {
			f[l] -= p.centroid[l]
			if p.s[l] > 0 {
				a[l] = f[l] / p.s[l]
			}
			if d2 > 0 {
				out.Cos2[i][l] = f[l] * f[l] / d2
			}
			out.Quality[i] += out.Cos2[i][l]
		}
	}
	return out, nil
}
