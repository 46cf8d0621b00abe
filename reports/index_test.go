package reports

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFirstSentence(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"One. Two.", "One."},
		{"Scores at d = 300 (e.g. W = 10. Not this) end here. Next", "Scores at d = 300 (e.g. W = 10. Not this) end here."},
		{"σ_1 ≈ 0.33 against 0.59. 2 more", "σ_1 ≈ 0.33 against 0.59."},
		{"  no full stop\n at all  ", "no full stop at all"},
		{"ends with a stop.", "ends with a stop."},
		{"", ""},
	} {
		assert.Equal(t, c.want, firstSentence(c.in), c.in)
	}
}

// TestSummarize: the index takes a report's question from its description
// and its answer, whole, from the first Headline block, in the section the
// page opens with when it has one (not a paragraph describing a table).
func TestSummarize(t *testing.T) {
	r := checkReport(stubScript(t))
	r.Check.Reference = r.Records // every number reused: the caveat
	r.Description = "Does CI pass? More text."
	s, err := Summarize(r)
	require.NoError(t, err)
	assert.Equal(t, "Does CI pass?", s.Question)
	assert.Equal(t, "Check against the reference", s.Lead)
	require.Len(t, s.Headline, 1)
	assert.Regexp(t, `^All \d+ numbers pass\. But every one of the \d+ was reused from the reference.*the comparison is of the values with themselves\. Run with -fresh`, s.Headline[0])
	assert.Contains(t, s.Trials, "trial(s)")

	// A page opening with the paper's table: its computed ordering, not
	// the paragraph saying what the rows are.
	r = wordReport("table", paperRecords(), stubScript(t))
	s, err = Summarize(r)
	require.NoError(t, err)
	assert.Equal(t, "The paper's table", s.Lead)
	require.NotEmpty(t, s.Headline)
	assert.Contains(t, s.Headline[0], "the paper's ordering")
	assert.NotContains(t, s.Headline[0], "One row per method")

	// A tuned page opens with its choices; the index leads with the
	// verdict on the chosen designs, then the choices.
	r = Report{Title: "tuned", Records: tunedRecs(), Methods: testMethods, ECharts: stubScript(t)}
	s, err = Summarize(r)
	require.NoError(t, err)
	assert.Equal(t, "Each method at its best, on the test parts", s.Lead)
	require.Len(t, s.Headline, 1)
	assert.Contains(t, s.Headline[0], "the best CA design by dev ρ, tail-cut")
	assert.Equal(t, "pooled +0.010 tie; per set (Holm): ties 1", s.Verdict)

	// A page whose first section computes no answer takes the first
	// section's that does.
	r = wordReport("sweep", sweepRecords(), stubScript(t))
	s, err = Summarize(r)
	require.NoError(t, err)
	for _, h := range s.Headline {
		assert.NotContains(t, h, "one chart per set", "a description is not an answer")
	}
}

func TestWriteIndex(t *testing.T) {
	ix := Index{Title: "All", Command: "go run . experiments/NAME.yaml", Entries: []IndexEntry{
		{Name: "a", Ran: true, Report: "a/report.html", Spec: "../experiments/a.yaml", Results: "a/results.jsonl", Related: []string{"b", "gone"},
			Summary: Summary{Question: "Q <b>?", Lead: "Scores", Headline: []string{"H holds.", "But a caveat."}, Trials: "2 trial(s): 2 ok", Warnings: []string{"mixed"}}},
		{Name: "b", Spec: "../experiments/b.yaml"},
	}}
	var b strings.Builder
	require.NoError(t, WriteIndex(&b, ix))
	page := b.String()
	assert.Contains(t, page, `<a href="a/report.html">a</a>`)
	assert.Contains(t, page, `<a href="#spec-b">b</a>`, "a related spec in the index is linked")
	assert.NotContains(t, page, "gone", "a related spec not in the index is not")
	assert.Contains(t, page, "Q &lt;b&gt;?")
	assert.Contains(t, page, "⚠ mixed")
	assert.Contains(t, page, `<span class="lead">Scores:</span> <span class="answer">H holds.</span><br><span class="answer">But a caveat.</span>`, "the answer whole")
	assert.Contains(t, page, "Not run yet: <code>go run . experiments/b.yaml</code>")
	assert.Equal(t, 1, strings.Count(page, "<script"), "one script: the table sorts by a click on a header")
	assert.Error(t, WriteIndex(&b, Index{}), "an index needs a title")
}
