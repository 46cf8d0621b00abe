package main

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

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

// mdLink is a Markdown link or image: [text](target) or ![alt](target).
var mdLink = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)

// The README starts a reader in at most 200 lines, and it and the docs it
// leads to hang together: every relative link of README.md and docs/*.md
// resolves to a file of the repository (an anchor to a heading of it),
// and every page of docs/ is reached from the README.
func TestDocsLinks(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	assert.LessOrEqual(t, strings.Count(string(readme), "\n"), 200, "the README is a quick start: at most 200 lines, the reference in docs/")

	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, docs)
	reached := map[string]bool{}
	for _, file := range append([]string{"README.md"}, docs...) {
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		for _, m := range mdLink.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			dest := file
			if path != "" {
				dest = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
			}
			body, err := os.ReadFile(dest)
			if !assert.NoError(t, err, "%s: link %s does not resolve", file, target) {
				continue
			}
			if file == "README.md" {
				reached[filepath.Clean(dest)] = true
			}
			if anchor != "" {
				assert.Contains(t, headingAnchors(string(body)), anchor, "%s: link %s: no such heading in %s", file, target, dest)
			}
		}
	}
	for _, d := range docs {
		assert.True(t, reached[filepath.Clean(d)], "%s is not reached from the README", d)
	}
	png, err := os.Stat(filepath.Join("docs", "report.png"))
	require.NoError(t, err, "the README's picture of a report")
	assert.Less(t, png.Size(), int64(1<<20), "a picture, not a page dump")
}

// headingAnchors are the anchors GitHub gives a Markdown file's headings:
// lower case, punctuation but '-' and '_' dropped, spaces as '-'.
func headingAnchors(md string) []string {
	var out []string
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		var b strings.Builder
		for _, r := range h {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		out = append(out, b.String())
	}
	return out
}
