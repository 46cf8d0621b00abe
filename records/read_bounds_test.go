package records

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readWithin is Read, failing the test when it does not return at once (a
// FIFO opened for reading waits for a writer).
func readWithin(t *testing.T, path string) ([]Record, ReadInfo, error) {
	t.Helper()
	type result struct {
		recs []Record
		info ReadInfo
		err  error
	}
	done := make(chan result, 1)
	go func() {
		recs, info, err := Read(path)
		done <- result{recs, info, err}
	}()
	select {
	case r := <-done:
		return r.recs, r.info, r.err
	case <-time.After(10 * time.Second):
		t.Fatalf("Read(%s) did not return", path)
		return nil, ReadInfo{}, nil
	}
}

// A results file is read only as a regular file, not through a link (a
// cloned repository can carry a link to /dev/zero), within MaxFileBytes,
// and a line over MaxLineBytes is an error naming it, not an allocation.
func TestReadRefuses(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	require.NoError(t, os.WriteFile(good, []byte(recLine(t, "a", "ok")), 0o644))
	mk := func(name string, make func(p string) error) string {
		p := filepath.Join(dir, name)
		require.NoError(t, make(p))
		return p
	}
	toZero := mk("zero.jsonl", func(p string) error { return os.Symlink("/dev/zero", p) })
	toGood := mk("link.jsonl", func(p string) error { return os.Symlink(good, p) })
	fifo := mk("fifo.jsonl", func(p string) error { return syscall.Mkfifo(p, 0o644) })
	huge := mk("huge.jsonl", func(p string) error {
		f, err := os.Create(p)
		if err != nil {
			return err
		}
		defer f.Close()
		return f.Truncate(MaxFileBytes + 1) // sparse: no disk
	})
	longLine := mk("long.jsonl", func(p string) error {
		var b bytes.Buffer
		b.WriteString(recLine(t, "a", "ok"))
		b.WriteString(`{"id":"` + strings.Repeat("x", MaxLineBytes) + "\"}\n")
		b.WriteString(recLine(t, "b", "ok"))
		return os.WriteFile(p, b.Bytes(), 0o644)
	})
	for _, tc := range []struct{ name, path, want string }{
		{"link to /dev/zero", toZero, "results: " + toZero + ": not a regular file: a symbolic link (to /dev/zero), which is not followed here (put the file itself in its place): want a results file"},
		{"link to a results file", toGood, "a symbolic link (to " + good + ")"},
		{"FIFO", fifo, "results: " + fifo + ": not a regular file (a FIFO): want a results file"},
		{"directory", dir, "not a regular file (a directory)"},
		{"over 1 GiB", huge, huge + ": over the size limit: 1073741825 bytes, over the limit of 1 GiB for a results file"},
		{"a line over 64 MiB", longLine, longLine + ":2: a line of 67108874 bytes, over the limit of 64 MiB for one record"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readWithin(t, tc.path)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	recs, _, err := readWithin(t, good)
	require.NoError(t, err)
	assert.Len(t, recs, 1)
}

// encodeRaw is a replicates field with the given step and deviation bytes.
func encodeRaw(step float32, qs ...byte) string {
	buf := make([]byte, 4, 4+len(qs))
	binary.LittleEndian.PutUint32(buf, math.Float32bits(step))
	return base64.StdEncoding.EncodeToString(append(buf, qs...))
}

// Replicates a writer would not produce are refused: the score is then
// not tested, rather than given a made-up interval (±484 from a step of 5,
// ±0 from a step of 0, none at all from a NaN step).
func TestBootstrapCheck(t *testing.T) {
	const key = "spearman.zero.men"
	good := EncodeReplicates([]float64{0.41, 0.39, 0.45, math.NaN()}, 0.4)
	for _, tc := range []struct {
		name   string
		enc    string
		b      int
		center float64
		want   string // "" = usable
	}{
		{"as written", good, 4, 0.4, ""},
		{"no spread", EncodeReplicates([]float64{1, 1, 1}, 1), 3, 1, ""},
		{"all undefined", EncodeReplicates([]float64{math.NaN(), math.NaN()}, 0.2), 2, 0.2, ""},
		{"extremes", EncodeReplicates([]float64{-1, 1, 0}, 1), 3, 1, ""},
		{"extremes, other way", EncodeReplicates([]float64{1, -1, 0}, -1), 3, -1, ""},
		{"step just past 2/127", encodeRaw(2.0001/127, 127, 0x81, 3), 3, 0.4, "deviations of up to 2 from the score"},
		{"step 5", encodeRaw(5, 127, 0x81, 3), 3, 0.4, "step 5, deviations of up to 635 from the score: two values of ρ differ by at most 2"},
		{"step 0 with deviations", encodeRaw(0, 127, 3, 0), 3, 0.4, "step 0 with deviations of up to 127 steps, want none"},
		{"NaN step", encodeRaw(float32(math.NaN()), 127, 3, 0), 3, 0.4, "step NaN, want a finite step ≥ 0"},
		{"Inf step", encodeRaw(float32(math.Inf(1)), 127, 3, 0), 3, 0.4, "step +Inf"},
		{"negative step", encodeRaw(-0.001, 127, 3, 0), 3, 0.4, "step -0.001"},
		{"largest deviation not 127 steps", encodeRaw(0.001, 100, 3, 0), 3, 0.4, "largest deviation of 100 steps, want 127"},
		{"too few", good, 5, 0.4, "8 bytes, want 4 and one per resample (b = 5)"},
		{"not base64", "!!", 2, 0.4, "not base64"},
		{"score out of range", good, 4, 1.5, "the score is 1.5, want a ρ in [-1, 1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &Bootstrap{B: tc.b, Scores: map[string]string{key: tc.enc}}
			err := b.Check(key, tc.center)
			reps, ok := b.Replicates(key, tc.center)
			if tc.want == "" {
				require.NoError(t, err)
				assert.True(t, ok)
				assert.Len(t, reps, tc.b)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.False(t, ok, "refused replicates leave the score not tested")
		})
	}
}

// Read keeps a record whose replicates are damaged as it is, and says which
// line, trial and metric through ReadInfo.
func TestReadBootstrapProblems(t *testing.T) {
	rec := func(id string, step float32) Record {
		return Record{ID: id, Spec: "s", Status: StatusOK,
			Metrics:   map[string]float64{"spearman.zero.men": 0.4, "spearman.skip.men": 0.4},
			Bootstrap: &Bootstrap{B: 2, Scores: map[string]string{"spearman.zero.men": encodeRaw(step, 127, 0x81), "spearman.skip.men": encodeRaw(0.001, 127, 0x81)}}}
	}
	path := filepath.Join(t.TempDir(), FileName)
	want := []Record{rec("a", 0.001), rec("b", 5), rec("c", float32(math.NaN()))}
	require.NoError(t, Write(path, want))
	got, info, err := Read(path)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, want[1].Bootstrap, got[1].Bootstrap, "kept as read")
	assert.Equal(t, []string{
		path + ":2: trial b: spearman.zero.men: bootstrap replicates: step 5, deviations of up to 635 from the score: two values of ρ differ by at most 2: the score is shown as not tested",
		path + ":3: trial c: spearman.zero.men: bootstrap replicates: step NaN, want a finite step ≥ 0: the score is shown as not tested",
	}, info.Warnings(path))
	assert.False(t, info.NeedsRepair)
	_, ok := got[1].Bootstrap.Replicates("spearman.zero.men", 0.4)
	assert.False(t, ok)
	_, ok = got[1].Bootstrap.Replicates("spearman.skip.men", 0.4)
	assert.True(t, ok, "the other metric's replicates stay usable")

	// In the compressed form, the problem names that file.
	body, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.Remove(path))
	z, err := compress(body)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path+CompressedSuffix, z, 0o644))
	_, info, err = Read(path)
	require.NoError(t, err)
	w := info.Warnings(path)
	require.Len(t, w, 2)
	assert.True(t, strings.HasPrefix(w[0], path+CompressedSuffix+":2: trial b: spearman.zero.men:"), w[0])
}

// FuzzRead checks that any file reads without a panic, and that what it
// accepts has usable replicates wherever it reports no problem.
func FuzzRead(f *testing.F) {
	f.Add(`{"id":"a","spec":"s","seed":0,"settings":null,"status":"ok","metrics":{"spearman.zero.men":0.4},"bootstrap":{"b":2,"scores":{"spearman.zero.men":"` + encodeRaw(5, 127, 3) + `"}}}` + "\n")
	f.Add(`{"id":"a","spec":"s","seed":0,"settings":null,"status":"ok"}` + "\n{\"id\"")
	f.Add("\n\n{}\n")
	f.Fuzz(func(t *testing.T, body string) {
		path := filepath.Join(t.TempDir(), FileName)
		require.NoError(t, os.WriteFile(path, []byte(body), 0o644))
		recs, info, err := Read(path)
		if err != nil {
			require.Contains(t, err.Error(), path)
			return
		}
		if len(info.Problems) > 0 {
			return
		}
		for _, r := range recs {
			if r.Bootstrap == nil {
				continue
			}
			for k := range r.Bootstrap.Scores {
				xs, ok := r.Bootstrap.Replicates(k, r.Metrics[k])
				require.True(t, ok, k)
				require.Len(t, xs, r.Bootstrap.B)
			}
		}
	})
}

// FuzzReplicates checks that replicates Replicates accepts are B values
// within 2 of the score (as two values of ρ are), and that what
// EncodeReplicates writes is always accepted.
func FuzzReplicates(f *testing.F) {
	f.Add(encodeRaw(5, 127, 3), 2, 0.4, 0.1, -0.2)
	f.Add(encodeRaw(0, 0, 0), 2, 1.0, 1.0, -1.0)
	f.Fuzz(func(t *testing.T, enc string, b int, center, x, y float64) {
		bs := &Bootstrap{B: b, Scores: map[string]string{"k": enc}}
		if xs, ok := bs.Replicates("k", center); ok {
			require.Len(t, xs, b)
			for _, v := range xs {
				require.True(t, math.IsNaN(v) || math.Abs(v-center) <= 2.00001, "%v around %v", v, center)
			}
		}
		in := func(v float64) bool { return v >= -1 && v <= 1 }
		if !in(center) || !in(x) || !in(y) {
			return
		}
		w := &Bootstrap{B: 3, Scores: map[string]string{"k": EncodeReplicates([]float64{x, y, math.NaN()}, center)}}
		require.NoError(t, w.Check("k", center))
	})
}

// What Read refuses is not written: a NaN or a line over MaxLineBytes is
// ErrEncode (the record's fault, not the disk's), and nothing is appended.
func TestEncodeRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		rec  Record
		want string
	}{
		{"NaN", Record{ID: "a", Metrics: map[string]float64{"x": math.NaN()}}, "the record cannot be written: trial a: json: unsupported value: NaN"},
		{"over 64 MiB", Record{ID: "b", Error: strings.Repeat("x", MaxLineBytes)}, "the record cannot be written: trial b: 67108932 bytes, over the limit of 64 MiB for one record"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Encode(tc.rec)
			require.ErrorIs(t, err, ErrEncode)
			assert.EqualError(t, err, tc.want)
			path := filepath.Join(t.TempDir(), FileName)
			l, err := OpenLog(path)
			require.NoError(t, err)
			err = l.Append(tc.rec)
			require.ErrorIs(t, err, ErrEncode)
			assert.NotErrorIs(t, err, ErrWrite)
			require.NoError(t, l.Close())
			st, err := os.Stat(path)
			require.NoError(t, err)
			assert.Zero(t, st.Size())
		})
	}
}

// Lines longer than the read buffer read back whole (gathered across
// reads), complete or torn.
func TestReadLongLines(t *testing.T) {
	long := Record{ID: "l", Spec: "s", Status: StatusError, Error: strings.Repeat("é", 300<<10)}
	b, err := Encode(long)
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		body string
		ids  []string
		torn bool
	}{
		{"long in the middle", recLine(t, "a", "ok") + string(b) + "\n" + recLine(t, "b", "ok"), []string{"a", "l", "b"}, false},
		{"long last, no newline", recLine(t, "a", "ok") + string(b), []string{"a", "l"}, false},
		{"long torn last", recLine(t, "a", "ok") + string(b[:len(b)-3]), []string{"a"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			require.NoError(t, os.WriteFile(path, []byte(tc.body), 0o644))
			recs, info, err := Read(path)
			require.NoError(t, err)
			var ids []string
			for _, r := range recs {
				ids = append(ids, r.ID)
				if r.ID == "l" {
					assert.Equal(t, long, r)
				}
			}
			assert.Equal(t, tc.ids, ids)
			assert.Equal(t, tc.torn, info.Torn)
		})
	}
}

// A reader that shows a bounded number of warnings (a page) keeps only
// those and their total: the memory a record takes then follows what is
// shown. A plain Read keeps every one.
func TestReadWithMaxWarnings(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	rec := Record{ID: "a", Spec: "s", Status: StatusOK}
	for i := range 25 {
		rec.Warnings = append(rec.Warnings, fmt.Sprintf("w%d", i))
	}
	none := Record{ID: "b", Spec: "s", Status: StatusOK}
	require.NoError(t, Write(path, []Record{rec, none}))
	got, _, err := ReadWith(path, ReadOptions{MaxWarnings: 3})
	require.NoError(t, err)
	assert.Equal(t, []string{"w0", "w1", "w2"}, got[0].Warnings)
	assert.Equal(t, 25, got[0].WarningsTotal)
	assert.Nil(t, got[1].Warnings)
	assert.Zero(t, got[1].WarningsTotal)
	all, _, err := Read(path)
	require.NoError(t, err)
	assert.Equal(t, rec.Warnings, all[0].Warnings)
	assert.Zero(t, all[0].WarningsTotal)
	b, err := Encode(got[0])
	require.NoError(t, err)
	assert.NotContains(t, string(b), "25", "the total is never written")

	// Not a list of strings: an error naming the line, as any other.
	require.NoError(t, os.WriteFile(path, []byte(`{"id":"a","spec":"s","seed":1,"settings":{},"status":"ok","warnings":[1]}`+"\n"), 0o644))
	_, _, err = ReadWith(path, ReadOptions{MaxWarnings: 3})
	require.ErrorContains(t, err, ":1: warnings:")
}

// FuzzReadCompressed checks that any content of a compressed form reads
// without a panic, an error naming the file, or records that Write gives
// back as the same records.
func FuzzReadCompressed(f *testing.F) {
	f.Add(`{"id":"a","spec":"s","seed":0,"settings":null,"status":"ok"}`+"\n", "")
	f.Add(`{"id":"a","spec":"s","seed":0,"settings":null,"status":"ok"}`+"\n", `{"id":"a","spec":"s","seed":0,"settings":null,"status":"error"}`+"\n")
	f.Add("{\"id\"", "")
	f.Fuzz(func(t *testing.T, body, log string) {
		path := filepath.Join(t.TempDir(), FileName)
		z, err := compress([]byte(body))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path+CompressedSuffix, z, 0o644))
		if log != "" {
			require.NoError(t, os.WriteFile(path, []byte(log), 0o644))
		}
		recs, _, err := Read(path)
		if err != nil {
			require.True(t, strings.Contains(err.Error(), path), err.Error())
			return
		}
		out := filepath.Join(t.TempDir(), FileName)
		require.NoError(t, Write(out, recs))
		again, info, err := Read(out)
		require.NoError(t, err)
		assert.False(t, info.NeedsRepair)
		assert.Equal(t, len(recs), len(again))
	})
}
