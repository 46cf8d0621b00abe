package ca

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/sparse"
	"kcalab/datasets/synth"
	"kcalab/methods/svd"
)

// rowsOf returns rows idx of n as a new CSR (the counts of active points,
// to be projected as if supplementary).
func rowsOf(n *sparse.CSR, idx ...int) *sparse.CSR {
	var ts []sparse.Triplet
	_, c := n.Dims()
	for k, i := range idx {
		cols, vals := n.Row(i)
		for p, j := range cols {
			ts = append(ts, sparse.Triplet{I: int32(k), J: j, V: vals[p]})
		}
	}
	out, err := sparse.FromTriplets(len(idx), c, ts)
	if err != nil {
		panic(err)
	}
	return out
}

// TestActiveRowAsSupplementary: the transition formula is exact for the
// active points, so projecting an active row (column) as supplementary
// returns its own principal coordinates, distance and cos², to 1e-10,
// through Analyze and through Decompose (V recovered from U), on every
// backend. The planted table has a clear gap after groups − 1 axes, so
// the randomized backends converge.
func TestActiveRowAsSupplementary(t *testing.T) {
	o := synth.TableOptions{Groups: 4, RowsPerGroup: 5, ColsPerGroup: 6, Total: 5000, Noise: 0.3, Seed: 2}
	tab, err := synth.Table(o)
	require.NoError(t, err)
	n := tab.N
	rows, cols := n.Dims()
	all := make([]int, rows)
	for i := range all {
		all[i] = i
	}
	allCols := make([]int, cols)
	for j := range allCols {
		allCols[j] = j
	}
	const tol = 1e-10
	k := o.Groups - 1
	for _, b := range backends() {
		t.Run(b.Name(), func(t *testing.T) {
			res, err := Analyze(context.Background(), n, KernelCA, b, svd.DefaultOptions(k))
			require.NoError(t, err)
			rp, err := res.RowProjector()
			require.NoError(t, err)
			sup, err := rp.Project(rowsOf(n, all...))
			require.NoError(t, err)
			assert.True(t, mat.EqualApprox(res.RowPrincipal, sup.Principal, tol), "rows through Analyze")
			assert.True(t, mat.EqualApprox(res.RowStandard, sup.Standard, tol))
			assert.InDeltaSlice(t, res.RowDist, sup.Dist, tol)
			assert.InDeltaSlice(t, res.RowQuality, sup.Quality, tol)
			for i := range all {
				assert.InDeltaSlice(t, res.RowCos2[i], sup.Cos2[i], tol)
			}
			cp, err := res.ColProjector()
			require.NoError(t, err)
			sup, err = cp.Project(rowsOf(n.T(), allCols...))
			require.NoError(t, err)
			assert.True(t, mat.EqualApprox(res.ColPrincipal, sup.Principal, tol), "columns through Analyze")
			assert.InDeltaSlice(t, res.ColDist, sup.Dist, tol)

			dec, err := Decompose(context.Background(), n, KernelCA, b, svd.DefaultOptions(k))
			require.NoError(t, err)
			drp, err := dec.RowProjector(n)
			require.NoError(t, err)
			sup, err = drp.Project(rowsOf(n, 3, 0, 17))
			require.NoError(t, err)
			for p, i := range []int{3, 0, 17} {
				for l := 0; l < k; l++ {
					want := dec.U.At(i, l) * dec.S[l] / math.Sqrt(dec.RowMass[i])
					assert.InDelta(t, want, sup.Principal.At(p, l), tol, "word-table path, row %d axis %d", i, l)
				}
			}
		})
	}
}

// TestProjectEdgeCases: a point with no counts gets zeros, counts on a
// zero-mass category are ignored, bad input is an error.
func TestProjectEdgeCases(t *testing.T) {
	n := sparse.FromDense(4, 5, []float64{
		3, 0, 1, 2, 2,
		1, 0, 4, 0, 1,
		5, 0, 1, 3, 7,
		2, 0, 2, 6, 1,
	}) // column 1 has zero mass
	res, err := Analyze(context.Background(), n, KernelCA, svd.Dense{}, svd.DefaultOptions(2))
	require.NoError(t, err)
	p, err := res.RowProjector()
	require.NoError(t, err)
	sup, err := p.Project(sparse.FromDense(3, 5, []float64{
		0, 0, 0, 0, 0, // empty
		3, 0, 1, 2, 2, // active row 0
		3, 9, 1, 2, 2, // row 0 plus counts on the zero-mass column
	}))
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 0}, sup.Principal.RawRowView(0))
	assert.Zero(t, sup.Dist[0])
	assert.Equal(t, []float64{0, 0}, sup.Cos2[0])
	assert.InDeltaSlice(t, res.RowPrincipal.RawRowView(0), sup.Principal.RawRowView(1), 1e-12)
	assert.InDelta(t, res.RowDist[0], sup.Dist[1], 1e-12)
	// Counts on the zero-mass column are left out of row 2's profile.
	assert.InDeltaSlice(t, sup.Principal.RawRowView(1), sup.Principal.RawRowView(2), 1e-15)
	assert.InDelta(t, sup.Dist[1], sup.Dist[2], 1e-15)

	_, err = p.Project(sparse.FromDense(1, 4, []float64{1, 2, 3, 4}))
	assert.ErrorContains(t, err, "4 columns, the analysis 5 categories")
	_, err = p.Project(sparse.FromDense(1, 5, []float64{1, -2, 3, 4, 0}))
	assert.ErrorContains(t, err, "must be finite and non-negative")
	_, err = p.Project(nil)
	assert.ErrorContains(t, err, "nil supplementary counts")

	g, err := Analyze(context.Background(), n, KernelGini, svd.Dense{}, svd.DefaultOptions(2))
	require.NoError(t, err)
	_, err = g.RowProjector()
	assert.ErrorContains(t, err, "need the ca kernel")

	dec, err := Decompose(context.Background(), n, KernelCA, svd.Dense{}, svd.DefaultOptions(2))
	require.NoError(t, err)
	_, err = dec.RowProjector(sparse.FromDense(3, 5, []float64{1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1}))
	assert.ErrorContains(t, err, "the decomposition has 4 rows, the table 3")
	other := sparse.FromDense(4, 5, []float64{3, 0, 1, 2, 2, 1, 0, 4, 0, 1, 5, 0, 1, 3, 7, 2, 0, 2, 6, 2})
	_, err = dec.RowProjector(other)
	assert.ErrorContains(t, err, "not the decomposed table")
}

// TestStatisticsInvariants: ctr sums to 1 over the points on each axis,
// inertias to the total, quality over all axes is 1 for active points,
// and zero-mass points get zeros (not NaN).
func TestStatisticsInvariants(t *testing.T) {
	n := sparse.FromDense(5, 6, []float64{
		10, 0, 3, 1, 0, 2,
		0, 0, 0, 0, 0, 0,
		2, 0, 8, 1, 0, 1,
		1, 0, 1, 9, 0, 3,
		4, 0, 2, 2, 0, 7,
	})
	res, err := Analyze(context.Background(), n, KernelCA, svd.Dense{}, svd.DefaultOptions(3))
	require.NoError(t, err)
	for l := 0; l < 3; l++ {
		var rs, cs float64
		for i := range res.RowCtr {
			rs += res.RowCtr[i][l]
		}
		for j := range res.ColCtr {
			cs += res.ColCtr[j][l]
		}
		assert.InDelta(t, 1, rs, 1e-12, "row ctr axis %d", l)
		assert.InDelta(t, 1, cs, 1e-12, "col ctr axis %d", l)
	}
	var ri, ci float64
	for _, x := range res.RowInertia {
		ri += x
	}
	for _, x := range res.ColInertia {
		ci += x
	}
	assert.InDelta(t, res.TotalInertia, ri, 1e-14)
	assert.InDelta(t, res.TotalInertia, ci, 1e-14)
	for i, q := range res.RowQuality {
		if res.RowMass[i] > 0 {
			assert.InDelta(t, 1, q, 1e-12, "row %d: all 3 axes of a 4×4 active table", i)
		}
	}
	assert.Zero(t, res.RowDist[1])
	assert.Equal(t, []float64{0, 0, 0}, res.RowCos2[1])
	assert.Equal(t, []float64{0, 0, 0}, res.ColCtr[4])
	assert.Equal(t, 9, res.DF, "(4 − 1)(4 − 1): the zero row and columns do not count")
	assert.False(t, math.IsNaN(res.PValue))

	g, err := Analyze(context.Background(), n, KernelGini, svd.Dense{}, svd.DefaultOptions(3))
	require.NoError(t, err)
	assert.Nil(t, g.RowCtr, "per-point statistics are CA quantities")
	assert.Equal(t, res.Chi2, g.Chi2)
	assert.Equal(t, res.PValue, g.PValue)
}
