package reports

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func render(t *testing.T, r Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, r))
	return buf.Bytes()
}

func goldenCases(t *testing.T) map[string]Report {
	return map[string]Report{
		"fisher":  fisherReport(t, stubScript(t)),
		"blocks":  blocksReport(CDNScript()),
		"words":   wordReport("Word similarity: nine methods", methodRecords(), stubScript(t)),
		"sweep":   wordReport("Window sweep", sweepRecords(), stubScript(t)),
		"scaling": wordReport("SVD backends: time and memory", scalingRecords(), stubScript(t)),
		"paper":   paperReport(stubScript(t)),
		"pairs":   wordReport("Go against reference implementations", pairsRecords(), stubScript(t)),
		"check":   checkReport(stubScript(t)),
		"wordmap": wordReport("Word map and neighbours", wordViewRecords(), stubScript(t)),
	}
}

// TestGolden compares pages with testdata/<name>.html; go test -run
// TestGolden -update rewrites them after a deliberate change.
func TestGolden(t *testing.T) {
	for name, r := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			got := render(t, r)
			path := filepath.Join("testdata", name+".html")
			if *update {
				require.NoError(t, os.WriteFile(path, got, 0o644))
				return
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "no golden file: run go test ./reports -run TestGolden -update")
			if !bytes.Equal(want, got) {
				// testify prints a unified diff of the two pages.
				assert.Equal(t, string(want), string(got),
					"%s differs from the rendered page; if the change is intended, run go test ./reports -run TestGolden -update", path)
			}
		})
	}
}

// TestDeterministic renders each page several times: map iteration order
// changes from run to run in Go, so any map walked unsorted shows up here.
func TestDeterministic(t *testing.T) {
	cases := goldenCases(t)
	cases["hostile"] = hostileReport(stubScript(t))
	for name, r := range cases {
		t.Run(name, func(t *testing.T) {
			first := render(t, r)
			for range 10 {
				require.True(t, bytes.Equal(first, render(t, r)), "two renderings of the same report differ")
			}
		})
	}
}

// TestEscaping puts text that tries to break out of every context into every
// place data reaches: no markup from it survives, and the <script> elements
// are exactly the page's own.
func TestEscaping(t *testing.T) {
	page := string(render(t, hostileReport(stubScript(t))))
	lower := strings.ToLower(page)

	assert.NotContains(t, page, "<b>", "raw markup from the data reached the page")
	assert.Equal(t, 2, strings.Count(lower, "<script"), "script elements: the inline library and the charts")
	assert.Equal(t, 2, strings.Count(lower, "</script"), "a </script> from the data ended a script element")
	assert.Equal(t, 0, strings.Count(page, "<!--"), "a comment opener from the data reached the page")

	// Text and attributes: HTML-escaped.
	assert.Contains(t, page, "&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;&lt;!--&#34;&#39;&amp;{b}")
	// Chart JSON: JSON-escaped, so ECharts gets the label verbatim.
	assert.Contains(t, page, `\u003c/script\u003e\u003cb\u003ex\u003c/b\u003e\u003c!--\"'\u0026{b}`)

	// The word-trial sections were built from the hostile records too.
	for _, id := range []string{"scores-zero", "sweep-window-1", "scaling-time", "scaling-unfinished"} {
		assert.Contains(t, page, `id="`+id+`"`)
	}

	// The label reaches ECharts as data, never as a "{b}" template.
	assert.NotContains(t, page, `"formatter"`)
}

func TestWriteErrors(t *testing.T) {
	recs := fisherRecords(t)
	ok := Report{Methods: testMethods, Title: "t", Records: recs, ECharts: CDNScript()}
	cases := []struct {
		name string
		edit func(r *Report)
		want string
	}{
		{"no title", func(r *Report) { r.Title = " " }, "Title is empty"},
		{"no script", func(r *Report) { r.ECharts = Script{} }, "ECharts is not set"},
		{"negative limit", func(r *Report) { r.MaxMapPoints = -1 }, "must be ≥ 0"},
		{"unknown CA trial", func(r *Report) { r.CATrials = []string{"nope"} }, `no trial "nope" with a CA result`},
		{"duplicate id", func(r *Report) {
			r.Sections = []Section{{ID: "trials", Title: "again"}}
		}, `id "trials" is already used`},
		{"bad id", func(r *Report) {
			r.Sections = []Section{{Title: "x", Blocks: []Block{Bar{ID: "1 bad", Categories: []string{"a"}}}}}
		}, `id "1 bad" must match`},
		{"ragged table", func(r *Report) {
			r.Sections = []Section{{Title: "x", Blocks: []Block{Table{Caption: "c", Header: []string{"a", "b"}, Rows: [][]string{{"1"}}}}}}
		}, `table "c": row 1 has 1 cells for 2 columns`},
		{"bar lengths", func(r *Report) {
			r.Sections = []Section{{Title: "x", Blocks: []Block{Bar{ID: "b", Categories: []string{"a"}, Series: []BarSeries{{Name: "s", Values: []float64{1, 2}}}}}}}
		}, `series "s" has 2 values for 1 categories`},
		{"score row", func(r *Report) {
			r.Sections = []Section{{Title: "x", Blocks: []Block{ScoreTable{Caption: "c", Columns: []string{"a"}, Rows: []ScoreRow{{Name: "m"}}}}}}
		}, `row "m" has 0 scores for 1 columns`},
		{"CA labels", func(r *Report) {
			ca := *recs[0].CA
			ca.RowLabels = ca.RowLabels[:2]
			r.Records = []records.Record{{ID: "x", Status: "ok", CA: &ca}}
		}, `trial "x": CA result has 2 row labels for 4 rows`},
		{"nil block", func(r *Report) { r.Sections = []Section{{Title: "x", Blocks: []Block{nil}}} }, "nil block"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ok
			c.edit(&r)
			var buf bytes.Buffer
			err := Write(&buf, r)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.Zero(t, buf.Len(), "nothing is written for an invalid report")
		})
	}
}

func TestCASelection(t *testing.T) {
	recs := fisherRecords(t)
	t.Run("limit", func(t *testing.T) {
		page := string(render(t, Report{Methods: testMethods, Title: "t", Records: recs, MaxCATrials: 1, ECharts: CDNScript()}))
		assert.Contains(t, page, "Showing the first 1 of 2 trials with a CA result")
		assert.Contains(t, page, `id="ca-map-1"`)
		assert.NotContains(t, page, `id="ca-map-2"`)
	})
	t.Run("explicit", func(t *testing.T) {
		page := string(render(t, Report{Methods: testMethods, Title: "t", Records: recs, CATrials: []string{"backend=randomized"}, ECharts: CDNScript()}))
		assert.Contains(t, page, "Trial backend=randomized")
		assert.NotContains(t, page, "Trial backend=dense")
	})
	t.Run("map points", func(t *testing.T) {
		page := string(render(t, Report{Methods: testMethods, Title: "t", Records: recs[:1], MaxMapPoints: 2, ECharts: CDNScript()}))
		assert.Contains(t, page, "The map shows the 2 of 4 rows farthest from the origin")
		assert.Contains(t, page, "The map shows the 2 of 5 columns farthest from the origin")
		// Rows dark (0.72 from the origin) and light (0.45) beat blue (0.43);
		// columns black (1.13) and dark (0.60) beat fair (0.57).
		for _, kept := range []string{`"dark"`, `"light"`, `"black"`} {
			assert.Contains(t, page, kept)
		}
		for _, dropped := range []string{`"blue"`, `"fair"`, `"red"`} {
			assert.NotContains(t, page, dropped)
		}
	})
}

func TestWriteFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.html")
	r := fisherReport(t, stubScript(t))
	require.NoError(t, WriteFile(path, r))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, render(t, r), got)
	entries, err := os.ReadDir(filepath.Dir(path))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left behind")

	// A missing directory is created (internal/atomicfile); a path under a
	// regular file cannot be.
	nested := filepath.Join(t.TempDir(), "missing", "report.html")
	require.NoError(t, WriteFile(nested, r))
	err = WriteFile(filepath.Join(path, "report.html"), r)
	require.ErrorContains(t, err, "reports: creating "+path)
}

// A page shows a bounded part of what a record holds: at most
// MaxWarningsShown warnings with the total, and each error or warning cut
// to maxMessageBytes with its length, however large the record (hostile
// round 5, serious 6).
func TestPageShowsBoundedMessages(t *testing.T) {
	rec := records.Record{ID: "a", Spec: "s", Status: records.StatusError, Settings: map[string]any{"method": "ca"},
		Error: strings.Repeat("x", 200_000)}
	for range 5000 {
		rec.Warnings = append(rec.Warnings, strings.Repeat("w", 100))
	}
	other := records.Record{ID: "b", Spec: "s", Status: records.StatusOK, Settings: map[string]any{"method": "ca"},
		Warnings: []string{"kept", "shown"}, WarningsTotal: 7_000_000}
	page := string(render(t, Report{Title: "bounded", Records: []records.Record{rec, other}, ECharts: CDNScript()}))
	assert.Less(t, len(page), 60<<10)
	assert.Contains(t, page, "… (200,000 bytes in all; results.jsonl has it whole)")
	assert.Contains(t, page, "… and 4,990 more (5,000 warnings in all; results.jsonl has every one)")
	assert.Contains(t, page, "kept; shown; … and 6,999,998 more (7,000,000 warnings in all")
}

// settingShown prints what a spec means: an empty label "none", an empty
// list "[]" (a record keeps it as null), a 0 that means a method's default
// that default.
func TestSettingShown(t *testing.T) {
	p := newBuilder(Report{Methods: testMethods})
	rec := records.Record{Settings: map[string]any{"method": "kca"}}
	for _, c := range []struct {
		key  string
		v    any
		want string
	}{
		{"label", "", "none"},
		{"eval.sets", nil, "[]"},
		{"eval.sets", []any{"men"}, "[men]"},
		{"synthetic.tokens", 1.7005207e+07, "17005207"},
	} {
		assert.Equal(t, c.want, p.settingShown(rec, c.key, c.v), c.key)
	}
}
