package svd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

func gaussian(seed uint64, r, c int) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 1))
	d := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d.Set(i, j, rng.NormFloat64())
		}
	}
	return d
}

func TestLUNormalizeIsPermutedL(t *testing.T) {
	for _, shape := range [][2]int{{7, 3}, {5, 5}, {40, 12}, {500, 70}, {90, 90}} {
		y := gaussian(uint64(shape[0]), shape[0], shape[1])
		pl := mat.DenseCopyOf(y)
		luNormalize(pl)

		// U from the same factorisation: y = (P·L)·U.
		f := mat.DenseCopyOf(y)
		ipiv := make([]int, shape[1])
		lapack64.Getrf(f.RawMatrix(), ipiv)
		u := mat.NewDense(shape[1], shape[1], nil)
		for i := 0; i < shape[1]; i++ {
			for j := i; j < shape[1]; j++ {
				u.Set(i, j, f.At(i, j))
			}
		}
		var back mat.Dense
		back.Mul(pl, u)
		assert.True(t, mat.EqualApprox(y, &back, 1e-11), "P·L·U = Y for %v", shape)
		// Partial pivoting bounds |L| by 1.
		assert.LessOrEqual(t, mat.Max(pl), 1.0)
		assert.GreaterOrEqual(t, mat.Min(pl), -1.0)
	}
}

func TestOrthonormalize(t *testing.T) {
	y := gaussian(3, 30, 6)
	q := mat.DenseCopyOf(y)
	orthonormalize(q)
	var qtq mat.Dense
	qtq.Mul(q.T(), q)
	id := mat.NewDiagDense(6, []float64{1, 1, 1, 1, 1, 1})
	assert.True(t, mat.EqualApprox(&qtq, id, 1e-13))
	// Same span: Q·Qᵀ·Y = Y.
	var proj, back mat.Dense
	proj.Mul(q.T(), y)
	back.Mul(q, &proj)
	assert.True(t, mat.EqualApprox(y, &back, 1e-12))
}

// CholeskyQR2 gives an orthonormal basis of the same span as Householder
// QR; a sketch too ill-conditioned for its Gram matrix, or one not stored
// compactly, takes the Householder route (the same bits).
func TestOrthonormalizeGram(t *testing.T) {
	scaled := func(y *mat.Dense, spread float64) *mat.Dense {
		r, c := y.Dims()
		out := mat.DenseCopyOf(y)
		for j := 0; j < c; j++ {
			f := math.Pow(spread, -float64(j)/float64(c-1))
			for i := 0; i < r; i++ {
				out.Set(i, j, f*y.At(i, j))
			}
		}
		return out
	}
	for _, tc := range []struct {
		name        string
		y           *mat.Dense
		householder bool
	}{
		{"gaussian 30×6", gaussian(3, 30, 6), false},
		{"gaussian 2000×120", gaussian(4, 2000, 120), false},
		{"cond 1e4", scaled(gaussian(5, 500, 40), 1e4), false},
		{"cond 1e9 falls back", scaled(gaussian(6, 500, 40), 1e9), true},
		{"square 50×50", gaussian(7, 50, 50), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, l := tc.y.Dims()
			q := mat.DenseCopyOf(tc.y)
			orthonormalizeGram(q)
			var qtq mat.Dense
			qtq.Mul(q.T(), q)
			id := mat.NewDiagDense(l, nil)
			for i := 0; i < l; i++ {
				id.SetDiag(i, 1)
			}
			assert.True(t, mat.EqualApprox(&qtq, id, 1e-13), "QᵀQ = I")
			var proj, back mat.Dense
			proj.Mul(q.T(), tc.y)
			back.Mul(q, &proj)
			assert.True(t, mat.EqualApprox(tc.y, &back, 1e-11*mat.Norm(tc.y, 2)), "Q·Qᵀ·Y = Y")
			h := mat.DenseCopyOf(tc.y)
			orthonormalize(h)
			assert.Equal(t, tc.householder, mat.Equal(q, h), "took the Householder route")
		})
	}
	// A strided view is not compact: Householder, in place.
	big := gaussian(8, 40, 10)
	v := big.Slice(0, 40, 0, 6).(*mat.Dense)
	want := mat.DenseCopyOf(v)
	orthonormalize(want)
	orthonormalizeGram(v)
	assert.True(t, mat.Equal(want, v))
}

func TestFixSigns(t *testing.T) {
	u := mat.NewDense(3, 2, []float64{
		0.1, -0.5,
		-0.9, 0.5, // tie in column 1: the first one (-0.5) decides
		0.3, 0.2,
	})
	v := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	fixSigns(u, v)
	assert.Equal(t, []float64{-0.1, 0.5, 0.9, -0.5, -0.3, -0.2}, u.RawMatrix().Data)
	assert.Equal(t, []float64{-1, -2, -3, -4}, v.RawMatrix().Data)
}

func TestThinSVD(t *testing.T) {
	for _, shape := range [][2]int{{9, 4}, {4, 9}} {
		a := gaussian(7, shape[0], shape[1])
		s, u, vt, err := thinSVD(mat.DenseCopyOf(a))
		require.NoError(t, err)
		var us, back mat.Dense
		us.Mul(u, mat.NewDiagDense(len(s), s))
		back.Mul(&us, vt)
		assert.True(t, mat.EqualApprox(a, &back, 1e-12), "%v", shape)
	}
}

func TestInPlaceHelpers(t *testing.T) {
	for _, rows := range []int{7, 1300, 9000} { // 9000 spans several row blocks
		y := gaussian(11, rows, 9)
		b := gaussian(12, 9, 9)
		var want mat.Dense
		want.Mul(y, b.Slice(0, 9, 0, 4))
		got := mulRightInPlace(mat.DenseCopyOf(y), b.RawMatrix().Data, 9, 4)
		assert.True(t, mat.EqualApprox(&want, got, 1e-13), "y·b, %d rows", rows)
		assert.Equal(t, 4, got.RawMatrix().Stride)

		kept := keepColumns(mat.DenseCopyOf(y), 3)
		assert.True(t, mat.Equal(y.Slice(0, rows, 0, 3), kept))
	}
	vt := gaussian(13, 5, 8)
	assert.True(t, mat.Equal(vt.Slice(0, 2, 0, 8).T(), firstRowsT(vt, 2)))
}

// TestSketchSVD checks both routes: the Gram one for a well-conditioned
// leading part, and the exact fallback when σ_k/σ_1 is below gramCond.
func TestSketchSVD(t *testing.T) {
	for _, tc := range []struct {
		name  string
		s     []float64
		k     int
		exact bool
	}{
		{"gram", []float64{5, 4, 3, 2, 1, 0.5}, 4, false},
		{"rank deficient", []float64{5, 4, 3, 1e-9, 0, 0}, 4, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bt := spectrumMatrix(21, 40, tc.s)
			var ref mat.SVD
			require.True(t, ref.Factorize(bt, mat.SVDThin))
			want := ref.Values(nil)
			s, v, w, err := sketchSVD(mat.DenseCopyOf(bt), tc.k, nil)
			require.NoError(t, err)
			assert.Equal(t, tc.exact, want[tc.k-1] < gramCond*want[0])
			for i := 0; i < tc.k; i++ {
				assert.InDelta(t, want[i], s[i], 1e-12*want[0], "σ_%d", i+1)
			}
			// bt·w_i = σ_i·v_i for the leading triplets with σ_i > 0.
			var bw mat.Dense
			bw.Mul(bt, w.Slice(0, 6, 0, tc.k))
			for i := 0; i < tc.k; i++ {
				if want[i] < 1e-6 {
					continue
				}
				for r := 0; r < 40; r++ {
					assert.InDelta(t, bw.At(r, i), s[i]*v.At(r, i), 1e-10, "row %d, triplet %d", r, i+1)
				}
			}
		})
	}
}

// spectrumMatrix returns an r×len(s) matrix with singular values s.
func spectrumMatrix(seed uint64, r int, s []float64) *mat.Dense {
	var qu, qv mat.QR
	qu.Factorize(gaussian(seed, r, len(s)))
	qv.Factorize(gaussian(seed+1, len(s), len(s)))
	var u, v, us, a mat.Dense
	qu.QTo(&u)
	qv.QTo(&v)
	us.Mul(u.Slice(0, r, 0, len(s)), mat.NewDiagDense(len(s), s))
	a.Mul(&us, v.T())
	return &a
}
