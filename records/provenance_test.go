package records_test

import (
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
)

func TestUntraced(t *testing.T) {
	history := func(c string) bool { return c == "aaaaaaaa11" }
	tests := []struct {
		name string
		run  *records.RunInfo
		want string
	}{
		{"clean commit of the history", &records.RunInfo{Commit: "aaaaaaaa11"}, ""},
		{"no run metadata", nil, "no run metadata"},
		{"no commit", &records.RunInfo{Start: "x"}, "no commit recorded"},
		{"dirty tree", &records.RunInfo{Commit: "aaaaaaaa11", Dirty: true}, "computed from commit aaaaaaaa with uncommitted changes"},
		{"commit not in history", &records.RunInfo{Commit: "0478099799"}, "commit 04780997 is not in this history"},
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
}
