package reports

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"kcalab/records"
)

// Check is the reference a report compares its records with, as -check
// does (records.CheckDetails).
type Check struct {
	Reference []records.Record
	Tolerance float64 // the spec's: a score may fall at most this much
	Source    string  // where the reference came from, for the text
}

func checkSection(c *Check, recs []records.Record) *Section {
	if c == nil {
		return nil
	}
	s := &Section{ID: "check", Title: "Check against the reference"}
	if len(c.Reference) == 0 {
		s.Blocks = append(s.Blocks, Paragraph("No reference results ("+c.Source+"): nothing to check; this run's results become the reference."))
		return s
	}
	items := records.CheckDetails(c.Reference, recs, c.Tolerance)
	if len(items) == 0 {
		s.Blocks = append(s.Blocks, Paragraph("The reference ("+c.Source+") has no finished trial: nothing to check."))
		return s
	}
	reused := reusedTrials(c.Reference, recs)
	t := Table{ID: "check-table", Header: []string{"Trial", "Number", "Reference", "This run", "This run's number was", "Passes when", "Result"},
		Numeric: []bool{false, false, true, true, false, false, false}}
	fails, nReused := 0, 0
	for _, it := range items {
		when := fmt.Sprintf("equal within %g relative", records.CATolerance)
		if finite(it.Floor) {
			when = "≥ " + strconv.FormatFloat(it.Floor, 'f', 4, 64) + " (reference − " + formatValue(c.Tolerance) + ")"
		}
		result := "pass"
		if !it.Pass {
			fails++
			result = "FAIL: " + it.Problem
		}
		num := func(v float64) string {
			if math.IsNaN(v) {
				return "—"
			}
			if finite(it.Floor) {
				return strconv.FormatFloat(v, 'f', 4, 64)
			}
			return strconv.FormatFloat(v, 'g', 10, 64)
		}
		how := "recomputed by this run"
		if reused[it.ID] {
			how = "reused: the reference's own record"
			nReused++
		}
		t.Rows = append(t.Rows, []string{it.Trial, orDash(it.Metric), num(it.Reference), num(it.Value), how, when, result})
	}
	verdict := fmt.Sprintf("All %d numbers pass.", len(items))
	if fails > 0 {
		verdict = fmt.Sprintf("%d of %d numbers FAIL.", fails, len(items))
	}
	// A reused trial's numbers are the reference's own: their passing
	// says nothing of the code, and the page says so before anything.
	switch {
	case nReused == len(items):
		verdict += fmt.Sprintf(" But every one of the %d was reused from the reference, not recomputed (this run found each trial complete): the comparison is of the values with themselves. "+
			"Run with -fresh to recompute them here, or -check, which recomputes every trial twice from scratch.", len(items))
	case nReused > 0:
		verdict += fmt.Sprintf(" %d of the %d were reused from the reference, not recomputed (they pass by construction); %d were recomputed by this run.", nReused, len(items), len(items)-nReused)
	default:
		verdict += " Every one was recomputed by this run."
	}
	// The verdict and its caveat are the page's answer, together.
	s.Blocks = append(s.Blocks, Headline{verdict})
	s.Blocks = append(s.Blocks, Paragraph(fmt.Sprintf("What -check compares, number by number: reference %s. A score passes when it is at least the reference minus the spec's tolerance %s; a CA quantity when it equals the reference within %g relative. "+
		"-check itself (kcalab -check DIR SPEC) reruns the spec twice from scratch in a temporary directory, compares the first run with the reference this way, and fails when the two runs differ.",
		c.Source, formatValue(c.Tolerance), records.CATolerance)))
	s.Blocks = append(s.Blocks, collapse(len(t.Rows)/3, fmt.Sprintf("All %d checked numbers", len(t.Rows)), t)...)
	return s
}

// reusedTrials are the ids of the trials whose record this run took from
// the reference unchanged: the runner keeps a reused trial's run
// information, so equal metrics and singular values with equal run start,
// end and id (or none on either side) mean the same computation.
func reusedTrials(ref, recs []records.Record) map[string]bool {
	before := map[string]records.Record{}
	for _, r := range ref {
		before[r.ID] = r
	}
	sv := func(r records.Record) []float64 {
		if r.CA == nil {
			return nil
		}
		return r.CA.SingularValues
	}
	out := map[string]bool{}
	for _, r := range recs {
		b, ok := before[r.ID]
		if !ok || !maps.Equal(b.Metrics, r.Metrics) || !slices.Equal(sv(b), sv(r)) {
			continue
		}
		switch {
		case b.Run == nil && r.Run == nil:
			out[r.ID] = true // neither says when it ran: the same old record
		case b.Run != nil && r.Run != nil && b.Run.Start == r.Run.Start && b.Run.End == r.Run.End && b.Run.ID == r.Run.ID:
			out[r.ID] = true
		}
	}
	return out
}
