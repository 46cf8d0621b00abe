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
	assert.Equal(t, "tail-cut − SGNS: ties 1 (Holm), pooled: tie (Δρ +0.010) — each at its best by dev ρ, test parts, zero rule", s.Verdict.String())

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
			Summary: Summary{Question: "Q <b>?", Lead: "Scores", Headline: []string{"H holds.", "But a caveat."}, Trials: "2 trial(s): 2 ok", Warnings: []string{"mixed"},
				Verdict: Verdict{Claims: []Claim{{Subject: "ordering", Answer: "holds 1 · ties 4 · reversed 1"}}, Basis: "test parts, zero rule"}}},
		{Name: "b", Spec: "../experiments/b.yaml", Summary: Summary{Question: "Does b hold?"}},
	}}
	var b strings.Builder
	require.NoError(t, WriteIndex(&b, ix))
	page := b.String()
	assert.Contains(t, page, `<a href="a/report.html">a</a>`)
	assert.Contains(t, page, `<a href="#spec-b">b</a>`, "a related spec in the index is linked")
	assert.NotContains(t, page, "gone", "a related spec not in the index is not")
	assert.Contains(t, page, `<div class="question">Q &lt;b&gt;?</div><div class="verdict">ordering: holds 1 · ties 4 · reversed 1 — test parts, zero rule</div>`,
		"the question, then the answer in one line")
	assert.Contains(t, page, `<details class="whole"><summary>The whole answer (Scores)</summary><p class="answer">H holds.</p><p class="answer">But a caveat.</p>`,
		"the whole answer one click away")
	assert.Contains(t, page, `<details class="warn"><summary>⚠ when and where</summary>`, "a warning is flagged, its text one click away")
	assert.Contains(t, page, "⚠ mixed")
	assert.Contains(t, page, `<div class="question">Does b hold?</div><div class="missing">Not run yet: <code>go run . experiments/b.yaml</code></div>`,
		"a spec not run yet says what it asks")
	assert.Equal(t, 1, strings.Count(page, "<script"), "one script: the table sorts by a click on a header")
	assert.Error(t, WriteIndex(&b, Index{}), "an index needs a title")
}

// A verdict is its claims and their basis in one line; a claim's pooled
// verdict, when set, follows its answer.
func TestVerdictString(t *testing.T) {
	v := Verdict{Claims: []Claim{{Subject: "ordering", Answer: "holds 1 · ties 4 · reversed 1"}}, Basis: "test parts, zero rule"}
	assert.Equal(t, "ordering: holds 1 · ties 4 · reversed 1 — test parts, zero rule", v.String())
	v.Claims[0].Pooled = "tie"
	assert.Equal(t, "ordering: holds 1 · ties 4 · reversed 1, pooled: tie — test parts, zero rule", v.String(), "the hook for a verdict pooled over the sets")
	v.Claims = append(v.Claims, Claim{Answer: "lapack finished at no k"})
	assert.Equal(t, "ordering: holds 1 · ties 4 · reversed 1, pooled: tie; lapack finished at no k — test parts, zero rule", v.String())
	assert.True(t, Verdict{Basis: "x"}.Empty())
	assert.Equal(t, "", Verdict{Basis: "x"}.String(), "no claim, no verdict")
}

// A section that computes no verdict of its own is given its headline
// when short, else its first sentence cut to its first clause.
func TestVerdictFromHeadline(t *testing.T) {
	assert.Equal(t, "All 3 numbers pass", verdictFromHeadline(Headline{"All 3 numbers pass."}).String())
	long := "At d = 300, the first clause says what holds; " + strings.Repeat("and more words follow here ", 12) + "to the end. A second sentence."
	v := verdictFromHeadline(Headline{long})
	assert.Equal(t, "At d = 300, the first clause says what holds …", v.String())
	assert.LessOrEqual(t, words(v.String()), verdictWords+1)
	assert.True(t, verdictFromHeadline(nil).Empty())
}

// The index's and the page's verdicts come from the comparisons: a tuned
// page answers with the ordering on the test parts; a paper table with its
// rows' ordering.
func TestSummarizeVerdict(t *testing.T) {
	s, err := Summarize(wordReport("table", paperRecords(), stubScript(t)))
	require.NoError(t, err)
	assert.Equal(t, "ordering: holds 5 · ties 1 · reversed 0 — the paper's rows at d = 300, zero rule", s.Verdict.String())

	s, err = Summarize(Report{Title: "tuned", Records: tunedRecs(), Methods: testMethods, ECharts: stubScript(t)})
	require.NoError(t, err)
	assert.Equal(t, "tail-cut − SGNS: ties 1 (Holm), pooled: tie (Δρ +0.010) — each at its best by dev ρ, test parts, zero rule", s.Verdict.String(),
		"a tuned page answers with each method at its best on the test parts: the best CA design by dev against the best baseline by dev")

	r := checkReport(stubScript(t))
	r.Check.Reference = r.Records
	s, err = Summarize(r)
	require.NoError(t, err)
	assert.Regexp(t, `^numbers against the reference: all \d+ pass; every one reused from the reference, not recomputed`, s.Verdict.String())

	page := string(render(t, wordReport("table", paperRecords(), stubScript(t))))
	assert.Contains(t, page, `<p class="answer"><strong>Answer:</strong> ordering: holds 5 · ties 1 · reversed 0 — the paper&#39;s rows at d = 300, zero rule</p>`,
		"the page's header says it too")
}

// A page whose spec's grid is not all run says so at the top, and its
// verdict, on the page and on the index, says it is provisional: a choice
// among candidates not all run may change.
func TestSummarizeUnfinished(t *testing.T) {
	done := Report{Title: "tuned", Records: tunedRecs(), Methods: testMethods, ECharts: stubScript(t)}
	want := "tail-cut − SGNS: ties 1 (Holm), pooled: tie (Δρ +0.010) — each at its best by dev ρ, test parts, zero rule"
	for _, tc := range []struct {
		name       string
		unfinished *Unfinished
		verdict    string
		warning    string
	}{
		{"finished", nil, want, ""},
		{"none left", &Unfinished{}, want, ""},
		{"trials left", &Unfinished{Trials: 3, Groups: []string{"SGNS", "CBOW"}}, "provisional (3 trial(s) not run): " + want,
			"Unfinished: 3 trial(s) of this spec's grid (SGNS, CBOW) have no record yet, or wait on a rung of a successive halving"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := done
			r.Unfinished = tc.unfinished
			s, err := Summarize(r)
			require.NoError(t, err)
			assert.Equal(t, tc.verdict, s.Verdict.String())
			page := string(render(t, r))
			if tc.warning == "" {
				assert.NotContains(t, page, "Unfinished:")
				for _, w := range s.Warnings {
					assert.NotContains(t, w, "Unfinished")
				}
				return
			}
			require.NotEmpty(t, s.Warnings)
			assert.True(t, strings.HasPrefix(s.Warnings[0], tc.warning), s.Warnings[0])
			assert.Contains(t, page, "provisional (3 trial(s) not run): ", "the page's answer says it too")
			assert.Contains(t, page, "Unfinished: 3 trial(s)", "the page's header warns")
		})
	}
}
