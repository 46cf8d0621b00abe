package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/reports/browsertest"
)

// FuzzEscaping: whatever the labels and names, the page keeps exactly its
// own two <script> elements and no '<' from the data survives unescaped.
func FuzzEscaping(f *testing.F) {
	for _, s := range []string{hostile, "plain", "", "<!--", "</SCRIPT", "\u2028", "{b}{c}", "&lt;", "<\x00>", "\xff"} {
		f.Add(s)
	}
	script, err := InlineScript("/* stub */", "stub")
	require.NoError(f, err)
	render := func(t *testing.T, s string) string {
		ca := &records.CAResult{
			SingularValues: []float64{0.5, 0.2}, Inertias: []float64{0.25, 0.04}, InertiaShare: []float64{0.86, 0.14},
			RowLabels: []string{s}, ColLabels: []string{s},
			RowPrincipal: [][]float64{{0.1, 0.2}}, ColPrincipal: [][]float64{{0.3, 0.4}},
		}
		r := Report{Methods: testMethods, Title: s, Spec: s, Description: s, Notes: []string{s}, ECharts: script,
			Records: []records.Record{{ID: s, Status: s, Error: s, Settings: map[string]any{s: s}, Metrics: map[string]float64{s: 1}, Timings: map[string]float64{s: 1}, CA: ca}},
			Sections: []Section{{Title: s, Blocks: []Block{Paragraph(s), List{s}, Table{Caption: s, Header: []string{s}, Rows: [][]string{{s}}},
				ScoreTable{Caption: s, RowHeader: s, Columns: []string{s}, Rows: []ScoreRow{{Name: s, Scores: []float64{1}}}, ReferenceTitle: s, Reference: []ScoreRow{{Name: s, Scores: []float64{1}}}},
				LineChart{ID: "l", Title: s, XName: s, YName: s, Series: []LineSeries{{Name: s, Points: []XY{{X: 1, Y: 1}}}}},
				Bar{ID: "b", Title: s, XName: s, YName: s, Categories: []string{s}, Series: []BarSeries{{Name: s, Values: []float64{1}, Labels: []string{s}}}},
			}}}}
		var buf bytes.Buffer
		require.NoError(t, Write(&buf, r))
		return buf.String()
	}
	f.Fuzz(func(t *testing.T, s string) {
		s = "a" + s // never empty, so the page has the same parts with or without '<'
		page := render(t, s)
		lower := strings.ToLower(page)
		assert.Equal(t, 2, strings.Count(lower, "<script"))
		assert.Equal(t, 2, strings.Count(lower, "</script"))
		assert.NotContains(t, page, "<!--")
		// Every '<' in the page is the page's own: taking them out of the
		// data changes none.
		assert.Equal(t, strings.Count(render(t, strings.ReplaceAll(s, "<", "")), "<"), strings.Count(page, "<"),
			"a '<' from the data reached the page")
	})
}

// TestPinnedVersion: package.json pins the version the code names, and the
// installed library (when there is one) is that version.
func TestPinnedVersion(t *testing.T) {
	b, err := os.ReadFile("package.json")
	require.NoError(t, err)
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	require.NoError(t, json.Unmarshal(b, &pkg))
	assert.Equal(t, EChartsVersion, pkg.Dependencies["echarts"], "package.json and EChartsVersion disagree")

	v := npmVersion("node_modules/echarts/package.json")
	if v == "" {
		browsertest.Unavailable(t, "ECharts is not installed in reports/node_modules (run npm ci in reports/)")
	}
	assert.Equal(t, EChartsVersion, v, "installed ECharts differs from the pin: run npm ci in reports/")
}
