package baselines

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// The FMA kernels and the portable forms compute the same sums up to float32
// rounding, and the add kernel the same bits, for every length (whole 32-
// and 8-blocks plus tails).
func TestVecKernelsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vec := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = r.Float32() - 0.5
		}
		return v
	}
	for _, n := range []int{0, 1, 7, 8, 9, 31, 32, 33, 40, 100, 300, 301} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			x, y := vec(n), vec(n)
			var want float32
			for i := range x {
				want += x[i] * y[i]
			}
			require.InDelta(t, want, dotF32(x, y), 1e-5)

			const g = 0.37
			u, h, e := vec(n), vec(n), vec(n)
			wu, we := append([]float32(nil), u...), append([]float32(nil), e...)
			for i := range wu {
				we[i] += g * wu[i]
				wu[i] += g * h[i]
			}
			negUpdate(g, u, h, e)
			require.InDeltaSlice(t, wu, u, 1e-6)
			require.InDeltaSlice(t, we, e, 1e-6)

			// The add is exact: each element one float32 add, whatever the
			// kernel, so the trainers' bits do not depend on it.
			a, b := vec(n), vec(n)
			want32 := append(make([]float32, 0, n), b...)
			for i := range want32 {
				want32[i] += a[i]
			}
			addF32(a, b)
			require.Equal(t, want32, b)
		})
	}
}
