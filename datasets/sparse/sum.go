package sparse

import "fmt"

// Add returns a + b[0] + b[1] + … for matrices of the same shape. Each sum
// is taken in argument order, so the result does not depend on anything but
// the inputs; entries that cancel to zero are dropped.
func Add(a *CSR, b ...*CSR) (*CSR, error) {
	return sumScaled("Add", append([]*CSR{a}, b...), nil, nil, 1, nil)
}

// SumScaled returns (Σ_k ms[k]·mul[k]/div[k]) / final for matrices of the
// same shape, counting only the stored values v = ms[k][i][j] for which
// keep(k, i, j, v) holds. A nil mul or div means all ones, a nil keep keeps
// everything. Each entry is summed over k in ascending order, each term
// rounded as v·mul[k] then /div[k] (a factor of 1 is skipped, which is
// exact), and divided by final once at the end; so integer weights with a
// single final division sum counts exactly. Entries that cancel to zero are
// dropped. Rows are computed in parallel, each by one goroutine, so the
// result is the same bits whatever GOMAXPROCS is.
func SumScaled(ms []*CSR, mul, div []float64, final float64, keep func(k, i int, j int32, v float64) bool) (*CSR, error) {
	return sumScaled("SumScaled", ms, mul, div, final, keep)
}

func sumScaled(name string, ms []*CSR, mul, div []float64, final float64, keep func(k, i int, j int32, v float64) bool) (*CSR, error) {
	if len(ms) == 0 {
		return nil, fmt.Errorf("sparse: %s: no operands", name)
	}
	for k, m := range ms {
		if m == nil {
			return nil, fmt.Errorf("sparse: %s: operand %d is nil", name, k)
		}
		if m.rows != ms[0].rows || m.cols != ms[0].cols {
			return nil, fmt.Errorf("sparse: %s: operand %d is %d×%d, operand 0 is %d×%d", name, k, m.rows, m.cols, ms[0].rows, ms[0].cols)
		}
	}
	if mul != nil && len(mul) != len(ms) || div != nil && len(div) != len(ms) {
		return nil, fmt.Errorf("sparse: %s: %d operands but %d multipliers and %d divisors", name, len(ms), len(mul), len(div))
	}
	if final == 0 {
		return nil, fmt.Errorf("sparse: %s: final divisor is zero", name)
	}
	rows, cols := ms[0].rows, ms[0].cols
	work := make([]int64, rows)
	for _, m := range ms {
		for i := range rows {
			work[i] += m.indptr[i+1] - m.indptr[i]
		}
	}
	count := func(a *rowAcc, i int) int64 {
		for k, m := range ms {
			cs, vs := m.Row(i)
			for p, j := range cs {
				if keep == nil || keep(k, i, j, vs[p]) {
					a.mark(j)
				}
			}
		}
		return a.count()
	}
	fill := func(a *rowAcc, i int, indices []int32, data []float64) int64 {
		for k, m := range ms {
			cs, vs := m.Row(i)
			mk, dk := 1.0, 1.0
			if mul != nil {
				mk = mul[k]
			}
			if div != nil {
				dk = div[k]
			}
			for p, j := range cs {
				if keep != nil && !keep(k, i, j, vs[p]) {
					continue
				}
				x := vs[p]
				if mk != 1 {
					x *= mk
				}
				if dk != 1 {
					x /= dk
				}
				a.mark(j)
				a.acc[j] += x
			}
		}
		return a.drain(indices, data, final)
	}
	return build(rows, cols, work, func() *rowAcc { return newRowAcc(cols) }, count, fill)
}

// AddTranspose returns m + mᵀ for a square m. Entry (i, j) is
// m[i][j] + m[j][i] and (j, i) the same sum, so the result is exactly
// symmetric; entries that cancel to zero are dropped.
func AddTranspose(m *CSR) (*CSR, error) {
	if m.rows != m.cols {
		return nil, fmt.Errorf("sparse: AddTranspose: %d×%d is not square", m.rows, m.cols)
	}
	ap, ai, ad := m.indptr, m.indices, m.data
	t := m.T()
	tp, ti, td := t.indptr, t.indices, t.data
	work := make([]int64, m.rows)
	for i := range work {
		work[i] = ap[i+1] - ap[i] + tp[i+1] - tp[i]
	}
	// Row i of m + mᵀ is the merge of row i of m and of mᵀ, both sorted.
	// With nil indices it only counts (the sizing pass); a sum that cancels
	// is counted but not stored.
	merge := func(i int, indices []int32, data []float64) int64 {
		p, pe := ap[i], ap[i+1]
		q, qe := tp[i], tp[i+1]
		write := indices != nil
		var o int64
		for p < pe && q < qe {
			switch {
			case ai[p] < ti[q]:
				if write {
					indices[o], data[o] = ai[p], ad[p]
				}
				o++
				p++
			case ti[q] < ai[p]:
				if write {
					indices[o], data[o] = ti[q], td[q]
				}
				o++
				q++
			default:
				if v := ad[p] + td[q]; !write {
					o++
				} else if v != 0 {
					indices[o], data[o] = ai[p], v
					o++
				}
				p++
				q++
			}
		}
		if !write {
			return o + (pe - p) + (qe - q)
		}
		copy(data[o:], ad[p:pe])
		o += int64(copy(indices[o:], ai[p:pe]))
		copy(data[o:], td[q:qe])
		o += int64(copy(indices[o:], ti[q:qe]))
		return o
	}
	count := func(_ struct{}, i int) int64 { return merge(i, nil, nil) }
	fill := func(_ struct{}, i int, indices []int32, data []float64) int64 { return merge(i, indices, data) }
	return build(m.rows, m.cols, work, noState, count, fill)
}
