package main

import (
	"bytes"
	"regexp"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/reports"
)

// markedCell is a score table cell with a mark: its class and its content.
var markedCell = regexp.MustCompile(`<td class="num (best|second|untested)">(.*?)</td>`)

// Every committed report ranks fairly: no in-sample cell (†) carries a
// mark of rank anywhere (score, Pearson, paper and analogy tables alike),
// and a page whose records hold no bootstrap replicates claims no win at
// all (no best or second, only "not tested"). Rendered without a browser,
// so it runs wherever the repository does.
func TestCommittedReportsFair(t *testing.T) {
	for _, name := range committed(t) {
		t.Run(name, func(t *testing.T) {
			spec, recs := loadCommitted(t, name)
			var page bytes.Buffer
			require.NoError(t, reports.Write(&page, buildReport(spec, recs, recs, reports.CDNScript(), "")))
			tested := false
			for _, rec := range recs {
				tested = tested || rec.Bootstrap != nil
			}
			for _, m := range markedCell.FindAllStringSubmatch(page.String(), -1) {
				assert.NotContains(t, m[2], "†", "an in-sample cell is marked %s", m[1])
				if !tested {
					assert.Equal(t, "untested", m[1], "a win claimed without bootstrap replicates: %s", m[2])
				}
			}
		})
	}
}

// buildReport passes the spec's report.similarity to the page.
func TestBuildReportSimilarity(t *testing.T) {
	spec, recs := loadCommitted(t, "quickstart")
	spec.Report.Similarity = "cosine"
	r := buildReport(spec, recs, []records.Record(nil), reports.CDNScript(), "")
	assert.Equal(t, "cosine", r.Similarity)
}
