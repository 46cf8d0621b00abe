package main

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kcalab/records"
	"kcalab/reports"
	"kcalab/schema"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var fileHref = regexp.MustCompile(`<a href="([^"#][^"]*)"`)

// The report links the results file and every trial's vectors file, and
// each link resolves from the page's directory.
func TestReportLinksFiles(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "v.yaml")
	require.NoError(t, os.WriteFile(spec, []byte(`name: v
data: {source: synthetic, window: 3}
synthetic: {clusters: 3, words: 5, tokens: 5000}
eval: {sets: [synthetic]}
svd: {rank: 4}
vectors: {save: true}
variants:
  - {method: lca, label: LCA N^flat, data: {table: flat}}
  - {method: kca}
`), 0o644))
	out := filepath.Join(dir, "out")
	_, stderr, err := runCLI(t, "-out", out, spec)
	require.NoError(t, err, stderr)
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	require.NoError(t, err)
	var links []string
	for _, m := range fileHref.FindAllStringSubmatch(string(page), -1) {
		p, err := url.PathUnescape(m[1])
		require.NoError(t, err)
		links = append(links, p)
		_, err = os.Stat(filepath.Join(out, filepath.FromSlash(p)))
		assert.NoError(t, err, "link %s", m[1])
	}
	require.Len(t, links, 3, "%v", links)
	assert.Equal(t, "results.jsonl", links[0])
	assert.True(t, strings.HasPrefix(links[1], "vectors/v-LCA-N-flat-"), links[1])
	assert.True(t, strings.HasPrefix(links[2], "vectors/v-kca-"), links[2])
}

// The page links a vectors file only while it holds what its trial wrote:
// changed since, or a link in its place, it is named without a link, like
// a missing one.
func TestReportLinksOnlyWrittenFiles(t *testing.T) {
	tests := []struct {
		name   string
		mess   func(t *testing.T, path string)
		linked bool
	}{
		{"as written", func(*testing.T, string) {}, true},
		{"changed", func(t *testing.T, path string) { require.NoError(t, os.WriteFile(path, []byte("1 1\nx 0.5\n"), 0o644)) }, false},
		{"a link to a copy", func(t *testing.T, path string) {
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			cp := filepath.Join(t.TempDir(), "copy.txt")
			require.NoError(t, os.WriteFile(cp, b, 0o644))
			require.NoError(t, os.Remove(path))
			require.NoError(t, os.Symlink(cp, path))
		}, false},
		{"deleted", func(t *testing.T, path string) { require.NoError(t, os.Remove(path)) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			spec := filepath.Join(dir, "v.yaml")
			require.NoError(t, os.WriteFile(spec, []byte("name: v\ndata: {source: synthetic, window: 3}\nsynthetic: {clusters: 3, words: 5, tokens: 5000}\n"+
				"eval: {sets: [synthetic]}\nsvd: {rank: 4}\nvectors: {save: true}\nmethod: kca\n"), 0o644))
			out := filepath.Join(dir, "out")
			_, stderr, err := runCLI(t, "-out", out, spec)
			require.NoError(t, err, stderr)
			recs, _, err := records.Read(filepath.Join(out, records.FileName))
			require.NoError(t, err)
			require.Len(t, recs[0].Files, 1)
			f := recs[0].Files[0]
			tt.mess(t, filepath.Join(out, filepath.FromSlash(f)))
			s, err := schema.LoadSpec(spec)
			require.NoError(t, err)
			r := buildReport(s, recs, nil, reports.CDNScript(), out)
			assert.Equal(t, tt.linked, r.FilePresent(f))
		})
	}
}
