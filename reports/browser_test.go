package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/reports/browsertest"
)

// inlineECharts returns the installed library, or skips (fails under
// KCALAB_REQUIRE_BROWSER=1) when it is not installed: without it the page
// would need the network.
func inlineECharts(t *testing.T) Script {
	t.Helper()
	var warn bytes.Buffer
	s, err := FindECharts(FindOptions{Warn: &warn})
	require.NoError(t, err)
	if !s.Inline() {
		browsertest.Unavailable(t, "ECharts is not installed (run npm ci in reports/): %s", warn.String())
	}
	return s
}

// openReport writes r to a temporary file, opens it and waits until every
// chart has drawn.
func openReport(t *testing.T, r Report) *browsertest.Page {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.html")
	require.NoError(t, WriteFile(path, r))
	u, err := browsertest.FileURL(path)
	require.NoError(t, err)
	p := browsertest.Open(t, u, browsertest.Options{Width: 1400, Height: 1000})
	err = p.WaitFor(`window.kcalabCharts !== undefined && window.kcalabCharts.total > 0 && window.kcalabCharts.drawn === window.kcalabCharts.total`, 30*time.Second)
	if err != nil {
		state, _ := browsertest.Eval[map[string]any](p, `window.kcalabCharts || {}`)
		t.Fatalf("charts did not draw: %v; state %v; page errors %q", err, state, p.Errors())
	}
	return p
}

// TestBrowser draws the Fisher report plus every building block in headless
// Chromium, offline: every chart reports drawn, every chart's box has ink,
// and the page logs no JavaScript error. KCALAB_SCREENSHOT_DIR, when set,
// receives the screenshots.
func TestBrowser(t *testing.T) {
	js := inlineECharts(t)
	r := fisherReport(t, js)
	r.Sections = blocksReport(js).Sections
	p := openReport(t, r)

	ids, err := browsertest.Eval[[]string](p, `Array.from(document.querySelectorAll(".chart")).map(function (e) { return e.id; })`)
	require.NoError(t, err)
	require.Equal(t, []string{"ca-map-1", "ca-scree-1", "time", "memory", "by-window", "by-dim", "bars", "free-map"}, ids)

	dir := os.Getenv("KCALAB_SCREENSHOT_DIR")
	for _, id := range ids {
		hasCanvas, err := browsertest.Eval[bool](p, fmt.Sprintf(`document.querySelector("#%s canvas") !== null`, id))
		require.NoError(t, err)
		assert.True(t, hasCanvas, "chart %s has no canvas", id)
		shot, err := p.ElementScreenshot("#" + id)
		require.NoError(t, err)
		ink, total, err := browsertest.Ink(shot)
		require.NoError(t, err)
		// Axes, grid lines, labels and marks: a drawn chart inks a few
		// percent of its box; an empty one only its 1px border (< 1%).
		assert.Greater(t, float64(ink)/float64(total), 0.02, "chart %s looks blank: %d of %d pixels inked", id, ink, total)
		if dir != "" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, id+".png"), shot, 0o644))
		}
	}
	full, err := p.Screenshot()
	require.NoError(t, err)
	ink, total, err := browsertest.Ink(full)
	require.NoError(t, err)
	assert.Greater(t, float64(ink)/float64(total), 0.03, "page looks blank")
	if dir != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "report.png"), full, 0o644))
		for _, id := range []string{"trials-table", "scores-table", "ca-sv-1"} {
			shot, err := p.ElementScreenshot("#" + id)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, id+".png"), shot, 0o644))
		}
	}

	// The CA map got its axis titles with the inertia shares.
	names, err := browsertest.Eval[[]string](p, `(function () {
		var o = echarts.getInstanceByDom(document.getElementById("ca-map-1")).getOption();
		return [o.xAxis[0].name, o.yAxis[0].name, o.series[0].name, o.series[1].name];
	})()`)
	require.NoError(t, err)
	assert.Equal(t, []string{"Axis 1 (86.6%)", "Axis 2 (13.1%)", "Rows", "Columns"}, names)

	assert.Empty(t, p.Errors(), "the page logged JavaScript errors")
}

// TestBrowserEscaping loads the hostile report: no element comes from the
// data, the labels reach the canvas verbatim (braces included), and the
// tooltip shows them as text.
func TestBrowserEscaping(t *testing.T) {
	p := openReport(t, hostileReport(inlineECharts(t)))

	n, err := browsertest.Eval[int](p, `document.querySelectorAll("b").length`)
	require.NoError(t, err)
	assert.Zero(t, n, "an element from the data was parsed")
	title, err := browsertest.Eval[string](p, `document.title`)
	require.NoError(t, err)
	assert.Equal(t, "Title "+hostile, title)

	// Texts ECharts drew on the CA map's canvas.
	texts, err := browsertest.Eval[[]string](p, `(function () {
		var zr = echarts.getInstanceByDom(document.getElementById("ca-map-1")).getZr();
		var out = [];
		zr.storage.getDisplayList(true).forEach(function (el) {
			if (el.style && typeof el.style.text === "string") out.push(el.style.text);
		});
		return out;
	})()`)
	require.NoError(t, err)
	assert.Contains(t, texts, hostile, "the row label was not drawn verbatim; drawn: %q", texts)

	_, err = browsertest.Eval[bool](p, `(echarts.getInstanceByDom(document.getElementById("ca-map-1")).dispatchAction({type: "showTip", seriesIndex: 0, dataIndex: 0}), true)`)
	require.NoError(t, err)
	q, _ := json.Marshal(hostile)
	require.NoError(t, p.WaitFor(fmt.Sprintf(`document.getElementById("ca-map-1").innerText.indexOf(%s) >= 0`, q), 10*time.Second),
		"the tooltip does not show the label as text")
	n, err = browsertest.Eval[int](p, `document.querySelectorAll("b").length`)
	require.NoError(t, err)
	assert.Zero(t, n, "the tooltip parsed markup from the data")

	assert.Empty(t, p.Errors(), "the page logged JavaScript errors")
}

// TestBrowserOfflineCDN: a page built without the library, viewed offline,
// says in each chart's box that the charts could not be drawn, and throws
// nothing (the failed load of the library is its only error).
func TestBrowserOfflineCDN(t *testing.T) {
	browsertest.Chromium(t)
	path := filepath.Join(t.TempDir(), "report.html")
	require.NoError(t, WriteFile(path, fisherReport(t, CDNScript())))
	u, err := browsertest.FileURL(path)
	require.NoError(t, err)
	p := browsertest.Open(t, u, browsertest.Options{})
	require.NoError(t, p.WaitFor(`window.kcalabCharts !== undefined && window.kcalabCharts.missing === true`, 30*time.Second))
	n, err := browsertest.Eval[int](p, `document.querySelectorAll(".chart.chart-missing").length`)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "one map and one scree plot: the backends share them")
	text, err := browsertest.Eval[string](p, `document.getElementById("ca-map-1").textContent`)
	require.NoError(t, err)
	assert.Equal(t, "Chart not drawn: the ECharts library did not load.", text)
	errs := p.Errors()
	require.NotEmpty(t, errs, "the failed load of the library was not recorded")
	for _, e := range errs {
		assert.Contains(t, e, "log: Failed to load resource", "unexpected page error")
	}
	t.Logf("page errors, as expected offline: %q", errs)
}
