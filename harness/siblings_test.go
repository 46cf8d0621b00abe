package harness_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"kcalab/harness"
	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A trial two specs share (the same id and seed) is computed once: with
// -share, a run of the second spec takes the first one's record from the
// results beside its own, with its vectors, when that record traces to a
// commit of this history. A record from a dirty tree is not taken, nor is
// any with -fresh or without -share.
func TestSharedTrialTakenFromSibling(t *testing.T) {
	head, err := exec.Command("git", "rev-parse", "--verify", "HEAD").Output()
	if err != nil {
		t.Skip("needs a git checkout (records are taken only when they trace to its history)")
	}
	commit := strings.TrimSpace(string(head))
	dir := t.TempDir()
	var text strings.Builder
	for i := 0; i < 300; i++ {
		text.WriteString("the cat sat on the mat a dog ran in the park ")
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "c.txt"), []byte(text.String()), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.tsv"), []byte("cat\tdog\t5\nmat\tpark\t2\nthe\ta\t7\n"), 0o644))
	common := `data: {source: corpus, corpus: c.txt, min_count: 2, window: 2}
eval: {sets: [p.tsv]}
svd: {rank: 3}
variants:
  - {method: lca, label: shared, vectors: {save: true}}
`
	write := func(name, extra string) string {
		p := filepath.Join(dir, name+".yaml")
		require.NoError(t, os.WriteFile(p, []byte("name: "+name+"\n"+common+extra), 0o644))
		return p
	}
	results := filepath.Join(dir, "results")
	first := loadSpecTo(t, write("first", ""), filepath.Join(results, "first"))
	second := loadSpecTo(t, write("second", "  - {method: lca, label: own, data: {table: flat}}\n"), filepath.Join(results, "second"))

	for _, tc := range []struct {
		name         string
		dirty, fresh bool
		noShare      bool
		inputGone    bool // the record names a corpus file found nowhere
		taken        bool
	}{
		{name: "traced: taken", taken: true},
		{name: "made from a dirty tree: computed", dirty: true},
		{name: "-fresh: computed", fresh: true},
		{name: "without -share: computed", noShare: true},
		{name: "an input not here to check: computed", inputGone: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, os.RemoveAll(results))
			restore := harness.SetCodeState(commit, tc.dirty)
			a, err := (&harness.Runner{Jobs: 1}).Run(context.Background(), first)
			restore()
			require.NoError(t, err)
			shared := a.Records[0]
			require.Len(t, shared.Files, 1)
			if tc.inputGone {
				path := filepath.Join(first.Output, records.FileName)
				recs, _, err := records.Read(path)
				require.NoError(t, err)
				in := recs[0].Run.Inputs
				corpusFile := filepath.Join(dir, "c.txt")
				require.Contains(t, in, corpusFile)
				in[filepath.Join(dir, "gone", "c-moved.txt")] = in[corpusFile]
				delete(in, corpusFile)
				require.NoError(t, records.Write(path, recs))
			}

			defer harness.SetCodeState(commit, false)()
			var log strings.Builder
			b, err := (&harness.Runner{Jobs: 1, Share: !tc.noShare, Fresh: tc.fresh, Log: &log}).Run(context.Background(), second)
			require.NoError(t, err)
			got := b.Records[0]
			require.Equal(t, shared.ID, got.ID, "the same trial")
			assert.Equal(t, "second", got.Spec)
			if tc.inputGone {
				assert.Contains(t, log.String(), "c-moved.txt is not here to check against its recorded SHA-256; not taken")
			}
			if !tc.taken {
				assert.Equal(t, 0, b.Reused, log.String())
				assert.NotContains(t, log.String(), "taken from there")
				assert.NotEqual(t, shared.Run.ID, got.Run.ID, "computed by this run")
				return
			}
			assert.Equal(t, 1, b.Reused, log.String())
			assert.Contains(t, log.String(), "the same trial as in "+filepath.Join(results, "first"))
			assert.Equal(t, shared.Run, got.Run, "it keeps the run that computed it")
			assert.Equal(t, shared.Metrics, got.Metrics)
			want := "vectors/" + harness.VectorsFileName("second", "shared", "lca", got.ID)
			require.Equal(t, []string{want}, got.Files, "its vectors under this spec's name")
			sum, err := records.FileSHA256(filepath.Join(second.Output, want))
			require.NoError(t, err, "the vectors were copied")
			assert.Equal(t, shared.FileHashes[shared.Files[0]], sum)
			assert.Equal(t, sum, got.FileHashes[want])

			saved, _, err := records.Read(filepath.Join(second.Output, records.FileName))
			require.NoError(t, err)
			require.Len(t, saved, 2)
			assert.Equal(t, got.ID, saved[0].ID, "written to this spec's results")
			assert.Equal(t, "second", saved[0].Spec)
		})
	}
}
