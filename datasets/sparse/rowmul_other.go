//go:build !amd64

package sparse

func mulRow(d []float64, idx []int32, v, t, x []float64, ldx int) {
	mulRowGo(d, idx, v, t, x, ldx)
}
