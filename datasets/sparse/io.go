package sparse

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
)

// Serialisation format, all little-endian:
//
//	magic   [4]byte "KCSR"
//	version uint32  (1)
//	rows    uint64
//	cols    uint64
//	nnz     uint64
//	indptr  (rows+1) × int64
//	indices nnz × int32
//	data    nnz × float64 (IEEE 754 bits)
//
// No checksum: callers that store matrices (the corpus cache) add their own.
const (
	magic      = "KCSR"
	version    = 1
	headerSize = 32
	// ioChunk is the number of bytes encoded or decoded at a time, so that
	// serialising never needs a second copy of the matrix.
	ioChunk = 64 << 10
)

// ErrFormat reports input that is not a serialised CSR matrix.
var ErrFormat = errors.New("not a valid CSR stream")

// WriteTo writes m in the binary format described in the package
// documentation. It implements io.WriterTo.
func (m *CSR) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	var hdr [headerSize]byte
	copy(hdr[:4], magic)
	binary.LittleEndian.PutUint32(hdr[4:], version)
	binary.LittleEndian.PutUint64(hdr[8:], uint64(m.rows))
	binary.LittleEndian.PutUint64(hdr[16:], uint64(m.cols))
	binary.LittleEndian.PutUint64(hdr[24:], uint64(len(m.data)))
	if _, err := cw.Write(hdr[:]); err != nil {
		return cw.n, fmt.Errorf("sparse: write header: %w", err)
	}
	buf := make([]byte, 0, ioChunk)
	flush := func() error {
		_, err := cw.Write(buf)
		buf = buf[:0]
		return err
	}
	for _, v := range m.indptr {
		if len(buf)+8 > ioChunk {
			if err := flush(); err != nil {
				return cw.n, fmt.Errorf("sparse: write indptr: %w", err)
			}
		}
		buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
	}
	for _, v := range m.indices {
		if len(buf)+4 > ioChunk {
			if err := flush(); err != nil {
				return cw.n, fmt.Errorf("sparse: write indices: %w", err)
			}
		}
		buf = binary.LittleEndian.AppendUint32(buf, uint32(v))
	}
	for _, v := range m.data {
		if len(buf)+8 > ioChunk {
			if err := flush(); err != nil {
				return cw.n, fmt.Errorf("sparse: write data: %w", err)
			}
		}
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
	}
	if err := flush(); err != nil {
		return cw.n, fmt.Errorf("sparse: write data: %w", err)
	}
	return cw.n, nil
}

// ReadFrom replaces m by a matrix read in the format written by WriteTo and
// checks every CSR invariant. It implements io.ReaderFrom; use it on a fresh
// CSR (matrices are otherwise immutable), or call Read.
//
// Memory grows with the bytes actually read, not with the sizes the header
// claims, so a corrupt header cannot make it allocate more than about twice
// the stream's length.
func (m *CSR) ReadFrom(r io.Reader) (int64, error) {
	cr := &countReader{r: r}
	c, err := read(cr)
	if err != nil {
		return cr.n, err
	}
	*m = CSR{rows: c.rows, cols: c.cols, indptr: c.indptr, indices: c.indices, data: c.data}
	return cr.n, nil
}

// Read reads a matrix written by WriteTo.
func Read(r io.Reader) (*CSR, error) {
	return read(r)
}

func read(r io.Reader) (*CSR, error) {
	var hdr [headerSize]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, fmt.Errorf("sparse: read header: %w", noEOF(err))
	}
	if string(hdr[:4]) != magic {
		return nil, fmt.Errorf("sparse: magic %q, want %q: %w", hdr[:4], magic, ErrFormat)
	}
	if v := binary.LittleEndian.Uint32(hdr[4:]); v != version {
		return nil, fmt.Errorf("sparse: format version %d, this build reads %d: %w", v, version, ErrFormat)
	}
	rows := binary.LittleEndian.Uint64(hdr[8:])
	cols := binary.LittleEndian.Uint64(hdr[16:])
	nnz := binary.LittleEndian.Uint64(hdr[24:])
	// Indices are int32 and the transpose swaps the roles, so both
	// dimensions must fit an int32.
	if rows > math.MaxInt32 || cols > math.MaxInt32 {
		return nil, fmt.Errorf("sparse: dimensions %d×%d exceed %d: %w", rows, cols, math.MaxInt32, ErrFormat)
	}
	if hi, lo := bits.Mul64(rows, cols); hi == 0 && nnz > lo {
		return nil, fmt.Errorf("sparse: %d stored values in a %d×%d matrix: %w", nnz, rows, cols, ErrFormat)
	}
	if nnz > math.MaxInt/8 {
		return nil, fmt.Errorf("sparse: %d stored values is too many: %w", nnz, ErrFormat)
	}
	indptr, err := readWords(r, int(rows)+1, 8, func(b []byte) int64 { return int64(binary.LittleEndian.Uint64(b)) })
	if err != nil {
		return nil, fmt.Errorf("sparse: read indptr: %w", err)
	}
	indices, err := readWords(r, int(nnz), 4, func(b []byte) int32 { return int32(binary.LittleEndian.Uint32(b)) })
	if err != nil {
		return nil, fmt.Errorf("sparse: read indices: %w", err)
	}
	data, err := readWords(r, int(nnz), 8, func(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) })
	if err != nil {
		return nil, fmt.Errorf("sparse: read data: %w", err)
	}
	c, err := New(int(rows), int(cols), indptr, indices, data)
	if err != nil {
		return nil, fmt.Errorf("%w (%w)", err, ErrFormat)
	}
	return c, nil
}

// readWords reads n fixed-size little-endian words. The slice grows
// geometrically up to n as data arrives, ending with capacity exactly n.
func readWords[T any](r io.Reader, n, size int, dec func([]byte) T) ([]T, error) {
	out := make([]T, 0, min(n, ioChunk))
	buf := make([]byte, ioChunk)
	for len(out) < n {
		want := min(n-len(out), ioChunk/size)
		b := buf[:want*size]
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, fmt.Errorf("after %d of %d values: %w", len(out), n, noEOF(err))
		}
		if len(out)+want > cap(out) {
			grown := make([]T, len(out), min(n, max(2*cap(out), len(out)+want)))
			copy(grown, out)
			out = grown
		}
		for p := 0; p < len(b); p += size {
			out = append(out, dec(b[p:p+size]))
		}
	}
	return out, nil
}

// noEOF turns a clean EOF into ErrUnexpectedEOF: the stream was cut short.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
