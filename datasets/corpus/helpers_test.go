package corpus

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"kcalab/datasets/sparse"
)

// writeFile writes content to name in a fresh temporary directory.
func writeFile(t testing.TB, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

// buildText builds the vocabulary and ids of a text.
func buildText(t testing.TB, text string, o VocabOptions) (*Vocab, []int32) {
	t.Helper()
	c, err := Open(context.Background(), "", writeFile(t, "c.txt", text), Options{})
	require.NoError(t, err)
	v, ids, err := Build(context.Background(), c, o)
	require.NoError(t, err)
	return v, ids
}

func dense(m *sparse.CSR) [][]float64 {
	r, c := m.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = make([]float64, c)
		cols, vals := m.Row(i)
		for p, j := range cols {
			out[i][j] = vals[p]
		}
	}
	return out
}

// equalCSR requires the same dimensions, pattern and bits.
func equalCSR(t testing.TB, want, got *sparse.CSR, msg ...any) {
	t.Helper()
	wr, wc := want.Dims()
	gr, gc := got.Dims()
	require.Equal(t, [2]int{wr, wc}, [2]int{gr, gc}, msg...)
	wp, wi, wd := want.Raw()
	gp, gi, gd := got.Raw()
	require.Equal(t, wp, gp, msg...)
	require.Equal(t, wi, gi, msg...)
	require.Equal(t, wd, gd, msg...)
}
