package harness_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"kcalab/harness"
	_ "kcalab/harness/builtin"
	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sha256File(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Every computed record says when and where it ran, from which commit, and
// the hash of every data file it read; a reused record keeps its own.
func TestRunInfo(t *testing.T) {
	dir := t.TempDir()
	corpusPath := filepath.Join(dir, "c.txt")
	var text strings.Builder
	for i := 0; i < 400; i++ {
		text.WriteString("the cat sat on the mat a dog ran in the park ")
	}
	require.NoError(t, os.WriteFile(corpusPath, []byte(text.String()), 0o644))
	pairsPath := filepath.Join(dir, "pairs.tsv")
	require.NoError(t, os.WriteFile(pairsPath, []byte("cat\tdog\t5\nmat\tpark\t2\nthe\ta\t7\n"), 0o644))
	csvPath := filepath.Join(dir, "t.csv")
	require.NoError(t, os.WriteFile(csvPath, []byte(",a,b,c\nx,1,2,3\ny,3,1,4\nz,2,5,1\n"), 0o644))
	spec := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(spec, []byte(`name: meta
data: {source: corpus, corpus: c.txt, min_count: 1, window: 2}
eval: {sets: [pairs.tsv]}
svd: {rank: 2}
variants:
  - {method: lca}
  - {method: ca, data: {source: csv, csv: t.csv}, svd: {rank: 1}}
  - {method: ca, data: {source: fisher}, svd: {rank: 1}}
`), 0o644))
	s := loadSpecTo(t, spec, filepath.Join(dir, "out"))
	before := time.Now().UTC().Truncate(time.Second)
	res, err := (&harness.Runner{Jobs: 1}).Run(context.Background(), s)
	require.NoError(t, err)
	require.Len(t, res.Records, 3)
	host, _ := os.Hostname()
	// The test binary's own stamp: none under go test (its default), the
	// commit with go test -buildvcs=true in a clone.
	commit, dirty := records.UnknownCommit, false
	if bi, ok := debug.ReadBuildInfo(); ok {
		set := map[string]string{}
		for _, s := range bi.Settings {
			set[s.Key] = s.Value
		}
		if records.FullCommit(set["vcs.revision"]) {
			commit, dirty = set["vcs.revision"], set["vcs.modified"] == "true"
		}
	}
	for _, r := range res.Records {
		require.NotNil(t, r.Run, r.ID)
		start, err := time.Parse(time.RFC3339, r.Run.Start)
		require.NoError(t, err)
		end, err := time.Parse(time.RFC3339, r.Run.End)
		require.NoError(t, err)
		assert.True(t, strings.HasSuffix(r.Run.Start, "Z"), "UTC: %s", r.Run.Start)
		assert.False(t, start.Before(before))
		assert.False(t, end.Before(start))
		assert.Equal(t, host, r.Run.Host)
		assert.Equal(t, commit, r.Run.Commit, "the commit the binary was built from, not the working directory's")
		assert.Equal(t, dirty, r.Run.Dirty)
		assert.Equal(t, records.CommitFromBuild, r.Run.CommitSource)
		assert.NotEmpty(t, r.Run.ID)
		assert.Equal(t, res.Records[0].Run.ID, r.Run.ID, "one run, one id")
	}
	assert.Equal(t, map[string]string{corpusPath: sha256File(t, corpusPath), pairsPath: sha256File(t, pairsPath)}, res.Records[0].Run.Inputs)
	assert.Equal(t, map[string]string{csvPath: sha256File(t, csvPath)}, res.Records[1].Run.Inputs)
	assert.Nil(t, res.Records[2].Run.Inputs, "Fisher's table is embedded, not a file")

	// The file keeps it; a second run reuses every trial with its metadata.
	recs, _, err := records.Read(filepath.Join(s.Output, records.FileName))
	require.NoError(t, err)
	assert.Equal(t, res.Records[0].Run, recs[0].Run)
	time.Sleep(1100 * time.Millisecond) // a new start time would differ
	again, err := (&harness.Runner{Jobs: 1}).Run(context.Background(), s)
	require.NoError(t, err)
	assert.Equal(t, 3, again.Reused)
	for i := range recs {
		assert.Equal(t, recs[i].Run, again.Records[i].Run)
	}
	fresh, err := (&harness.Runner{Jobs: 1, Fresh: true}).Run(context.Background(), s)
	require.NoError(t, err)
	assert.NotEqual(t, recs[0].Run.ID, fresh.Records[0].Run.ID, "another run, another id")
}

// A record written before records.RunInfo existed loads, without one.
func TestRunInfoOldRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), records.FileName)
	require.NoError(t, os.WriteFile(path, []byte(`{"id":"a","spec":"s","seed":1,"settings":{"method":"ca"},"status":"ok"}`+"\n"), 0o644))
	recs, _, err := records.Read(path)
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Nil(t, recs[0].Run)
}

// A run from a tree with uncommitted changes says so at its end: its
// results cannot be committed as reference numbers. A clean one says
// nothing; a reused trial keeps its own metadata and is not counted.
func TestRunSaysWhenUntraced(t *testing.T) {
	const fullCommit = "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		name   string
		commit string
		dirty  bool
		fresh  bool
		says   string
	}{
		{"dirty tree", fullCommit, true, true, "3 trial(s) computed by this run cannot be traced to code a reader can rebuild (computed from commit 01234567 with uncommitted changes)"},
		{"a binary without a stamp", records.UnknownCommit, false, true, "(the binary that computed it carries no commit"},
		{"an abbreviated commit", "0123456789abcdef", false, true, "is not a full commit hash"},
		{"clean tree", fullCommit, false, true, ""},
		{"dirty tree, every trial reused", fullCommit, true, false, ""},
	}
	out := t.TempDir()
	spec := loadSpecTo(t, writeSpec(t, fisherSpec), out)
	_, err := (&harness.Runner{}).Run(context.Background(), spec)
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer harness.SetCodeState(tt.commit, tt.dirty)()
			var log strings.Builder
			res, err := (&harness.Runner{Fresh: tt.fresh, Log: &log}).Run(context.Background(), spec)
			require.NoError(t, err)
			if tt.says == "" {
				assert.NotContains(t, log.String(), "cannot be traced")
				return
			}
			assert.Contains(t, log.String(), tt.says)
			assert.Contains(t, log.String(), "commit the code first")
			assert.Equal(t, tt.dirty, res.Records[0].Run.Dirty)
		})
	}
}

// -untraced recomputes exactly the trials whose records cannot be traced
// to a commit of the history (here: made from a dirty tree), and reuses
// those that can.
func TestRunUntracedRecomputesOnlyThose(t *testing.T) {
	head, err := exec.Command("git", "rev-parse", "--verify", "HEAD").Output()
	if err != nil {
		t.Skip("needs a git checkout")
	}
	commit := strings.TrimSpace(string(head))
	out := t.TempDir()
	spec := loadSpecTo(t, writeSpec(t, fisherSpec), out)
	restore := harness.SetCodeState(commit, true)
	_, err = (&harness.Runner{}).Run(context.Background(), spec)
	restore()
	require.NoError(t, err)
	defer harness.SetCodeState(commit, false)()
	var log strings.Builder
	res, err := (&harness.Runner{Untraced: true, Log: &log}).Run(context.Background(), spec)
	require.NoError(t, err)
	assert.Equal(t, 0, res.Reused, log.String())
	assert.Equal(t, 3, strings.Count(log.String(), "with uncommitted changes (-untraced): computing it again"))
	for _, rec := range res.Records {
		assert.False(t, rec.Run.Dirty)
	}
	log.Reset()
	again, err := (&harness.Runner{Untraced: true, Log: &log}).Run(context.Background(), spec)
	require.NoError(t, err)
	assert.Equal(t, 3, again.Reused, "traced records are reused: %s", log.String())
}
