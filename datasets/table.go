package datasets

import (
	"fmt"

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
// count table (non-empty, some positive mass).
func (t *Table) Validate() error {
	r, c := t.N.Dims()
	if len(t.RowLabels) != r || len(t.ColLabels) != c {
		return fmt.Errorf("table %s: %d×%d counts but %d row and %d column labels", t.Name, r, c, len(t.RowLabels), len(t.ColLabels))
	}
	if t.N.Sum() <= 0 {
		return fmt.Errorf("table %s: all counts are zero", t.Name)
	}
	return nil
}
