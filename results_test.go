package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"kcalab/harness"
	"kcalab/records"
	"kcalab/schema"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/reports"
	"kcalab/reports/browsertest"
)

// committed lists the reference results: results/<name>/ with the spec
// experiments/<name>.yaml.
func committed(t *testing.T) []string {
	var names []string
	for _, file := range []string{records.FileName, records.CompressedFileName} {
		dirs, err := filepath.Glob(filepath.Join("results", "*", file))
		require.NoError(t, err)
		for _, d := range dirs {
			names = append(names, filepath.Base(filepath.Dir(d)))
		}
	}
	require.NotEmpty(t, names)
	slices.Sort(names)
	return slices.Compact(names)
}

// Every committed results file is in the one form a run's compaction
// leaves it (records.Write: text up to records.CompressAbove, gzip past
// it, never both), byte for byte: rerunning a spec rewrites nothing.
func TestCommittedResultsForm(t *testing.T) {
	for _, name := range committed(t) {
		path := filepath.Join("results", name, records.FileName)
		recs, info, err := records.Read(path)
		require.NoError(t, err)
		assert.False(t, info.NeedsRepair, "results/%s: not compacted (a log beside its compressed form, repeated ids or a torn line)", name)
		again := filepath.Join(t.TempDir(), records.FileName)
		require.NoError(t, records.Write(again, recs))
		stored, want := records.Stored(path), records.Stored(again)
		assert.Equal(t, filepath.Base(want), filepath.Base(stored), "results/%s: the form a run writes", name)
		got, err := os.ReadFile(stored)
		require.NoError(t, err)
		rewritten, err := os.ReadFile(want)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(got, rewritten), "results/%s: %s is not as a run writes it", name, filepath.Base(stored))
		// 2 MB: what a repository should hold in one file; a tuning search
		// keeps only what its pages use (records.Slim).
		assert.Less(t, len(got), 2_000_000, "results/%s: %s takes %d bytes: over what a repository should keep in one file", name, filepath.Base(stored), len(got))
	}
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

// Every committed spec's report and the index render from the committed
// results (the pages themselves are build outputs, git-ignored) as a run
// writes them, the same bytes twice, and read well in headless Chromium
// offline at 1400 px: the page logs no error, its body never scrolls
// sideways (wide tables scroll in their own box), every chart is drawn
// with ink and every one of its series has something to draw, every link
// resolves (a file beside the page, or an anchor in it), and no page text
// names a path of this machine.
func TestCommittedReports(t *testing.T) {
	var warn bytes.Buffer
	// node_modules (CI) or the copy a run cached; never the network here.
	js, err := reports.FindECharts(reports.FindOptions{Warn: &warn, CacheDir: defaultCacheDir()})
	require.NoError(t, err)
	if !js.Inline() {
		browsertest.Unavailable(t, "ECharts is not installed (npm ci in reports/) or cached (any run caches it): %s", warn.String())
	}
	site := func() string {
		root := t.TempDir()
		for _, name := range committed(t) {
			// The file in the form it is committed in, as a clone has it.
			stored := records.Stored(filepath.Join("results", name, records.FileName))
			b, err := os.ReadFile(stored)
			require.NoError(t, err)
			require.NoError(t, os.MkdirAll(filepath.Join(root, name), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(root, name, filepath.Base(stored)), b, 0o644))
		}
		var stderr bytes.Buffer
		_, err := writeSite(defaultSpecDir, root, nil, js, &stderr)
		require.NoError(t, err, stderr.String())
		return root
	}
	root, again := site(), site()
	wd, err := os.Getwd()
	require.NoError(t, err)
	// Each spec's computed answer, which the index must show whole (one
	// click away), and its verdict, which the index shows in one line.
	answers, verdicts := map[string][]string{}, map[string]string{}
	for _, name := range committed(t) {
		spec, recs := loadCommitted(t, name)
		sum, err := reports.Summarize(buildReport(spec, recs, recs, js, ""))
		require.NoError(t, err)
		require.NotEmpty(t, sum.Headline, "%s: the report computes no answer for the index", name)
		require.False(t, sum.Verdict.Empty(), "%s: the report computes no verdict for the index", name)
		answers[name], verdicts[name] = sum.Headline, sum.Verdict.String()
	}
	pages := []string{indexName}
	for _, name := range committed(t) {
		pages = append(pages, filepath.Join(name, reportName))
	}
	for _, page := range pages {
		t.Run(filepath.Dir(page), func(t *testing.T) {
			path := filepath.Join(root, page)
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			other, err := os.ReadFile(filepath.Join(again, page))
			require.NoError(t, err)
			require.Equal(t, strings.ReplaceAll(string(b), root, ""), strings.ReplaceAll(string(other), again, ""), "%s is not deterministic", page)
			assert.NotContains(t, string(b), `<script src=`, "the page needs the network")

			u, err := browsertest.FileURL(path)
			require.NoError(t, err)
			p := browsertest.Open(t, u, browsertest.Options{Width: 1400, Height: 1000})
			err = p.WaitFor(`document.readyState === "complete" && (window.kcalabCharts === undefined || window.kcalabCharts.drawn === window.kcalabCharts.total)`, 60*time.Second)
			require.NoError(t, err, "charts did not draw; page errors %q", p.Errors())

			wide, err := browsertest.Eval[[]int](p, `[document.documentElement.scrollWidth, document.documentElement.clientWidth]`)
			require.NoError(t, err)
			assert.LessOrEqual(t, wide[0], wide[1], "the page scrolls sideways at 1400 px")

			text, err := browsertest.Eval[string](p, `document.body.innerText`)
			require.NoError(t, err)
			for _, local := range []string{root, wd, os.TempDir() + "/"} {
				if i := strings.Index(text, local); i >= 0 {
					t.Errorf("the page names the local path %s: …%s…", local, text[max(i-80, 0):min(i+80, len(text))])
				}
			}
			if i := strings.Index(text, "NaN"); i >= 0 {
				t.Errorf("the page prints NaN: …%s…", text[max(i-80, 0):min(i+80, len(text))])
			}
			checkCSVNumeric(t, string(b))

			if page == indexName {
				for name, answer := range answers {
					// What a reader sees without a click (innerText leaves
					// out a closed <details>), and what one click shows.
					seen, err := browsertest.Eval[string](p, fmt.Sprintf(`document.querySelector("#spec-%s td.qa").innerText`, name))
					require.NoError(t, err, name)
					whole, err := browsertest.Eval[string](p, fmt.Sprintf(`document.querySelector("#spec-%s td.qa").textContent`, name))
					require.NoError(t, err, name)
					for _, h := range answer {
						assert.Contains(t, whole, h, "%s: the index has the report's computed answer whole, one click away", name)
					}
					assert.Contains(t, seen, verdicts[name], "%s: the index shows the verdict", name)
					assert.NotContains(t, seen, "computes no single answer", name)
					n := visibleWords(seen)
					assert.LessOrEqual(t, n, indexWords, "%s: the question and answer take %d visible words: %q", name, n, seen)
					row, err := browsertest.Eval[string](p, fmt.Sprintf(`document.querySelector("#spec-%s").innerText`, name))
					require.NoError(t, err, name)
					assert.LessOrEqual(t, visibleWords(row), indexWords+15, "%s: the whole row reads in seconds: %q", name, row)
				}
				unsortable, err := browsertest.Eval[int](p, `document.querySelectorAll("table.index thead th:not(.sortable)").length`)
				require.NoError(t, err)
				assert.Zero(t, unsortable, "index headers that do not sort")
			} else {
				// Every data table sorts by a click on a header: the first
				// numeric column of a table with rows, clicked, is in order.
				unsortable, err := browsertest.Eval[int](p, `document.querySelectorAll("table.data thead th:not(.sortable)").length`)
				require.NoError(t, err)
				assert.Zero(t, unsortable, "headers that do not sort")
				order, err := browsertest.Eval[[]float64](p, `(function () {
					var t = Array.from(document.querySelectorAll("table.data")).find(function (t) {
						return t.tBodies.length === 1 && t.tBodies[0].rows.length > 2 && t.tHead.querySelector("th.num");
					});
					if (!t) { return []; }
					var col = Array.from(t.tHead.rows[0].cells).findIndex(function (h) { return h.classList.contains("num"); });
					var th = t.tHead.rows[0].cells[col];
					th.click();
					// The numbers in the column, in row order: a group row (no
					// cell there) or a cell without a number ("—") has none, and
					// JSON could not carry an Infinity standing for it.
					var vals = Array.from(t.tBodies[0].rows).map(function (r) {
						if (!r.cells[col]) { return null; }
						var t = r.cells[col].textContent.trim().replace(/,/g, "").replace(/\u2212/g, "-").replace(/^[±+]/, "");
						// A ratio in words is its ratio, as the page sorts it.
						var f = t.match(/^(\d+\.?\d*)× (faster|slower)/);
						if (f) { return f[2] === "faster" ? 1 / parseFloat(f[1]) : parseFloat(f[1]); }
						var m = t.match(/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?/i);
						return m ? parseFloat(m[0]) : null;
					}).filter(function (x) { return x !== null; });
					// A score column sorts best first: descending.
					return th.getAttribute("data-first") === "descending" ? vals.reverse() : vals;
				})()`)
				require.NoError(t, err)
				assert.True(t, slices.IsSorted(order), "a click on a numeric header sorts the rows: %v", order)
			}

			ids, err := browsertest.Eval[[]string](p, `Array.from(document.querySelectorAll(".chart")).map(function (e) { return e.id; })`)
			require.NoError(t, err)
			for _, id := range ids {
				empty, err := browsertest.Eval[[]string](p, fmt.Sprintf(`echarts.getInstanceByDom(document.getElementById(%q)).getOption().series.filter(function (s) {
					return !((s.data && s.data.length > 0) || (s.markLine && s.markLine.data && s.markLine.data.length > 0));
				}).map(function (s) { return s.name; })`, id))
				require.NoError(t, err)
				assert.Empty(t, empty, "chart %s: series with nothing to draw", id)
				shot, err := p.ElementScreenshot("#" + id)
				require.NoError(t, err)
				ink, total, err := browsertest.Ink(shot)
				require.NoError(t, err)
				assert.Greater(t, float64(ink)/float64(total), 0.01, "chart %s looks blank", id)
			}

			hrefs, err := browsertest.Eval[[]string](p, `Array.from(document.querySelectorAll("a[href]")).map(function (a) { return a.getAttribute("href"); })`)
			require.NoError(t, err)
			for _, h := range hrefs {
				switch {
				case strings.HasPrefix(h, "data:"):
				case strings.HasPrefix(h, "#"):
					found, err := browsertest.Eval[bool](p, fmt.Sprintf(`document.getElementById(%q) !== null`, h[1:]))
					require.NoError(t, err)
					assert.True(t, found, "link %s: no such anchor", h)
				default:
					target, err := url.PathUnescape(h)
					require.NoError(t, err)
					assert.NotContains(t, h, "://", "link %s leaves the page's files", h)
					assert.FileExists(t, filepath.Join(filepath.Dir(path), filepath.FromSlash(target)), "link %s does not resolve", h)
				}
			}
			checkCommittedPage(t, p, filepath.Dir(page))
			assert.Empty(t, p.Errors(), "JavaScript errors")
		})
	}
}

// indexWords is the most visible words an index row's question and answer
// may take: read in seconds, the rest one click away.
const indexWords = 70

// visibleWords counts the words of a text a reader sees: tokens with a
// letter or digit ("·", "=", "—" are no words).
func visibleWords(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	return n
}

// checkCommittedPage checks what a committed spec's page must say, as a
// reader sees it: every two backends that finished at one size compared
// (never "no size where both finished" then), and a paper row over seeds
// showing their mean, as the score tables do.
func checkCommittedPage(t *testing.T, p *browsertest.Page, name string) {
	t.Helper()
	text, err := browsertest.Eval[string](p, `document.body.innerText`)
	require.NoError(t, err)
	switch name {
	case "svd-k-scaling", "svd-k-scaling-small":
		// krylov and DSSVD finished at every k (and LAPACK, on the small
		// table): their ratios are on the page.
		assert.NotContains(t, text, "no size where both finished", "%s: every backend here finished at a size another did", name)
		rows, err := browsertest.Eval[[][]string](p, `Array.from(document.querySelectorAll("#scaling-ratios tbody tr")).map(function (r) {
			return Array.from(r.cells).map(function (c) { return c.textContent; });
		})`)
		require.NoError(t, err)
		want := map[string]bool{"krylov / dssvd": true}
		if name == "svd-k-scaling-small" {
			want["dssvd / lapack"], want["krylov / lapack"] = true, true
		}
		for _, r := range rows {
			if want[r[0]] {
				assert.Regexp(t, `^\d[\d.]*× (faster|slower) at k = [\d,]+ … \d[\d.]*× (faster|slower) at k = [\d,]+$`, r[2], "%s: %s compared at every k", name, r[0])
				delete(want, r[0])
			}
		}
		assert.Empty(t, want, "%s: comparisons missing from the ratio table", name)
	case "at-its-best-d":
		// fastText's chosen design ran five seeds: the paper table's row
		// is their mean, cell by cell, as the score tables show it.
		_, recs := loadCommitted(t, name)
		var seeds []records.Record
		for _, rec := range recs {
			if rec.Settings[records.KeyLabel] == "fastText" && !rec.SearchOnly {
				seeds = append(seeds, rec)
			}
		}
		require.Len(t, seeds, 5, "fastText's chosen design: five seeds")
		cells, err := browsertest.Eval[[]string](p, `(function () {
			var row = Array.from(document.querySelectorAll("#paper-table tbody tr")).find(function (r) { return r.cells[0] && r.cells[0].textContent.indexOf("fastText:") === 0; });
			return row ? Array.from(row.cells).slice(1).map(function (c) { return c.textContent; }) : [];
		})()`)
		require.NoError(t, err)
		require.Len(t, cells, 6, "the paper table's fastText row")
		for j, set := range []string{"sim", "rel", "men", "mturk", "rare", "s999"} {
			key := records.Score(records.RuleZero, set).At(records.SimCosine, records.Similarity(schema.RecordSettings(seeds[0].Settings).Eval.Similarity)).Key()
			sum := 0.0
			for _, rec := range seeds {
				v, ok := rec.Metrics[key]
				require.True(t, ok, "%s has no %s", rec.ID, key)
				sum += v
			}
			mean := sum / float64(len(seeds))
			assert.True(t, strings.HasPrefix(cells[j], strconv.FormatFloat(mean, 'f', 3, 64)), "%s: the paper table's fastText cell %q is the five seeds' mean %.3f", set, cells[j], mean)
		}
	}
}

// checkCSVNumeric: every CSV a page offers holds in each cell a plain
// number, nothing, or text that is not a number dressed for people (no
// "86.2% / 86.2%", "[-0.024, +0.028]", "0.621 (R² 0.999)", "1,021", NaN).
func checkCSVNumeric(t *testing.T, page string) {
	t.Helper()
	re := regexp.MustCompile(`<a download="([^"]+)" href="data:text/csv;charset=utf-8,([^"]*)">`)
	dressed := regexp.MustCompile(`^[\[(]?[-+−±]?(\d[\d,]*\.?\d*|\.\d+)(\s|[%×,\])/]|$)|^[-+]?(NaN|Inf)`)
	for _, m := range re.FindAllStringSubmatch(page, -1) {
		raw, err := url.PathUnescape(strings.ReplaceAll(m[2], "&amp;", "&"))
		require.NoError(t, err)
		rows, err := csv.NewReader(strings.NewReader(raw)).ReadAll()
		require.NoError(t, err, m[1])
		for i, row := range rows[1:] {
			for j, c := range row {
				if _, err := strconv.ParseFloat(c, 64); err == nil && !strings.Contains(c, "Inf") && !strings.Contains(c, "NaN") {
					continue
				}
				if c != "" && dressed.MatchString(c) {
					t.Errorf("%s row %d column %q: %q is not a plain number", m[1], i+1, rows[0][j], c)
				}
			}
		}
	}
}

// Every committed results file is as a run of today's code leaves it:
// its tuned trials keep what a page uses (records.Slim changes nothing),
// and no chosen design is cut to the search.
func TestCommittedResultsSlim(t *testing.T) {
	for _, name := range committed(t) {
		_, recs := loadCommitted(t, name)
		cs := records.Choose(recs, schema.OwnSimilarity)
		_, n := records.Slim(recs, cs)
		assert.Zero(t, n, "results/%s: %d tuned record(s) keep more than a page uses: run its spec again (it reuses every trial)", name, n)
		assert.Empty(t, records.NeedsFull(recs, cs), "results/%s: chosen designs cut to the search", name)
	}
}

// svd.backend auto resolves by the table's shape; every committed record of
// an auto trial was decomposed by the backend this build's auto picks for
// its table, so a run reuses it rather than computing it again with another
// backend (which would change its numbers' last bits).
func TestCommittedAutoChoices(t *testing.T) {
	n := 0
	for _, name := range committed(t) {
		spec, recs := loadCommitted(t, name)
		byID := map[string]schema.Trial{}
		for _, tr := range spec.Trials() {
			byID[tr.ID] = tr
		}
		for _, rec := range recs {
			tr, ok := byID[rec.ID]
			if !ok || tr.SVD.Backend != "auto" || rec.Backend == "" {
				continue
			}
			got, ok := harness.AutoBackend(rec, tr)
			require.True(t, ok, "results/%s %s: the record does not say its table's shape", name, rec.ID)
			assert.Equal(t, rec.Backend, got, "results/%s %s", name, rec.ID)
			n++
		}
	}
	assert.Greater(t, n, 100, "records of auto trials checked")
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
			// Successive halving leaves the trials it did not promote
			// without a record.
			skipped := harness.NotPromoted(spec.Trials(), recs)
			trials := slices.DeleteFunc(spec.Trials(), func(tr schema.Trial) bool { return skipped[tr.ID] != "" })
			require.Len(t, recs, len(trials), "results/%s: trials in the file vs in the spec", name)
			// The reuse decision a run asks (with the data of
			// $KCALAB_DATA when set: every input it names unchanged).
			judge := harness.NewJudge(harness.JudgeOptions{Spec: spec})
			for i, tr := range trials {
				rec := recs[i]
				assert.Equal(t, tr.ID, rec.ID, "trial %d (%s)", i+1, tr.Title)
				assert.Equal(t, tr.Seed, rec.Seed, "trial %d (%s)", i+1, tr.Title)
				assert.True(t, records.SameSettings(tr.RecordSettings(), rec.Settings),
					"results/%s trial %d (%s): settings differ from the spec's", name, i+1, tr.Title)
				d := judge.Decide(rec, tr, harness.Own, filepath.Join("results", name))
				assert.Equal(t, harness.Reuse, d.Verdict, "results/%s trial %d (%s): %s", name, i+1, tr.Title, d.Why)
				if os.Getenv("KCALAB_DATA") != "" {
					assert.Empty(t, d.Missing, "results/%s trial %d (%s): inputs not found in $KCALAB_DATA", name, i+1, tr.Title)
				}
			}
		})
	}
}
