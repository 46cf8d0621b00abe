package sparse

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// openPair writes m and its out-of-core transpose and opens them.
func openPair(t *testing.T, m *CSR, block, transposeMem int64) *FileCSR {
	t.Helper()
	dir := t.TempDir()
	p, pt := filepath.Join(dir, "n.kcsr"), filepath.Join(dir, "nt.kcsr")
	require.NoError(t, WriteFile(p, m))
	f, err := OpenFile(p, block)
	require.NoError(t, err)
	require.NoError(t, TransposeFile(f, pt, transposeMem))
	ft, err := OpenFile(pt, block)
	require.NoError(t, err)
	require.NoError(t, f.SetTranspose(ft))
	t.Cleanup(func() { f.Close() })
	return f
}

// A file-backed matrix gives the in-memory matrix's products bit for bit,
// for any block size (one row at a time, a few rows, all at once), with
// and without scalings, through the narrow kernel (mulRows, k ≤ 64) and
// the wide one (mul, k > 64), whatever GOMAXPROCS; its out-of-core
// transpose is the same bytes as T(), however many column bands it takes.
func TestFileCSRBitIdentical(t *testing.T) {
	empty, err := New(5, 4, make([]int64, 6), nil, nil)
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		m    *CSR
	}{
		{"random 300×200", randomCSR(1, 300, 200, 4000)},
		{"empty rows and columns", randomCSR(2, 400, 900, 300)},
		{"wide rows", randomCSR(3, 20, 3000, 20000)},
		{"no values", empty},
	} {
		r, c := tc.m.Dims()
		for _, k := range []int{7, rowKernelMaxK + 1} {
			x, xt := randomDense(4, c, k), randomDense(5, r, k)
			s, sc := make([]float64, r), make([]float64, c)
			for i := range s {
				s[i] = 1 + float64(i%5)/3
			}
			for j := range sc {
				sc[j] = 0.5 + float64(j%7)/11
			}
			var want, wantS, wantT, wantTS mat.Dense
			tc.m.MulDense(&want, x)
			tc.m.MulDenseScaled(&wantS, x, s, sc)
			tc.m.MulTDense(&wantT, xt)
			tc.m.MulTDenseScaled(&wantTS, xt, sc, s)
			var tbytes bytes.Buffer
			_, err := tc.m.T().WriteTo(&tbytes)
			require.NoError(t, err)
			for _, block := range []int64{1, 12 * 7, 1 << 20} {
				for _, procs := range []int{1, 2, 4} {
					t.Run(fmt.Sprintf("%s/k=%d/block=%d/procs=%d", tc.name, k, block, procs), func(t *testing.T) {
						defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
						f := openPair(t, tc.m, block, block)
						tb, err := os.ReadFile(f.t.Path())
						require.NoError(t, err)
						assert.True(t, bytes.Equal(tbytes.Bytes(), tb), "transpose file = T().WriteTo")
						for _, p := range []struct {
							name string
							want *mat.Dense
							mul  func(dst *mat.Dense)
						}{
							{"m·x", &want, func(d *mat.Dense) { f.MulDenseScaled(d, x, nil, nil) }},
							{"D·m·D·x", &wantS, func(d *mat.Dense) { f.MulDenseScaled(d, x, s, sc) }},
							{"mᵀ·x", &wantT, func(d *mat.Dense) { f.MulTDenseScaled(d, xt, nil, nil) }},
							{"D·mᵀ·D·x", &wantTS, func(d *mat.Dense) { f.MulTDenseScaled(d, xt, sc, s) }},
						} {
							var got mat.Dense
							p.mul(&got)
							assert.Equal(t, denseBits(p.want), denseBits(&got), p.name)
						}
						require.NoError(t, f.Err())
						var rows int
						require.NoError(t, f.EachRow(func(i int, cols []int32, vals []float64) error {
							wc, wv := tc.m.Row(i)
							assert.Equal(t, wc, cols)
							assert.Equal(t, wv, vals)
							rows++
							return nil
						}))
						assert.Equal(t, r, rows)
					})
				}
			}
		}
	}
}

// denseBits returns the bits of d's elements, row by row: equal bits, not
// equal values (+0 and −0 differ).
func denseBits(d *mat.Dense) []uint64 { return bitsOf(mat.DenseCopyOf(d).RawMatrix().Data) }

// Damaged files are refused at open, naming the file; a file shortened
// after opening fails the product, which Err reports.
func TestFileCSRErrors(t *testing.T) {
	m := randomCSR(6, 50, 40, 400)
	dir := t.TempDir()
	p := filepath.Join(dir, "n.kcsr")
	require.NoError(t, WriteFile(p, m))
	good, err := os.ReadFile(p)
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"truncated", good[:len(good)-5], "bytes, want"},
		{"header only", good[:10], "header"},
		{"bad magic", append([]byte("XXXX"), good[4:]...), "bad magic"},
		{"row pointers out of order", func() []byte {
			b := append([]byte(nil), good...)
			b[headerSize+8] = 0xff
			return b
		}(), "out of order"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := filepath.Join(dir, "bad.kcsr")
			require.NoError(t, os.WriteFile(bad, tc.data, 0o644))
			_, err := OpenFile(bad, 0)
			require.ErrorIs(t, err, ErrFormat)
			assert.ErrorContains(t, err, bad)
			assert.ErrorContains(t, err, tc.want)
		})
	}
	_, err = OpenFile(filepath.Join(dir, "missing.kcsr"), 0)
	assert.ErrorContains(t, err, "missing.kcsr")
	// Only a regular file, not through a link: a FIFO is not waited on.
	fifo := filepath.Join(dir, "fifo.kcsr")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	link := filepath.Join(dir, "link.kcsr")
	require.NoError(t, os.Symlink(p, link))
	for path, want := range map[string]string{
		fifo: "fifo.kcsr: not a regular file (a FIFO)",
		link: "link.kcsr: not a regular file: a symbolic link",
	} {
		done := make(chan error, 1)
		go func() { _, err := OpenFile(path, 0); done <- err }()
		select {
		case err := <-done:
			assert.ErrorContains(t, err, want)
		case <-time.After(10 * time.Second):
			t.Fatalf("OpenFile(%s) did not return", path)
		}
	}

	f, err := OpenFile(p, 64)
	require.NoError(t, err)
	defer f.Close()
	var dst mat.Dense
	f.MulTDenseScaled(&dst, randomDense(1, 50, 3), nil, nil)
	assert.ErrorContains(t, f.Err(), "without the transpose")

	g, err := OpenFile(p, 64)
	require.NoError(t, err)
	defer g.Close()
	require.NoError(t, os.Truncate(p, int64(len(good))-100))
	dst = mat.Dense{}
	g.MulDenseScaled(&dst, randomDense(2, 40, 3), nil, nil)
	assert.ErrorContains(t, g.Err(), "unexpected EOF")
	assert.ErrorContains(t, g.Err(), p)
	assert.Zero(t, mat.Sum(&dst), "a failed product is zero, not half done")
}
