package records

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"kcalab/internal/atomicfile"
	"kcalab/internal/inputfile"
)

// A results file is an append log while a run is under way: each finished
// trial's record is appended with one write and synced, so a kill at any
// moment loses at most the line being written. At the end of the run the
// writer compacts it (one record per trial) with Write, an atomic rename.
// A reader therefore sees, after any crash, a sequence of complete lines,
// possibly with repeated ids (a -fresh result after the old one) and a torn
// last line; Read copes with both.

// ErrWrite marks a failure to write a results file: a runner stops at
// once, since every later trial's work would be lost too.
var ErrWrite = errors.New("writing results failed")

// ErrEncode marks a record that cannot be written as a line: a value JSON
// has no form for (NaN, ±Inf) or a line over MaxLineBytes, which Read
// would refuse. Nothing was written; the disk is not at fault.
var ErrEncode = errors.New("the record cannot be written")

// Encode is a record as a line of a results file, without its newline.
func Encode(rec Record) ([]byte, error) {
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, fmt.Errorf("%w: trial %s: %w", ErrEncode, rec.ID, err)
	}
	if len(b) >= MaxLineBytes {
		return nil, fmt.Errorf("%w: trial %s: %d bytes, over the limit of %s for one record", ErrEncode, rec.ID, len(b), inputfile.Size(MaxLineBytes))
	}
	return b, nil
}

// Sink is what a Log appends to: an *os.File opened for appending.
type Sink interface {
	io.Writer
	Sync() error
	Close() error
	Name() string
}

// Log appends records to a results file.
type Log struct {
	sink Sink
}

// OpenLog opens (or creates) a results file for appending. O_APPEND puts
// each record at the end even if something else has grown the file, and
// one write per line keeps lines whole. A results file that is a symbolic
// link is refused (O_NOFOLLOW): appending through it would write to its
// target, outside the output directory.
func OpenLog(path string) (*Log, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o644)
	if errors.Is(err, syscall.ELOOP) {
		err = atomicfile.CheckNotLink(path)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrWrite, err)
	}
	return NewLog(f), nil
}

// NewLog appends to a sink the caller opened.
func NewLog(s Sink) *Log { return &Log{sink: s} }

// Append writes one record as a line and syncs it to disk. A record that
// cannot be encoded (ErrEncode) writes nothing; any other error is
// ErrWrite.
func (l *Log) Append(rec Record) error {
	b, err := Encode(rec)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if _, err := l.sink.Write(b); err != nil {
		return fmt.Errorf("%w: %w", ErrWrite, err)
	}
	if err := l.sink.Sync(); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrWrite, l.sink.Name(), err)
	}
	return nil
}

// Close closes the file.
func (l *Log) Close() error {
	if err := l.sink.Close(); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrWrite, l.sink.Name(), err)
	}
	return nil
}
