package page

import (
	"fmt"
	"math"
	"strconv"
)

// ScoreRow is one method's scores, one per column; NaN means no score.
type ScoreRow struct {
	Name   string
	Scores []float64
	// Notes, when not nil, holds one short text per score shown in small
	// type after it (e.g. the share of the set's pairs covered); "" shows
	// nothing. Notes take no part in the ranking.
	Notes []string
	// Unranked, when not nil, flags scores (one flag per score) that are
	// shown but were never ranked, e.g. a score on the set a trial was
	// tuned on: it is not comparable with held-out scores. The CSV says
	// so; the ranking that honours it is the comparison layer's.
	Unranked []bool
	// Marks, when not nil, holds per score its highlight, decided before
	// the table is printed (kcalab/reports/compare.RankTable: benchstat's
	// rule over bootstrap replicates); the printer only shows it. Nil
	// shows none.
	Marks []Mark
	// HalfWidths, when not nil, holds per score the half-width of its 95%
	// interval, shown as "±" after it; NaN shows none.
	HalfWidths []float64
	// Group names the row's ranking group: its marks were decided only
	// against the scores of rows of its group (e.g. vectors of one
	// dimension d), and the table names each group above its rows. Rows of one group
	// must be contiguous; "" is a group too.
	Group string
	// Quantities, when not nil, holds per score the numbers its notes
	// print (the spread over replicates, the published value, Δ, the
	// coverage), for the CSV: one column per quantity there.
	Quantities [][]Quantity
}

// Quantity is one named number a score cell carries besides its score.
type Quantity struct {
	Name  string // "sd", "n", "paper", "delta", "coverage", …
	Value float64
}

// TextRow is a row of plain text cells, one per column.
type TextRow struct {
	Name  string
	Cells []string
}

// ScoreTable is a methods × columns table of scores (e.g. Spearman ρ per
// word-similarity set) in which the best scores of a column and group of
// rows are red and the second best magenta, as their rows' Marks say: the
// marks are decided before printing (kcalab/reports/compare.RankTable),
// never by the printer.
// Reference rows (e.g. published numbers) follow in a group of their own
// and take no mark.
type ScoreTable struct {
	ID             string // optional; unique in the page when set
	Caption        string
	RowHeader      string // header of the name column, e.g. "Method"
	Columns        []string
	Rows           []ScoreRow
	ReferenceTitle string // heading of the reference group, e.g. "Published"
	Reference      []ScoreRow
	// Footer rows (e.g. the pairs covered per column) follow the ranked
	// rows, as text.
	Footer []TextRow
	// Digits is the number of decimals shown, 0–9; 0 means 3. Scores are
	// ranked as shown, so two scores that print the same tie.
	Digits        int
	LowerIsBetter bool
	// Legend is said after the marks' legend (e.g. what † means).
	Legend string
}

// Mark is the highlight of one score in its column.
type Mark int

const (
	NoMark Mark = iota
	Best        // red
	Second      // magenta
	// Untested is a score among the two highest as shown that cannot be
	// tested (no bootstrap replicates): shown as such, never as a win.
	Untested
)

func (t ScoreTable) digits() (int, error) {
	if t.Digits < 0 || t.Digits > 9 {
		return 0, fmt.Errorf("score table %q: Digits must be 0–9 (0 = 3), got %d", t.Caption, t.Digits)
	}
	return orDefault(t.Digits, 3), nil
}

func (t ScoreTable) check() error {
	if _, err := t.digits(); err != nil {
		return err
	}
	for _, group := range [][]ScoreRow{t.Rows, t.Reference} {
		for _, r := range group {
			if len(r.Scores) != len(t.Columns) {
				return fmt.Errorf("score table %q: row %q has %d scores for %d columns", t.Caption, r.Name, len(r.Scores), len(t.Columns))
			}
			if r.Unranked != nil && len(r.Unranked) != len(r.Scores) {
				return fmt.Errorf("score table %q: row %q has %d unranked flags for %d scores", t.Caption, r.Name, len(r.Unranked), len(r.Scores))
			}
			if r.Notes != nil && len(r.Notes) != len(r.Scores) {
				return fmt.Errorf("score table %q: row %q has %d notes for %d scores", t.Caption, r.Name, len(r.Notes), len(r.Scores))
			}
			if r.Marks != nil && len(r.Marks) != len(r.Scores) {
				return fmt.Errorf("score table %q: row %q has %d marks for %d scores", t.Caption, r.Name, len(r.Marks), len(r.Scores))
			}
			if r.HalfWidths != nil && len(r.HalfWidths) != len(r.Scores) {
				return fmt.Errorf("score table %q: row %q has %d interval half-widths for %d scores", t.Caption, r.Name, len(r.HalfWidths), len(r.Scores))
			}
		}
	}
	done := map[string]bool{}
	for i, r := range t.Rows {
		if i > 0 && r.Group != t.Rows[i-1].Group {
			done[t.Rows[i-1].Group] = true
		}
		if done[r.Group] {
			return fmt.Errorf("score table %q: the rows of group %q are not contiguous (row %q)", t.Caption, r.Group, r.Name)
		}
	}
	for _, r := range t.Footer {
		if len(r.Cells) != len(t.Columns) {
			return fmt.Errorf("score table %q: footer row %q has %d cells for %d columns", t.Caption, r.Name, len(r.Cells), len(t.Columns))
		}
	}
	return nil
}

// RoundTo rounds v to the value printed with the given decimals, via the
// same formatting a ScoreTable uses: a mark decided on rounded scores
// matches what the page prints.
func RoundTo(v float64, digits int) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', digits, 64), 64)
	if r == 0 {
		return 0 // -0.000 and 0.000 tie
	}
	return r
}

// FormatScore prints a score with the given decimals as a ScoreTable does,
// "—" for NaN.
func FormatScore(v float64, digits int) string {
	if math.IsNaN(v) {
		return "—"
	}
	return strconv.FormatFloat(RoundTo(v, digits), 'f', digits, 64)
}
