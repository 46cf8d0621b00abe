package sparse

//go:noescape
func rowMul(k int, d *float64, n int, idx *int32, v *float64, x *float64, ldx int)

// mulRow sets d = Σ_p v[p]·x[idx[p]·ldx : idx[p]·ldx+len(d)], summing in
// order from zero and rounding like one axpy per stored value.
func mulRow(d []float64, idx []int32, v []float64, x []float64, ldx int) {
	if !hasAVX || len(d) == 0 || len(idx) == 0 {
		mulRowGo(d, idx, v, x, ldx)
		return
	}
	rowMul(len(d), &d[0], len(idx), &idx[0], &v[0], &x[0], ldx)
}
