package ca

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/sparse"
	"kcalab/methods/svd"
)

// fisher is Fisher's (1940) eye × hair colour table from the paper.
// Rows: blue, light, medium, dark eyes; columns: fair, red, medium, dark,
// black hair.
func fisher() *sparse.CSR {
	return sparse.FromDense(4, 5, []float64{
		326, 38, 241, 110, 3,
		688, 116, 584, 188, 4,
		343, 84, 909, 412, 26,
		98, 48, 403, 681, 85,
	})
}

const (
	eyeBlue, eyeLight, eyeMedium, eyeDark              = 0, 1, 2, 3
	hairFair, hairRed, hairMedium, hairDark, hairBlack = 0, 1, 2, 3, 4
)

func backends() []svd.Backend {
	return []svd.Backend{svd.Dense{}, svd.Randomized{}, svd.DSSVD{}, svd.Krylov{}}
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

func TestFisherPublishedFigures(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.Name(), func(t *testing.T) {
			res, err := Analyze(context.Background(), fisher(), KernelCA, b, svd.DefaultOptions(3))
			require.NoError(t, err)
			sv := make([]float64, 3)
			in := make([]float64, 3)
			for l := range sv {
				sv[l] = round4(res.SingularValues[l])
				in[l] = round4(res.Inertias[l])
			}
			assert.Equal(t, []float64{0.4464, 0.1735, 0.0293}, sv)
			assert.Equal(t, []float64{0.1992, 0.0301, 0.0009}, in)
			assert.Equal(t, 0.2302, round4(res.TotalInertia))
			// Three dimensions hold all the inertia of a 4×5 table.
			var sum float64
			for _, s := range res.InertiaShare {
				sum += s
			}
			assert.InDelta(t, 1, sum, 1e-12)
			assert.Equal(t, KernelCA, res.Kernel)
		})
	}
}

func TestLCAIsCA(t *testing.T) {
	a, err := Analyze(context.Background(), fisher(), KernelCA, svd.Dense{}, svd.DefaultOptions(2))
	require.NoError(t, err)
	b, err := Analyze(context.Background(), fisher(), KernelLCA, svd.Dense{}, svd.DefaultOptions(2))
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

// TestFisherGeometry checks the classic reading of Fisher's map on axes
// 1–2. In the symmetric map (both sets in principal coordinates) dark eyes
// sit nearest dark hair; in the asymmetric map with eyes as vertices
// (standard coordinates) and hair colours as their barycentres (principal),
// dark eyes are nearest black hair, the colour most concentrated on them.
func TestFisherGeometry(t *testing.T) {
	res, err := Analyze(context.Background(), fisher(), KernelCA, svd.Dense{}, svd.DefaultOptions(2))
	require.NoError(t, err)
	point := func(m *mat.Dense, i int) [2]float64 { return [2]float64{m.At(i, 0), m.At(i, 1)} }
	nearestHair := func(rows *mat.Dense, eye int) int {
		best, bestD := -1, math.Inf(1)
		for j := 0; j < 5; j++ {
			e, h := point(rows, eye), point(res.ColPrincipal, j)
			if d := math.Hypot(e[0]-h[0], e[1]-h[1]); d < bestD {
				best, bestD = j, d
			}
		}
		return best
	}
	assert.Equal(t, hairDark, nearestHair(res.RowPrincipal, eyeDark), "symmetric map")
	assert.Equal(t, hairBlack, nearestHair(res.RowStandard, eyeDark), "asymmetric map, eyes standard")
	assert.Equal(t, hairMedium, nearestHair(res.RowPrincipal, eyeMedium), "symmetric map")

	fairSide := math.Copysign(1, res.ColPrincipal.At(hairFair, 0))
	side := func(m *mat.Dense, i int) float64 { return math.Copysign(1, m.At(i, 0)) }
	assert.Equal(t, fairSide, side(res.RowPrincipal, eyeBlue), "blue eyes on the fair side of axis 1")
	assert.Equal(t, fairSide, side(res.RowPrincipal, eyeLight), "light eyes on the fair side of axis 1")
	assert.Equal(t, -fairSide, side(res.ColPrincipal, hairBlack), "black hair opposite fair")
	assert.Equal(t, -fairSide, side(res.RowPrincipal, eyeDark), "dark eyes opposite fair")
	// Published column principal coordinates on axis 1 (up to the sign of
	// the axis): fair −0.544, red −0.233, medium −0.042, dark 0.589, black 1.094.
	axis1 := make([]float64, 5)
	for j := range axis1 {
		axis1[j] = math.Round(-fairSide*res.ColPrincipal.At(j, 0)*1e3) / 1e3
	}
	assert.Equal(t, []float64{-0.544, -0.233, -0.042, 0.589, 1.094}, axis1)
}

func TestBackendsAgree(t *testing.T) {
	for _, kernel := range []Kernel{KernelCA, KernelGini} {
		ref, err := Analyze(context.Background(), fisher(), kernel, svd.Dense{}, svd.DefaultOptions(3))
		require.NoError(t, err)
		for _, b := range backends()[1:] {
			t.Run(string(kernel)+"/"+b.Name(), func(t *testing.T) {
				res, err := Analyze(context.Background(), fisher(), kernel, b, svd.DefaultOptions(3))
				require.NoError(t, err)
				assert.InDeltaSlice(t, ref.SingularValues, res.SingularValues, 1e-8)
				assert.Equal(t, ref.TotalInertia, res.TotalInertia)
				for name, pair := range map[string][2]*mat.Dense{
					"row standard": {ref.RowStandard, res.RowStandard}, "row principal": {ref.RowPrincipal, res.RowPrincipal},
					"col standard": {ref.ColStandard, res.ColStandard}, "col principal": {ref.ColPrincipal, res.ColPrincipal},
				} {
					requireEqualUpToSign(t, name, pair[0], pair[1], 1e-8)
				}
			})
		}
	}
}

// requireEqualUpToSign compares column by column, allowing each column to
// flip sign as a whole.
func requireEqualUpToSign(t *testing.T, name string, want, got *mat.Dense, tol float64) {
	t.Helper()
	r, k := want.Dims()
	gr, gk := got.Dims()
	require.Equal(t, [2]int{r, k}, [2]int{gr, gk}, name)
	for l := 0; l < k; l++ {
		same, flipped := 0.0, 0.0
		for i := 0; i < r; i++ {
			same = max(same, math.Abs(want.At(i, l)-got.At(i, l)))
			flipped = max(flipped, math.Abs(want.At(i, l)+got.At(i, l)))
		}
		require.LessOrEqual(t, min(same, flipped), tol, "%s column %d", name, l)
	}
}

// TestGiniKernel checks Ξ = P − r·cᵀ against its dense definition.
func TestGiniKernel(t *testing.T) {
	n := fisher()
	res, err := Analyze(context.Background(), n, KernelGini, svd.Dense{}, svd.DefaultOptions(3))
	require.NoError(t, err)
	p := n.ToDense()
	p.Scale(1/n.Sum(), p)
	var rc mat.Dense
	rc.Outer(1, mat.NewVecDense(4, res.RowMass), mat.NewVecDense(5, res.ColMass))
	var xi mat.Dense
	xi.Sub(p, &rc)
	var want mat.SVD
	require.True(t, want.Factorize(&xi, mat.SVDNone))
	assert.InDeltaSlice(t, want.Values(nil)[:3], res.SingularValues, 1e-14)
	assert.InDelta(t, mat.Norm(&xi, 2)*mat.Norm(&xi, 2), res.TotalInertia, 1e-15)
	// K = I: principal = standard·Σ with standard = U orthonormal.
	var utu mat.Dense
	utu.Mul(res.RowStandard.T(), res.RowStandard)
	assert.True(t, mat.EqualApprox(&utu, eye(3), 1e-12))
}

func eye(n int) *mat.Dense {
	d := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		d.Set(i, i, 1)
	}
	return d
}

// TestOperatorsMatchDense checks the delayed products against the
// materialised matrices and the definitions, with zero margins present.
func TestOperatorsMatchDense(t *testing.T) {
	n := sparse.FromDense(4, 5, []float64{
		3, 0, 1, 0, 2,
		0, 0, 0, 0, 0, // zero row
		1, 0, 4, 0, 0,
		5, 0, 1, 0, 7,
	}) // columns 1 and 3 are zero
	for _, tc := range []struct {
		name string
		op   func(Table) (*Delayed, error)
		want func(p *mat.Dense, r, c []float64) *mat.Dense
	}{
		{"ca", NewCAOperator, func(p *mat.Dense, r, c []float64) *mat.Dense {
			out := mat.NewDense(4, 5, nil)
			for i := 0; i < 4; i++ {
				for j := 0; j < 5; j++ {
					if r[i] > 0 && c[j] > 0 {
						out.Set(i, j, (p.At(i, j)-r[i]*c[j])/math.Sqrt(r[i]*c[j]))
					}
				}
			}
			return out
		}},
		{"gini", NewGiniOperator, func(p *mat.Dense, r, c []float64) *mat.Dense {
			out := mat.NewDense(4, 5, nil)
			for i := 0; i < 4; i++ {
				for j := 0; j < 5; j++ {
					out.Set(i, j, p.At(i, j)-r[i]*c[j])
				}
			}
			return out
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op, err := tc.op(n)
			require.NoError(t, err)
			p := n.ToDense()
			p.Scale(1/n.Sum(), p)
			r, c := n.RowSums(), n.ColSums()
			for i := range r {
				r[i] /= n.Sum()
			}
			for j := range c {
				c[j] /= n.Sum()
			}
			want := tc.want(p, r, c)
			a := op.Materialize()
			assert.True(t, mat.EqualApprox(want, a, 1e-15), "materialised\n%v", mat.Formatted(a))

			x := mat.NewDense(5, 2, []float64{1, -2, 3, 0.5, -1, 4, 2, 2, 0, 1})
			var got, exp mat.Dense
			op.MulTo(&got, x)
			exp.Mul(want, x)
			assert.True(t, mat.EqualApprox(&exp, &got, 1e-14))
			y := mat.NewDense(4, 2, []float64{1, 2, -3, 4, 0.5, -1, 2, 0})
			var gotT, expT mat.Dense
			op.MulTTo(&gotT, y)
			expT.Mul(want.T(), y)
			assert.True(t, mat.EqualApprox(&expT, &gotT, 1e-14))
		})
	}
}

func TestZeroMarginsGiveZeros(t *testing.T) {
	n := sparse.FromDense(5, 6, []float64{
		10, 0, 3, 1, 0, 2,
		0, 0, 0, 0, 0, 0,
		2, 0, 8, 1, 0, 1,
		1, 0, 1, 9, 0, 3,
		4, 0, 2, 2, 0, 7,
	})
	for _, kernel := range []Kernel{KernelCA, KernelGini} {
		for _, b := range backends() {
			t.Run(string(kernel)+"/"+b.Name(), func(t *testing.T) {
				res, err := Analyze(context.Background(), n, kernel, b, svd.DefaultOptions(3))
				require.NoError(t, err)
				for _, m := range []*mat.Dense{res.RowStandard, res.RowPrincipal, res.ColStandard, res.ColPrincipal} {
					r, k := m.Dims()
					for i := 0; i < r; i++ {
						for l := 0; l < k; l++ {
							require.False(t, math.IsNaN(m.At(i, l)) || math.IsInf(m.At(i, l), 0))
						}
					}
				}
				for l := 0; l < 3; l++ {
					assert.Zero(t, res.RowPrincipal.At(1, l), "zero row")
					assert.Zero(t, res.ColPrincipal.At(1, l), "zero column 1")
					assert.Zero(t, res.ColPrincipal.At(4, l), "zero column 4")
					if kernel == KernelCA {
						assert.Zero(t, res.RowStandard.At(1, l))
						assert.Zero(t, res.ColStandard.At(4, l))
					}
				}
				assert.False(t, math.IsNaN(res.TotalInertia))
				for _, s := range res.SingularValues {
					assert.False(t, math.IsNaN(s))
				}
			})
		}
	}
}

func TestAnalyzeErrors(t *testing.T) {
	ctx := context.Background()
	neg := sparse.FromDense(2, 3, []float64{1, -1, 2, 3, 0, 1})
	inf := sparse.FromDense(2, 3, []float64{1, math.Inf(1), 2, 3, 0, 1})
	tests := []struct {
		name    string
		n       *sparse.CSR
		kernel  Kernel
		backend svd.Backend
		rank    int
		want    string
	}{
		{"rank too large", fisher(), KernelCA, svd.Dense{}, 4, "rank 4 out of range: a 4×5 table has min(rows, cols) − 1 = 3 non-trivial dimensions"},
		{"rank too large gini", fisher(), KernelGini, svd.DSSVD{}, 4, "must be in 1..3"},
		{"rank zero", fisher(), KernelCA, svd.Dense{}, 0, "rank 0 out of range"},
		{"unknown kernel", fisher(), "pca", svd.Dense{}, 2, `unknown kernel "pca" (allowed: ca, lca, gini)`},
		{"nil backend", fisher(), KernelCA, nil, 2, "nil SVD backend"},
		{"nil table", nil, KernelCA, svd.Dense{}, 2, "nil table"},
		{"negative count", neg, KernelCA, svd.Dense{}, 1, "table entry (0, 1) = -1: counts must be finite and non-negative"},
		{"infinite count", inf, KernelGini, svd.Dense{}, 1, "table entry (0, 1) = +Inf"},
		{"all zero", sparse.FromDense(2, 3, make([]float64, 6)), KernelCA, svd.Dense{}, 1, "need a finite positive total"},
		{"empty", sparse.FromDense(0, 3, nil), KernelCA, svd.Dense{}, 1, "empty 0×3 table"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opt := svd.DefaultOptions(tc.rank)
			_, err := Analyze(ctx, tc.n, tc.kernel, tc.backend, opt)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}

	opt := svd.DefaultOptions(2)
	opt.MaxDenseBytes = 100 // Fisher's dense S needs 160 bytes
	_, err := Analyze(ctx, fisher(), KernelCA, svd.Randomized{}, opt)
	require.ErrorIs(t, err, svd.ErrOverBudget)
	_, err = Analyze(ctx, fisher(), KernelCA, svd.DSSVD{}, opt)
	require.NoError(t, err, "dssvd never materialises, so the budget does not bind")

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, b := range backends() {
		_, err = Analyze(cancelled, fisher(), KernelCA, b, svd.DefaultOptions(2))
		require.ErrorIs(t, err, context.Canceled, b.Name())
	}
}

func TestTotalInertiaIsChiSquareOverN(t *testing.T) {
	n := fisher()
	m, err := marginsOf(n)
	require.NoError(t, err)
	var chi2 float64
	for i := 0; i < 4; i++ {
		for j := 0; j < 5; j++ {
			e := m.row[i] * m.col[j] * m.total
			d := n.At(i, j) - e
			chi2 += d * d / e
		}
	}
	assert.InDelta(t, chi2/m.total, caTotalInertia(n, m), 1e-14)
}

func Example() {
	// Fisher's eye × hair colour table (rows blue, light, medium, dark eyes).
	n := sparse.FromDense(4, 5, []float64{
		326, 38, 241, 110, 3,
		688, 116, 584, 188, 4,
		343, 84, 909, 412, 26,
		98, 48, 403, 681, 85,
	})
	res, err := Analyze(context.Background(), n, KernelCA, svd.DSSVD{}, svd.DefaultOptions(3))
	if err != nil {
		fmt.Println(err)
		return
	}
	for l, s := range res.SingularValues {
		fmt.Printf("axis %d: σ = %.4f, inertia %.4f (%.1f%%)\n", l+1, s, res.Inertias[l], 100*res.InertiaShare[l])
	}
	fmt.Printf("total inertia %.4f\n", res.TotalInertia)
	// Output:
	// axis 1: σ = 0.4464, inertia 0.1992 (86.6%)
	// axis 2: σ = 0.1735, inertia 0.0301 (13.1%)
	// axis 3: σ = 0.0293, inertia 0.0009 (0.4%)
	// total inertia 0.2302
}
