//go:build !amd64

package sparse

func addScaled4(d []float64, v *[4]float64, x0, x1, x2, x3 []float64) {
	addScaled4Go(d, v, x0, x1, x2, x3)
}
