package vectors

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"kcalab/internal/atomicfile"
	"kcalab/internal/inputfile"
)

// ReadTextFile reads a word2vec text file; see ReadText. Only a regular
// file is read: a FIFO or a device is refused before anything is read.
func ReadTextFile(path string) (*Set, error) {
	f, _, err := inputfile.Open(path, inputfile.Spec{What: "word vectors in word2vec text format"})
	if err != nil {
		return nil, fmt.Errorf("word vectors: %w", err)
	}
	defer f.Close()
	return ReadText(bufio.NewReaderSize(f, 1<<20), path)
}

// maxLine bounds one line: 2^26 bytes holds well over 10^6 values.
const maxLine = 1 << 26

// ReadText reads word vectors in word2vec text format: a header line
// "<count> <dim>", then count lines "word v1 ... v_dim". Fields are separated
// by spaces or tabs; trailing spaces (as the original word2vec tool writes),
// CR line endings and blank lines after the last word are accepted. Values must be finite. Words must be
// distinct. name is used in error messages, which read "name:line: problem".
func ReadText(r io.Reader, name string) (*Set, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxLine)
	if !sc.Scan() {
		if err := scanErr(sc, name, 1); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s: empty file: want a header line \"<count> <dim>\"", name)
	}
	hdr := strings.Fields(string(bytes.TrimPrefix(sc.Bytes(), []byte("\xef\xbb\xbf"))))
	if len(hdr) != 2 {
		return nil, fmt.Errorf("%s:1: header has %d fields: want \"<count> <dim>\"", name, len(hdr))
	}
	count, err1 := strconv.Atoi(hdr[0])
	dim, err2 := strconv.Atoi(hdr[1])
	if err1 != nil || err2 != nil || count < 1 || dim < 1 {
		return nil, fmt.Errorf("%s:1: header %q: want two positive integers \"<count> <dim>\"", name, sc.Text())
	}

	// Grow as lines arrive rather than trusting the header's count·dim,
	// which a damaged file could make huge.
	var words []string
	var data []float64
	index := map[string]int{}
	line := 1
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 0 && len(words) == count:
			continue // blank lines at the end
		case len(f) == 0:
			// gensim rejects it too (wrong number of fields).
			return nil, fmt.Errorf("%s:%d: blank line: want \"word v1 ... v%d\"", name, line, dim)
		case len(words) == count:
			return nil, fmt.Errorf("%s:%d: more lines than the %d words the header announces", name, line, count)
		}
		if len(f) != dim+1 {
			return nil, fmt.Errorf("%s:%d: word %q has %d values, want %d (the header's dim)", name, line, f[0], len(f)-1, dim)
		}
		w := f[0]
		if prev, dup := index[w]; dup {
			return nil, fmt.Errorf("%s:%d: word %q repeats line %d", name, line, w, prev+2)
		}
		for j, s := range f[1:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return nil, fmt.Errorf("%s:%d: word %q, value %d: %q is not a number", name, line, w, j+1, s)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s:%d: word %q, value %d: %q is not finite", name, line, w, j+1, s)
			}
			data = append(data, v)
		}
		index[w] = len(words)
		words = append(words, w)
	}
	if err := scanErr(sc, name, line+1); err != nil {
		return nil, err
	}
	if len(words) != count {
		return nil, fmt.Errorf("%s: header announces %d words, file has %d: truncated file?", name, count, len(words))
	}
	s := &Set{Words: words, M: mat.NewDense(count, dim, data), index: index}
	s.once.Do(func() {})
	return s, nil
}

func scanErr(sc *bufio.Scanner, name string, line int) error {
	err := sc.Err()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, bufio.ErrTooLong):
		return fmt.Errorf("%s:%d: line longer than %d bytes", name, line, maxLine)
	default:
		return fmt.Errorf("%s:%d: %w", name, line, err)
	}
}

// WriteTextFile writes s to path in word2vec text format (see WriteText),
// atomically (internal/atomicfile): a full disk or a kill never leaves a
// truncated file under the name, and a path that is a symbolic link is
// refused, not written through.
func WriteTextFile(path string, s *Set, bitSize int) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("word vectors %s: %w", path, err)
	}
	defer f.Discard()
	if err := WriteText(f, s, bitSize); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("word vectors: %w", err)
	}
	return nil
}

// WriteText writes s in word2vec text format, one space between fields and
// no trailing space. Each value is written as the shortest decimal that
// reads back to the same number (strconv 'g', precision -1): with bitSize 64
// ReadText gets back the exact float64 bits; with bitSize 32 the value is
// first rounded to float32, the precision gensim keeps anyway: a float32
// reader gets that float32 exactly, and the file is about half as large. Non-finite values (also after rounding to
// float32) and words that cannot be written are errors.
func WriteText(w io.Writer, s *Set, bitSize int) error {
	if bitSize != 32 && bitSize != 64 {
		return fmt.Errorf("word vectors: bit size %d: want 32 or 64", bitSize)
	}
	if s == nil || s.M == nil || s.M.IsEmpty() {
		return fmt.Errorf("word vectors: empty set")
	}
	n, dim := s.M.Dims()
	if n != len(s.Words) {
		return fmt.Errorf("word vectors: %d words but %d matrix rows", len(s.Words), n)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	fmt.Fprintf(bw, "%d %d\n", n, dim)
	buf := make([]byte, 0, 64)
	for i, word := range s.Words {
		if err := checkWord(word); err != nil {
			return fmt.Errorf("word vectors: word %d: %w", i+1, err)
		}
		bw.WriteString(word)
		for j, v := range s.M.RawRowView(i) {
			if bitSize == 32 {
				v = float64(float32(v))
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("word vectors: word %q, value %d: %g is not finite as a float%d", word, j+1, s.M.At(i, j), bitSize)
			}
			buf = append(buf[:0], ' ')
			buf = strconv.AppendFloat(buf, v, 'g', -1, bitSize)
			bw.Write(buf)
		}
		if err := bw.WriteByte('\n'); err != nil {
			return fmt.Errorf("word vectors: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("word vectors: %w", err)
	}
	return nil
}
