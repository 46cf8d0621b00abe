package main

import (
	"bytes"
	"kcalab/records"
	"kcalab/schema"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/reports"
	"kcalab/reports/browsertest"
)

// committed lists the reference results: results/<name>/ with the spec
// experiments/<name>.yaml.
func committed(t *testing.T) []string {
	dirs, err := filepath.Glob(filepath.Join("results", "*", records.FileName))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	var names []string
	for _, d := range dirs {
		names = append(names, filepath.Base(filepath.Dir(d)))
	}
	return names
}

// loadCommitted reads experiments/<name>.yaml and results/<name>'s records.
func loadCommitted(t *testing.T, name string) (*schema.Spec, []records.Record) {
	t.Helper()
	spec, err := schema.LoadSpec(filepath.Join("experiments", name+".yaml"))
	require.NoError(t, err)
	recs, _, err := records.Read(filepath.Join("results", name, records.FileName))
	require.NoError(t, err)
	return spec, recs
}

var chartID = regexp.MustCompile(`<div class="chart" id="([^"]+)"`)

// Every committed spec's report renders from its committed results (the
// pages themselves are build outputs, git-ignored), the same bytes twice,
// and draws in headless Chromium offline: every chart has a canvas with
// ink, and the page logs no JavaScript error.
func TestCommittedReports(t *testing.T) {
	var warn bytes.Buffer
	// node_modules (CI) or the copy a run cached; never the network here.
	js, err := reports.FindECharts(reports.FindOptions{Warn: &warn, CacheDir: defaultCacheDir()})
	require.NoError(t, err)
	if !js.Inline() {
		browsertest.Unavailable(t, "ECharts is not installed (npm ci in reports/) or cached (any run caches it): %s", warn.String())
	}
	out := t.TempDir()
	for _, name := range committed(t) {
		t.Run(name, func(t *testing.T) {
			spec, recs := loadCommitted(t, name)
			path := filepath.Join(out, name+".html")
			require.NoError(t, reports.WriteFile(path, buildReport(spec, recs, recs, js)))
			page, err := os.ReadFile(path)
			require.NoError(t, err)
			var again bytes.Buffer
			require.NoError(t, reports.Write(&again, buildReport(spec, recs, recs, js)))
			require.True(t, bytes.Equal(page, again.Bytes()), "the report of %s is not deterministic", name)
			assert.NotContains(t, string(page), `<script src=`, "the page needs the network")

			var want []string
			for _, m := range chartID.FindAllStringSubmatch(string(page), -1) {
				want = append(want, m[1])
			}
			u, err := browsertest.FileURL(path)
			require.NoError(t, err)
			p := browsertest.Open(t, u, browsertest.Options{Width: 1400, Height: 1000})
			err = p.WaitFor(`window.kcalabCharts !== undefined && window.kcalabCharts.drawn === window.kcalabCharts.total`, 60*time.Second)
			require.NoError(t, err, "charts did not draw; page errors %q", p.Errors())
			for _, id := range want {
				shot, err := p.ElementScreenshot("#" + id)
				require.NoError(t, err)
				ink, total, err := browsertest.Ink(shot)
				require.NoError(t, err)
				assert.Greater(t, float64(ink)/float64(total), 0.01, "chart %s looks blank", id)
			}
			assert.Empty(t, p.Errors(), "JavaScript errors")
		})
	}
}

// Every committed results file holds exactly the trials its spec expands
// to, each with the spec's current settings, ids and seeds: rerunning a spec
// reuses every trial and rewrites nothing, so a new setting or default that
// is not folded into the references fails here rather than dirtying a
// user's checkout. (Refresh with go run . experiments/<name>.yaml.)
func TestCommittedResultsCurrent(t *testing.T) {
	for _, name := range committed(t) {
		t.Run(name, func(t *testing.T) {
			spec, recs := loadCommitted(t, name)
			trials := spec.Trials()
			require.Len(t, recs, len(trials), "results/%s: trials in the file vs in the spec", name)
			for i, tr := range trials {
				rec := recs[i]
				assert.Equal(t, tr.ID, rec.ID, "trial %d (%s)", i+1, tr.Title)
				assert.Equal(t, tr.Seed, rec.Seed, "trial %d (%s)", i+1, tr.Title)
				assert.True(t, records.SameSettings(tr.RecordSettings(), rec.Settings),
					"results/%s trial %d (%s): settings differ from the spec's", name, i+1, tr.Title)
			}
		})
	}
}
