package ca

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
// the table in memory: S, U, V, the masses, the total inertia, the product
// count and the residuals, for every kernel (CDS too) and backend (the
// dense ones materialise it from its rows, so they read it once, in
// blocks of one row), at ranks 5 and 70 (dssvd's products are then 80
// columns wide: the wide sparse kernel, not the narrow one), with blocks
// of one row, of odd sizes and larger than the table, and GOMAXPROCS 1
// and 2. The reference is the in-memory decomposition at GOMAXPROCS 2,
// the path of every committed record.
func TestDecomposeFromFile(t *testing.T) {
	o := synth.TableOptions{Groups: 8, RowsPerGroup: 40, ColsPerGroup: 50, Total: 400000, Noise: 0.3, Seed: 3}
	tab, err := synth.Table(o)
	require.NoError(t, err)
	n := tab.N
	r, c := n.Dims()
	require.Greater(t, n.NNZ(), 20000, "enough values that a product splits its rows between workers")
	tableBytes := 12 * int64(n.NNZ())
	blocks := []int64{
		1,                       // one row a block
		12*int64(n.NNZ()/r) + 5, // about a row, an odd size
		12*1009 + 7,             // a few dozen rows, odd
		tableBytes - 1,          // all rows but the last
		4 * tableBytes,          // one block larger than the table
	}
	files := make([]*sparse.FileCSR, len(blocks))
	for q, block := range blocks {
		files[q] = fileTable(t, n, block)
	}
	for _, tc := range []struct {
		kernel Kernel
		cds    float64
	}{{KernelCA, 0}, {KernelCA, 0.75}, {KernelGini, 0}, {KernelPlain, 0}} {
		for _, b := range backends() {
			for _, rank := range []int{5, 70} {
				name := fmt.Sprintf("%s/cds=%v/%s/k=%d", tc.kernel, tc.cds, b.Name(), rank)
				opt := svd.DefaultOptions(rank)
				opt.Seed = 9
				do := DecomposeOptions{CDS: tc.cds, KeepV: true}
				want := decomposeAt(t, 2, n, tc.kernel, b, opt, do)
				require.Len(t, want.S, rank, name)
				bs := blocks
				if b.Name() == "dense" || b.Name() == "randomized" {
					bs = blocks[:1]
				}
				for q, block := range bs {
					f := files[q]
					for _, procs := range []int{1, 2} {
						t.Run(fmt.Sprintf("%s/block=%d/procs=%d", name, block, procs), func(t *testing.T) {
							got := decomposeAt(t, procs, f, tc.kernel, b, opt, do)
							require.NoError(t, f.Err())
							assertSameBits(t, want.S, got.S, "S")
							assertSameBits(t, want.U.RawMatrix().Data, got.U.RawMatrix().Data, "U (%d×%d)", r, rank)
							assertSameBits(t, want.V.RawMatrix().Data, got.V.RawMatrix().Data, "V (%d×%d)", c, rank)
							assertSameBits(t, want.RowMass, got.RowMass, "row masses")
							assertSameBits(t, want.ColMass, got.ColMass, "column masses")
							assertSameBits(t, []float64{want.TotalInertia}, []float64{got.TotalInertia}, "total inertia")
							assert.Equal(t, want.Products, got.Products, "products")
							if want.Accuracy != nil {
								require.NotNil(t, got.Accuracy)
								assertSameBits(t, want.Accuracy.Residuals, got.Accuracy.Residuals, "residuals")
							}
						})
					}
				}
			}
		}
	}
}

// decomposeAt runs DecomposeWith with GOMAXPROCS set to procs.
func decomposeAt(t *testing.T, procs int, n Table, kernel Kernel, b svd.Backend, opt svd.Options, do DecomposeOptions) *Decomposition {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	dec, err := DecomposeWith(context.Background(), n, kernel, b, opt, do)
	require.NoError(t, err)
	return dec
}

// assertSameBits asserts equal lengths and every element the same bits
// (so +0 and −0 differ, and a NaN equals only its own bits).
func assertSameBits(t *testing.T, want, got []float64, msg string, args ...any) {
	t.Helper()
	what := fmt.Sprintf(msg, args...)
	if !assert.Len(t, got, len(want), what) {
		return
	}
	for i := range want {
		if math.Float64bits(want[i]) != math.Float64bits(got[i]) {
			assert.Failf(t, "not the same bits", "%s: element %d: want %v (%#x), got %v (%#x)",
				what, i, want[i], math.Float64bits(want[i]), got[i], math.Float64bits(got[i]))
			return
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
