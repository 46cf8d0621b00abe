package sparse

// mulRowGo is the portable mulRow: one axpy per stored value with the
// weight v[p]·t[j] rounded first, the explicit conversion keeping the
// compiler from fusing the product with the sum.
func mulRowGo(d []float64, idx []int32, v, t, x []float64, ldx int) {
	clear(d)
	k := len(d)
	for p, j := range idx {
		a := v[p]
		if t != nil {
			a *= t[j]
		}
		xr := x[int(j)*ldx : int(j)*ldx+k]
		for c, xv := range xr {
			d[c] += float64(a * xv)
		}
	}
}
