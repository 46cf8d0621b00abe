package harness

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The code a record names is what the binary's build information proves:
// the full commit the toolchain stamped and whether that tree had changes
// (untracked files included, as vcs.modified counts them); a binary
// without a full stamp (go run, go test, -buildvcs=false, a worktree)
// proves nothing, and its records say "unknown".
func TestCodeFromBuild(t *testing.T) {
	const rev = "4545571f0e2a8c7f2b1b3c9d4e5f60718293a4b5"
	settings := func(kv ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{}
		for i := 0; i+1 < len(kv); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return bi
	}
	unknown := codeState{commit: records.UnknownCommit}
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want codeState
	}{
		{"go build in a clean clone", settings("vcs", "git", "vcs.revision", rev, "vcs.modified", "false"), codeState{commit: rev}},
		{"go build from a modified tree", settings("vcs", "git", "vcs.revision", rev, "vcs.modified", "true"), codeState{commit: rev, dirty: true}},
		{"go run, go test or -buildvcs=false: no stamp", settings("-buildmode", "exe"), unknown},
		{"no build information", nil, unknown},
		{"an abbreviated revision", settings("vcs", "git", "vcs.revision", rev[:12], "vcs.modified", "false"), unknown},
		{"another version control system", settings("vcs", "hg", "vcs.revision", rev, "vcs.modified", "false"), unknown},
		{"no modified flag", settings("vcs", "git", "vcs.revision", rev), unknown},
		{"upper-case hex", settings("vcs", "git", "vcs.revision", strings.ToUpper(rev), "vcs.modified", "false"), unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, codeFromBuild(tt.bi))
		})
	}
}

// A recorded input that is not at its path is looked for by its trailing
// part under the bases (the data directory first), longest part first.
func TestInputCheckLocate(t *testing.T) {
	data := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(data, "wordsim"), 0o755))
	here := filepath.Join(data, "wordsim", "men.txt")
	require.NoError(t, os.WriteFile(here, []byte("a b 1\n"), 0o644))
	c := &inputCheck{bases: []string{data}}
	tests := []struct {
		recorded, want string
	}{
		{here, here},
		{"/elsewhere/shared/data/wordsim/men.txt", here},
		{"/elsewhere/shared/data/wordsim/other.txt", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, c.locate(tt.recorded), tt.recorded)
	}
}

// Hostile round 5, m8: a krylov record whose measured residual is above
// its svd.tol says so; the sketches' residuals are measured, not promised.
func TestAboveTol(t *testing.T) {
	assert.Contains(t, aboveTol("krylov", 2.1e-14, 1e-14), "the largest residual measured, 2.1e-14·σ_1, is above svd.tol 1e-14")
	assert.Empty(t, aboveTol("krylov", 5e-15, 1e-14))
	assert.Empty(t, aboveTol("dssvd", 0.3, 1e-8))
	assert.Empty(t, aboveTol("dense", 1e-13, 1e-14))
}
