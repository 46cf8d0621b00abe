package records

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func recLine(t *testing.T, id, status string) string {
	t.Helper()
	b, err := json.Marshal(Record{ID: id, Spec: "s", Status: status})
	require.NoError(t, err)
	return string(b) + "\n"
}

// A run killed mid-append leaves a torn last line; a -fresh run leaves an
// old and a new record of a trial. Both read back as a valid file.
func TestRead(t *testing.T) {
	a, b, a2 := recLine(t, "a", "ok"), recLine(t, "b", "ok"), recLine(t, "a", "error")
	tests := []struct {
		name    string
		body    string
		ids     []string
		status  []string
		info    ReadInfo
		wantErr string
	}{
		{name: "clean", body: a + b, ids: []string{"a", "b"}, status: []string{"ok", "ok"}},
		{name: "torn last line", body: a + b + b[:len(b)/2], ids: []string{"a", "b"}, status: []string{"ok", "ok"}, info: ReadInfo{Torn: true, TornID: "b", NeedsRepair: true}},
		{name: "only a torn line", body: a[:10], info: ReadInfo{Torn: true, TornID: "a", NeedsRepair: true}},
		{name: "a torn line that names no id", body: a + `{"spec":"s"`, ids: []string{"a"}, status: []string{"ok"}, info: ReadInfo{Torn: true, NeedsRepair: true}},
		{name: "last line complete but no newline", body: a + strings.TrimSuffix(b, "\n"), ids: []string{"a", "b"}, status: []string{"ok", "ok"}, info: ReadInfo{NeedsRepair: true}},
		{name: "repeated id: last wins", body: a + b + a2, ids: []string{"a", "b"}, status: []string{"error", "ok"}, info: ReadInfo{NeedsRepair: true}},
		{name: "malformed middle line", body: a + "{not json\n" + b, wantErr: ":2:"},
		{name: "malformed last line with its newline", body: a + "{not json\n", wantErr: ":2:"},
		{name: "two records on a line", body: strings.TrimSuffix(a, "\n") + b, wantErr: ":1:"},
		{name: "unknown field", body: `{"id":"a","spec":"s","seed":0,"settings":null,"status":"ok","colour":"red"}` + "\n", wantErr: "unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			require.NoError(t, os.WriteFile(path, []byte(tt.body), 0o644))
			recs, info, err := Read(path)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			var ids, status []string
			for _, r := range recs {
				ids, status = append(ids, r.ID), append(status, r.Status)
			}
			assert.Equal(t, tt.ids, ids)
			assert.Equal(t, tt.status, status)
			assert.Equal(t, tt.info, info)
			if tt.info.Torn {
				require.Len(t, info.Warnings(path), 1)
				assert.Contains(t, info.Warnings(path)[0], "incomplete last line")
			} else {
				assert.Empty(t, info.Warnings(path))
			}
		})
	}
}

func TestReadMissingFile(t *testing.T) {
	recs, info, err := Read(filepath.Join(t.TempDir(), FileName))
	require.NoError(t, err)
	assert.Empty(t, recs)
	assert.Equal(t, ReadInfo{}, info)
}

// What Write writes, Read reads back, and a Log's lines are a file Read
// accepts at any moment.
func TestWriteAndLogRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	recs := []Record{
		{ID: "a", Spec: "s", Status: StatusOK, Metrics: map[string]float64{"spearman.zero.men": 0.5}},
		{ID: "b", Spec: "s", Status: StatusError, Error: "boom"},
	}
	require.NoError(t, Write(path, recs))
	got, info, err := Read(path)
	require.NoError(t, err)
	assert.Equal(t, ReadInfo{}, info)
	assert.Equal(t, recs, got)

	l, err := OpenLog(path)
	require.NoError(t, err)
	require.NoError(t, l.Append(Record{ID: "a", Spec: "s", Status: StatusSkipped}))
	require.NoError(t, l.Close())
	got, info, err = Read(path)
	require.NoError(t, err)
	assert.True(t, info.NeedsRepair, "a repeated id wants compaction")
	require.Len(t, got, 2)
	assert.Equal(t, StatusSkipped, got[0].Status, "the appended record wins, at the first one's place")
}

// failingSink fails its writes with ENOSPC.
type failingSink struct{ *os.File }

func (f failingSink) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

func TestLogWriteFailure(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "log")
	require.NoError(t, err)
	l := NewLog(failingSink{f})
	err = l.Append(Record{ID: "a"})
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrWrite))
	assert.Contains(t, err.Error(), "no space left on device")
	require.NoError(t, l.Close())
}

// bigRecords are n records whose lines take about 10 KB each.
func bigRecords(n int, status string) []Record {
	recs := make([]Record, n)
	for i := range recs {
		recs[i] = Record{ID: fmt.Sprintf("t%03d", i), Spec: "s", Status: status, Warnings: []string{strings.Repeat(fmt.Sprintf("warning %d ", i), 1000)}}
	}
	return recs
}

// present are the names of dir's results files, in order.
func present(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, name := range []string{FileName, CompressedFileName} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			out = append(out, name)
		}
	}
	return out
}

// A results file over CompressAbove is written compressed, and its text
// form goes; one back under it is written as text, and the compressed form
// goes. Either reads back as written; the same records give the same bytes;
// a run's log beside the compressed form is read after it and folded by
// the next Write.
func TestWriteCompressesLargeFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	big := bigRecords(120, StatusOK)

	require.NoError(t, Write(path, big[:2]))
	assert.Equal(t, []string{FileName}, present(t, dir), "a small file stays text")
	assert.Equal(t, path, Stored(path))

	require.NoError(t, Write(path, big))
	assert.Equal(t, []string{CompressedFileName}, present(t, dir), "a large file is compressed, the text form removed")
	assert.Equal(t, path+CompressedSuffix, Stored(path))
	z, err := os.ReadFile(path + CompressedSuffix)
	require.NoError(t, err)
	assert.Less(t, len(z), CompressAbove)
	got, info, err := Read(path)
	require.NoError(t, err)
	assert.Equal(t, ReadInfo{}, info)
	assert.Equal(t, big, got)

	other := filepath.Join(t.TempDir(), FileName)
	require.NoError(t, Write(other, big))
	z2, err := os.ReadFile(other + CompressedSuffix)
	require.NoError(t, err)
	assert.Equal(t, z, z2, "the same records, the same bytes")

	// A run appends to the text file beside the compressed one.
	l, err := OpenLog(path)
	require.NoError(t, err)
	require.NoError(t, l.Append(Record{ID: "t000", Spec: "s", Status: StatusError, Error: "again"}))
	require.NoError(t, l.Append(Record{ID: "new", Spec: "s", Status: StatusOK}))
	require.NoError(t, l.Close())
	got, info, err = Read(path)
	require.NoError(t, err)
	assert.True(t, info.NeedsRepair, "two forms want folding")
	require.Len(t, got, len(big)+1)
	assert.Equal(t, "again", got[0].Error, "the log's record wins, at the first one's place")
	assert.Equal(t, "new", got[len(big)].ID)
	require.NoError(t, Write(path, got))
	assert.Equal(t, []string{CompressedFileName}, present(t, dir))
	again, info, err := Read(path)
	require.NoError(t, err)
	assert.Equal(t, ReadInfo{}, info)
	assert.Equal(t, got, again)

	require.NoError(t, Write(path, got[:3]))
	assert.Equal(t, []string{FileName}, present(t, dir), "back under the bound: text again")
	again, _, err = Read(path)
	require.NoError(t, err)
	assert.Equal(t, got[:3], again)
}

// gzipped is body compressed as Write compresses.
func gzipped(t *testing.T, body []byte) []byte {
	t.Helper()
	z, err := compress(body)
	require.NoError(t, err)
	return z
}

// A compressed form is read within the same bounds as the text form, and
// damage anywhere in it (it is written whole, never appended to) is an
// error naming it.
func TestReadCompressedRefuses(t *testing.T) {
	a, b := recLine(t, "a", "ok"), recLine(t, "b", "ok")
	whole := gzipped(t, []byte(a+b))
	long := make([]byte, MaxLineBytes+10)
	for i := range long {
		long[i] = 'x'
	}
	tests := []struct {
		name    string
		z       func(t *testing.T, zpath string)
		wantErr string
	}{
		{name: "truncated", z: func(t *testing.T, zpath string) {
			require.NoError(t, os.WriteFile(zpath, whole[:len(whole)/2], 0o644))
		}, wantErr: "unexpected EOF"},
		{name: "not gzip", z: func(t *testing.T, zpath string) {
			require.NoError(t, os.WriteFile(zpath, []byte(a), 0o644))
		}, wantErr: "gzip"},
		{name: "a torn last line", z: func(t *testing.T, zpath string) {
			require.NoError(t, os.WriteFile(zpath, gzipped(t, []byte(a+b[:len(b)/2])), 0o644))
		}, wantErr: ":2:"},
		{name: "a line over the limit", z: func(t *testing.T, zpath string) {
			require.NoError(t, os.WriteFile(zpath, gzipped(t, append([]byte(a), long...)), 0o644))
		}, wantErr: ":2: a line of"},
		{name: "a link", z: func(t *testing.T, zpath string) {
			good := filepath.Join(t.TempDir(), "good.gz")
			require.NoError(t, os.WriteFile(good, whole, 0o644))
			require.NoError(t, os.Symlink(good, zpath))
		}, wantErr: "link"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			tt.z(t, path+CompressedSuffix)
			_, _, err := Read(path)
			require.Error(t, err)
			assert.Contains(t, err.Error(), path+CompressedSuffix)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}
