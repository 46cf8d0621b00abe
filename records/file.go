package records

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"kcalab/internal/atomicfile"
	"kcalab/internal/inputfile"
)

// FileName is the name of the results file inside an output directory.
const FileName = "results.jsonl"

// MaxFileBytes bounds a results file: ten thousand trials (the most a spec
// may expand to) of word vectors take about 40 MiB, and a results file of
// CA trials of large tables stays well within it.
const MaxFileBytes = 1 << 30

// MaxLineBytes bounds one record, a line of a results file: the largest a
// trial writes (CA of a table at the CSV limit, its counts and
// coordinates) fits; a longer line is refused unread, not allocated.
const MaxLineBytes = 64 << 20

var resultsFile = inputfile.Spec{What: "a results file (JSON lines, a regular file of at most 1 GiB, not a link)", Limit: MaxFileBytes, NoFollow: true}

// CompressedSuffix ends the name of a results file's compressed form, and
// CompressedFileName is that form of FileName.
const (
	CompressedSuffix   = ".gz"
	CompressedFileName = FileName + CompressedSuffix
)

// CompressAbove is the size of the largest results file kept as text:
// Write compresses a larger one with gzip (its records, of tuning
// searches, take about a sixth of the room so), so that no committed file
// is too large to review and keep. Read reads both forms.
const CompressAbove = 1 << 20

var compressedFile = inputfile.Spec{What: "a compressed results file (gzip of JSON lines, a regular file of at most 1 GiB, not a link)", Limit: MaxFileBytes, NoFollow: true}

// ReadInfo is what Read found besides the records.
type ReadInfo struct {
	// Torn says a final line without its newline that was not complete
	// JSON was dropped: the trace of a run killed while appending it.
	// TornID is the trial it was of, when its start names one.
	Torn   bool
	TornID string
	// NeedsRepair says the file is not in appendable, compact form (a torn
	// tail, no final newline, repeated ids): the next writer should
	// rewrite it before appending.
	NeedsRepair bool
	// Problems are parts of records read that cannot be used (a bootstrap
	// encoding that is not one EncodeReplicates writes), each naming the
	// file (after the path read: "" or CompressedSuffix), the line, the
	// trial and the metric; readers of the record treat that
	// part as absent (Bootstrap.Replicates refuses it), and the record
	// itself is kept as it is.
	Problems []string
}

// Warnings are the messages a reader of path should see.
func (i ReadInfo) Warnings(path string) []string {
	var out []string
	if i.Torn {
		of := ""
		if i.TornID != "" {
			of = " of trial " + i.TornID
		}
		out = append(out, fmt.Sprintf("%s: dropped an incomplete last line%s (a run was killed while writing it; its spec's next run computes the trial again if its grid has it)", path, of))
	}
	for _, p := range i.Problems {
		out = append(out, path+p)
	}
	return out
}

// Read reads a results file, in its compact form or as an append log (see
// Log): path, and first its compressed form (path + CompressedSuffix, see
// Write) when that is there. A missing file gives no records and no error.
// Only regular files of at most MaxFileBytes together (decompressed) are
// read, and not through a symbolic link (a
// cloned repository can carry one to a device); a FIFO is refused without
// waiting for a writer. A line over MaxLineBytes is an error naming it. A
// last line without its newline that is not complete JSON is the trace of
// a kill mid-append and is dropped (ReadInfo.Torn); a malformed line
// anywhere else is an error naming the file and line. When an id repeats,
// the last record wins (a later -fresh result), at the place of the first.
// Unknown fields are errors: a record this version cannot represent must
// not be rewritten without them. Bootstrap replicates that do not decode
// as EncodeReplicates writes them are reported in ReadInfo.Problems.
func Read(path string) ([]Record, ReadInfo, error) {
	return ReadWith(path, ReadOptions{})
}

// ReadOptions change what Read keeps of each record.
type ReadOptions struct {
	// MaxWarnings, when positive, keeps at most that many of a record's
	// warnings, and their total in Record.WarningsTotal: a reader that
	// shows a bounded number (a page) then holds no more than it shows,
	// however many the file has. Records read so are for showing, never
	// for writing back.
	MaxWarnings int
}

// ReadWith is Read with options.
func ReadWith(path string, opts ReadOptions) ([]Record, ReadInfo, error) {
	r := reading{opts: opts, at: map[string]int{}, path: path}
	// The compact form of a large file first (Write chose it for its
	// size), then the text file: the log a run appends to, whose records
	// are newer.
	zpath := path + CompressedSuffix
	zf, _, err := inputfile.Open(zpath, compressedFile)
	compressed := err == nil
	switch {
	case compressed:
		defer zf.Close()
		zr, err := gzip.NewReader(bufio.NewReaderSize(zf, 64<<10))
		if err != nil {
			return nil, r.info, fmt.Errorf("results: %s: %w", zpath, err)
		}
		if err := r.lines(zpath, zr, false); err != nil {
			return nil, r.info, err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, r.info, fmt.Errorf("results: %w", err)
	}
	f, _, err := inputfile.Open(path, resultsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return r.recs, r.info, nil
	}
	if err != nil {
		return nil, r.info, fmt.Errorf("results: %w", err)
	}
	defer f.Close()
	if compressed {
		// Both forms: a run appended to the compact records, or was
		// killed between writing one form and removing the other. The
		// next writer folds them into one.
		r.info.NeedsRepair = true
	}
	if err := r.lines(path, f, true); err != nil {
		return nil, r.info, err
	}
	return r.recs, r.info, nil
}

// reading is the state of a Read over the files of one results file.
type reading struct {
	path  string // the text form's, which Read was given
	opts  ReadOptions
	info  ReadInfo
	recs  []Record
	at    map[string]int // a record's place in recs, by id
	total int64          // bytes read, of every file
}

// lines reads the records of one file into r. Only a log (the text file a
// run appends to) may end with a torn line: a compressed file was written
// whole, so its damage anywhere is an error.
func (r *reading) lines(path string, src io.Reader, log bool) error {
	lr := newLineReader(src)
	for n := 1; ; n++ {
		line, complete, size, err := lr.next()
		r.total += size
		if r.total > MaxFileBytes {
			return fmt.Errorf("results: %s: more than %s, the limit for %s", path, inputfile.Size(MaxFileBytes), resultsFile.What)
		}
		if err != nil {
			return fmt.Errorf("results: %s:%d: %w", path, n, err)
		}
		if size == 0 {
			return nil
		}
		if size > MaxLineBytes {
			return fmt.Errorf("results: %s:%d: a line of %d bytes, over the limit of %s for one record: not a record this program wrote",
				path, n, size, inputfile.Size(MaxLineBytes))
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		rec, err := decodeLine(line, r.opts)
		if err != nil {
			if !complete && log {
				r.info.Torn, r.info.NeedsRepair = true, true
				r.info.TornID = tornID(line)
				return nil
			}
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if !complete {
			r.info.NeedsRepair = true // complete, but the next append would join it
		}
		for _, p := range bootstrapProblems(n, rec) {
			r.info.Problems = append(r.info.Problems, strings.TrimPrefix(path, r.path)+":"+p)
		}
		if j, ok := r.at[rec.ID]; ok {
			r.recs[j] = rec
			r.info.NeedsRepair = true
			continue
		}
		r.at[rec.ID] = len(r.recs)
		r.recs = append(r.recs, rec)
	}
}

// lineReader reads the lines of a results file, text or decompressed. A
// line is measured as it is read and kept only up to MaxLineBytes: a
// longer one is passed over, its size returned, so no line takes more
// memory than MaxLineBytes, and the buffer is reused from line to line.
type lineReader struct {
	br  *bufio.Reader
	buf []byte
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line without its newline, whether it had one,
// and its size in the file (newline included; 0 at the end of the file).
// A line over MaxLineBytes comes back as nil with its size.
func (l *lineReader) next() (line []byte, complete bool, size int64, err error) {
	l.buf = l.buf[:0]
	for {
		chunk, err := l.br.ReadSlice('\n')
		size += int64(len(chunk))
		if size <= MaxLineBytes {
			if need := len(l.buf) + len(chunk); need > cap(l.buf) {
				// Grown by doubling, but never past the bound.
				grown := make([]byte, len(l.buf), min(max(2*cap(l.buf), need), MaxLineBytes))
				copy(grown, l.buf)
				l.buf = grown
			}
			l.buf = append(l.buf, chunk...)
		}
		if err == nil {
			complete = true
			break
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, false, size, err
		}
	}
	if size == 0 || size > MaxLineBytes {
		return nil, complete, size, nil
	}
	b := l.buf
	if complete {
		b = b[:len(b)-1]
	}
	return b, complete, size, nil
}

// Write writes records as JSON lines atomically (see internal/atomicfile),
// so a reader (or a crash) never sees a half-written file. Records whose
// lines take more than CompressAbove bytes are written gzip-compressed to
// path + CompressedSuffix instead; the other form, if there, is removed
// once the new one is in place (a crash between leaves both, holding the
// same records, which Read folds).
func Write(path string, recs []Record) error {
	var buf bytes.Buffer
	for _, r := range recs {
		b, err := Encode(r)
		if err != nil {
			return fmt.Errorf("results: %w", err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	data, to, other := buf.Bytes(), path, path+CompressedSuffix
	if buf.Len() > CompressAbove {
		z, err := compress(data)
		if err != nil {
			return fmt.Errorf("results: %s: %w", other, err)
		}
		data, to, other = z, other, path
	}
	if err := atomicfile.WriteFile(to, data); err != nil {
		return err
	}
	if err := os.Remove(other); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("results: %s is written; removing the older %s: %w", to, other, err)
	}
	return nil
}

// compress is data as a gzip stream with no name and no time in its
// header, so the same records always give the same bytes.
func compress(data []byte) ([]byte, error) {
	var z bytes.Buffer
	zw, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return z.Bytes(), nil
}

// Stored is the file that holds the records of the results file path:
// path itself, or its compressed form when only that is there. It names
// the file a page or a message points a reader to.
func Stored(path string) string {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Lstat(path + CompressedSuffix); err == nil {
			return path + CompressedSuffix
		}
	}
	return path
}

// decodeLine decodes one record; unknown fields are errors.
func decodeLine(line []byte, opts ReadOptions) (Record, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var r Record
	var err error
	if opts.MaxWarnings > 0 {
		// The outer warnings field takes the embedded record's place.
		shown := struct {
			Record
			Warnings warningList `json:"warnings,omitempty"`
		}{Warnings: warningList{max: opts.MaxWarnings}}
		err = dec.Decode(&shown)
		r = shown.Record
		r.Warnings, r.WarningsTotal = shown.Warnings.kept, shown.Warnings.total
	} else {
		err = dec.Decode(&r)
	}
	if err == nil && dec.More() {
		err = errors.New("more than one record on the line")
	}
	return r, err
}

// warningList decodes a JSON list of warnings keeping the first max and
// counting them all: one string at a time, so a record of millions of
// warnings takes the memory of the few kept.
type warningList struct {
	max   int
	kept  []string
	total int
}

func (w *warningList) UnmarshalJSON(b []byte) error {
	w.kept, w.total = nil, 0
	if string(bytes.TrimSpace(b)) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return fmt.Errorf("warnings: want a list of strings")
	}
	for dec.More() {
		var s string
		if err := dec.Decode(&s); err != nil {
			return fmt.Errorf("warnings: %w", err)
		}
		if len(w.kept) < w.max {
			w.kept = append(w.kept, s)
		}
		w.total++
	}
	return nil
}

// tornIDPattern is how every record line starts (Encode writes the id
// first).
var tornIDPattern = regexp.MustCompile(`^\s*\{"id":"([0-9a-f]{1,64})"`)

// tornID is the trial id a torn line starts with, "" when it names none.
func tornID(line []byte) string {
	if m := tornIDPattern.FindSubmatch(line); m != nil {
		return string(m[1])
	}
	return ""
}
