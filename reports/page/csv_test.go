package page

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestScoreCSV: a score table's download has one numeric column per
// quantity its cells carry, full precision, nothing for none.
func TestScoreCSV(t *testing.T) {
	st := ScoreTable{RowHeader: "Trial", Columns: []string{"Sim", "MEN"}, ReferenceTitle: "Published",
		Rows: []ScoreRow{
			{Name: "a", Scores: []float64{0.4701, math.NaN()}, Quantities: [][]Quantity{{{"paper", 0.762}, {"delta", -0.2919}}, nil}},
			{Name: "b", Scores: []float64{0.5, 0.25}, Quantities: [][]Quantity{{{"sd", 0.01}, {"coverage", 0.862}}, {{"coverage", 0.725}}}},
		},
		Reference: []ScoreRow{{Name: "SGNS", Scores: []float64{0.674, 0.561}}},
		Footer:    []TextRow{{Name: "pairs covered", Cells: []string{"86.2% of 203", "72.5% of 3000"}}}}
	assert.Equal(t, [][]string{
		{"Trial", "Sim", "Sim paper", "Sim delta", "Sim sd", "Sim coverage", "MEN", "MEN paper", "MEN delta", "MEN sd", "MEN coverage"},
		{"a", "0.4701", "0.762", "-0.2919", "", "", "", "", "", "", ""},
		{"b", "0.5", "", "", "0.01", "0.862", "0.25", "", "", "", "0.725"},
		{"SGNS (Published)", "0.674", "", "", "", "", "0.561", "", "", "", ""},
	}, scoreCSV(st))
}

func TestCSVNumber(t *testing.T) {
	assert.Equal(t, "9781414", CSVNumber(9781414))
	assert.Equal(t, "-0.2919", CSVNumber(-0.2919))
	assert.Equal(t, "1.8e-15", CSVNumber(1.8e-15))
	assert.Equal(t, "", CSVNumber(math.NaN()))
}

func TestCSVCell(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"2,139,749", "2139749"},
		{"−0.226", "-0.226"},
		{"+6.0%", "0.06"},
		{"86.2%", "0.862"},
		{"—", ""},
		{"1.8e-15", "1.8e-15"},
		{"12,828 MB", "12,828 MB"},
		{"krylov", "krylov"},
	} {
		assert.Equal(t, c.want, csvCell(c.in), c.in)
	}
}
