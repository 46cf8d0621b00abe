package reports

import (
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckSection(t *testing.T) {
	r := checkReport(stubScript(t))
	sec := checkSection(r.Check, r.Records)
	require.NotNil(t, sec)
	assert.Contains(t, sec.Blocks[0].(Headline)[0], "2 of 53 numbers FAIL", "the fixtures score at both similarities")
	items := records.CheckDetails(r.Check.Reference, r.Records, r.Check.Tolerance)
	var fails []string
	for _, it := range items {
		if !it.Pass {
			fails = append(fails, it.Problem)
		}
	}
	assert.ElementsMatch(t, records.CheckScores(r.Check.Reference, r.Records, r.Check.Tolerance), fails, "the section shows what -check reports")
	empty := checkSection(&Check{Tolerance: 0.01, Source: "x"}, r.Records)
	assert.Contains(t, string(empty.Blocks[0].(Paragraph)), "No reference")
	failed := []records.Record{{ID: "e", Status: "error"}}
	none := checkSection(&Check{Reference: failed, Tolerance: 0.01, Source: "x"}, r.Records)
	require.Len(t, none.Blocks, 1)
	assert.Contains(t, string(none.Blocks[0].(Paragraph)), "nothing to check")
}

// TestCheckSaysWhatItCompared: a value the run reused from the reference
// is its own reference, and the verdict says so.
func TestCheckSaysWhatItCompared(t *testing.T) {
	ran := &records.RunInfo{Start: "2026-11-24T00:00:00Z", End: "2026-11-24T00:01:00Z", ID: "r1"}
	rec := records.Record{ID: "a", Status: "ok", Metrics: map[string]float64{"spearman.zero.men": 0.5}, Run: ran}
	again := rec
	again.Run = &records.RunInfo{Start: "2026-11-25T00:00:00Z", End: "2026-11-25T00:01:00Z", ID: "r2"}
	cases := []struct {
		name string
		now  records.Record
		want string
	}{
		{"reused", rec, "every one of the 1 was reused from the reference, not recomputed"},
		{"recomputed", again, "Every one was recomputed by this run."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := checkSection(&Check{Reference: []records.Record{rec}, Tolerance: 0.01, Source: "results.jsonl"}, []records.Record{c.now})
			require.NotNil(t, s)
			assert.Contains(t, s.Blocks[0].(Headline)[0], c.want)
		})
	}
}
