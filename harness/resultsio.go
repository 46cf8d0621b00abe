package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// ResultsFile is the name of the results file inside an output directory.
const ResultsFile = "results.jsonl"

// ReadResults reads a results.jsonl file. A missing file gives no records and
// no error; a malformed line is an error naming the file and line, except a
// torn last line left by a killed run, which is dropped with a warning on
// stderr. When an id repeats, its last record wins.
func ReadResults(path string) ([]Record, error) {
	return ReadResultsWarn(path, os.Stderr)
}

// WriteResults writes records as JSON lines atomically: to a temporary file in
// the same directory, synced, then renamed over path, so a reader (or a
// crash) never sees a half-written file.
func WriteResults(path string, recs []Record) error {
	var buf bytes.Buffer
	for _, r := range recs {
		b, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("results: encoding trial %s: %w", r.ID, err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	return WriteFileAtomic(path, buf.Bytes())
}

// WriteFileAtomic writes data to path via a synced temporary file and a rename.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, werr)
	}
	// Sync the directory too, so the rename itself survives a crash.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
