package main

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
