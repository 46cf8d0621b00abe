//go:build !amd64

package sparse

func mulRow(d []float64, idx []int32, v []float64, x []float64, ldx int) {
	mulRowGo(d, idx, v, x, ldx)
}
