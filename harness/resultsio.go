package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"kcalab/internal/atomicfile"
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

// WriteResults writes records as JSON lines atomically (see
// internal/atomicfile), so a reader (or a crash) never sees a half-written
// file.
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
	return atomicfile.WriteFile(path, buf.Bytes())
}
