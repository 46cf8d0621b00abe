package records_test

import (
	"strings"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
)

func TestUntraced(t *testing.T) {
	good := "aaaaaaaa11" + strings.Repeat("0", 30)
	asked := map[string]bool{}
	history := func(c string) bool { asked[c] = true; return c == good }
	tests := []struct {
		name string
		run  *records.RunInfo
		want string
	}{
		{"clean commit of the history", &records.RunInfo{Commit: good, CommitSource: records.CommitFromBuild}, ""},
		{"a record of the working directory's checkout (before commit_source)", &records.RunInfo{Commit: good}, ""},
		{"a SHA-256 repository's commit", &records.RunInfo{Commit: strings.Repeat("ab", 32)}, "is not in this history"},
		{"no run metadata", nil, "no run metadata"},
		{"no commit", &records.RunInfo{Start: "x"}, "no commit recorded"},
		{"the binary carried no commit", &records.RunInfo{Commit: records.UnknownCommit, CommitSource: records.CommitFromBuild}, "carries no commit"},
		{"dirty tree", &records.RunInfo{Commit: good, Dirty: true}, "computed from commit aaaaaaaa with uncommitted changes"},
		{"commit not in history", &records.RunInfo{Commit: "0478099799" + strings.Repeat("0", 30)}, "commit 04780997 is not in this history"},
		// Hostile round 5, m3: names that are no fixed commit.
		{"HEAD", &records.RunInfo{Commit: "HEAD"}, `its commit "HEAD" is not a full commit hash`},
		{"an abbreviated hash", &records.RunInfo{Commit: "aaaaaaaa11"}, "is not a full commit hash"},
		{"upper case", &records.RunInfo{Commit: strings.ToUpper(good)}, "is not a full commit hash"},
		{"markup", &records.RunInfo{Commit: "<img src=x>" + good[:29]}, "is not a full commit hash"},
		{"an option", &records.RunInfo{Commit: "--output=/tmp/x" + good[:25]}, "is not a full commit hash"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := records.Untraced(records.Record{ID: "x", Run: tt.run}, history)
			if tt.want == "" {
				assert.Empty(t, got)
				return
			}
			assert.Contains(t, got, tt.want)
		})
	}
	for c := range asked {
		assert.True(t, records.FullCommit(c), "only full hashes reach git: %q", c)
	}
}
