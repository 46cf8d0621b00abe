package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/records"
	"kcalab/reports"
)

// One bad spec beside good ones: the index is rewritten all the same, the
// good spec's report is rendered and linked, the bad entry says what is
// wrong and links no report, and the error names it (so -index exits
// non-zero).
func TestSiteMarksBadEntry(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("results", "fisher", "results.jsonl"))
	require.NoError(t, err)
	spec, err := os.ReadFile(filepath.Join("experiments", "fisher.yaml"))
	require.NoError(t, err)
	// fisher2's records: fisher's, naming fisher2 (trial ids do not depend
	// on the spec's name).
	mine := strings.ReplaceAll(string(good), `"spec":"fisher"`, `"spec":"fisher2"`)
	lines := strings.SplitAfter(mine, "\n")
	long := strings.Repeat("n", 300)
	cases := []struct {
		name    string
		specAs  string                       // the bad spec's name
		write   func(t *testing.T, p string) // makes ROOT/<specAs>/results.jsonl
		problem string                       // on the index
	}{
		{"torn line", "fisher2", func(t *testing.T, p string) {
			writeFile(t, p, lines[0]+lines[1][:40]+"\n"+lines[2])
		}, "results.jsonl:2"},
		{"torn last line", "fisher2", func(t *testing.T, p string) {
			writeFile(t, p, lines[0]+lines[1]+lines[2][:40])
		}, "dropped an incomplete last line"},
		{"unknown field", "fisher2", func(t *testing.T, p string) {
			writeFile(t, p, strings.Replace(mine, `"status":"ok"`, `"status":"ok","bogus":1`, 1))
		}, `unknown field "bogus"`},
		{"wrong type", "fisher2", func(t *testing.T, p string) {
			writeFile(t, p, strings.Replace(mine, `"status":"ok"`, `"status":3`, 1))
		}, "cannot unmarshal number"},
		{"directory", "fisher2", func(t *testing.T, p string) {
			require.NoError(t, os.MkdirAll(p, 0o755))
		}, "is not a regular file"},
		{"long name", long, func(t *testing.T, p string) {}, "file name too long"},
		{"another spec's records", "fisher2", func(t *testing.T, p string) {
			writeFile(t, p, string(good))
		}, `not the results of spec "fisher2": record 1 (trial da7bbd7a5f82) is of spec "fisher"`},
		{"no trial of the grid", "fisher2", func(t *testing.T, p string) {
			other := mine
			for i, id := range []string{"da7bbd7a5f82", "2fb9fbc5497b", "bdfd8b0a10c1"} {
				other = strings.Replace(other, `"id":"`+id+`"`, fmt.Sprintf(`"id":"00000000000%d"`, i), 1)
			}
			writeFile(t, p, other)
		}, "none of its 3 record(s) is a trial of the grid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			specs, root := filepath.Join(dir, "experiments"), filepath.Join(dir, "results")
			writeFile(t, filepath.Join(specs, "fisher.yaml"), string(spec))
			writeFile(t, filepath.Join(specs, "bad.yaml"), strings.Replace(string(spec), "name: fisher", "name: "+c.specAs, 1))
			writeFile(t, filepath.Join(root, "fisher", "results.jsonl"), string(good))
			writeFile(t, filepath.Join(root, indexName), "stale")
			if len(c.specAs) < 255 {
				writeFile(t, filepath.Join(root, c.specAs, reportName), "stale")
				c.write(t, filepath.Join(root, c.specAs, "results.jsonl"))
			}

			var stderr bytes.Buffer
			path, err := writeSite(specs, root, nil, reports.CDNScript(), &stderr)
			require.Error(t, err, "a bad entry fails -index")
			assert.Contains(t, err.Error(), c.specAs)
			assert.Contains(t, err.Error(), c.problem)
			require.Equal(t, filepath.Join(root, indexName), path, "the index is written all the same")

			b, err := os.ReadFile(path)
			require.NoError(t, err)
			index := string(b)
			assert.Contains(t, index, `<a href="fisher/report.html">fisher</a>`, "the good spec is linked")
			assert.FileExists(t, filepath.Join(root, "fisher", reportName))
			assert.Contains(t, index, "✗ Not shown:")
			assert.Contains(t, index, htmlText(c.problem))
			assert.NotContains(t, index, c.specAs+"/report.html", "no link to a report that is not of the results")
			assert.NotContains(t, index, root, "the index names no directory of this machine")
		})
	}
}

// A spec file that does not load is an entry too, named by its file.
func TestSiteMarksSpecThatDoesNotLoad(t *testing.T) {
	dir := t.TempDir()
	specs, root := filepath.Join(dir, "experiments"), filepath.Join(dir, "results")
	spec, err := os.ReadFile(filepath.Join("experiments", "fisher.yaml"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(specs, "fisher.yaml"), string(spec))
	writeFile(t, filepath.Join(specs, "broken.yaml"), "name: broken\nbogus: 1\n")
	path, err := writeSite(specs, root, nil, reports.CDNScript(), &bytes.Buffer{})
	require.Error(t, err)
	b, rerr := os.ReadFile(path)
	require.NoError(t, rerr)
	assert.Contains(t, string(b), `id="spec-broken"`)
	assert.Contains(t, string(b), "✗ Not shown: the spec does not load")
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
}

// htmlText is s as html/template escapes it in text.
func htmlText(s string) string {
	return strings.NewReplacer(`"`, "&#34;", "'", "&#39;", "<", "&lt;", ">", "&gt;", "&", "&amp;").Replace(s)
}

// Records of trials a spec's grid no longer has are its own (a run deletes
// no result): its page shows today's grid and says how many it left aside,
// and the index links it.
func TestSiteKeepsRecordsOutsideTheGrid(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("results", "fisher", "results.jsonl"))
	require.NoError(t, err)
	spec, err := os.ReadFile(filepath.Join("experiments", "fisher.yaml"))
	require.NoError(t, err)
	dir := t.TempDir()
	specs, root := filepath.Join(dir, "experiments"), filepath.Join(dir, "results")
	writeFile(t, filepath.Join(specs, "fisher.yaml"), string(spec))
	writeFile(t, filepath.Join(root, "fisher", "results.jsonl"), strings.Replace(string(good), `"id":"da7bbd7a5f82"`, `"id":"000000000000"`, 1))
	path, err := writeSite(specs, root, nil, reports.CDNScript(), &bytes.Buffer{})
	require.NoError(t, err)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(b), `<a href="fisher/report.html">fisher</a>`)
	page, err := os.ReadFile(filepath.Join(root, "fisher", reportName))
	require.NoError(t, err)
	assert.Contains(t, string(page), "also holds 1 record(s) of trials outside this spec&#39;s grid")
	assert.Contains(t, string(page), "Unfinished: 1 trial(s) of this spec&#39;s grid (ca) have no record yet", "the trial whose record it was has none now")
}

// A results file that lacks some of its grid's trials (a run stopped
// before its end) still gets its page, which says at the top that the grid
// is unfinished, as the index does: its choices and verdicts may change.
func TestSiteMarksUnfinished(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("results", "fisher", "results.jsonl"))
	require.NoError(t, err)
	spec, err := os.ReadFile(filepath.Join("experiments", "fisher.yaml"))
	require.NoError(t, err)
	lines := strings.SplitAfter(strings.TrimSuffix(string(good), "\n"), "\n")
	require.Greater(t, len(lines), 1)
	dir := t.TempDir()
	specs, root := filepath.Join(dir, "experiments"), filepath.Join(dir, "results")
	writeFile(t, filepath.Join(specs, "fisher.yaml"), string(spec))
	writeFile(t, filepath.Join(root, "fisher", "results.jsonl"), strings.Join(lines[1:], "")+"\n")
	path, err := writeSite(specs, root, nil, reports.CDNScript(), &bytes.Buffer{})
	require.NoError(t, err)
	warning := "Unfinished: 1 trial(s) of this spec&#39;s grid (ca) have no record yet"
	page, err := os.ReadFile(filepath.Join(root, "fisher", reportName))
	require.NoError(t, err)
	assert.Contains(t, string(page), warning)
	index, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(index), warning)

	// The whole file: nothing unfinished.
	writeFile(t, filepath.Join(root, "fisher", "results.jsonl"), string(good))
	_, err = writeSite(specs, root, nil, reports.CDNScript(), &bytes.Buffer{})
	require.NoError(t, err)
	page, err = os.ReadFile(filepath.Join(root, "fisher", reportName))
	require.NoError(t, err)
	assert.NotContains(t, string(page), "Unfinished:")
}

// Hostile round 5, serious 6: records within the documented limits but
// holding millions of warnings took -index 25 times their size, and made a
// 386 MB page. A page reads of each record the warnings it shows
// (reports.MaxWarningsShown), says how many there are in all, and keeps
// its size to what it shows.
func TestSitePageBoundedByWhatIsShown(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("results", "fisher", "results.jsonl"))
	require.NoError(t, err)
	spec, err := os.ReadFile(filepath.Join("experiments", "fisher.yaml"))
	require.NoError(t, err)
	const n = 300_000
	var ws strings.Builder
	ws.WriteString(`"warnings":[`)
	for i := range n {
		if i > 0 {
			ws.WriteByte(',')
		}
		fmt.Fprintf(&ws, `"pair %07d is out of the vocabulary"`, i)
	}
	ws.WriteString(`],"status":"ok"`)
	many := strings.ReplaceAll(string(good), `"status":"ok"`, ws.String())
	require.Greater(t, len(many), 3*40*n, "three records of 300,000 warnings each")
	dir := t.TempDir()
	specs, root := filepath.Join(dir, "experiments"), filepath.Join(dir, "results")
	writeFile(t, filepath.Join(specs, "fisher.yaml"), string(spec))
	writeFile(t, filepath.Join(root, "fisher", "results.jsonl"), many)

	recs, _, err := records.ReadWith(filepath.Join(root, "fisher", "results.jsonl"), shownOptions)
	require.NoError(t, err)
	for _, rec := range recs {
		assert.Len(t, rec.Warnings, reports.MaxWarningsShown, "a page holds what it shows")
		assert.Equal(t, n, rec.WarningsTotal)
	}
	_, err = writeSite(specs, root, nil, reports.CDNScript(), &bytes.Buffer{})
	require.NoError(t, err)
	page, err := os.ReadFile(filepath.Join(root, "fisher", reportName))
	require.NoError(t, err)
	assert.Less(t, len(page), 400<<10, "the page's size follows what it shows")
	assert.Contains(t, string(page), "pair 0000009 is out of the vocabulary; … and 299,990 more (300,000 warnings in all; results.jsonl has every one)")
	assert.NotContains(t, string(page), "pair 0000010 is")
}
