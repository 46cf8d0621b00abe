package datasets

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"kcalab/datasets/sparse"

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
		{"out of range", "x,a,b\nr1,1,1e400\n", `t.csv:2: row "r1", column "b": "1e400" is not finite`},
		{"huge count", "x,a,b\nr1,1,2\nr2,1e300,1\n", `t.csv:3: row "r2", column "a": count 1e300 takes the table's total past 2^53`},
		{"total past 2^53", "x,a,b\nr1,5e15,1\nr2,1,5e15\n", `t.csv:3: row "r2", column "b": count 5e15 takes the table's total past 2^53`},
		{"total past float64", "x,a,b\nr1,1.7e308,1.7e308\n", `t.csv:2: row "r1", column "a": count 1.7e308 takes`},
		{"over 16 MiB", "x,a\n" + strings.Repeat("# padding\n", MaxCSVBytes/10+1), "t.csv: more than 16 MiB, the limit for a CSV contingency table"},
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

// A CSV table is read as a spec is: only a regular file of at most
// MaxCSVBytes, and a FIFO or a device is refused at once instead of
// blocking or filling memory.
func TestReadCSVFileRegularOnly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.csv")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	big := filepath.Join(dir, "big.csv")
	require.NoError(t, os.WriteFile(big, []byte("x,a\n"+strings.Repeat("# padding\n", MaxCSVBytes/10+1)), 0o644))
	ok := filepath.Join(dir, "ok.csv")
	require.NoError(t, os.WriteFile(ok, []byte("x,a,b\nr,1,2\ns,3,4\n"), 0o644))
	for _, tc := range []struct{ name, path, want string }{
		{"FIFO", fifo, fifo + ": not a regular file (a FIFO): want a CSV contingency table"},
		{"/dev/urandom", "/dev/urandom", "/dev/urandom: not a regular file (a character device)"},
		{"directory", dir, "not a regular file (a directory)"},
		{"over 16 MiB", big, "over the limit of 16 MiB for a CSV contingency table"},
		{"regular", ok, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { _, err := ReadCSVFile(tc.path); done <- err }()
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("ReadCSVFile(%s) did not return", tc.path)
			}
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestValidateTotal(t *testing.T) {
	tab := &Table{Name: "t", RowLabels: []string{"r"}, ColLabels: []string{"a", "b"}, N: sparse.FromDense(1, 2, []float64{1e300, 1e300})}
	assert.ErrorContains(t, tab.Validate(), "table t: total 2e+300: want a finite total of at most 2^53")
	tab.N = sparse.FromDense(1, 2, []float64{1.7e308, 1.7e308})
	assert.ErrorContains(t, tab.Validate(), "total +Inf")
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
			sum := tab.N.Sum()
			require.False(t, math.IsNaN(sum) || sum > MaxTotal, "total %v", sum)
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
