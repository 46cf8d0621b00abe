package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"kcalab/datasets/datatest"
	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// awaitingRecompute names the committed specs whose records were made
// before this check existed from a tree with uncommitted changes (or with
// no run metadata), each with what recomputing it costs. The list may only
// shrink: a spec on it whose records all trace is an error too (take it off).
// Every other committed record must trace.
var awaitingRecompute = map[string]string{}

// Every committed record can be traced to the code that made it: computed
// from a clean tree at a commit of this history (records.Untraced), so a
// reader can check out that commit and rebuild the number.
func TestCommittedResultsTraceable(t *testing.T) {
	if out, err := exec.Command("git", "rev-parse", "--is-shallow-repository").Output(); err != nil || strings.TrimSpace(string(out)) != "false" {
		msg := "needs the repository's whole git history (a clone, not a shallow one or an export)"
		if datatest.Required() {
			t.Fatal("KCALAB_REQUIRE_DATA=1 but this test " + msg)
		}
		t.Skip(msg)
	}
	known := map[string]bool{}
	inHistory := func(c string) bool {
		if ok, seen := known[c]; seen {
			return ok
		}
		err := exec.Command("git", "merge-base", "--is-ancestor", c, "HEAD").Run()
		known[c] = err == nil
		return err == nil
	}
	names := committed(t)
	for _, name := range names {
		recs, _, err := records.Read(filepath.Join("results", name, records.FileName))
		require.NoError(t, err, name)
		var bad []string
		for _, rec := range recs {
			if why := records.Untraced(rec, inHistory); why != "" {
				bad = append(bad, rec.ID+": "+why)
			}
		}
		sort.Strings(bad)
		if _, pending := awaitingRecompute[name]; pending {
			assert.NotEmpty(t, bad, "results/%s traces now: take it off awaitingRecompute", name)
			continue
		}
		assert.Empty(t, bad, "results/%s holds records that cannot be traced to a commit of this history; "+
			"recompute them from a clean tree at a commit (commit the code, then go run . -fresh experiments/%s.yaml):\n%s",
			name, name, strings.Join(bad, "\n"))
	}
	for name := range awaitingRecompute {
		_, err := os.Stat(filepath.Join("results", name, records.FileName))
		assert.NoError(t, err, "awaitingRecompute names %s, which has no committed results", name)
	}
}
