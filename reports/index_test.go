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
// and its headline from the section it opens with.
func TestSummarize(t *testing.T) {
	r := wordReport("Window sweep", sweepRecords(), stubScript(t))
	r.Description = "Does the window matter? More text."
	s, err := Summarize(r)
	require.NoError(t, err)
	assert.Equal(t, "Does the window matter?", s.Question)
	assert.Equal(t, "Sweeps", s.Lead)
	assert.NotEmpty(t, s.Headline)
	assert.Contains(t, s.Trials, "trial(s)")
}

func TestWriteIndex(t *testing.T) {
	ix := Index{Title: "All", Command: "go run . experiments/NAME.yaml", Entries: []IndexEntry{
		{Name: "a", Ran: true, Report: "a/report.html", Spec: "../experiments/a.yaml", Results: "a/results.jsonl", Related: []string{"b", "gone"},
			Summary: Summary{Question: "Q <b>?", Lead: "Scores", Headline: "H.", Trials: "2 trial(s): 2 ok", Warnings: []string{"mixed"}}},
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
	assert.Contains(t, page, "Not run yet: <code>go run . experiments/b.yaml</code>")
	assert.NotContains(t, page, "<script", "the index needs no script")
	assert.Error(t, WriteIndex(&b, Index{}), "an index needs a title")
}
