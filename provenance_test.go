package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

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
			"recompute them with a binary built from a clean clone at a commit (commit the code, go build -buildvcs=true -o kcalab ., then ./kcalab -untraced experiments/%s.yaml; docs/provenance.md):\n%s",
			name, name, strings.Join(bad, "\n"))
	}
	for name := range awaitingRecompute {
		_, err := os.Stat(records.Stored(filepath.Join("results", name, records.FileName)))
		assert.NoError(t, err, "awaitingRecompute names %s, which has no committed results", name)
	}
}

// Hostile round 5, serious 4: provenance comes from the code that ran, not
// from the working directory. A binary built from a tree with a change (an
// untracked source file here: `go run .` and `go build` compile it in) and
// then run in the restored, clean tree used to record "commit <HEAD>, not
// dirty". Its records now say dirty (the toolchain's vcs.modified, which
// counts untracked files); -share refuses them, -untraced computes them
// again with a binary built from the clean tree, whose records trace and
// are shared. `go run` stamps nothing on this toolchain, so its records
// say the commit is unknown and trace to nothing.
func TestProvenanceFromTheBinary(t *testing.T) {
	gitPath, err1 := exec.LookPath("git")
	goPath, err2 := exec.LookPath("go")
	if err1 != nil || err2 != nil {
		if datatest.Required() {
			t.Fatalf("git and go are needed: %v, %v", err1, err2)
		}
		t.Skip("needs git and the go command")
	}
	wd, err := os.Getwd()
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(wd, ".git")); err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	// The toolchain's own default (-buildvcs=auto), whatever the machine's
	// go env says (GOFLAGS=-buildvcs=false on some).
	env := append(os.Environ(), "GOFLAGS=-mod=readonly -buildvcs=auto")
	cmd := func(dir, name string, args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		c := exec.CommandContext(ctx, name, args...)
		c.Dir, c.Env = dir, env
		out, err := c.CombinedOutput()
		require.NoError(t, err, "%s %s: %s", name, strings.Join(args, " "), out)
		return string(out)
	}
	head := strings.TrimSpace(cmd(wd, gitPath, "rev-parse", "HEAD"))
	// A clone (a worktree's .git is a file, which the toolchain does not
	// stamp from).
	clone := filepath.Join(t.TempDir(), "kcalab")
	cmd(wd, gitPath, "clone", "--quiet", "--no-checkout", wd, clone)
	cmd(clone, gitPath, "checkout", "--quiet", "--detach", head)
	bin, root, specs := t.TempDir(), t.TempDir(), t.TempDir()
	for _, name := range []string{"fisher", "fisher2", "fisher3"} {
		body, err := os.ReadFile(filepath.Join(clone, "experiments", "fisher.yaml"))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(specs, name+".yaml"), []byte(strings.Replace(string(body), "name: fisher", "name: "+name, 1)), 0o644))
	}
	readRun := func(name string) []records.Record {
		t.Helper()
		recs, _, err := records.Read(filepath.Join(root, name, records.FileName))
		require.NoError(t, err)
		require.Len(t, recs, 3)
		return recs
	}
	kcalab := func(binary string, args ...string) string {
		t.Helper()
		return cmd(clone, binary, append([]string{"-cache", "off", "-jobs", "1"}, args...)...)
	}

	// Built from a modified tree, run in the clean one.
	patch := filepath.Join(clone, "zz_patch.go")
	require.NoError(t, os.WriteFile(patch, []byte("package main\n\nvar patched = 1\n"), 0o644))
	cmd(clone, goPath, "build", "-o", filepath.Join(bin, "patched"), ".")
	require.NoError(t, os.Remove(patch))
	assert.Empty(t, cmd(clone, gitPath, "status", "--porcelain", "--untracked-files=all"), "the tree is clean again")
	kcalab(filepath.Join(bin, "patched"), "-out", filepath.Join(root, "fisher"), filepath.Join(specs, "fisher.yaml"))
	for _, rec := range readRun("fisher") {
		assert.Equal(t, head, rec.Run.Commit)
		assert.True(t, rec.Run.Dirty, "the binary was built from a modified tree")
		assert.Equal(t, records.CommitFromBuild, rec.Run.CommitSource)
	}

	// Built from the clean tree: -share refuses the patched records.
	cmd(clone, goPath, "build", "-o", filepath.Join(bin, "clean"), ".")
	out := kcalab(filepath.Join(bin, "clean"), "-share", "-out", filepath.Join(root, "fisher2"), filepath.Join(specs, "fisher2.yaml"))
	assert.Equal(t, 3, strings.Count(out, "fisher's record of it: computed from commit "+head[:8]+" with uncommitted changes; not taken"), out)
	assert.Contains(t, out, "fisher2: 3 trials (0 reused)")
	for _, rec := range readRun("fisher2") {
		assert.Equal(t, head, rec.Run.Commit)
		assert.False(t, rec.Run.Dirty, "the clean binary's own records")
	}
	// -untraced computes the patched records again; the clean records are
	// shared.
	out = kcalab(filepath.Join(bin, "clean"), "-untraced", "-out", filepath.Join(root, "fisher"), filepath.Join(specs, "fisher.yaml"))
	assert.Equal(t, 3, strings.Count(out, "with uncommitted changes (-untraced): computing it again"), out)
	assert.Contains(t, out, "fisher: 3 trials (0 reused)")
	for _, rec := range readRun("fisher") {
		assert.False(t, rec.Run.Dirty)
	}
	out = kcalab(filepath.Join(bin, "clean"), "-share", "-out", filepath.Join(root, "fisher3"), filepath.Join(specs, "fisher3.yaml"))
	assert.Contains(t, out, "fisher3: 3 trials (3 reused)", out)

	// go run stamps no commit: its records name none, and do not trace.
	cmd(clone, goPath, "run", ".", "-cache", "off", "-fresh", "-out", filepath.Join(root, "fisher3"), filepath.Join(specs, "fisher3.yaml"))
	for _, rec := range readRun("fisher3") {
		assert.Equal(t, records.UnknownCommit, rec.Run.Commit)
		assert.Contains(t, records.Untraced(rec, func(string) bool { return true }), "carries no commit")
	}
}
