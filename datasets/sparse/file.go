package sparse

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sync"

	"gonum.org/v1/gonum/mat"

	"kcalab/internal/inputfile"
)

// DefaultBlockBytes is the row block a FileCSR reads at a time when
// OpenFile is given 0: 64 MiB of indices and values.
const DefaultBlockBytes = 64 << 20

// FileCSR is a CSR matrix that stays in a file (the format of WriteTo) and
// is read in blocks of whole rows, so a table larger than memory can still
// be multiplied: only the row pointers (8 bytes a row) and one block of
// indices and values (12 bytes a stored value, at most BlockBytes) are in
// memory. Its products are the same bits as the in-memory CSR's: a block
// is a CSR of its rows, multiplied by the same kernel, and every output row
// sums its stored values in the same order whatever the blocks. The
// transposed product needs the transpose's file (SetTranspose,
// TransposeFile), as CSR's needs its transpose in memory.
//
// Products cannot return errors (they implement an operator interface): a
// read error zeroes the product, is kept, and is returned by Err, which a
// caller checks once the products are done. Safe for concurrent use.
type FileCSR struct {
	path       string
	f          *os.File
	rows, cols int
	nnz        int64
	indptr     []int64
	blockBytes int64
	t          *FileCSR

	mu  sync.Mutex
	err error
}

// WriteFile writes m to path in the format of WriteTo, through a temporary
// file in the same directory renamed into place.
func WriteFile(path string, m *CSR) error {
	return writeFileAtomic(path, func(f *os.File) error {
		_, err := m.WriteTo(f)
		return err
	})
}

func writeFileAtomic(path string, write func(*os.File) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("sparse: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename, a no-op
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("sparse: write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("sparse: write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("sparse: %w", err)
	}
	return nil
}

// OpenFile opens a matrix written by WriteTo or WriteFile, reading its
// header and row pointers and checking them against the file's size.
// blockBytes bounds the indices and values read at a time (0: the
// default); a row larger than it is read whole.
func OpenFile(path string, blockBytes int64) (*FileCSR, error) {
	if blockBytes < 0 {
		return nil, fmt.Errorf("sparse: block of %d bytes", blockBytes)
	}
	if blockBytes == 0 {
		blockBytes = DefaultBlockBytes
	}
	// A table file is one this program wrote beside its transpose: a link,
	// a FIFO or a device in its place is refused, not followed or waited on.
	f, _, err := inputfile.Open(path, inputfile.Spec{What: "a sparse table file this program wrote", NoFollow: true})
	if err != nil {
		return nil, fmt.Errorf("sparse: %w", err)
	}
	m, err := openFile(f, path, blockBytes)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("sparse: %s: %w", path, err)
	}
	return m, nil
}

func openFile(f *os.File, path string, blockBytes int64) (*FileCSR, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	var hdr [headerSize]byte
	if _, err := f.ReadAt(hdr[:], 0); err != nil {
		return nil, fmt.Errorf("%w: header: %w", ErrFormat, err)
	}
	if string(hdr[:4]) != magic || binary.LittleEndian.Uint32(hdr[4:]) != version {
		return nil, fmt.Errorf("%w: bad magic or version", ErrFormat)
	}
	rows, cols, nnz := binary.LittleEndian.Uint64(hdr[8:]), binary.LittleEndian.Uint64(hdr[16:]), binary.LittleEndian.Uint64(hdr[24:])
	if rows >= math.MaxInt32 || cols >= math.MaxInt32 || nnz > math.MaxInt64/16 {
		return nil, fmt.Errorf("%w: %d×%d with %d values", ErrFormat, rows, cols, nnz)
	}
	if want := int64(headerSize) + int64(rows+1)*8 + int64(nnz)*12; st.Size() != want {
		return nil, fmt.Errorf("%w: %d bytes, want %d for %d×%d with %d values", ErrFormat, st.Size(), want, rows, cols, nnz)
	}
	buf := make([]byte, (rows+1)*8)
	if _, err := f.ReadAt(buf, headerSize); err != nil {
		return nil, fmt.Errorf("%w: row pointers: %w", ErrFormat, err)
	}
	indptr := make([]int64, rows+1)
	for i := range indptr {
		indptr[i] = int64(binary.LittleEndian.Uint64(buf[8*i:]))
		if i > 0 && indptr[i] < indptr[i-1] || i == 0 && indptr[0] != 0 {
			return nil, fmt.Errorf("%w: row pointer %d = %d out of order", ErrFormat, i, indptr[i])
		}
	}
	if indptr[rows] != int64(nnz) {
		return nil, fmt.Errorf("%w: last row pointer %d, want %d", ErrFormat, indptr[rows], nnz)
	}
	return &FileCSR{path: path, f: f, rows: int(rows), cols: int(cols), nnz: int64(nnz), indptr: indptr, blockBytes: blockBytes}, nil
}

// Dims returns the number of rows and columns.
func (m *FileCSR) Dims() (rows, cols int) { return m.rows, m.cols }

// NNZ returns the number of stored values.
func (m *FileCSR) NNZ() int64 { return m.nnz }

// Path returns the file the matrix is read from.
func (m *FileCSR) Path() string { return m.path }

// MemoryBytes is what the matrix holds in memory between products (its row
// pointers) plus the largest block a product reads.
func (m *FileCSR) MemoryBytes() int64 {
	return int64(len(m.indptr))*8 + min(m.blockBytes, m.nnz*12)
}

// SetTranspose gives the matrix its transpose (a file written by
// TransposeFile), needed by MulTDenseScaled.
func (m *FileCSR) SetTranspose(t *FileCSR) error {
	if t.rows != m.cols || t.cols != m.rows || t.nnz != m.nnz {
		return fmt.Errorf("sparse: %s (%d×%d, %d values) is not the transpose of %s (%d×%d, %d values)",
			t.path, t.rows, t.cols, t.nnz, m.path, m.rows, m.cols, m.nnz)
	}
	m.t = t
	return nil
}

// Err returns the first read error of a product, if any.
func (m *FileCSR) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	err := m.err
	if m.t != nil && err == nil {
		err = m.t.Err()
	}
	return err
}

func (m *FileCSR) fail(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err == nil {
		m.err = err
	}
}

// Close closes the file and the transpose's.
func (m *FileCSR) Close() error {
	err := m.f.Close()
	if m.t != nil {
		err = errors.Join(err, m.t.Close())
	}
	return err
}

// blocks calls fn with consecutive row ranges whose stored values fit the
// block size (a row larger than it alone), read into a CSR of those rows.
func (m *FileCSR) blocks(fn func(lo int, b *CSR) error) error {
	var idx []int32
	var val []float64
	var raw []byte
	for lo := 0; lo < m.rows; {
		hi := lo + 1
		for hi < m.rows && (m.indptr[hi+1]-m.indptr[lo])*12 <= m.blockBytes {
			hi++
		}
		p0, p1 := m.indptr[lo], m.indptr[hi]
		n := int(p1 - p0)
		if cap(idx) < n {
			idx, val, raw = make([]int32, n), make([]float64, n), make([]byte, 8*n)
		}
		idx, val = idx[:n], val[:n]
		base := int64(headerSize) + int64(m.rows+1)*8
		if err := m.readInto(raw[:4*n], base+4*p0); err != nil {
			return err
		}
		for q := range idx {
			idx[q] = int32(binary.LittleEndian.Uint32(raw[4*q:]))
			if idx[q] < 0 || int(idx[q]) >= m.cols {
				return fmt.Errorf("sparse: %s: %w: column %d out of range", m.path, ErrFormat, idx[q])
			}
		}
		if err := m.readInto(raw[:8*n], base+4*m.nnz+8*p0); err != nil {
			return err
		}
		for q := range val {
			val[q] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*q:]))
		}
		ptr := make([]int64, hi-lo+1)
		for i := range ptr {
			ptr[i] = m.indptr[lo+i] - p0
		}
		if err := fn(lo, &CSR{rows: hi - lo, cols: m.cols, indptr: ptr, indices: idx, data: val}); err != nil {
			return err
		}
		lo = hi
	}
	return nil
}

func (m *FileCSR) readInto(b []byte, off int64) error {
	if _, err := m.f.ReadAt(b, off); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return fmt.Errorf("sparse: read %s at %d: %w", m.path, off, err)
	}
	return nil
}

// EachRow calls fn with every row in order: its column indices
// (increasing) and values, valid during the call only. Its error (fn's or
// a read's) is also kept for Err.
func (m *FileCSR) EachRow(fn func(i int, cols []int32, vals []float64) error) error {
	err := m.eachRow(fn)
	if err != nil {
		m.fail(err) // also for callers that only check Err
	}
	return err
}

func (m *FileCSR) eachRow(fn func(i int, cols []int32, vals []float64) error) error {
	return m.blocks(func(lo int, b *CSR) error {
		for i := range b.rows {
			cols, vals := b.Row(i)
			if err := fn(lo+i, cols, vals); err != nil {
				return err
			}
		}
		return nil
	})
}

// MulDenseScaled sets dst = D(s)·m·D(t)·x, as CSR.MulDenseScaled does, to
// the same bits; on a read error dst is zeroed and Err reports it.
func (m *FileCSR) MulDenseScaled(dst, x *mat.Dense, s, t []float64) {
	checkScale("MulDenseScaled", s, m.rows, t, m.cols)
	k := (&CSR{rows: m.rows, cols: m.cols}).checkMul("MulDense", dst, x, m.cols, m.rows)
	if k == 0 {
		return
	}
	err := m.blocks(func(lo int, b *CSR) error {
		view := dst.Slice(lo, lo+b.rows, 0, k).(*mat.Dense)
		var bs []float64
		if s != nil {
			bs = s[lo : lo+b.rows]
		}
		b.mul(view, x, k, bs, t)
		return nil
	})
	if err != nil {
		dst.Zero()
		m.fail(err)
	}
}

// MulTDenseScaled sets dst = D(s)·mᵀ·D(t)·x, as CSR.MulTDenseScaled does,
// reading the transpose's file; without one (SetTranspose) dst is zeroed
// and Err says so.
func (m *FileCSR) MulTDenseScaled(dst, x *mat.Dense, s, t []float64) {
	if m.t == nil {
		checkScale("MulTDenseScaled", s, m.cols, t, m.rows)
		(&CSR{rows: m.rows, cols: m.cols}).checkMul("MulTDense", dst, x, m.rows, m.cols)
		dst.Zero()
		m.fail(fmt.Errorf("sparse: %s: transposed product without the transpose's file", m.path))
		return
	}
	m.t.MulDenseScaled(dst, x, s, t)
}

// TransposeFile writes the transpose of m to path, the same bytes as
// m.T() written by WriteTo, holding at most about memBytes of it at once:
// it reads m once to count the columns, then once per band of columns
// whose values fit memBytes.
func TransposeFile(m *FileCSR, path string, memBytes int64) error {
	if memBytes <= 0 {
		return fmt.Errorf("sparse: transpose of %s in %d bytes", m.path, memBytes)
	}
	if m.rows > math.MaxInt32 {
		return fmt.Errorf("sparse: transpose of %s: %d rows do not fit int32 column indices", m.path, m.rows)
	}
	ptr := make([]int64, m.cols+1)
	if err := m.EachRow(func(_ int, cols []int32, _ []float64) error {
		for _, j := range cols {
			ptr[j+1]++
		}
		return nil
	}); err != nil {
		return err
	}
	for j := range m.cols {
		ptr[j+1] += ptr[j]
	}
	return writeFileAtomic(path, func(f *os.File) error {
		var hdr [headerSize]byte
		copy(hdr[:4], magic)
		binary.LittleEndian.PutUint32(hdr[4:], version)
		binary.LittleEndian.PutUint64(hdr[8:], uint64(m.cols))
		binary.LittleEndian.PutUint64(hdr[16:], uint64(m.rows))
		binary.LittleEndian.PutUint64(hdr[24:], uint64(m.nnz))
		if _, err := f.Write(hdr[:]); err != nil {
			return err
		}
		buf := make([]byte, 8*len(ptr))
		for j, p := range ptr {
			binary.LittleEndian.PutUint64(buf[8*j:], uint64(p))
		}
		if _, err := f.Write(buf); err != nil {
			return err
		}
		base := int64(headerSize) + int64(len(ptr))*8
		for c0 := 0; c0 < m.cols; {
			c1 := c0 + 1
			for c1 < m.cols && (ptr[c1+1]-ptr[c0])*12 <= memBytes {
				c1++
			}
			p0, n := ptr[c0], ptr[c1]-ptr[c0]
			idx, val := make([]int32, n), make([]float64, n)
			next := make([]int64, c1-c0)
			for j := range next {
				next[j] = ptr[c0+j] - p0
			}
			// Rows in increasing order: each transposed row's indices increase, as T()'s.
			if err := m.EachRow(func(i int, cols []int32, vals []float64) error {
				for q, j := range cols {
					if int(j) >= c0 && int(j) < c1 {
						idx[next[int(j)-c0]] = int32(i)
						val[next[int(j)-c0]] = vals[q]
						next[int(j)-c0]++
					}
				}
				return nil
			}); err != nil {
				return err
			}
			out := make([]byte, 8*n)
			for q, i := range idx {
				binary.LittleEndian.PutUint32(out[4*q:], uint32(i))
			}
			if _, err := f.WriteAt(out[:4*n], base+4*p0); err != nil {
				return err
			}
			for q, v := range val {
				binary.LittleEndian.PutUint64(out[8*q:], math.Float64bits(v))
			}
			if _, err := f.WriteAt(out, base+4*m.nnz+8*p0); err != nil {
				return err
			}
			c0 = c1
		}
		return nil
	})
}

// EachRow calls fn with every row in order, as FileCSR.EachRow.
func (m *CSR) EachRow(fn func(i int, cols []int32, vals []float64) error) error {
	for i := range m.rows {
		cols, vals := m.Row(i)
		if err := fn(i, cols, vals); err != nil {
			return err
		}
	}
	return nil
}
