package datasets

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadCSV(t *testing.T) {
	tab, err := ReadCSV(strings.NewReader("eye,fair,dark\nblue, 3, 0\n# a comment\ndark,1,2.5\n"), "t.csv")
	require.NoError(t, err)
	assert.Equal(t, []string{"blue", "dark"}, tab.RowLabels)
	assert.Equal(t, []string{"fair", "dark"}, tab.ColLabels)
	assert.Equal(t, 3.0, tab.N.At(0, 0))
	assert.Equal(t, 0.0, tab.N.At(0, 1))
	assert.Equal(t, 2.5, tab.N.At(1, 1))
	require.NoError(t, tab.Validate())
}

func TestReadCSVErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "t.csv: empty file"},
		{"header only corner", "x\n", "t.csv:1: header has 1 cell"},
		{"no rows", "x,a,b\n", "t.csv: no data rows"},
		{"ragged", "x,a,b\nr1,1,2\nr2,1\n", `t.csv:3: ragged row: 2 cells, want 3`},
		{"negative", "x,a,b\nr1,1,-2\n", `t.csv:2: row "r1", column "b": negative count -2`},
		{"non-numeric", "x,a,b\nr1,1,two\n", `t.csv:2: row "r1", column "b": "two" is not a number`},
		{"nan", "x,a,b\nr1,NaN,1\n", `t.csv:2: row "r1", column "a": "NaN" is not finite`},
		{"inf", "x,a,b\nr1,1,+Inf\n", `is not finite`},
		{"all zero", "x,a,b\nr1,0,0\nr2,0,0\n", "t.csv: all counts are zero"},
		{"empty label", "x,a,b\n,1,2\n", "t.csv:2: empty row label"},
		{"empty column label", "x,a,\nr,1,2\n", "t.csv:1: column 3 has an empty label"},
		{"duplicate row", "x,a\nr,1\nr,2\n", `t.csv:3: row label "r" repeats line 2`},
		{"duplicate column", "x,a,a\nr,1,2\n", `column label "a" repeats column 2`},
		{"bad quote", "x,a\nr,\"1\n", "t.csv:2: column"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(tc.in), "t.csv")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestReadCSVFileMissing(t *testing.T) {
	_, err := ReadCSVFile("testdata/no-such-file.csv")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no-such-file.csv")
}

func TestFisher(t *testing.T) {
	f := Fisher()
	require.NoError(t, f.Validate())
	assert.Equal(t, 5387.0, f.N.Sum())
	assert.Equal(t, 85.0, f.N.At(3, 4)) // dark eyes, black hair
}

func FuzzReadCSV(f *testing.F) {
	f.Add("eye,fair,dark\nblue,3,0\ndark,1,2\n")
	f.Add("x,a\nr,\"1\n")
	f.Add("x,a,b\nr1,1\n")
	f.Fuzz(func(t *testing.T, in string) {
		tab, err := ReadCSV(strings.NewReader(in), "fuzz.csv")
		if err == nil {
			require.NoError(t, tab.Validate())
		}
	})
}

// Line endings: LF, CRLF and classic Mac CR-only files read the same.
func TestReadCSVLineEndings(t *testing.T) {
	const lf = "x,a,b\nr1,1,2\nr2,3,4\n"
	for _, tc := range []struct{ name, body string }{
		{"LF", lf},
		{"CRLF", strings.ReplaceAll(lf, "\n", "\r\n")},
		{"CR only", strings.ReplaceAll(lf, "\n", "\r")},
		{"CR only, no final newline", strings.TrimSuffix(strings.ReplaceAll(lf, "\n", "\r"), "\r")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := ReadCSV(strings.NewReader(tc.body), "t.csv")
			require.NoError(t, err)
			assert.Equal(t, []string{"r1", "r2"}, tab.RowLabels)
			assert.Equal(t, []string{"a", "b"}, tab.ColLabels)
		})
	}
}
