package main

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/harness"
	"kcalab/records"
	"kcalab/reports"
	"kcalab/schema"
)

// nanMethod is a test method whose result holds a NaN when svd.rank is 1:
// a value no JSON line can hold.
type nanMethod struct{}

func (nanMethod) Info() schema.MethodInfo {
	return schema.MethodInfo{Name: "nanresult", Label: "NaN result", Rank: 99, Inputs: schema.TableInput,
		Doc: "test method: a NaN metric at rank 1", TableReads: []string{"svd.rank"}}
}

func (nanMethod) Run(ctx context.Context, tr *harness.TrialRun) error {
	v := 1.0
	if tr.Trial.SVD.Rank == 1 {
		v = math.NaN()
	}
	tr.SetMetric("total_inertia", v)
	return nil
}

// A trial whose record cannot be written (a NaN) fails alone, saying so:
// the run goes on, keeps the other trials and blames neither the disk nor
// the other trials.
func TestUnencodableRecordFailsItsTrial(t *testing.T) {
	t.Cleanup(harness.RegisterMethod(nanMethod{}))
	dir := t.TempDir()
	spec := filepath.Join(dir, "nan.yaml")
	require.NoError(t, os.WriteFile(spec, []byte("name: nan\nmethod: nanresult\nsvd: {rank: [1, 2]}\n"), 0o644))
	out := filepath.Join(dir, "out")
	_, _, err := runCLI(t, "-out", out, spec)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the record cannot be written: trial ")
	assert.Contains(t, err.Error(), "json: unsupported value: NaN")
	assert.NotContains(t, err.Error(), "fix the disk")

	recs, _, err := records.Read(filepath.Join(out, records.FileName))
	require.NoError(t, err)
	require.Len(t, recs, 2)
	byRank := map[float64]records.Record{}
	for _, r := range recs {
		byRank[r.Settings["svd.rank"].(float64)] = r
	}
	assert.Equal(t, records.StatusError, byRank[1].Status)
	assert.Contains(t, byRank[1].Error, "NaN")
	assert.Equal(t, records.StatusOK, byRank[2].Status, byRank[2].Error)
	assert.Equal(t, 1.0, byRank[2].Metrics["total_inertia"])
}

// A results file whose bootstrap replicates are damaged is run into as it
// is: the trials are reused, the run warns once, naming the line, trial
// and metric, and keeps the record's bytes.
func TestDamagedReplicatesWarnOnce(t *testing.T) {
	recs, _, err := records.Read(filepath.Join("results", "quickstart", records.FileName))
	require.NoError(t, err)
	at := -1
	var key string
	for i, r := range recs {
		if r.Bootstrap != nil && len(r.Bootstrap.Scores) > 0 {
			for k := range r.Bootstrap.Scores {
				if key == "" || k < key {
					key = k
				}
			}
			at = i
			break
		}
	}
	require.GreaterOrEqual(t, at, 0)
	raw, err := base64.StdEncoding.DecodeString(recs[at].Bootstrap.Scores[key])
	require.NoError(t, err)
	binary.LittleEndian.PutUint32(raw, math.Float32bits(5))
	recs[at].Bootstrap.Scores[key] = base64.StdEncoding.EncodeToString(raw)
	out := filepath.Join(t.TempDir(), "quickstart")
	require.NoError(t, records.Write(filepath.Join(out, records.FileName), recs))

	stdout, stderr, err := runCLI(t, "-out", out, "experiments/quickstart.yaml")
	require.NoError(t, err, stderr)
	assert.Contains(t, stdout, fmt.Sprintf("(%d reused)", len(recs)))
	want := fmt.Sprintf("results.jsonl:%d: trial %s: %s: bootstrap replicates: step 5, deviations of up to 635", at+1, recs[at].ID, key)
	assert.Equal(t, 1, strings.Count(stderr, want), stderr)
	assert.Equal(t, 1, strings.Count(stderr, "the score is shown as not tested"), stderr)
	got, _, err := records.Read(filepath.Join(out, records.FileName))
	require.NoError(t, err)
	assert.Equal(t, recs[at].Bootstrap, got[at].Bootstrap, "kept as it was")
}

// Another spec's results file that cannot be read (here a link to
// /dev/zero, as a cloned repository can carry) costs that spec's page, not
// the index: it is marked there, and writeSite's error names it (a run
// warns of it, -index fails).
func TestSiteSkipsUnreadableResults(t *testing.T) {
	specDir, root := t.TempDir(), t.TempDir()
	fisherSpec, err := os.ReadFile(filepath.Join("experiments", "fisher.yaml"))
	require.NoError(t, err)
	for _, name := range []string{"a", "b"} {
		require.NoError(t, os.WriteFile(filepath.Join(specDir, name+".yaml"), []byte(strings.Replace(string(fisherSpec), "name: fisher", "name: "+name, 1)), 0o644))
		require.NoError(t, os.MkdirAll(filepath.Join(root, name), 0o755))
	}
	fisher, _, err := records.Read(filepath.Join("results", "fisher", records.FileName))
	require.NoError(t, err)
	for i := range fisher {
		fisher[i].Spec = "a"
	}
	require.NoError(t, records.Write(filepath.Join(root, "a", records.FileName), fisher))
	bad := filepath.Join(root, "b", records.FileName)
	require.NoError(t, os.Symlink("/dev/zero", bad))

	path, err := writeSite(specDir, root, map[string]bool{"a": true}, reports.CDNScript(), io.Discard)
	assert.ErrorContains(t, err, "b: results: "+bad+": not a regular file: a symbolic link (to /dev/zero)")
	assert.NotContains(t, err.Error(), "a: ", "the readable spec is not marked")
	b, rerr := os.ReadFile(path)
	require.NoError(t, rerr, "the index is written all the same")
	assert.Contains(t, string(b), "✗ Not shown:")
	assert.Contains(t, string(b), `<a href="a/report.html">a</a>`)
}
