package ca

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/sparse"
	"kcalab/datasets/synth"
	"kcalab/methods/svd"
)

// fileTable writes n and its transpose and opens them with small blocks,
// so that every product reads many blocks.
func fileTable(t *testing.T, n *sparse.CSR, block int64) *sparse.FileCSR {
	t.Helper()
	dir := t.TempDir()
	p, pt := filepath.Join(dir, "n"), filepath.Join(dir, "nt")
	require.NoError(t, sparse.WriteFile(p, n))
	f, err := sparse.OpenFile(p, block)
	require.NoError(t, err)
	require.NoError(t, sparse.TransposeFile(f, pt, block))
	ft, err := sparse.OpenFile(pt, block)
	require.NoError(t, err)
	require.NoError(t, f.SetTranspose(ft))
	t.Cleanup(func() { f.Close() })
	return f
}

// A table read from a file in row blocks decomposes to the same bits as
// the table in memory, for every kernel and backend (the dense ones
// materialise it from its rows), masses and total inertia included.
func TestDecomposeFromFile(t *testing.T) {
	o := synth.TableOptions{Groups: 6, RowsPerGroup: 40, ColsPerGroup: 50, Total: 200000, Noise: 0.3, Seed: 3}
	tab, err := synth.Table(o)
	require.NoError(t, err)
	n := tab.N
	r, _ := n.Dims()
	require.Greater(t, n.NNZ(), 1000)
	for _, kernel := range []Kernel{KernelCA, KernelGini, KernelPlain} {
		for _, b := range backends() {
			t.Run(string(kernel)+"/"+b.Name(), func(t *testing.T) {
				opt := svd.DefaultOptions(4)
				opt.Seed = 9
				want, err := Decompose(context.Background(), n, kernel, b, opt)
				require.NoError(t, err)
				f := fileTable(t, n, 12*int64(n.NNZ()/r+1)) // about a row a block
				got, err := Decompose(context.Background(), f, kernel, b, opt)
				require.NoError(t, err)
				assert.Equal(t, want.S, got.S)
				assert.True(t, mat.Equal(want.U, got.U), "U")
				assert.Equal(t, want.RowMass, got.RowMass)
				assert.Equal(t, want.TotalInertia, got.TotalInertia)
				assert.Equal(t, want.Products, got.Products)
			})
		}
	}
}

// A file-backed table without its transpose fails the decomposition with
// the reason, never returns the zeroed product's vectors.
func TestDecomposeFromFileErrors(t *testing.T) {
	o := synth.TableOptions{Groups: 4, RowsPerGroup: 5, ColsPerGroup: 6, Total: 5000, Noise: 0.3, Seed: 2}
	tab, err := synth.Table(o)
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "n")
	require.NoError(t, sparse.WriteFile(p, tab.N))
	f, err := sparse.OpenFile(p, 0)
	require.NoError(t, err)
	defer f.Close()
	_, err = Decompose(context.Background(), f, KernelCA, svd.Krylov{}, svd.DefaultOptions(3))
	assert.ErrorContains(t, err, "without the transpose")
}
