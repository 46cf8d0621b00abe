package reports

import (
	"maps"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func tocOf(t *testing.T, r Report) []string {
	t.Helper()
	page := string(render(t, r))
	nav := page[strings.Index(page, `<nav class="toc">`):strings.Index(page, `</nav>`)]
	var ids []string
	for _, line := range strings.Split(nav, "\n") {
		if i := strings.Index(line, `<li><a href="#`); i == 0 {
			id := line[len(`<li><a href="#`):]
			id = id[:strings.Index(id, `"`)]
			switch id { // top-level sections only
			case "paper", "pairs", "check", "word-scores", "sweeps", "scaling", "words", "ca", "trials":
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// TestSectionOrder: each page leads with its question.
func TestSectionOrder(t *testing.T) {
	s := stubScript(t)
	assert.Equal(t, []string{"scaling", "trials"}, tocOf(t, wordReport("s", scalingRecords(), s)), "a scaling spec opens with its figures")
	assert.Equal(t, []string{"sweeps", "word-scores", "trials"}, tocOf(t, wordReport("s", sweepRecords(), s)), "a long sweep opens with its charts")
	assert.Equal(t, []string{"paper", "word-scores", "trials"}, tocOf(t, paperReport(s)))
	assert.Equal(t, []string{"pairs", "word-scores", "trials"}, tocOf(t, wordReport("s", pairsRecords(), s)))
	assert.Equal(t, []string{"ca", "trials"}, tocOf(t, fisherReport(t, s)))

	r := wordReport("s", sweepRecords(), s)
	r.Lead = "trials"
	assert.Equal(t, []string{"trials", "word-scores", "sweeps"}, tocOf(t, r), "report.lead names the first section; the rest keep their usual order")
	r.Lead = "nowhere"
	assert.ErrorContains(t, Write(&strings.Builder{}, r), "nowhere")
}

// TestLeadRules: the paper's table leads only when trials stand for a
// third of its rows (or the spec maps them), a page of measured trials at
// one size opens with their measurements, and the first section's
// collapsed table opens.
func TestLeadRules(t *testing.T) {
	s := stubScript(t)
	// One trial labelled as a paper row among others: the scores lead.
	recs := sweepRecords()
	recs[0].Settings = maps.Clone(recs[0].Settings)
	recs[0].Settings["label"] = "tail-cut"
	got := tocOf(t, wordReport("s", recs, s))
	assert.NotEqual(t, "paper", got[0], "one paper row of nine does not lead: %v", got)

	// Two measured trials at one size: the measurements lead.
	m := scalingRecords()[:2]
	for i := range m {
		m[i].Settings = maps.Clone(m[i].Settings)
		m[i].Settings["svd.backend"] = "krylov"
		m[i].Settings["label"] = []string{"in memory", "from disk"}[i]
		m[i].Metrics = maps.Clone(m[i].Metrics)
		m[i].Metrics["vocab"] = 1000
	}
	page := string(render(t, wordReport("s", m, s)))
	assert.Less(t, strings.Index(page, `<section id="measured">`), strings.Index(page, `<section id="trials">`))
	assert.Contains(t, page, "from disk")

	// The first section's collapsed table is shown open.
	first := orderSections("", map[string]*Section{"scores": {ID: "word-scores", Blocks: []Block{Paragraph("p"), Details{Summary: "both"}}}}, projection{}, leads{})
	assert.True(t, first[0].Blocks[1].(Details).Open)
}
