package reports

import (
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
)

func TestLinks(t *testing.T) {
	recs := []records.Record{
		{ID: "a1", Status: "ok", Settings: map[string]any{"label": "tail-cut"}, Files: []string{"vectors/q-tail-cut-a1.txt"}},
		{ID: "b2", Status: "ok", Files: []string{"../other dir/q-lca-b2.txt", "/abs/x#y.txt", "javascript:alert(1)"}},
		{ID: "c3", Status: "ok"},
	}
	page := string(render(t, Report{Methods: testMethods, Title: "t", Records: recs, ECharts: CDNScript(), ResultsFile: records.FileName}))
	assert.Contains(t, page, `<p class="meta">Results: <a href="results.jsonl">results.jsonl</a></p>`)
	assert.Contains(t, page, `<li>tail-cut (a1): <a href="vectors/q-tail-cut-a1.txt">vectors/q-tail-cut-a1.txt</a></li>`)
	assert.Contains(t, page, `<li>b2: <a href="../other%20dir/q-lca-b2.txt">../other dir/q-lca-b2.txt</a></li>`)
	assert.Contains(t, page, `<li>b2: /abs/x#y.txt</li>`, "an absolute path is not linked")
	assert.Contains(t, page, `<a href="./javascript:alert%281%29">`, "a colon in the first segment is a path, not a scheme")

	// Files not beside the page are named without a link, and the page says
	// how to write them.
	present := func(p string) bool { return p == "vectors/q-tail-cut-a1.txt" }
	page = string(render(t, Report{Methods: testMethods, Title: "t", Records: recs, ECharts: CDNScript(), FilePresent: present}))
	assert.Contains(t, page, `<li>tail-cut (a1): <a href="vectors/q-tail-cut-a1.txt">vectors/q-tail-cut-a1.txt</a></li>`)
	assert.Contains(t, page, `<li>b2: ../other dir/q-lca-b2.txt</li>`)
	assert.NotContains(t, page, `href="../other%20dir/q-lca-b2.txt"`)
	assert.Contains(t, page, "3 of these 4 files are not beside this page")
	assert.Contains(t, page, "-fresh")

	// No files, no results link: nothing added (pages of other callers are unchanged).
	page = string(render(t, Report{Methods: testMethods, Title: "t", Records: recs[2:], ECharts: CDNScript()}))
	assert.NotContains(t, page, "Results:")
	assert.NotContains(t, page, `class="files"`)
}
