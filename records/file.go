package records

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"kcalab/internal/atomicfile"
)

// FileName is the name of the results file inside an output directory.
const FileName = "results.jsonl"

// ReadInfo is what Read found besides the records.
type ReadInfo struct {
	// Torn says a final line without its newline that was not complete
	// JSON was dropped: the trace of a run killed while appending it.
	Torn bool
	// NeedsRepair says the file is not in appendable, compact form (a torn
	// tail, no final newline, repeated ids): the next writer should
	// rewrite it before appending.
	NeedsRepair bool
}

// Warning is the message a reader of path should see, or "".
func (i ReadInfo) Warning(path string) string {
	if !i.Torn {
		return ""
	}
	return fmt.Sprintf("%s: dropped an incomplete last line (a run was killed while writing it; that trial will run again)", path)
}

// Read reads a results file, in its compact form or as an append log (see
// Log). A missing file gives no records and no error. A last line without
// its newline that is not complete JSON is the trace of a kill mid-append
// and is dropped (ReadInfo.Torn); a malformed line anywhere else is an
// error naming the file and line. When an id repeats, the last record wins
// (a later -fresh result), at the place of the first. Unknown fields are
// errors: a record this version cannot represent must not be rewritten
// without them.
func Read(path string) ([]Record, ReadInfo, error) {
	var info ReadInfo
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, info, nil
	}
	if err != nil {
		return nil, info, fmt.Errorf("results: %w", err)
	}
	lines := bytes.Split(b, []byte("\n"))
	last := len(lines) - 1 // the segment after the final newline ("" when the file ends with one)
	var recs []Record
	at := map[string]int{}
	for i, line := range lines {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r Record
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		err := dec.Decode(&r)
		if err == nil && dec.More() {
			err = errors.New("more than one record on the line")
		}
		if err != nil {
			if i == last {
				info.Torn, info.NeedsRepair = true, true
				break
			}
			return nil, info, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		if i == last {
			info.NeedsRepair = true // complete, but the next append would join it
		}
		if j, ok := at[r.ID]; ok {
			recs[j] = r
			info.NeedsRepair = true
			continue
		}
		at[r.ID] = len(recs)
		recs = append(recs, r)
	}
	return recs, info, nil
}

// Write writes records as JSON lines atomically (see internal/atomicfile),
// so a reader (or a crash) never sees a half-written file.
func Write(path string, recs []Record) error {
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
