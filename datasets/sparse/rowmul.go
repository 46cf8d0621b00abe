package sparse

// mulRowGo is the portable mulRow: one axpy per stored value, the
// explicit conversion keeping the compiler from fusing the product with
// the sum.
func mulRowGo(d []float64, idx []int32, v []float64, x []float64, ldx int) {
	clear(d)
	k := len(d)
	for p, j := range idx {
		xr := x[int(j)*ldx : int(j)*ldx+k]
		a := v[p]
		for c, xv := range xr {
			d[c] += float64(a * xv)
		}
	}
}
