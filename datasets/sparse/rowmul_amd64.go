package sparse

//go:noescape
func rowMul(k int, d *float64, n int, idx *int32, v *float64, t *float64, tstride int, x *float64, ldx int)

// unitScale is the column scaling of an unscaled product: every stored
// value times 1, which is exact.
var unitScale = [1]float64{1}

// mulRow sets d = Σ_p (v[p]·t[idx[p]])·x[idx[p]·ldx : idx[p]·ldx+len(d)]
// (t nil: no scaling), summing in order from zero and rounding like one
// axpy per stored value with the scaled weight.
func mulRow(d []float64, idx []int32, v, t, x []float64, ldx int) {
	if !hasAVX || len(d) == 0 || len(idx) == 0 {
		mulRowGo(d, idx, v, t, x, ldx)
		return
	}
	tp, ts := &unitScale[0], 0
	if t != nil {
		tp, ts = &t[0], 1
	}
	rowMul(len(d), &d[0], len(idx), &idx[0], &v[0], tp, ts, &x[0], ldx)
}
