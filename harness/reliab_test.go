package harness_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"kcalab/harness"
	_ "kcalab/harness/builtin"
	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// doneLine is a progress line of a finished trial.
var doneLine = regexp.MustCompile(`(?m)^kcalab: \[\d+/\d+\] `)

// cancelAfter is a progress log that cancels the run once n trials have
// been reported finished: a Ctrl-C at a known moment.
type cancelAfter struct {
	mu     sync.Mutex
	n      int
	cancel context.CancelFunc
	buf    bytes.Buffer
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(p)
	if doneLine.Match(p) && !strings.Contains(string(p), "reused") {
		if c.n--; c.n == 0 {
			c.cancel()
		}
	}
	return len(p), nil
}

// An interrupted -fresh run replaces an old record only by its new result:
// the trials it did not redo keep their records.
func TestFreshInterruptedKeepsOldRecords(t *testing.T) {
	tests := []struct {
		name  string
		fresh bool
		after int // trials finished before the interrupt
	}{
		{"fresh, interrupted after 1", true, 1},
		{"fresh, interrupted after 2", true, 2},
		{"resume after a spec change, interrupted after 1", false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			spec := loadSpecTo(t, writeSpec(t, fisherSpec+"method: [ca, gini]\n"), out)
			first, err := (&harness.Runner{}).Run(context.Background(), spec)
			require.NoError(t, err)
			path := filepath.Join(out, records.FileName)
			if !tt.fresh {
				// Make every old record stale (status error), so the run redoes them.
				recs := first.Records
				for i := range recs {
					recs[i].Status, recs[i].Error = "error", "old"
				}
				require.NoError(t, records.Write(path, recs))
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			log := &cancelAfter{n: tt.after, cancel: cancel}
			_, err = (&harness.Runner{Jobs: 1, Fresh: tt.fresh, Log: log}).Run(ctx, spec)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "interrupted")
			recs, _, err := records.Read(path)
			require.NoError(t, err)
			require.Len(t, recs, 6, "every trial keeps a record:\n%s", log.buf.String())
			for i, rec := range recs {
				assert.Equal(t, first.Records[i].ID, rec.ID, "grid order")
			}
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, 6, strings.Count(string(b), "\n"), "compacted")
		})
	}
}

// A failed write of results.jsonl stops the run at once and says so,
// instead of computing every trial for nothing.
func TestRunnerStopsOnWriteFailure(t *testing.T) {
	tests := []struct {
		name   string
		failAt int // the append that fails (1 = the first)
		saved  int
	}{
		{"first write fails", 1, 0},
		{"third write fails", 3, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := *harness.TestHookOpenLog
			defer func() { *harness.TestHookOpenLog = orig }()
			calls := 0
			*harness.TestHookOpenLog = func(path string) (*records.Log, error) {
				f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
				if err != nil {
					return nil, err
				}
				return records.NewLog(failAt{f, &calls, tt.failAt}), nil
			}
			out := t.TempDir()
			spec := loadSpecTo(t, writeSpec(t, fisherSpec+"method: [ca, gini]\n"), out)
			var log bytes.Buffer
			_, err := (&harness.Runner{Jobs: 1, Log: &log}).Run(context.Background(), spec)
			require.Error(t, err)
			assert.ErrorIs(t, err, records.ErrWrite)
			assert.Contains(t, err.Error(), "no space left on device")
			assert.Contains(t, err.Error(), "the run stopped at once")
			assert.Equal(t, tt.failAt, calls, "no trial is computed after the failure")
			assert.Equal(t, tt.saved, len(doneLine.FindAllString(log.String(), -1)), "progress reports only saved trials")
			recs, _, err := records.Read(filepath.Join(out, records.FileName))
			require.NoError(t, err)
			assert.Len(t, recs, tt.saved)
		})
	}
}

// An output directory belongs to one spec: another spec's run there is
// refused before any trial, and the first spec's results stay.
func TestRunnerRefusesAnotherSpecsOutput(t *testing.T) {
	tests := []struct {
		name    string
		second  string
		wantErr string
	}{
		{"another spec", strings.Replace(fisherSpec, "name: fisher", "name: other", 1), `holds results of spec "fisher"`},
		{"same spec, other grid", fisherSpec + "method: [ca, gini]\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			_, err := (&harness.Runner{}).Run(context.Background(), loadSpecTo(t, writeSpec(t, fisherSpec), out))
			require.NoError(t, err)
			path := filepath.Join(out, records.FileName)
			before, err := os.ReadFile(path)
			require.NoError(t, err)
			_, err = (&harness.Runner{}).Run(context.Background(), loadSpecTo(t, writeSpec(t, tt.second), out))
			if tt.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.Contains(t, err.Error(), "belongs to one spec")
			after, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, string(before), string(after), "nothing deleted")
		})
	}
}

// An unwritable cache directory costs the cache, not the trials: one
// warning, and every trial runs.
func TestRunnerUnwritableCache(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	tests := []struct {
		name  string
		cache string
		warn  bool
	}{
		{"cache below a file", filepath.Join(file, "cache"), true},
		{"cache is a file", file, true},
		{"writable cache", filepath.Join(t.TempDir(), "cache"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := "name: c\ndata: {source: synthetic, table: flat, window: [2, 3]}\nsynthetic: {tokens: 5000}\neval: {sets: [synthetic]}\nmethod: lca\nsvd: {rank: 5}\n"
			var log bytes.Buffer
			res, err := (&harness.Runner{Jobs: 2, CacheDir: tt.cache, Log: &log}).Run(context.Background(), loadSpecTo(t, writeSpec(t, body), t.TempDir()))
			require.NoError(t, err, log.String())
			for _, rec := range res.Records {
				assert.Equal(t, "ok", rec.Status, rec.Error)
			}
			n := strings.Count(log.String(), "running without the cache")
			if tt.warn {
				assert.Equal(t, 1, n, log.String())
			} else {
				assert.Zero(t, n)
			}
		})
	}
}

// failAt is a results sink whose n-th write (counting in *calls) and every
// later one fail with ENOSPC.
type failAt struct {
	*os.File
	calls *int
	n     int
}

func (f failAt) Write(b []byte) (int, error) {
	if *f.calls++; *f.calls >= f.n {
		return 0, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	return f.File.Write(b)
}

// -jobs beyond the work starts one worker per trial and says so: a
// mistyped -jobs 99999999999 must not allocate a goroutine per unit.
func TestRunnerCapsJobsAtTrials(t *testing.T) {
	tests := []struct {
		name string
		jobs int
		want string
	}{
		{"far more than the trials", 300_000, "kcalab: -jobs 300000: 3 trial(s) to compute, so 3 worker(s)\n"},
		{"fewer than the trials", 2, ""},
		{"one per core", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log bytes.Buffer
			_, err := (&harness.Runner{Jobs: tt.jobs, Log: &log}).Run(context.Background(), loadSpecTo(t, writeSpec(t, fisherSpec), t.TempDir()))
			require.NoError(t, err)
			if tt.want == "" {
				assert.NotContains(t, log.String(), "worker(s)")
				return
			}
			assert.Contains(t, log.String(), tt.want)
		})
	}
}

// Nothing is written through a symbolic link in an output directory: a
// results.jsonl or report.html that is a link is refused before any trial,
// and the file it points to keeps its bytes. Temporary files of killed
// runs are removed, a user's own hidden files are not.
func TestRunnerOutputLinksAndStaleFiles(t *testing.T) {
	tests := []struct {
		name    string
		link    string // file name made a link to a file outside
		content string // of the file outside
		wantErr string
	}{
		{"results.jsonl is a link", records.FileName, "", "is a symbolic link"},
		{"report.html is a link", "report.html", "<p>mine</p>\n", "is a symbolic link"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			target := filepath.Join(t.TempDir(), "outside.txt")
			require.NoError(t, os.WriteFile(target, []byte(tt.content), 0o644))
			require.NoError(t, os.Symlink(target, filepath.Join(out, tt.link)))
			var log bytes.Buffer
			_, err := (&harness.Runner{Log: &log}).Run(context.Background(), loadSpecTo(t, writeSpec(t, fisherSpec), out))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.Contains(t, err.Error(), filepath.Join(out, tt.link)+" (a link to "+target+")")
			assert.False(t, doneLine.MatchString(log.String()), "no trial ran")
			got, err := os.ReadFile(target)
			require.NoError(t, err)
			assert.Equal(t, tt.content, string(got))
		})
	}
	t.Run("stale temporary files", func(t *testing.T) {
		out := t.TempDir()
		cmd := exec.Command("true")
		require.NoError(t, cmd.Run())
		dead := strconv.Itoa(cmd.Process.Pid)
		stale := []string{".results.jsonl." + dead + "-x1.kcalab-tmp", ".report.html." + dead + "-x2.kcalab-tmp", ".results.jsonl123456", ".report.html987"}
		kept := []string{".results.jsonl.mybackup", "notes.txt"}
		for _, n := range append(stale, kept...) {
			require.NoError(t, os.WriteFile(filepath.Join(out, n), []byte("x"), 0o644))
		}
		_, err := (&harness.Runner{}).Run(context.Background(), loadSpecTo(t, writeSpec(t, fisherSpec), out))
		require.NoError(t, err)
		for _, n := range stale {
			assert.NoFileExists(t, filepath.Join(out, n))
		}
		for _, n := range kept {
			assert.FileExists(t, filepath.Join(out, n))
		}
	})
}

// A recorded trial is reused only while the files it read are as they
// were: a count edited in its CSV table makes the next run compute it
// again, say why, and record the new counts and hashes.
func TestRunnerRecomputesWhenAnInputChanged(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(csv string) string
		reused int
		says   string
	}{
		{"a count edited", func(s string) string { return strings.Replace(s, "b,1,2,3", "b,1,2,30", 1) }, 0, "changed since the record was made (SHA-256 "},
		{"unchanged", func(s string) string { return s }, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			csv := filepath.Join(dir, "t.csv")
			body := "row,x,y,z\na,4,2,3\nb,1,2,3\nc,7,1,1\n"
			require.NoError(t, os.WriteFile(csv, []byte(body), 0o644))
			specPath := filepath.Join(dir, "spec.yaml")
			require.NoError(t, os.WriteFile(specPath, []byte("name: csvin\ndata: {source: csv, csv: t.csv}\nmethod: [ca, gini]\nsvd: {backend: dense, rank: 2}\n"), 0o644))
			out := filepath.Join(dir, "out")
			_, err := (&harness.Runner{}).Run(context.Background(), loadSpecTo(t, specPath, out))
			require.NoError(t, err)

			require.NoError(t, os.WriteFile(csv, []byte(tt.edit(body)), 0o644))
			var log bytes.Buffer
			res, err := (&harness.Runner{Log: &log}).Run(context.Background(), loadSpecTo(t, specPath, out))
			require.NoError(t, err)
			assert.Equal(t, tt.reused, res.Reused)
			recs, _, err := records.Read(filepath.Join(out, records.FileName))
			require.NoError(t, err)
			require.Len(t, recs, 2)
			if tt.says == "" {
				assert.NotContains(t, log.String(), "computing it again")
				return
			}
			assert.Contains(t, log.String(), "its input "+csv+" "+tt.says)
			assert.Contains(t, log.String(), ": computing it again")
			for _, rec := range recs {
				assert.Equal(t, 30.0, rec.CA.Counts[1][2], "trial %s keeps the old counts", rec.ID)
				sum := sha256.Sum256([]byte(tt.edit(body)))
				assert.Equal(t, hex.EncodeToString(sum[:]), rec.Run.Inputs[csv])
			}
		})
	}
}

// An input found nowhere leaves its records as they are, with a note: the
// trial could not be computed again without it either.
func TestRunnerInputGone(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "t.csv")
	require.NoError(t, os.WriteFile(csv, []byte("row,x,y\na,1,2\nb,3,4\nc,1,1\n"), 0o644))
	specPath := filepath.Join(dir, "spec.yaml")
	require.NoError(t, os.WriteFile(specPath, []byte("name: gone\ndata: {source: csv, csv: t.csv}\nmethod: [ca, gini]\nsvd: {backend: dense, rank: 1}\n"), 0o644))
	out := filepath.Join(dir, "out")
	_, err := (&harness.Runner{}).Run(context.Background(), loadSpecTo(t, specPath, out))
	require.NoError(t, err)
	require.NoError(t, os.Remove(csv))
	var log bytes.Buffer
	res, err := (&harness.Runner{Log: &log}).Run(context.Background(), loadSpecTo(t, specPath, out))
	require.NoError(t, err)
	assert.Equal(t, 2, res.Reused)
	assert.Equal(t, 1, strings.Count(log.String(), "kcalab: note: "+csv+", an input of earlier records, is not here to check against its recorded SHA-256; those records are reused as they are"), log.String())
}

// A failed recomputation never replaces a good record: -fresh with the
// input gone (a mistyped -data, a moved file) reports the failure, says the
// older result is kept, and leaves the file's records as they were.
func TestFreshFailureKeepsGoodRecords(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "t.csv")
	require.NoError(t, os.WriteFile(csv, []byte("row,x,y\na,1,2\nb,3,4\nc,1,1\n"), 0o644))
	specPath := filepath.Join(dir, "spec.yaml")
	require.NoError(t, os.WriteFile(specPath, []byte("name: keep\ndata: {source: csv, csv: t.csv}\nmethod: [ca, gini]\nsvd: {backend: dense, rank: 1}\n"), 0o644))
	out := filepath.Join(dir, "out")
	_, err := (&harness.Runner{}).Run(context.Background(), loadSpecTo(t, specPath, out))
	require.NoError(t, err)
	before, _, err := records.Read(filepath.Join(out, records.FileName))
	require.NoError(t, err)

	require.NoError(t, os.Remove(csv))
	res, err := (&harness.Runner{Fresh: true}).Run(context.Background(), loadSpecTo(t, specPath, out))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "computing it again failed: ")
	assert.Contains(t, err.Error(), "no such file or directory; its older result, from the run that ended "+before[0].Run.End+", is kept")
	after, _, err := records.Read(filepath.Join(out, records.FileName))
	require.NoError(t, err)
	assert.Equal(t, before, after)
	for _, rec := range res.Records {
		assert.Equal(t, "ok", rec.Status)
	}
}

// Bad inputs that used to fail only after every decomposition fail first:
// an unusable -vectors directory before any trial, a missing analogy file
// before its trial's SVD.
func TestRunnerEarlyChecks(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	const synth = "name: early\ndata: {source: synthetic}\nsynthetic: {tokens: 5000, words: 10}\nmethod: kca\nsvd: {rank: 5}\n"
	t.Run("-vectors is not a directory", func(t *testing.T) {
		var log bytes.Buffer
		_, err := (&harness.Runner{VectorsDir: filepath.Join(file, "v"), Log: &log}).Run(context.Background(), loadSpecTo(t, writeSpec(t, synth), t.TempDir()))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "-vectors: ")
		assert.Contains(t, err.Error(), "not a directory (no trial was run)")
		assert.NotContains(t, log.String(), ": svd")
	})
	t.Run("analogy file missing", func(t *testing.T) {
		var log bytes.Buffer
		res, err := (&harness.Runner{Log: &log}).Run(context.Background(), loadSpecTo(t, writeSpec(t, synth+"eval: {sets: [synthetic], analogies: [/nonexistent/questions.txt]}\n"), t.TempDir()))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "eval.analogies: ")
		assert.Contains(t, err.Error(), "/nonexistent/questions.txt")
		require.Len(t, res.Records, 1)
		assert.NotContains(t, res.Records[0].Timings, "svd", "failed before the decomposition")
	})
}

// A table of lower rank than svd.rank asks for warns that the extra axes
// are noise instead of returning them as if they were axes.
func TestRankAboveTheTablesRank(t *testing.T) {
	dir := t.TempDir()
	// Rows 3 and 4 are sums of rows 1 and 2: the centred table has rank 1.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "t.csv"), []byte("r,a,b,c,d\nx,1,2,3,4\ny,4,3,2,1\nz,5,5,5,5\nw,2,4,6,8\n"), 0o644))
	tests := []struct {
		rank int
		want string
	}{
		{3, "svd.rank = 3, but the table has only 1 axis(es) with inertia"},
		{1, ""},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.rank), func(t *testing.T) {
			spec := filepath.Join(dir, fmt.Sprintf("s%d.yaml", tt.rank))
			require.NoError(t, os.WriteFile(spec, []byte(fmt.Sprintf("name: lowrank\ndata: {source: csv, csv: t.csv}\nsvd: {backend: dense, rank: %d}\n", tt.rank)), 0o644))
			res, err := (&harness.Runner{}).Run(context.Background(), loadSpecTo(t, spec, t.TempDir()))
			require.NoError(t, err)
			w := strings.Join(res.Records[0].Warnings, "\n")
			if tt.want == "" {
				assert.Empty(t, w)
				return
			}
			assert.Contains(t, w, tt.want)
		})
	}
}

// An SCA tuning set none of whose pairs is in the vocabulary tunes
// nothing: the trial says that it is plain KCA.
func TestSCATuningOutOfVocabulary(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pairs.txt"), []byte("zebra\tquagga\t5\nokapi\tgiraffe\t7\n"), 0o644))
	spec := filepath.Join(dir, "sca.yaml")
	require.NoError(t, os.WriteFile(spec, []byte("name: scaoov\ndata: {source: synthetic, window: 5, table: skip}\nsynthetic: {clusters: 4, words: 8, tokens: 20000}\neval: {sets: [synthetic]}\nsvd: {rank: 6}\nmethod: sca\nsca: {set: pairs.txt, mode: in-sample}\n"), 0o644))
	res, err := (&harness.Runner{}).Run(context.Background(), loadSpecTo(t, spec, t.TempDir()))
	require.NoError(t, err)
	assert.Contains(t, strings.Join(res.Records[0].Warnings, "\n"), "sca.set pairs.txt: none of its 2 pairs has both words in the vocabulary, so nothing is tuned: this trial is plain KCA of the same table")
}

// A run never deletes a result: records of trials outside today's grid (an
// axis narrowed, a variant removed) stay in results.jsonl until -prune, and
// a spec of the same name whose grid shares no trial with the directory's
// records is refused unless -prune says that is meant.
func TestRunnerKeepsRecordsOutsideTheGrid(t *testing.T) {
	narrowed := strings.Replace(fisherSpec, "backend: [dense, randomized, dssvd]", "backend: [dense]", 1)
	tests := []struct {
		name      string
		second    string
		prune     bool
		wantErr   string
		wantIDs   int // records in the file after the second run
		wantAside int
		says      string
	}{
		{"narrowed axis keeps the others", narrowed, false, "", 3, 2, "keeps 2 record(s) of trials outside this spec's grid"},
		{"narrowed with -prune removes them", narrowed, true, "", 1, 0, "-prune: removed 2 record(s)"},
		{"another grid of the same name is refused", fisherSpec + "method: [gini]\n", false, "none of them a trial of the grid", 3, 0, ""},
		{"another grid of the same name with -prune", fisherSpec + "method: [gini]\n", true, "", 3, 0, "-prune: removed 3 record(s)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			_, err := (&harness.Runner{}).Run(context.Background(), loadSpecTo(t, writeSpec(t, fisherSpec), out))
			require.NoError(t, err)
			path := filepath.Join(out, records.FileName)
			before, err := os.ReadFile(path)
			require.NoError(t, err)
			var log bytes.Buffer
			res, err := (&harness.Runner{Prune: tt.prune, Log: &log}).Run(context.Background(), loadSpecTo(t, writeSpec(t, tt.second), out))
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.Contains(t, err.Error(), "-prune")
				after, err := os.ReadFile(path)
				require.NoError(t, err)
				assert.Equal(t, string(before), string(after), "nothing deleted")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantAside, res.Aside)
			recs, _, err := records.Read(path)
			require.NoError(t, err)
			assert.Len(t, recs, tt.wantIDs)
			assert.Contains(t, log.String(), tt.says)
			if !tt.prune {
				// The first run's records are all there, bit for bit.
				old, _, err := records.Read(path)
				require.NoError(t, err)
				assert.Equal(t, stable(old)[0], stable(recs)[0])
				for _, line := range strings.Split(strings.TrimSpace(string(before)), "\n") {
					var rec records.Record
					require.NoError(t, json.Unmarshal([]byte(line), &rec))
					found := false
					for _, r := range recs {
						found = found || r.ID == rec.ID
					}
					assert.True(t, found, "record %s kept", rec.ID)
				}
			}
		})
	}
}

// A record is reused only when the data set files this run would read (in
// this run's data directory, -data or $KCALAB_DATA) are the ones it was
// made from: a copy of the data directory whose Sim scores are reversed
// gets its own ρ, of the opposite sign, not the other directory's.
func TestRunnerChecksTheDataThisRunReads(t *testing.T) {
	dir := t.TempDir()
	var words []string
	for i := range 40 {
		words = append(words, fmt.Sprintf("w%02d", i))
	}
	var corpus strings.Builder
	x := uint32(7)
	for range 20000 {
		x = x*1664525 + 1013904223
		corpus.WriteString(words[(x>>16)%40] + " ")
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "c.txt"), []byte(corpus.String()), 0o644))
	makeData := func(name string, score func(i int) int) string {
		d := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Join(d, "wordsim"), 0o755))
		var b strings.Builder
		for i := range 203 { // the registered size of Sim
			fmt.Fprintf(&b, "%s\t%s\t%d\n", words[i%40], words[(i*7+3)%40], score(i))
		}
		require.NoError(t, os.WriteFile(filepath.Join(d, "wordsim", "ws353_similarity.txt"), []byte(b.String()), 0o644))
		return d
	}
	a := makeData("a", func(i int) int { return i % 11 })
	b := makeData("b", func(i int) int { return 10 - i%11 })
	specPath := filepath.Join(dir, "spec.yaml")
	require.NoError(t, os.WriteFile(specPath, []byte("name: datadir\ndata: {source: corpus, corpus: c.txt, window: 2, min_count: 1}\nmethod: lca\nsvd: {rank: 4}\neval: {sets: [sim], probes: [w01]}\n"), 0o644))
	out := filepath.Join(dir, "out")
	rho := func(dataDir string, wantReused int) (float64, string) {
		var log bytes.Buffer
		res, err := (&harness.Runner{DataDir: dataDir, Log: &log}).Run(context.Background(), loadSpecTo(t, specPath, out))
		require.NoError(t, err, log.String())
		require.Equal(t, wantReused, res.Reused, log.String())
		return res.Records[0].Metrics["spearman.zero.sim"], log.String()
	}
	first, _ := rho(a, 0)
	require.NotZero(t, first)
	again, _ := rho(a, 1)
	assert.Equal(t, first, again)
	reversed, log := rho(b, 0)
	assert.Contains(t, log, "its input "+filepath.Join(b, "wordsim", "ws353_similarity.txt")+" (recorded as "+filepath.Join(a, "wordsim", "ws353_similarity.txt")+") changed since the record was made")
	assert.InDelta(t, -first, reversed, 1e-12, "the other directory's scores, reversed")
	back, _ := rho(a, 0)
	assert.Equal(t, first, back)
}

// Hostile round 5, serious 1: the same spec with another seed (edited, or
// a copy elsewhere) run into the same output used to recompute and
// overwrite every record, exit 0, no word. A run replaces no result by one
// of another seed: it refuses before any trial, naming the records, the
// seed they were computed with and what to do; -fresh says replacing them
// is meant.
func TestRunnerRefusesAnotherSeed(t *testing.T) {
	out := t.TempDir()
	first, err := (&harness.Runner{}).Run(context.Background(), loadSpecTo(t, writeSpec(t, fisherSpec), out))
	require.NoError(t, err)
	path := filepath.Join(out, records.FileName)
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	reseeded := loadSpecTo(t, writeSpec(t, strings.Replace(fisherSpec, "seed: 3", "seed: 4", 1)), out)
	require.Equal(t, first.Records[0].ID, reseeded.Trials()[0].ID, "the trial ids stay the same")

	var log bytes.Buffer
	_, err = (&harness.Runner{Log: &log}).Run(context.Background(), reseeded)
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, "holds 3 record(s) of trials of \"fisher\" computed with another seed")
	for _, rec := range first.Records {
		assert.Contains(t, msg, fmt.Sprintf("trial %s (", rec.ID), "names each record")
		assert.Contains(t, msg, fmt.Sprintf("computed with seed %d", rec.Seed), "and the seed it was computed with")
	}
	assert.Contains(t, msg, "-fresh")
	assert.Contains(t, msg, "another output directory")
	assert.Contains(t, msg, "no trial was run")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "nothing replaced")

	fresh, err := (&harness.Runner{Fresh: true}).Run(context.Background(), reseeded)
	require.NoError(t, err, "-fresh: replacing them is meant")
	for i, rec := range fresh.Records {
		assert.Equal(t, reseeded.Trials()[i].Seed, rec.Seed)
	}
	// Running seed 3 again now refuses the other way: nothing flips back
	// silently.
	_, err = (&harness.Runner{}).Run(context.Background(), loadSpecTo(t, writeSpec(t, fisherSpec), out))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "computed with another seed")
}

// Hostile round 5, m2: the spec run by a relative path, then by its
// absolute path, is the same grid: every trial is reused (it was "grid
// changed throughout" before, the ids hashing the data paths as resolved
// against the spelling of the spec's path).
func TestRunnerSpecPathSpelling(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "t.csv"), []byte(",a,b,c\nx,10,20,35\ny,31,12,47\nz,22,51,13\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "s.yaml"), []byte("name: m2\ndata: {source: csv, csv: t.csv}\nmethod: [ca, gini]\nsvd: {rank: 2, backend: dense}\n"), 0o644))
	out := t.TempDir()
	t.Chdir(dir)
	_, err := (&harness.Runner{}).Run(context.Background(), loadSpecTo(t, "s.yaml", out))
	require.NoError(t, err)
	var log bytes.Buffer
	res, err := (&harness.Runner{Log: &log}).Run(context.Background(), loadSpecTo(t, filepath.Join(dir, "s.yaml"), out))
	require.NoError(t, err, log.String())
	assert.Equal(t, 2, res.Reused, log.String())
	assert.NotContains(t, log.String(), "computing it again")
}
