package reports

import (
	"kcalab/records"
	"kcalab/reports/compare"
)

// Section names a spec's report.lead may give, in the order sections
// appear when nothing decides otherwise.
var sectionOrder = []string{"supervised", "tuning", "paper", "pairs", "check", "scores", "analogies", "sweeps", "scaling", "measured", "spectra", "calibration", "words", "ca", "trials"}

// autoOrder is the order of the sections that do not lead when
// report.lead is auto: the scores first, then the paper's table and the
// reference pairs when they did not lead.
var autoOrder = []string{"check", "supervised", "tuning", "scores", "paper", "pairs", "analogies", "sweeps", "scaling", "measured", "spectra", "calibration", "words", "ca", "trials"}

// longTable is the row count above which a table is collapsed: a reader
// should reach the charts without scrolling past it.
const longTable = 12

// leads says which sections answer the page's question when report.lead
// is auto: the paper's table when the spec maps its rows or trials stand
// for a third of them, the reference pairs when at least half the scored
// trials have a counterpart, the analogies when every scored trial
// answered them. A section that is present but does not lead keeps its
// place in sectionOrder after the scores.
type leads struct{ tuning, paper, pairs, analogies bool }

// orderSections puts the page's sections in the order of what the spec is
// for: the named lead first; otherwise (auto) the check, then the
// sections that lead (leads), then time and memory (the scaling figures
// or the measurements) when every scored trial is measured, the sweeps
// when the score table is long and nothing else leads, then the rest in
// sectionOrder. scored is the page's trials with scores. The first
// section's opening table is shown open: a page never starts with a
// section that is empty until clicked.
func orderSections(lead string, secs map[string]*Section, scored projection, l leads) []Section {
	var order []string
	base := sectionOrder
	if lead == "" || lead == "auto" {
		base = autoOrder
		ranked := scored.Where(compare.Not(isMeasuredTrial)).Len()
		front := []string{"check", "supervised"} // present only when trials learn from the dev pairs
		if l.tuning {
			front = append(front, "tuning")
		}
		if l.analogies {
			front = append(front, "analogies")
		}
		if l.paper {
			front = append(front, "paper")
		}
		if l.pairs {
			front = append(front, "pairs")
		}
		n := 0
		for _, f := range front {
			if secs[f] != nil {
				n++
			}
		}
		switch {
		case ranked == 0 && (secs["scaling"] != nil || secs["measured"] != nil):
			front = append(front, "scaling", "measured", "spectra")
		case secs["sweeps"] != nil && ranked > longTable && n == 0:
			front = append(front, "sweeps")
		}
		order = append(order, front...)
	} else {
		order = append(order, lead)
	}
	for _, n := range base {
		if indexOf(order, n) < 0 {
			order = append(order, n)
		}
	}
	var out []Section
	for _, n := range order {
		if s := secs[n]; s != nil {
			out = append(out, *s)
		}
	}
	if len(out) > 0 {
		out[0] = openFirst(out[0])
	}
	return out
}

// openFirst opens the section's first block when it is collapsed.
func openFirst(s Section) Section {
	if len(s.Blocks) == 0 {
		return s
	}
	blocks := append([]Block(nil), s.Blocks...)
	for i, b := range blocks {
		switch b := b.(type) {
		case Paragraph, List, Headline:
			continue
		case Details:
			b.Open = true
			blocks[i] = b
		}
		break
	}
	s.Blocks = blocks
	return s
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// isMeasuredTrial reports whether a trial measures time and memory (a
// scaling trial): what the page leads with, and whose neighbours it
// leaves out. Its scores are ranked like any other's (ranking groups keep
// sizes and dimensions apart).
func isMeasuredTrial(rec records.Record) bool {
	return isMeasured(rec) || measuredInChild(rec)
}

// collapse wraps blocks in a closed Details when rows exceed longTable.
func collapse(rows int, summary string, blocks ...Block) []Block {
	if rows <= longTable {
		return blocks
	}
	return []Block{Details{Summary: summary, Blocks: blocks}}
}
