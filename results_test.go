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

// The committed svd-scaling results show what Figures 2–3 claim about
// memory: a dense SVD's peak RSS grows with V² (it holds V×V matrices) and
// DSSVD's with the table's non-zeros (it never builds one). Of the two
// dense solvers (pure-Go dense, LAPACK's lapack) the one that finished the
// most sizes is fitted: the time budget stops pure Go early.
// Each is a least-squares line with an R² near 1; the dense slope must
// cover at least the one V×V float64 matrix it cannot avoid.
func TestScalingMemoryGrowth(t *testing.T) {
	recs, _, err := records.Read(filepath.Join("results", "svd-scaling", records.FileName))
	require.NoError(t, err)
	points := map[string][][2]float64{} // backend → (x, max RSS in bytes)
	for _, r := range recs {
		if r.Status != "ok" {
			continue
		}
		v, nnz, rss := r.Metrics["vocab"], r.Metrics["nnz"], r.Metrics["max_rss_mb"]*(1<<20)
		switch b := r.Settings["svd.backend"]; b {
		case "dense", "lapack":
			points[b.(string)] = append(points[b.(string)], [2]float64{v * v, rss})
		case "dssvd":
			points["dssvd"] = append(points["dssvd"], [2]float64{nnz, rss})
		}
	}
	dense := "dense"
	if len(points["lapack"]) > len(points[dense]) {
		dense = "lapack"
	}
	for _, tc := range []struct {
		backend, x string
		minSlope   float64 // bytes per unit of x
	}{
		{dense, "V²", 8},
		{"dssvd", "nnz", 0},
	} {
		ps := points[tc.backend]
		require.GreaterOrEqual(t, len(ps), 3, "%s: too few finished sizes to fit", tc.backend)
		slope, r2 := fitLine(ps)
		t.Logf("%s: max RSS ≈ %.1f bytes × %s (R² = %.3f, %d sizes)", tc.backend, slope, tc.x, r2, len(ps))
		assert.Greater(t, slope, tc.minSlope, "%s: RSS should grow with %s", tc.backend, tc.x)
		assert.GreaterOrEqual(t, r2, 0.95, "%s: RSS is not linear in %s", tc.backend, tc.x)
	}
}

// fitLine returns the least-squares slope of y on x and the fit's R².
func fitLine(ps [][2]float64) (slope, r2 float64) {
	var mx, my float64
	for _, p := range ps {
		mx += p[0]
		my += p[1]
	}
	n := float64(len(ps))
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for _, p := range ps {
		dx, dy := p[0]-mx, p[1]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	slope = sxy / sxx
	return slope, sxy * sxy / (sxx * syy)
}

// The committed subword results keep issue 16's goals, measured in the
// spec's one run (results/subword): the letters design at d = 300 and
// d = 1000 scores at least Go fastText's zero-rule ρ on 4 or more of the 6
// sets with Rare ≥ 0.25; its in-vocabulary pairs (skip rule) stay within
// 0.01 of the same decomposition's unblended rows; and its whole trial,
// measured in a child process that had the machine alone, takes at most a
// tenth of Go fastText's training, measured the same way in the same run.
func TestSubwordGoals(t *testing.T) {
	recs, _, err := records.Read(filepath.Join("results", "subword", records.FileName))
	require.NoError(t, err)
	var ft *records.Record
	letters := map[float64]*records.Record{}
	for i, r := range recs {
		switch {
		case r.Settings["method"] == "fasttext":
			ft = &recs[i]
		case r.Settings["label"] == "subword letters":
			letters[r.Settings["svd.rank"].(float64)] = &recs[i]
		}
	}
	require.NotNil(t, ft, "no Go fastText trial")
	require.Equal(t, "ok", ft.Status)
	train := ft.Timings["train"]
	require.Positive(t, train)
	require.Positive(t, ft.Metrics[records.MetricWall], "Go fastText must be a measured trial")
	sets := []string{"sim", "rel", "men", "mturk", "rare", "s999"}
	for _, d := range []float64{300, 1000} {
		r := letters[d]
		require.NotNil(t, r, "no letters trial at d = %v", d)
		require.Equal(t, "ok", r.Status)
		wins := 0
		for _, s := range sets {
			if r.Metrics["spearman.zero."+s] >= ft.Metrics["spearman.zero."+s] {
				wins++
			}
			vs, ps := r.Metrics[records.VocabScore(s).Key()], r.Metrics[records.PlainScore(s).Key()]
			require.Contains(t, r.Metrics, records.PlainScore(s).Key())
			assert.GreaterOrEqual(t, vs, ps-0.01, "d = %v, %s: in-vocabulary pairs suffer", d, s)
		}
		assert.GreaterOrEqual(t, wins, 4, "d = %v: sets at or above Go fastText", d)
		assert.GreaterOrEqual(t, r.Metrics["spearman.zero.rare"], 0.25, "d = %v: Rare", d)
		wall := r.Metrics[records.MetricWall]
		require.Positive(t, wall, "d = %v: the letters trial must be measured", d)
		t.Logf("d = %v: %d of 6 sets, Rare %.3f, whole trial %.1f s = 1/%.1f of fastText's %.0f s", d, wins, r.Metrics["spearman.zero.rare"], wall, train/wall, train)
		assert.LessOrEqual(t, wall, train/10, "d = %v: the whole trial vs a tenth of fastText's training", d)
	}
}
