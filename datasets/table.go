package datasets

import (
	"fmt"
	"strings"

	"kcalab/datasets/sparse"
)

// Table is a labelled contingency table of non-negative counts.
type Table struct {
	Name      string
	RowLabels []string
	ColLabels []string
	N         *sparse.CSR
}

// Fisher returns Fisher's (1940) eye × hair colour table of 5,387 children in
// Caithness, as printed in the paper: the classic check of correspondence analysis.
func Fisher() *Table {
	counts := []float64{
		326, 38, 241, 110, 3,
		688, 116, 584, 188, 4,
		343, 84, 909, 412, 26,
		98, 48, 403, 681, 85,
	}
	return &Table{
		Name:      "fisher",
		RowLabels: []string{"blue", "light", "medium", "dark"},
		ColLabels: []string{"fair", "red", "medium", "dark", "black"},
		N:         sparse.FromDense(4, 5, counts),
	}
}

// Validate checks that the labels match the matrix and that it is a usable
// count table (non-empty, some positive mass, a total of at most MaxTotal).
func (t *Table) Validate() error {
	r, c := t.N.Dims()
	if len(t.RowLabels) != r || len(t.ColLabels) != c {
		return fmt.Errorf("table %s: %d×%d counts but %d row and %d column labels", t.Name, r, c, len(t.RowLabels), len(t.ColLabels))
	}
	switch sum := t.N.Sum(); {
	case sum != sum || sum > MaxTotal: // NaN, +Inf or past exact counting
		return fmt.Errorf("table %s: total %v: want a finite total of at most 2^53 (%.6g)", t.Name, sum, float64(MaxTotal))
	case sum <= 0:
		return fmt.Errorf("table %s: all counts are zero", t.Name)
	}
	return nil
}

// Supplement is what Split takes out of a table: the supplementary rows'
// counts over the active columns and the supplementary columns' counts over
// the active rows (one row per supplementary column), in table order.
type Supplement struct {
	RowLabels, ColLabels []string
	Rows, Cols           *sparse.CSR // nil when there are none
}

// Split takes the named rows and columns out of the table as supplementary
// points (R's ca(…, suprow=, supcol=)) and returns the active table and
// the supplement.
// A cell where a supplementary row meets a supplementary column belongs to
// neither. A label that is not in the table, or repeats, is an error naming
// the labels that are.
func (t *Table) Split(supRows, supCols []string) (*Table, *Supplement, error) {
	isSupRow, err := pick(t.Name, "row", t.RowLabels, supRows)
	if err != nil {
		return nil, nil, err
	}
	isSupCol, err := pick(t.Name, "column", t.ColLabels, supCols)
	if err != nil {
		return nil, nil, err
	}
	dense := t.N.ToDense()
	r, c := dense.Dims()
	var actRows, actCols, sRows, sCols []int
	for i := 0; i < r; i++ {
		if isSupRow[i] {
			sRows = append(sRows, i)
		} else {
			actRows = append(actRows, i)
		}
	}
	for j := 0; j < c; j++ {
		if isSupCol[j] {
			sCols = append(sCols, j)
		} else {
			actCols = append(actCols, j)
		}
	}
	if len(actRows) < 2 || len(actCols) < 2 {
		return nil, nil, fmt.Errorf("table %s: %d active rows and %d active columns left after the supplementary ones: CA needs at least 2 of each",
			t.Name, len(actRows), len(actCols))
	}
	sub := func(rows, cols []int, transpose bool) *sparse.CSR {
		nr, nc := len(rows), len(cols)
		if transpose {
			nr, nc = nc, nr
		}
		vals := make([]float64, nr*nc)
		for a, i := range rows {
			for b, j := range cols {
				if transpose {
					vals[b*nc+a] = dense.At(i, j)
				} else {
					vals[a*nc+b] = dense.At(i, j)
				}
			}
		}
		return sparse.FromDense(nr, nc, vals)
	}
	labels := func(all []string, idx []int) []string {
		out := make([]string, len(idx))
		for k, i := range idx {
			out[k] = all[i]
		}
		return out
	}
	active := &Table{Name: t.Name, RowLabels: labels(t.RowLabels, actRows), ColLabels: labels(t.ColLabels, actCols), N: sub(actRows, actCols, false)}
	sup := &Supplement{RowLabels: labels(t.RowLabels, sRows), ColLabels: labels(t.ColLabels, sCols)}
	if len(sRows) > 0 {
		sup.Rows = sub(sRows, actCols, false)
	}
	if len(sCols) > 0 {
		sup.Cols = sub(actRows, sCols, true)
	}
	return active, sup, nil
}

// pick marks the labels named in want, in the table's order.
func pick(table, what string, labels, want []string) ([]bool, error) {
	index := make(map[string]int, len(labels))
	for i, l := range labels {
		index[l] = i
	}
	out := make([]bool, len(labels))
	for _, w := range want {
		i, ok := index[w]
		if !ok {
			return nil, fmt.Errorf("table %s: no %s labelled %q (the %ss are: %s)", table, what, w, what, strings.Join(labels, ", "))
		}
		if out[i] {
			return nil, fmt.Errorf("table %s: supplementary %s %q is listed twice", table, what, w)
		}
		out[i] = true
	}
	return out, nil
}
