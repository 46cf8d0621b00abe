package datasets

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplit(t *testing.T) {
	f := Fisher()
	active, sup, err := f.Split([]string{"light"}, []string{"black", "fair"})
	require.NoError(t, err)
	assert.Equal(t, []string{"blue", "medium", "dark"}, active.RowLabels)
	assert.Equal(t, []string{"red", "medium", "dark"}, active.ColLabels)
	assert.Equal(t, 84.0, active.N.At(1, 0), "medium eyes, red hair")
	assert.Equal(t, []string{"light"}, sup.RowLabels)
	assert.Equal(t, []string{"fair", "black"}, sup.ColLabels, "table order, not the order asked")
	r, c := sup.Rows.Dims()
	assert.Equal(t, [2]int{1, 3}, [2]int{r, c}, "light over the active columns")
	assert.Equal(t, 116.0, sup.Rows.At(0, 0))
	r, c = sup.Cols.Dims()
	assert.Equal(t, [2]int{2, 3}, [2]int{r, c}, "one row per supplementary column, over the active rows")
	assert.Equal(t, []float64{326, 343, 98}, []float64{sup.Cols.At(0, 0), sup.Cols.At(0, 1), sup.Cols.At(0, 2)}, "fair")
	assert.Equal(t, 85.0, sup.Cols.At(1, 2), "black × dark")

	none, sup, err := f.Split(nil, nil)
	require.NoError(t, err)
	assert.Equal(t, f.RowLabels, none.RowLabels)
	assert.Nil(t, sup.Rows)
	assert.Nil(t, sup.Cols)

	for _, tc := range []struct {
		name       string
		rows, cols []string
		want       string
	}{
		{"unknown row", []string{"green"}, nil, `table fisher: no row labelled "green" (the rows are: blue, light, medium, dark)`},
		{"unknown column", nil, []string{"grey"}, `no column labelled "grey"`},
		{"twice", []string{"blue", "blue"}, nil, `supplementary row "blue" is listed twice`},
		{"too few left", []string{"blue", "light", "medium"}, nil, "1 active rows and 5 active columns left"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := f.Split(tc.rows, tc.cols)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
