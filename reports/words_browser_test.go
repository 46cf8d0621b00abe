package reports

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/reports/browsertest"
)

// experimentsReport has every section the records can produce (scores,
// sweeps, scaling, trials, CA) and every building block: a page with every
// chart type.
func experimentsReport(t testing.TB, s Script) Report {
	recs := append(append(methodRecords(), sweepRecords()...), scalingRecords()...)
	recs = append(recs, fisherRecords(t)...)
	r := wordReport("Every experiment", recs, s)
	r.Sections = blocksReport(s).Sections
	return r
}

var chartIDRE = regexp.MustCompile(`<div class="chart" id="([^"]+)"`)

// TestBrowserExperiments draws the page with every section and chart type
// in headless Chromium, offline: every chart the HTML declares drew a
// canvas with ink on it, the over-budget marks were drawn on the scaling
// charts, and the page logged no JavaScript error.
func TestBrowserExperiments(t *testing.T) {
	js := inlineECharts(t)
	r := experimentsReport(t, js)
	var want []string
	for _, m := range chartIDRE.FindAllStringSubmatch(string(render(t, r)), -1) {
		want = append(want, m[1])
	}
	for _, id := range []string{"sweep-window-1", "sweep-window-6", "scaling-time", "scaling-memory", "ca-map-1", "ca-scree-1", "bars", "free-map"} {
		require.Contains(t, want, id)
	}
	p := openReport(t, r)

	ids, err := browsertest.Eval[[]string](p, `Array.from(document.querySelectorAll(".chart")).map(function (e) { return e.id; })`)
	require.NoError(t, err)
	require.Equal(t, want, ids)
	canvases, err := browsertest.Eval[int](p, `document.querySelectorAll(".chart canvas").length`)
	require.NoError(t, err)
	assert.Equal(t, len(want), canvases, "one canvas per chart")

	dir := os.Getenv("KCALAB_SCREENSHOT_DIR")
	for _, id := range ids {
		shot, err := p.ElementScreenshot("#" + id)
		require.NoError(t, err)
		ink, total, err := browsertest.Ink(shot)
		require.NoError(t, err)
		assert.Greater(t, float64(ink)/float64(total), 0.02, "chart %s looks blank: %d of %d pixels inked", id, ink, total)
		if dir != "" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, id+".png"), shot, 0o644))
		}
	}
	if dir != "" {
		full, err := p.Screenshot()
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "experiments.png"), full, 0o644))
	}

	// The dashed lines at the two sizes dense did not finish: vertical
	// lines drawn in dense's colour with a dash pattern.
	for _, id := range []string{"scaling-time", "scaling-memory"} {
		n, err := browsertest.Eval[int](p, fmt.Sprintf(`(function () {
			var zr = echarts.getInstanceByDom(document.getElementById(%q)).getZr();
			return zr.storage.getDisplayList(true).filter(function (el) {
				var s = el.style || {};
				return el.type === "ec-line" && el.shape.x1 === el.shape.x2 && el.shape.y1 !== el.shape.y2 &&
					s.stroke === %q && s.lineDash && s.lineDash !== "solid" && !el.invisible;
			}).length;
		})()`, id, settingColor("svd.backend", "dense")))
		require.NoError(t, err)
		assert.Equal(t, 2, n, "%s: dashed over-budget lines drawn", id)
		legend, err := browsertest.Eval[[]string](p, fmt.Sprintf(`echarts.getInstanceByDom(document.getElementById(%q)).getOption().series.map(function (s) { return s.name; })`, id))
		require.NoError(t, err)
		assert.True(t, slices.Contains(legend, "dense: over budget"), "legend entry for the marks: %q", legend)
	}
	assert.Empty(t, p.Errors(), "the page logged JavaScript errors")
}
