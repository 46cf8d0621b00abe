package datasets

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"kcalab/datasets/sparse"
	"kcalab/internal/inputfile"
)

// MaxCSVBytes bounds a CSV contingency table. A table is analysed dense,
// so one of millions of cells is already past what CA of a labelled table
// is for; anything larger (a device, a runaway export) is refused unread.
const MaxCSVBytes = 16 << 20

// MaxTotal bounds a table's total, 2^53: up to it float64 holds every whole
// count exactly. Far past it (counts near 1e160) the analysis's χ²
// quantities overflow to Inf and NaN.
const MaxTotal = 1 << 53

var csvFile = inputfile.Spec{What: "a CSV contingency table (a regular file of at most 16 MiB)", Limit: MaxCSVBytes}

// ReadCSVFile reads a contingency table from a CSV file; see ReadCSV. Only
// a regular file of at most MaxCSVBytes is read: a FIFO, a device or a
// directory is refused before anything is read.
func ReadCSVFile(path string) (*Table, error) {
	b, err := inputfile.ReadFile(path, csvFile)
	if err != nil {
		return nil, fmt.Errorf("contingency table: %w", err)
	}
	return ReadCSV(bytes.NewReader(b), path)
}

// ReadCSV reads a contingency table: the first row holds the column labels
// (its first cell, the corner, is ignored), every other row a row label and
// one non-negative count per column. name is used in error messages, which
// take the form "name:line: column "label": problem". At most MaxCSVBytes
// are read, and the counts' total may not pass MaxTotal.
func ReadCSV(r io.Reader, name string) (*Table, error) {
	// encoding/csv ends lines at \n only: a file with classic Mac (CR-only)
	// line endings would read as one long header row. Tables are small, so
	// normalise line endings in memory.
	b, err := io.ReadAll(io.LimitReader(r, MaxCSVBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(b) > MaxCSVBytes {
		return nil, fmt.Errorf("%s: more than %s, the limit for %s", name, inputfile.Size(MaxCSVBytes), csvFile.What)
	}
	if bytes.IndexByte(b, '\r') >= 0 {
		b = bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\r"), []byte("\n"))
	}
	cr := csv.NewReader(bytes.NewReader(b))
	cr.FieldsPerRecord = -1 // ragged rows get our own message
	cr.TrimLeadingSpace = true
	cr.Comment = '#'

	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file: want a header row of column labels", name)
	}
	if err != nil {
		return nil, csvErr(name, err)
	}
	if len(header) < 2 {
		return nil, fmt.Errorf("%s:1: header has %d cell(s): want a corner cell and at least one column label", name, len(header))
	}
	cols := make([]string, len(header)-1)
	seen := map[string]int{}
	for j, h := range header[1:] {
		h = strings.TrimSpace(h)
		if h == "" {
			return nil, fmt.Errorf("%s:1: column %d has an empty label", name, j+2)
		}
		if prev, ok := seen[h]; ok {
			return nil, fmt.Errorf("%s:1: column label %q repeats column %d", name, h, prev)
		}
		seen[h] = j + 2
		cols[j] = h
	}

	var rows []string
	var vals []float64
	total := 0.0
	rowSeen := map[string]int{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvErr(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			return nil, fmt.Errorf("%s:%d: ragged row: %d cells, want %d (a label and %d counts, as in the header)", name, line, len(rec), len(header), len(cols))
		}
		label := strings.TrimSpace(rec[0])
		if label == "" {
			return nil, fmt.Errorf("%s:%d: empty row label", name, line)
		}
		if prev, ok := rowSeen[label]; ok {
			return nil, fmt.Errorf("%s:%d: row label %q repeats line %d", name, line, label, prev)
		}
		rowSeen[label] = line
		rows = append(rows, label)
		for j, cell := range rec[1:] {
			v, err := strconv.ParseFloat(strings.TrimSpace(cell), 64)
			switch {
			case err != nil && !errors.Is(err, strconv.ErrRange): // out of range is ±Inf (refused next) or rounds to 0
				return nil, fmt.Errorf("%s:%d: row %q, column %q: %q is not a number (want a non-negative count)", name, line, label, cols[j], cell)
			case math.IsNaN(v) || math.IsInf(v, 0):
				return nil, fmt.Errorf("%s:%d: row %q, column %q: %q is not finite (want a non-negative count)", name, line, label, cols[j], cell)
			case v < 0:
				return nil, fmt.Errorf("%s:%d: row %q, column %q: negative count %s", name, line, label, cols[j], cell)
			case v > MaxTotal-total:
				return nil, fmt.Errorf("%s:%d: row %q, column %q: count %s takes the table's total past 2^53 (%.6g), the most a count table may hold "+
					"(float64 counts exactly only that far)", name, line, label, cols[j], strings.TrimSpace(cell), float64(MaxTotal))
			}
			total += v
			vals = append(vals, v)
		}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no data rows after the header", name)
	}
	t := &Table{Name: name, RowLabels: rows, ColLabels: cols, N: sparse.FromDense(len(rows), len(cols), vals)}
	if t.N.Sum() == 0 {
		return nil, fmt.Errorf("%s: all counts are zero: correspondence analysis needs some positive counts", name)
	}
	return t, nil
}

func csvErr(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: column %d: %v", name, pe.Line, pe.Column, pe.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}
